#include "document/stream_request.h"

#include <exception>
#include <nlohmann/json.hpp>

#include "document/options.h"

namespace lexlink::document {
namespace {

using json = nlohmann::ordered_json;

// A string field: absent or null leaves `out` as it is; false when the field is not a string.
bool string_field(const json& j, const char* name, std::string& out) {
  const auto it = j.find(name);
  if (it == j.end() || it->is_null()) return true;
  if (!it->is_string()) return false;
  out = it->get<std::string>();
  return true;
}

// The keys a record may have.
constexpr const char* kKeys[] = {"id", "content", "format", "jurisdiction", "self"};

// The first key of `j` that is not one of kKeys ("" when none): a misspelt key ("contnet",
// "jurisdicton") would otherwise be a default silently taken.
std::string unknown_key(const json& j) {
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* k : kKeys) known = known || key == k;
    if (!known) return key;
  }
  return {};
}

// The fields of a record that is a JSON object; the first error found, or "".
std::string read_fields(json& j, std::uint64_t max_content_bytes, std::string_view limit_name,
                        StreamRequest& r) {
  if (const std::string key = unknown_key(j); !key.empty()) {
    std::string keys;
    for (const char* k : kKeys) keys += (keys.empty() ? "" : ", ") + std::string(k);
    return "unknown key " + json(key).dump(-1, ' ', false, json::error_handler_t::replace) +
           " (a record's keys: " + keys + ")";
  }
  const auto content = j.find("content");
  if (content == j.end() || !content->is_string()) return "\"content\" (a string) is required";
  std::string format;
  if (!string_field(j, "format", format) || !string_field(j, "jurisdiction", r.jurisdiction) ||
      !string_field(j, "self", r.self)) {
    return "\"format\", \"jurisdiction\" and \"self\" are strings";
  }
  const std::size_t size = content->get_ref<const std::string&>().size();
  if (max_content_bytes != 0 && size > max_content_bytes) {
    return "too large: " + std::to_string(size) + " bytes, over " + std::string(limit_name) + " " +
           std::to_string(max_content_bytes);
  }
  r.content = std::move(content->get_ref<std::string&>());
  if (!format.empty()) {
    auto f = parse_format(format);
    if (!f) return f.error().message;
    r.format = *f;
  }
  if (const std::string e = self_name_error(r.self); !e.empty()) return "self: " + e;
  return {};
}

}  // namespace

StreamRequest read_stream_request(std::string_view line, std::uint64_t max_content_bytes,
                                  std::string_view limit_name) {
  StreamRequest r;
  try {
    json j = json::parse(line);
    if (!j.is_object()) {
      r.error = "not a JSON record: not a JSON object";
      return r;
    }
    if (const auto it = j.find("id"); it != j.end()) {
      r.id_json = it->dump(-1, ' ', false, json::error_handler_t::replace);
    }
    r.error = read_fields(j, max_content_bytes, limit_name, r);
  } catch (const std::exception& e) {
    r.error = std::string("not a JSON record: ") + e.what();
  }
  if (!r.error.empty()) {
    const std::string id = std::move(r.id_json), error = std::move(r.error);
    r = StreamRequest{};
    r.id_json = id;
    r.error = error;
  }
  return r;
}

}  // namespace lexlink::document
