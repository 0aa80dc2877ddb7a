#include "io/hash.h"

#include <xxhash.h>
// XXH3 through the library's run-time dispatch: the widest vector unit the CPU has (AVX2,
// AVX-512) rather than the SSE2 baseline the library is built for; the hashes are the same.
#if defined(__x86_64__)
#include <xxh_x86dispatch.h>
#endif

#include <cstdio>

namespace lexlink::io {

struct Hasher::State {
  XXH3_state_t* s = XXH3_createState();
  ~State() { XXH3_freeState(s); }
};

std::string Hash128::hex() const {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(high),
                static_cast<unsigned long long>(low));
  return buf;
}

bool Hash128::from_hex(std::string_view s, Hash128& out) {
  if (s.size() != 32) return false;
  std::uint64_t parts[2] = {0, 0};
  for (std::size_t i = 0; i < 32; ++i) {
    const char c = s[i];
    unsigned v = 0;
    if (c >= '0' && c <= '9') {
      v = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v = static_cast<unsigned>(c - 'a' + 10);
    } else {
      return false;
    }
    parts[i / 16] = (parts[i / 16] << 4) | v;
  }
  out.high = parts[0];
  out.low = parts[1];
  return true;
}

Hasher::Hasher() : state_(std::make_unique<State>()) {
  reset();
}
Hasher::~Hasher() = default;

void Hasher::reset() {
  XXH3_128bits_reset(state_->s);
}

void Hasher::update(std::string_view bytes) {
  XXH3_128bits_update(state_->s, bytes.data(), bytes.size());
}

Hash128 Hasher::digest() const {
  const XXH128_hash_t h = XXH3_128bits_digest(state_->s);
  return Hash128{h.high64, h.low64};
}

Hash128 hash_of(std::string_view bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return Hash128{h.high64, h.low64};
}

}  // namespace lexlink::io
