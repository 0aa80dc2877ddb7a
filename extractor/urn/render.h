// urn/render: the other written forms of a valid URN:LEX name.
//
// - to_unicode: the display form of spec 3.4, percent-encoded UTF-8 decoded to characters
//   (percent-encoded ASCII such as %3A stays encoded, it is not text);
// - to_punycode: every dot-separated label holding non-ASCII letters converted with IDNA
//   (ICU UTS #46, `münchen` -> `xn--mnchen-3ya`), for routing through DNS (spec 3.4, 10.1).
//   It is not itself a valid URN:LEX name: `xn--` labels hold '-', which alf-dot elements such
//   as the authority do not allow (the spec's own example `stadt.xn--mnchen-3ya` is invalid);
// - to_http: the HTTP form sketched at the end of spec/urn-lex-abnf.txt:
//     <base>/<jurisdiction>/<authority>/<measure>/<details>[/<annex>...]
//           [/@/<version>[/<language>]][/$/[<component>].<format>][<sep><partition>]
//   The sketch carries neither the manifestation's editor nor its feature: they are dropped.
// The input should be canonical (see normalize.h); all functions are pure.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "urn/urn.h"

namespace lexlink::urn {

std::string to_unicode(const Urn& urn);

Result<std::string> to_punycode(const Urn& urn);

struct HttpOptions {
  std::string base;          // prepended as is, e.g. "https://lex.example.org"; may be empty
  char partition_sep = '#';  // '#' (a fragment, the spec's resolver rule) or '~'
};
std::string to_http(const Urn& urn, const HttpOptions& options = {});

}  // namespace lexlink::urn
