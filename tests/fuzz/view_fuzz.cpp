#include "fuzz/view_fuzz.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "text/view_check.h"
#include "text/xml_reader.h"

namespace lexlink::test {

namespace {

// Accepts a cut after white space that follows '.' or ';' (the view builder must keep its
// guarantees wherever an advisor says).
class PunctuationAdvisor final : public text::CutAdvisor {
 public:
  std::size_t find_cut(std::string_view text, std::size_t from) const override {
    for (std::size_t q = std::max<std::size_t>(from, 2); q <= text.size(); ++q) {
      const char c = text[q - 1];
      if ((c == ' ' || c == '\n' || c == '\t') && (text[q - 2] == '.' || text[q - 2] == ';')) {
        return q;
      }
    }
    return std::string_view::npos;
  }
};

[[noreturn]] void report(const std::vector<std::string>& violations, std::string_view doc) {
  std::fprintf(stderr, "view invariant violated on a %zu-byte document:\n", doc.size());
  for (const auto& v : violations) std::fprintf(stderr, "  %s\n", v.c_str());
  std::abort();
}

}  // namespace

int fuzz_view(const std::uint8_t* data, std::size_t size, text::ViewOptions::FormatChoice format) {
  if (size == 0) return 0;
  const std::uint8_t control = data[0];
  const std::string_view doc(reinterpret_cast<const char*>(data + 1), size - 1);
  static constexpr std::size_t kFeeds[] = {0, 1, 7, 61};
  static constexpr std::size_t kChunks[] = {std::size_t{4} << 20, 16, 64, 300};
  text::ViewOptions options;
  options.format = format;
  if ((control & 16) != 0) options.encoding = text::Encoding::kUtf8;

  text::ViewOptions whole_options = options;
  whole_options.chunk_bytes = 0;
  std::string error;
  const auto whole = build_chunks(doc, whole_options, 0, &error);
  if (!error.empty() || whole.size() != 1) {
    std::fprintf(stderr, "building the whole view failed: %s\n", error.c_str());
    std::abort();
  }
  if (auto v = check_chunks(doc, whole); !v.empty()) report(v, doc);
  // The XML tokenizer refuses whatever pugixml refuses (then the view is HTML).
  if (format == text::ViewOptions::FormatChoice::kXml &&
      whole[0].encoding == text::Encoding::kUtf8 && whole[0].format == text::Format::kXml) {
    const std::string_view body = whole[0].bom ? doc.substr(3) : doc;
    const text::XmlCheck check = text::check_xml(body);
    if (!check.ok) {
      std::fprintf(stderr, "pugixml refuses (%s at %zu) what the XML tokenizer accepted\n",
                   check.message.c_str(), check.offset);
      std::abort();
    }
  }

  options.chunk_bytes = kChunks[(control >> 2) & 3];
  if ((control & 32) != 0) options.first_chunk_text_bytes = 40;
  if ((control & 64) != 0) options.cut_advisor = std::make_shared<PunctuationAdvisor>();
  const auto chunks = build_chunks(doc, options, kFeeds[control & 3], &error);
  if (!error.empty()) {
    std::fprintf(stderr, "building the streamed view failed: %s\n", error.c_str());
    std::abort();
  }
  if (auto v = check_chunks(doc, chunks); !v.empty()) report(v, doc);
  // Same detection (documents within the detection window) -> same text.
  if (chunks.front().encoding == whole[0].encoding && chunks.front().format == whole[0].format) {
    std::string text;
    for (const auto& c : chunks) text += c.text;
    if (text != whole[0].text) {
      std::fprintf(stderr, "streamed text differs from the whole view's text\n");
      std::abort();
    }
  }
  return 0;
}

}  // namespace lexlink::test
