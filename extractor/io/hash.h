// io/hash: XXH3-128 content hashes for the manifest (input, output and options), streamed.
// Not cryptographic: it detects changed files, it does not defend against forged ones.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace lexlink::io {

struct Hash128 {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  bool operator==(const Hash128& o) const { return high == o.high && low == o.low; }
  bool operator!=(const Hash128& o) const { return !(*this == o); }
  std::string hex() const;  // 32 lower-case hex digits
  static bool from_hex(std::string_view s, Hash128& out);
};

class Hasher {
 public:
  Hasher();
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;
  void reset();
  void update(std::string_view bytes);
  Hash128 digest() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

Hash128 hash_of(std::string_view bytes);

}  // namespace lexlink::io
