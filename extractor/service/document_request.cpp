#include "service/document_request.h"

#include <cctype>
#include <exception>
#include <nlohmann/json.hpp>
#include <vector>

#include "common/json_text.h"
#include "document/options.h"
#include "urn/percent.h"

namespace lexlink::service {
namespace {

using json = nlohmann::ordered_json;

RequestError bad(std::string message) {
  return RequestError{400, "bad_request", std::move(message)};
}

// The body types read as a document as they are.
constexpr std::string_view kRawTypes[] = {
    "text/plain", "text/html",       "application/xhtml+xml",
    "text/xml",   "application/xml", "application/octet-stream"};

constexpr const char* kOffsetsMessage =
    "\"offsets\" is a list of utf8, codepoint and utf16 (an array, or a comma-separated string)";

// One option by name, its value a string; `raw`: it came in the query (where "encoding" is
// allowed: a JSON string is UTF-8).
std::optional<RequestError> set_option(DocumentEndpoint endpoint, std::string_view name,
                                       const std::string& value, bool raw, DocumentRequest& r) {
  if (name == "format") {
    auto f = document::parse_format(value);
    if (!f) return bad("format: " + f.error().message);
    r.view.format = *f;
  } else if (name == "encoding" && raw) {
    auto e = document::parse_encoding(value);
    if (!e) return bad("encoding: " + e.error().message);
    r.view.encoding = *e;
  } else if (name == "jurisdiction") {
    r.jurisdiction = value;
  } else if (name == "self") {
    if (const std::string e = document::self_name_error(value); !e.empty()) {
      return bad("self: " + e);
    }
    r.self = value;
  } else if (name == "offsets" && endpoint == DocumentEndpoint::kExtract) {
    const auto offsets = document::parse_offsets(value, document::kServiceOffsetNames);
    if (!offsets) return bad(kOffsetsMessage);
    r.offsets = *offsets;
  } else if (name == "href") {
    if (value != "resolver" && value != "urn") return bad("\"href\" is resolver or urn");
    r.href = value == "urn" ? rewrite::HrefMode::kUrn : rewrite::HrefMode::kResolver;
  } else if (name == "partition_sep") {
    if (value != "#" && value != "~") return bad("\"partition_sep\" is \"#\" or \"~\"");
    r.partition_sep = value[0];
  } else if (name == "profile" && endpoint == DocumentEndpoint::kMarkup) {
    if (value != "auto") {
      auto p = rewrite::parse_profile(value);
      if (!p) return bad("profile: " + p.error().message);
      r.profile = *p;
    }
  } else {
    std::string shown;
    append_json_string(shown, name);
    return bad("unknown " + std::string(raw ? "parameter " : "key ") + shown + " (" +
               (endpoint == DocumentEndpoint::kExtract
                    ? "extract takes text or content, format, jurisdiction, self, offsets, href, "
                      "partition_sep"
                    : "markup takes text or content, format, jurisdiction, self, profile, href, "
                      "partition_sep") +
               (raw ? ", encoding)" : ")"));
  }
  return std::nullopt;
}

std::optional<RequestError> read_json_option(DocumentEndpoint endpoint, const std::string& key,
                                             const json& value, DocumentRequest& r) {
  if (value.is_null()) return std::nullopt;  // a null field is an absent one
  if (key == "offsets" && value.is_array() && endpoint == DocumentEndpoint::kExtract) {
    r.offsets = {false, false, false};
    for (const json& item : value) {
      if (!item.is_string() || !document::add_offset(item.get_ref<const std::string&>(),
                                                     document::kServiceOffsetNames, r.offsets)) {
        return bad(kOffsetsMessage);
      }
    }
    return std::nullopt;
  }
  if (!value.is_string()) {
    std::string shown;
    append_json_string(shown, key);
    return bad(shown + " is a string");
  }
  return set_option(endpoint, key, value.get_ref<const std::string&>(), false, r);
}

ReadRequest read_json(DocumentEndpoint endpoint, std::string_view body) {
  ReadRequest out;
  DocumentRequest& r = out.request;
  json j;
  try {
    j = json::parse(body);
  } catch (const std::exception& e) {
    out.error = bad(std::string("not JSON: ") + e.what());
    return out;
  }
  if (!j.is_object()) {
    out.error = bad("the body is a JSON object");
    return out;
  }
  const bool has_text = j.contains("text") && !j["text"].is_null();
  const bool has_content = j.contains("content") && !j["content"].is_null();
  if (has_text == has_content) {
    out.error = bad("one of \"text\" (plain text) and \"content\" (a document) is required");
    return out;
  }
  const json& doc = has_text ? j["text"] : j["content"];
  if (!doc.is_string()) {
    out.error = bad(std::string(has_text ? "\"text\"" : "\"content\"") + " is a string");
    return out;
  }
  if (has_text) r.view.format = text::ViewOptions::FormatChoice::kText;
  r.view.encoding = text::Encoding::kUtf8;  // JSON strings are
  for (auto& [key, value] : j.items()) {
    if (key == "text" || key == "content") continue;
    if (auto e = read_json_option(endpoint, key, value, r)) {
      out.error = std::move(e);
      return out;
    }
  }
  r.json_content = std::move(j[has_text ? "text" : "content"].get_ref<std::string&>());
  return out;
}

ReadRequest read_raw(DocumentEndpoint endpoint, std::string_view content_type,
                     std::string_view query) {
  ReadRequest out;
  DocumentRequest& r = out.request;
  r.raw = true;
  r.raw_content_type = std::string(content_type);
  const std::string type = media_type(content_type);
  if (type == "text/plain") r.view.format = text::ViewOptions::FormatChoice::kText;
  if (type == "text/html" || type == "application/xhtml+xml") {
    r.view.format = text::ViewOptions::FormatChoice::kHtml;
  }
  if (type == "text/xml" || type == "application/xml") {
    r.view.format = text::ViewOptions::FormatChoice::kXml;
  }
  if (const std::string charset = charset_of(content_type); !charset.empty()) {
    auto e = document::parse_encoding(charset);
    if (!e) {
      out.error = RequestError{415, "unsupported_media_type", "charset: " + e.error().message};
      return out;
    }
    r.view.encoding = *e;
  }
  std::vector<QueryParam> params;
  std::string error;
  if (!parse_query(query, params, error)) {
    out.error = bad(error);
    return out;
  }
  for (const QueryParam& p : params) {
    if (auto e = set_option(endpoint, p.name, p.value, true, r)) {
      out.error = std::move(e);
      return out;
    }
  }
  return out;
}

}  // namespace

std::string media_type(std::string_view content_type) {
  std::string out;
  for (char c : content_type.substr(0, content_type.find(';'))) {
    if (c != ' ' && c != '\t')
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string charset_of(std::string_view content_type) {
  std::string lower;
  for (char c : content_type)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::size_t at = lower.find("charset=");
  if (at == std::string::npos) return {};
  std::string value = lower.substr(at + 8);
  value = value.substr(0, value.find(';'));
  while (!value.empty() && (value.back() == ' ' || value.back() == '"')) value.pop_back();
  while (!value.empty() && (value.front() == ' ' || value.front() == '"')) value.erase(0, 1);
  return value;
}

bool percent_decode(std::string_view s, bool plus_is_space, std::string& to) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+' && plus_is_space) {
      to += ' ';
    } else if (s[i] != '%') {
      to += s[i];
    } else if (i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      to += static_cast<char>(urn::hex_value(s[i + 1]) * 16 + urn::hex_value(s[i + 2]));
      i += 2;
    } else {
      return false;
    }
  }
  return true;
}

