// The C API (lexlink/lexlink_c.h) over the C++ API (lexlink/lexlink.h): handles, arrays and
// strings the caller frees, options read by their struct_size, and every C++ exception caught
// here, at the boundary, and returned as a status.
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "lexlink/lexlink.h"
#include "lexlink/lexlink_c.h"

struct lexlink_error {
  lexlink_status code;
  std::string message;
};

struct lexlink_extractor {
  lexlink::Extractor extractor;
  std::string jurisdictions;  // the loaded ones, space-separated
};

namespace {

// What a lexlink_citations array owns.
struct CitationArray {
  std::vector<lexlink::Citation> citations;
  std::vector<lexlink_citation> items;
};

lexlink_status status_of(lexlink::ErrorCode code) {
  switch (code) {
    case lexlink::ErrorCode::kInvalidArgument: return LEXLINK_ERROR_INVALID_ARGUMENT;
    case lexlink::ErrorCode::kDataError: return LEXLINK_ERROR_DATA;
    case lexlink::ErrorCode::kNotFound: return LEXLINK_ERROR_NOT_FOUND;
    case lexlink::ErrorCode::kIoError: return LEXLINK_ERROR_IO;
    case lexlink::ErrorCode::kLimitExceeded: return LEXLINK_ERROR_LIMIT_EXCEEDED;
    case lexlink::ErrorCode::kUnsupported: return LEXLINK_ERROR_UNSUPPORTED;
    case lexlink::ErrorCode::kInternal: return LEXLINK_ERROR_INTERNAL;
  }
  return LEXLINK_ERROR_INTERNAL;
}

// Hands an error to the caller (when it asked for one); returns its code. Never throws: without
// memory for the error object, the caller gets the code alone.
lexlink_status fail(lexlink_error** out, lexlink_status code, std::string message) noexcept {
  if (out != nullptr) {
    *out = nullptr;
    try {
      *out = new lexlink_error{code, std::move(message)};
    } catch (...) {
    }
  }
  return code;
}

lexlink_status fail(lexlink_error** out, const lexlink::Error& e) noexcept {
  try {
    return fail(out, status_of(e.code), e.to_string());
  } catch (...) {
    return fail(out, status_of(e.code), std::string());
  }
}

// Runs `body` (which returns a status), catching everything: no exception leaves the C API.
template <class Body>
lexlink_status guarded(lexlink_error** error, Body&& body) noexcept {
  if (error != nullptr) *error = nullptr;
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return fail(error, LEXLINK_ERROR_NO_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(error, LEXLINK_ERROR_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(error, LEXLINK_ERROR_INTERNAL, "internal error");
  }
}

lexlink_status null_argument(lexlink_error** error, const char* name) {
  return fail(error, LEXLINK_ERROR_INVALID_ARGUMENT, std::string(name) + " is NULL");
}

// An options struct the caller filled: the fields it knows (struct_size) over the defaults.
template <class T>
T options_or_defaults(const T* given, void (*init)(T*)) {
  T out;
  init(&out);
  if (given != nullptr) {
    const std::size_t n = given->struct_size < sizeof(T) ? given->struct_size : sizeof(T);
    std::memcpy(static_cast<void*>(&out), given, n);
    out.struct_size = sizeof(T);
  }
  return out;
}

bool bad_struct(std::size_t struct_size) {
  return struct_size < sizeof(std::size_t);
}

lexlink::DocumentOptions document_options(const lexlink_document_options* given) {
  const lexlink_document_options o = options_or_defaults(given, &lexlink_document_options_init);
  lexlink::DocumentOptions out;
  switch (o.format) {
    case LEXLINK_FORMAT_TEXT: out.format = lexlink::Format::kText; break;
    case LEXLINK_FORMAT_HTML: out.format = lexlink::Format::kHtml; break;
    case LEXLINK_FORMAT_XML: out.format = lexlink::Format::kXml; break;
    default: out.format = lexlink::Format::kAuto; break;
  }
  if (o.encoding != nullptr) out.encoding = o.encoding;
  if (o.self_urn != nullptr) out.self_urn = o.self_urn;
  return out;
}

bool valid_format(const lexlink_document_options* given) {
  if (given == nullptr) return true;
  const lexlink_document_options o = options_or_defaults(given, &lexlink_document_options_init);
  return o.format >= LEXLINK_FORMAT_AUTO && o.format <= LEXLINK_FORMAT_XML;
}

// The checks of a call's document options: struct_size set, format a lexlink_format.
lexlink_status check_document_options(const lexlink_document_options* options,
                                      lexlink_error** error) {
  if (options != nullptr && bad_struct(options->struct_size)) {
    return fail(error, LEXLINK_ERROR_INVALID_ARGUMENT, "options.struct_size is not set");
  }
  if (!valid_format(options)) {
    return fail(error, LEXLINK_ERROR_INVALID_ARGUMENT, "options.format is not a lexlink_format");
  }
  return LEXLINK_OK;
}

void fill(lexlink_citations* out, std::vector<lexlink::Citation>&& citations);

// lexlink_extract and lexlink_extract_file after their own argument: the common checks, then
// `run` (the C++ call) and its citations into `out`.
template <class Run>
lexlink_status extract_into(const lexlink_extractor* extractor,
                            const lexlink_document_options* options, lexlink_citations* out,
                            lexlink_error** error, Run&& run) {
  if (extractor == nullptr) return null_argument(error, "extractor");
  if (out == nullptr) return null_argument(error, "out");
  if (lexlink_status s = check_document_options(options, error); s != LEXLINK_OK) return s;
  auto r = run(document_options(options));
  if (!r) return fail(error, r.error());
  fill(out, std::move(*r));
  return LEXLINK_OK;
}

lexlink::UrnOptions urn_options(const lexlink_urn_options* given) {
  const lexlink_urn_options o = options_or_defaults(given, &lexlink_urn_options_init);
  lexlink::UrnOptions out;
  out.iri = o.iri != 0;
  out.allow_empty_authority = o.allow_empty_authority != 0;
  out.allow_unnumbered = o.allow_unnumbered != 0;
  out.max_length = o.max_length;
  return out;
}

// The jurisdictions of a space- or comma-separated list.
std::vector<std::string> jurisdiction_list(const char* list) {
  std::vector<std::string> out;
  std::string word;
  for (const char* p = list;; ++p) {
    if (*p == 0 || *p == ' ' || *p == ',' || *p == '\t') {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
      if (*p == 0) break;
    } else {
      word += *p;
    }
  }
  return out;
}

// A NUL-terminated copy the caller frees with lexlink_string_free().
char* copy_out(const std::string& s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out == nullptr) throw std::bad_alloc();
  std::memcpy(out, s.data(), s.size());
  out[s.size()] = 0;
  return out;
}

void fill(lexlink_citations* out, std::vector<lexlink::Citation>&& citations) {
  auto array = std::make_unique<CitationArray>();
  array->citations = std::move(citations);
  array->items.reserve(array->citations.size());
  for (const lexlink::Citation& c : array->citations) {
    lexlink_citation item{};
    item.byte_start = c.bytes.begin;
    item.byte_end = c.bytes.end;
    item.cp_start = c.code_points.begin;
    item.cp_end = c.code_points.end;
    item.utf16_start = c.utf16.begin;
    item.utf16_end = c.utf16.end;
    item.text = c.text.c_str();
    item.text_length = c.text.size();
    item.urn = c.urn.c_str();
    item.work = c.work.c_str();
    item.jurisdiction = c.jurisdiction.c_str();
    item.rule = c.rule.c_str();
    item.complete = c.complete ? 1 : 0;
    item.inner = c.inner ? 1 : 0;
    array->items.push_back(item);
  }
  out->count = array->items.size();
  out->items = array->items.data();
  out->internal = array.release();
}

void clear(lexlink_citations* out) {
  if (out == nullptr) return;
  out->count = 0;
  out->items = nullptr;
  out->internal = nullptr;
}

}  // namespace

