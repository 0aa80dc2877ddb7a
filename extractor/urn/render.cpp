#include "urn/render.h"

#include <unicode/bytestream.h>
#include <unicode/idna.h>

#include <memory>

#include "urn/percent.h"

namespace lexlink::urn {
namespace {

bool label_char(char c) {
  const auto b = static_cast<unsigned char>(c);
  return b >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '-';
}

}  // namespace

std::string to_unicode(const Urn& urn) {
  return decode_non_ascii(urn.text(), KeptEscapes::kAsWritten);
}

Result<std::string> to_punycode(const Urn& urn) {
  const std::string unicode = to_unicode(urn);
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::IDNA> idna(icu::IDNA::createUTS46Instance(
      UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE, status));
  if (U_FAILURE(status)) {
    return make_error(ErrorCode::kInternal, std::string("ICU IDNA: ") + u_errorName(status));
  }
  std::string out;
  out.reserve(unicode.size() + 16);
  std::size_t i = 0;
  while (i < unicode.size()) {
    if (!label_char(unicode[i])) {
      out += unicode[i++];
      continue;
    }
    std::size_t j = i;
    bool ascii = true;
    while (j < unicode.size() && label_char(unicode[j])) {
      ascii = ascii && static_cast<unsigned char>(unicode[j]) < 0x80;
      ++j;
    }
    std::string_view label(unicode.data() + i, j - i);
    if (ascii) {
      out += label;
    } else {
      std::string converted;
      icu::StringByteSink<std::string> sink(&converted);
      icu::IDNAInfo info;
      idna->labelToASCII_UTF8(icu::StringPiece(label.data(), static_cast<int32_t>(label.size())),
                              sink, info, status);
      if (U_FAILURE(status) || info.hasErrors()) {
        return make_error(ErrorCode::kInvalidArgument, "cannot convert '" + std::string(label) +
                                                           "' to punycode (IDNA error mask " +
                                                           std::to_string(info.getErrors()) + ")");
      }
      out += converted;
    }
    i = j;
  }
  return out;
}

std::string to_http(const Urn& urn, const HttpOptions& options) {
  std::string out = options.base;
  while (!out.empty() && out.back() == '/') out.pop_back();
  auto append = [&](std::string_view part) {
    out += '/';
    out += part;
  };
  std::string_view format, component;
  for (const Node& n : urn.nodes()) {
    switch (n.kind) {
      case Kind::kJurisdiction:
      case Kind::kAuthority:
      case Kind::kMeasure:
      case Kind::kDetails:
      case Kind::kAnnex: append(urn.view(n)); break;
      case Kind::kExpression: out += "/@"; break;
      case Kind::kVersion:
      case Kind::kLanguage: append(urn.view(n)); break;
      case Kind::kFormat: format = urn.view(n); break;
      case Kind::kComponent: component = urn.view(n); break;
      default: break;
    }
  }
  if (!format.empty()) {
    out += "/$/";
    out += component;
    out += '.';
    out += format;
  }
  if (std::string_view partition = urn.partition(); !partition.empty()) {
    out += options.partition_sep;
    out += partition;
  }
  return out;
}

}  // namespace lexlink::urn