bool parse_query(std::string_view query, std::vector<QueryParam>& out, std::string& error) {
  auto decode = [&](std::string_view s, std::string& to) {
    if (percent_decode(s, true, to)) return true;
    error = "a malformed percent-escape in the query";
    return false;
  };
  std::size_t at = 0;
  while (at < query.size()) {
    std::size_t amp = query.find('&', at);
    if (amp == std::string_view::npos) amp = query.size();
    const std::string_view item = query.substr(at, amp - at);
    at = amp + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    QueryParam p;
    if (!decode(item.substr(0, eq), p.name)) return false;
    if (eq != std::string_view::npos && !decode(item.substr(eq + 1), p.value)) return false;
    out.push_back(std::move(p));
  }
  return true;
}

ReadRequest read_document_request(DocumentEndpoint endpoint, std::string_view content_type,
                                  std::string_view query, std::string_view body) {
  try {
    const std::string type = media_type(content_type);
    if (type == "application/json") {
      if (!query.empty()) {
        ReadRequest out;
        out.error = bad("options come in the JSON body, not in the query");
        return out;
      }
      return read_json(endpoint, body);
    }
    for (std::string_view raw : kRawTypes) {
      if (type == raw) return read_raw(endpoint, content_type, query);
    }
    ReadRequest out;
    out.error = RequestError{
        415, "unsupported_media_type",
        (type.empty() ? std::string("no Content-Type") : "Content-Type " + type + " is not read") +
            ": send application/json, or the document as text/plain, text/html, "
            "application/xhtml+xml, text/xml, application/xml or application/octet-stream"};
    return out;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    ReadRequest out;
    out.error = RequestError{500, "internal", std::string("internal error: ") + e.what()};
    return out;
  }
}

}  // namespace lexlink::service
