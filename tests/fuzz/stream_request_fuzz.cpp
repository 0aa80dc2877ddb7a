// libFuzzer target: the records of `lexlink stream` (document/stream_request.h) on arbitrary
// bytes, the whole input being one line. Checks: no crash, leak or hang (nlohmann's parser on
// deep nesting, huge numbers, bad UTF-8 and surrogates); the id is compact JSON that parses; a
// refused record has an error and nothing else but its id; an accepted record's content is the
// input's "content" string, and written back as a record (nlohmann's dump) it reads the same;
// the size limit: a limit of the content's size accepts it, one byte less refuses it.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "document/stream_request.h"
#include "fuzz/fuzz_data.h"

namespace {

using namespace lexlink;
using json = nlohmann::ordered_json;
using test::die;

constexpr const char* kTarget = "stream_request_fuzz";

const char* label(text::ViewOptions::FormatChoice f) {
  switch (f) {
    case text::ViewOptions::FormatChoice::kAuto: return "auto";
    case text::ViewOptions::FormatChoice::kText: return "text";
    case text::ViewOptions::FormatChoice::kHtml: return "html";
    case text::ViewOptions::FormatChoice::kXml: return "xml";
  }
  die(kTarget, "a format without a label");
}

void check_refused(const document::StreamRequest& r) {
  if (!r.content.empty() || r.format || !r.jurisdiction.empty() || !r.self.empty()) {
    die(kTarget, "a refused record keeps fields: " + r.error);
  }
}

bool same(const document::StreamRequest& a, const document::StreamRequest& b) {
  return a.id_json == b.id_json && a.content == b.content && a.format == b.format &&
         a.jurisdiction == b.jurisdiction && a.self == b.self && a.error == b.error;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const document::StreamRequest r = document::read_stream_request(line);
  if (!json::accept(r.id_json)) die(kTarget, "the id is not JSON: " + r.id_json);
  if (!r.error.empty()) {
    check_refused(r);
    if (r.error.rfind("too large", 0) == 0) die(kTarget, "too large without a limit");
    return 0;
  }
  // Accepted: the line is a JSON object whose "content" is the content read.
  const json j = json::parse(line);
  if (j.at("content").get<std::string>() != r.content) die(kTarget, "content differs");
  // Written back, it reads the same.
  json back;
  back["id"] = json::parse(r.id_json);
  back["content"] = r.content;
  if (r.format) back["format"] = label(*r.format);
  if (!r.jurisdiction.empty()) back["jurisdiction"] = r.jurisdiction;
  if (!r.self.empty()) back["self"] = r.self;
  if (!same(document::read_stream_request(back.dump()), r)) die(kTarget, "written back differs");
  // The limit.
  const std::uint64_t n = r.content.size();
  if (n > 0 && !same(document::read_stream_request(line, n), r)) {
    die(kTarget, "a limit of its size");
  }
  if (n > 1) {  // (a limit of 0 is none)
    const auto over = document::read_stream_request(line, n - 1);
    if (over.error.rfind("too large", 0) != 0) die(kTarget, "over the limit: " + over.error);
    check_refused(over);
    if (over.id_json != r.id_json) die(kTarget, "over the limit: the id is lost");
  }
  return 0;
}