extern "C" {

lexlink_status lexlink_error_code(const lexlink_error* error) {
  return error == nullptr ? LEXLINK_OK : error->code;
}

const char* lexlink_error_message(const lexlink_error* error) {
  return error == nullptr ? "" : error->message.c_str();
}

void lexlink_error_free(lexlink_error* error) {
  delete error;
}

const char* lexlink_version(void) {
  return lexlink::version();
}

void lexlink_options_init(lexlink_options* options) {
  if (options == nullptr) return;
  *options = lexlink_options{};
  options->struct_size = sizeof(lexlink_options);
  options->max_document_bytes = std::uint64_t{256} << 20;
}

void lexlink_document_options_init(lexlink_document_options* options) {
  if (options == nullptr) return;
  *options = lexlink_document_options{};
  options->struct_size = sizeof(lexlink_document_options);
}

void lexlink_markup_options_init(lexlink_markup_options* options) {
  if (options == nullptr) return;
  *options = lexlink_markup_options{};
  options->struct_size = sizeof(lexlink_markup_options);
  lexlink_document_options_init(&options->document);
}

void lexlink_urn_options_init(lexlink_urn_options* options) {
  if (options == nullptr) return;
  *options = lexlink_urn_options{};
  options->struct_size = sizeof(lexlink_urn_options);
  options->max_length = 64 * 1024;
}

lexlink_status lexlink_extractor_open(const lexlink_options* options, lexlink_extractor** out,
                                      lexlink_error** error) {
  return guarded(error, [&]() -> lexlink_status {
    if (out == nullptr) return null_argument(error, "out");
    *out = nullptr;
    if (options != nullptr && bad_struct(options->struct_size)) {
      return fail(error, LEXLINK_ERROR_INVALID_ARGUMENT,
                  "options.struct_size is not set (call lexlink_options_init first)");
    }
    const lexlink_options o = options_or_defaults(options, &lexlink_options_init);
    lexlink::ExtractorOptions eo;
    if (o.data_folder != nullptr) eo.data_folder = o.data_folder;
    if (o.jurisdictions != nullptr) {
      eo.jurisdictions = jurisdiction_list(o.jurisdictions);
      if (eo.jurisdictions.empty()) {
        return fail(error, LEXLINK_ERROR_INVALID_ARGUMENT, "options.jurisdictions names none");
      }
    }
    eo.reference_engine = o.reference_engine != 0;
    if (o.cache_folder != nullptr) eo.cache_folder = o.cache_folder;
    eo.max_document_bytes = o.max_document_bytes;
    auto x = lexlink::Extractor::load(eo);
    if (!x) return fail(error, x.error());
    std::string names;
    for (const std::string& j : x->jurisdictions()) names += (names.empty() ? "" : " ") + j;
    *out = new lexlink_extractor{std::move(*x), std::move(names)};
    return LEXLINK_OK;
  });
}

void lexlink_extractor_free(lexlink_extractor* extractor) {
  delete extractor;
}

const char* lexlink_extractor_data_folder(const lexlink_extractor* extractor) {
  return extractor == nullptr ? "" : extractor->extractor.data_folder().c_str();
}

const char* lexlink_extractor_jurisdictions(const lexlink_extractor* extractor) {
  return extractor == nullptr ? "" : extractor->jurisdictions.c_str();
}

lexlink_status lexlink_extract(const lexlink_extractor* extractor, const char* document,
                               size_t length, const lexlink_document_options* options,
                               lexlink_citations* out, lexlink_error** error) {
  clear(out);
  return guarded(error, [&]() -> lexlink_status {
    if (document == nullptr) return null_argument(error, "document");
    return extract_into(extractor, options, out, error, [&](const lexlink::DocumentOptions& o) {
      return extractor->extractor.extract(std::string_view(document, length), o);
    });
  });
}

lexlink_status lexlink_extract_file(const lexlink_extractor* extractor, const char* path,
                                    const lexlink_document_options* options, lexlink_citations* out,
                                    lexlink_error** error) {
  clear(out);
  return guarded(error, [&]() -> lexlink_status {
    if (path == nullptr) return null_argument(error, "path");
    return extract_into(extractor, options, out, error, [&](const lexlink::DocumentOptions& o) {
      return extractor->extractor.extract_file(path, o);
    });
  });
}

void lexlink_citations_free(lexlink_citations* citations) {
  if (citations == nullptr) return;
  delete static_cast<CitationArray*>(citations->internal);
  clear(citations);
}

lexlink_status lexlink_markup(const lexlink_extractor* extractor, const char* document,
                              size_t length, const lexlink_markup_options* options, char** out,
                              size_t* out_length, size_t* linked, size_t* found,
                              lexlink_error** error) {
  if (out != nullptr) *out = nullptr;
  return guarded(error, [&]() -> lexlink_status {
    if (extractor == nullptr) return null_argument(error, "extractor");
    if (out == nullptr) return null_argument(error, "out");
    if (document == nullptr) return null_argument(error, "document");
    if (options != nullptr && bad_struct(options->struct_size)) {
      return fail(error, LEXLINK_ERROR_INVALID_ARGUMENT, "options.struct_size is not set");
    }
    const lexlink_markup_options o = options_or_defaults(options, &lexlink_markup_options_init);
    if (lexlink_status s = check_document_options(&o.document, error); s != LEXLINK_OK) return s;
    lexlink::MarkupOptions mo;
    mo.document = document_options(&o.document);
    if (o.profile != nullptr) mo.profile = o.profile;
    mo.href = o.resolver_href != 0 ? lexlink::Href::kResolver : lexlink::Href::kUrn;
    mo.partition_sep = o.partition_sep;
    auto r = extractor->extractor.markup(std::string_view(document, length), mo);
    if (!r) return fail(error, r.error());
    std::size_t n_linked = 0;
    for (const lexlink::LinkOutcome& l : r->outcomes) n_linked += l.linked ? 1 : 0;
    *out = copy_out(r->document);
    if (out_length != nullptr) *out_length = r->document.size();
    if (linked != nullptr) *linked = n_linked;
    if (found != nullptr) *found = r->outcomes.size();
    return LEXLINK_OK;
  });
}

lexlink_status lexlink_unmark(const char* document, size_t length, char** out, size_t* out_length,
                              lexlink_error** error) {
  if (out != nullptr) *out = nullptr;
  return guarded(error, [&]() -> lexlink_status {
    if (out == nullptr) return null_argument(error, "out");
    if (document == nullptr) return null_argument(error, "document");
    auto r = lexlink::unmark(std::string_view(document, length));
    if (!r) return fail(error, r.error());
    *out = copy_out(*r);
    if (out_length != nullptr) *out_length = r->size();
    return LEXLINK_OK;
  });
}

void lexlink_string_free(char* string) {
  std::free(string);
}

lexlink_status lexlink_urn_validate(const char* name, size_t length,
                                    const lexlink_urn_options* options, lexlink_error** error) {
  return guarded(error, [&]() -> lexlink_status {
    if (name == nullptr) return null_argument(error, "name");
    if (options != nullptr && bad_struct(options->struct_size)) {
      return fail(error, LEXLINK_ERROR_INVALID_ARGUMENT, "options.struct_size is not set");
    }
    lexlink::Status s = lexlink::urn_validate(std::string_view(name, length), urn_options(options));
    if (!s) return fail(error, s.error());
    return LEXLINK_OK;
  });
}

lexlink_status lexlink_urn_normalize(const char* name, size_t length,
                                     const lexlink_urn_options* options, int fold, char** out,
                                     lexlink_error** error) {
  if (out != nullptr) *out = nullptr;
  return guarded(error, [&]() -> lexlink_status {
    if (name == nullptr) return null_argument(error, "name");
    if (out == nullptr) return null_argument(error, "out");
    if (options != nullptr && bad_struct(options->struct_size)) {
      return fail(error, LEXLINK_ERROR_INVALID_ARGUMENT, "options.struct_size is not set");
    }
    auto r =
        lexlink::urn_normalize(std::string_view(name, length), urn_options(options), fold != 0);
    if (!r) return fail(error, r.error());
    *out = copy_out(*r);
    return LEXLINK_OK;
  });
}

lexlink_status lexlink_urn_parse(const char* name, size_t length,
                                 const lexlink_urn_options* options, char** json,
                                 lexlink_error** error) {
  if (json != nullptr) *json = nullptr;
  return guarded(error, [&]() -> lexlink_status {
    if (name == nullptr) return null_argument(error, "name");
    if (json == nullptr) return null_argument(error, "json");
    if (options != nullptr && bad_struct(options->struct_size)) {
      return fail(error, LEXLINK_ERROR_INVALID_ARGUMENT, "options.struct_size is not set");
    }
    auto r = lexlink::urn_parse(std::string_view(name, length), urn_options(options));
    if (!r) return fail(error, r.error());
    // {"canonical": ..., then the structure's keys}: the structure's object, opened.
    std::string out = "{\"canonical\":\"" + r->canonical + "\"";
    if (r->json.size() > 2)
      out += "," + r->json.substr(1);
    else
      out += "}";
    *json = copy_out(out);
    return LEXLINK_OK;
  });
}

}  // extern "C"
