#include "urn/normalize.h"

#include <unicode/bytestream.h>
#include <unicode/casemap.h>
#include <unicode/normalizer2.h>
#include <unicode/translit.h>
#include <unicode/unistr.h>

#include <memory>
#include <unordered_map>

#include "urn/percent.h"

namespace lexlink::urn {
namespace {

bool needs_unicode_work(std::string_view s) {
  for (char c : s) {
    if (c == '%' || static_cast<unsigned char>(c) >= 0x80) return true;
  }
  return false;
}

void ascii_lower(std::string& s, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) {
    if (s[i] >= 'A' && s[i] <= 'Z') s[i] = static_cast<char>(s[i] + 32);
  }
}

Result<std::string> icu_nfc(std::string_view s) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  std::string out;
  if (U_SUCCESS(status)) {
    icu::StringByteSink<std::string> sink(&out, static_cast<int32_t>(s.size()));
    nfc->normalizeUTF8(0, icu::StringPiece(s.data(), static_cast<int32_t>(s.size())), sink, nullptr,
                       status);
  }
  if (U_FAILURE(status)) {
    return make_error(ErrorCode::kInternal, std::string("ICU NFC failed: ") + u_errorName(status));
  }
  return out;
}

Result<std::string> icu_lower(std::string_view s) {
  UErrorCode status = U_ZERO_ERROR;
  std::string out;
  icu::StringByteSink<std::string> sink(&out, static_cast<int32_t>(s.size()));
  icu::CaseMap::utf8ToLower("", 0, icu::StringPiece(s.data(), static_cast<int32_t>(s.size())), sink,
                            nullptr, status);
  if (U_FAILURE(status)) {
    return make_error(ErrorCode::kInternal,
                      std::string("ICU lower-casing failed: ") + u_errorName(status));
  }
  return out;
}

// After Unicode lower-casing, hex digits of "%hh" triplets go back to upper case.
void upper_hex(std::string& s) {
  for (std::size_t i = 0; i + 2 < s.size(); ++i) {
    if (s[i] == '%') {
      for (std::size_t k = i + 1; k <= i + 2; ++k) {
        if (s[k] >= 'a' && s[k] <= 'f') s[k] = static_cast<char>(s[k] - 32);
      }
      i += 2;
    }
  }
}

ParseError internal_error(const Error& e) {
  return ParseError{0, "", "normalize", e.message, e.code};
}

}  // namespace

Result<std::string> fold_to_ascii(std::string_view text, const std::string& transform_id) {
  // Transliterators are expensive to build and not thread-safe: one per thread and transform.
  thread_local std::unordered_map<std::string, std::unique_ptr<icu::Transliterator>> cache;
  auto it = cache.find(transform_id);
  if (it == cache.end()) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::Transliterator> t(icu::Transliterator::createInstance(
        icu::UnicodeString::fromUTF8(transform_id), UTRANS_FORWARD, status));
    if (U_FAILURE(status) || t == nullptr) {
      return make_error(ErrorCode::kInvalidArgument, "unknown ICU transform '" + transform_id +
                                                         "' (" + u_errorName(status) + ")");
    }
    it = cache.emplace(transform_id, std::move(t)).first;
  }
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  it->second->transliterate(u);
  std::string out;
  u.toUTF8String(out);
  return out;
}

Result<std::string, ParseError> normalize(std::string_view name, const NormalizeOptions& options) {
  Urn urn;
  ParseError error;
  if (!parse_into(name, options.parse, urn, &error)) return error;

  // Where the name ends and the partition, query and fragment begin.
  std::size_t name_end = urn.text().size(), partition_end = name_end;
  if (const Node* p = urn.find(Kind::kPartition)) {
    name_end = p->begin - 1;
    partition_end = p->end;
  } else {
    for (const Node& n : urn.nodes()) {
      if (n.kind == Kind::kQuery || n.kind == Kind::kFragment) {
        name_end = partition_end = n.begin - 1;
        break;
      }
    }
  }
  std::string_view text = urn.text();
  std::string head(text.substr(0, name_end));
  std::string partition(text.substr(name_end, partition_end - name_end));  // with its '~'
  std::string tail =
      options.drop_query_fragment ? std::string() : std::string(text.substr(partition_end));
  if (!needs_unicode_work(head) && !needs_unicode_work(partition)) {
    ascii_lower(head, 0, head.size());
    if (options.lower_partition) ascii_lower(partition, 0, partition.size());
  } else {
    // Unicode path: decode, NFC, fold, lower-case, re-encode.
    // One round of NFC, folding and lower case.
    auto round = [&](std::string& s, bool lower) -> Status {
      if (options.nfc) {
        auto r = icu_nfc(s);
        if (!r) return r.error();
        s = std::move(*r);
      }
      if (options.fold) {
        auto r = fold_to_ascii(
            s, options.fold_transform.empty() ? kDefaultFoldTransform : options.fold_transform);
        if (!r) return r.error();
        s = std::move(*r);
      }
      if (lower) {
        auto r = icu_lower(s);
        if (!r) return r.error();
        s = std::move(*r);
        upper_hex(s);
      }
      return Status::Ok();
    };
    // Rounds until the text no longer changes, so that normalize(normalize(x)) == normalize(x):
    // lower case may compose where upper case did not ('T' U+0308 has no composed form, 't'
    // U+0308 is U+1E97) or give a letter that folds where its capital did not (U+037F, Greek
    // capital yot, is kept by Any-Latin; its small letter U+03F3 becomes 'j'). Text that is
    // ASCII after a round is done (the three steps keep it as it is).
    auto process = [&](std::string& part, bool lower) -> Status {
      std::string s = decode_non_ascii(part, KeptEscapes::kUpperCase);
      for (int k = 0; k < 8; ++k) {
        const std::string before = s;
        if (Status st = round(s, lower); !st) return st;
        if (s == before || !needs_unicode_work(s)) break;
      }
      part = encode_non_ascii(s);
      return Status::Ok();
    };
    if (Status s = process(head, true); !s) return internal_error(s.error());
    if (Status s = process(partition, options.lower_partition); !s) {
      return internal_error(s.error());
    }
  }
  for (std::size_t i = 0; i + 2 < tail.size(); ++i) {  // percent-encoding case in query/fragment
    if (tail[i] == '%') {
      for (std::size_t k = i + 1; k <= i + 2; ++k) {
        if (tail[k] >= 'a' && tail[k] <= 'f') tail[k] = static_cast<char>(tail[k] - 32);
      }
    }
  }
  std::string out = std::move(head);
  out += partition;
  out += tail;
  // The canonical form must itself be a valid name (folding may produce characters that are not).
  ParseOptions strict = options.parse;
  strict.allow_iri = false;
  if (!validate(out, strict, &error)) {
    error.message = "the normalised name '" + out + "' is not valid: " + error.message;
    return error;
  }
  return out;
}

Result<bool, ParseError> equivalent(std::string_view a, std::string_view b,
                                    const EquivalenceOptions& options) {
  NormalizeOptions n;
  n.nfc = options.nfc;
  n.fold = options.fold;
  n.fold_transform = options.fold_transform;
  n.lower_partition = true;
  n.drop_query_fragment = true;
  n.parse.allow_iri = options.allow_iri;
  auto na = normalize(a, n);
  if (!na) {
    ParseError e = na.error();
    e.production = "a: " + e.production;
    return e;
  }
  auto nb = normalize(b, n);
  if (!nb) {
    ParseError e = nb.error();
    e.production = "b: " + e.production;
    return e;
  }
  return *na == *nb;
}

}  // namespace lexlink::urn
