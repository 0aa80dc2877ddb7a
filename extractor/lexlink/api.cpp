// The C++ API (lexlink/lexlink.h) over the document pipeline (extractor/document/): this file
// only translates between the public types and the stages' own, checks what the caller gives,
// and turns exceptions into errors.
#include <exception>
#include <new>
#include <optional>
#include <utility>

#include "common/data_folder.h"
#include "common/status.h"
#include "common/utf8.h"
#include "document/extract_document.h"
#include "document/extractor_source.h"
#include "document/markup_job.h"
#include "document/options.h"
#include "document/reader.h"
#include "extract/extractor.h"
#include "io/sink.h"
#include "lexlink/lexlink.h"
#include "rewrite/link_markup.h"
#include "urn/normalize.h"
#include "urn/profiles.h"
#include "urn/structure_json.h"
#include "urn/urn.h"

#ifndef LEXLINK_VERSION
#error "LEXLINK_VERSION is not defined"
#endif

namespace lexlink {

struct Extractor::Impl {
  std::shared_ptr<const extract::Extractor> extractor;
  std::vector<std::string> jurisdictions;
  std::string data_folder;
  std::uint64_t max_bytes = 0;
  // The resolvers of the data folder, for Href::kResolver (or why they could not be loaded).
  std::shared_ptr<const urn::Profiles> resolvers;
  std::optional<Error> resolvers_error;
};

namespace {

// Runs `body`, turning an exception other than bad_alloc (a bug) into an error value.
template <class R, class Body>
R guarded(Body&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInternal, std::string("internal error: ") + e.what());
  }
}

Error with_position(const urn::ParseError& e) {
  Error out = urn::to_error(e);
  out.col = static_cast<std::uint32_t>(e.position + 1);
  return out;
}

urn::ParseOptions parse_options(const UrnOptions& o) {
  urn::ParseOptions p;
  p.allow_iri = o.iri;
  p.allow_empty_authority = o.allow_empty_authority;
  p.allow_unnumbered = o.allow_unnumbered;
  p.max_length = o.max_length;
  return p;
}

text::ViewOptions::FormatChoice format_choice(Format f) {
  using FC = text::ViewOptions::FormatChoice;
  switch (f) {
    case Format::kText: return FC::kText;
    case Format::kHtml: return FC::kHtml;
    case Format::kXml: return FC::kXml;
    default: return FC::kAuto;
  }
}

// How a document is to be read, from the caller's options; checks the self name too.
Result<text::ViewOptions> view_of(const DocumentOptions& o) {
  text::ViewOptions view;
  view.format = format_choice(o.format);
  auto encoding = document::parse_encoding(o.encoding);
  if (!encoding) return encoding.error();
  view.encoding = *encoding;
  if (!o.self_urn.empty()) {
    urn::ParseOptions po;
    po.allow_unnumbered = true;
    urn::ParseError e;
    if (!urn::validate(o.self_urn, po, &e)) {
      Error err = with_position(e);
      err.message = "self_urn: " + err.message;
      return err;
    }
  }
  return view;
}

// A buffer is refused when empty, over the limit, or not UTF-8 when UTF-8 was promised.
Status check_buffer(std::string_view document, const text::ViewOptions& view,
                    std::uint64_t max_bytes) {
  if (document.data() == nullptr || document.empty()) {
    return make_error(ErrorCode::kInvalidArgument, "empty document (no bytes given)");
  }
  if (max_bytes != 0 && document.size() > max_bytes) {
    return make_error(ErrorCode::kLimitExceeded, "too large: " + std::to_string(document.size()) +
                                                     " bytes, over the limit of " +
                                                     std::to_string(max_bytes) + " bytes");
  }
  if (view.encoding == text::Encoding::kUtf8) {
    const std::size_t bad = utf8::find_invalid(document);
    if (bad != std::string_view::npos) {
      return make_error(ErrorCode::kInvalidArgument,
                        "not valid UTF-8: an invalid sequence at byte " + std::to_string(bad));
    }
  }
  return Status::Ok();
}

Citation to_public(extract::Citation&& c) {
  Citation out;
  out.bytes = {c.start, c.end};
  out.code_points = {c.char_start, c.char_end};
  out.utf16 = {c.utf16_start, c.utf16_end};
  out.text = std::move(c.text);
  out.urn = std::move(c.urn);
  out.work = std::move(c.work);
  out.jurisdiction = std::move(c.jurisdiction);
  out.rule = std::move(c.rule);
  out.complete = c.complete;
  out.inner = c.inner;
  return out;
}

Result<std::vector<Citation>> citations_of(const Extractor::Impl& impl,
                                           document::DocumentReader& in,
                                           const text::ViewOptions& view, const std::string& self) {
  std::vector<Citation> out;
  document::DocumentExtractor reading(impl.extractor, view);
  Status s = reading.run(in, self, [&](std::vector<extract::Citation>& chunk) {
    for (extract::Citation& c : chunk) out.push_back(to_public(std::move(c)));
    return Status::Ok();
  });
  if (!s) return s.error();
  return out;
}

LinkOutcome to_public(rewrite::Outcome&& o) {
  LinkOutcome out;
  const auto& span = o.original ? o.original : o.request.original;
  if (span) out.bytes = {span->begin, span->end};
  out.urn = std::move(o.request.urn);
  out.rule = std::move(o.request.rule);
  out.linked = o.linked;
  out.reason = rewrite::to_string(o.reason);
  out.detail = std::move(o.detail);
  out.href = std::move(o.href);
  return out;
}

Result<rewrite::RewriteOptions> rewrite_options_of(const Extractor::Impl& impl,
                                                   const MarkupOptions& o) {
  rewrite::RewriteOptions options;
  if (o.profile != "auto") {
    auto p = rewrite::parse_profile(o.profile);
    if (!p) return p.error();
    options.profile = *p;
  }
  const bool resolver = o.href == Href::kResolver;
  options.link.href = resolver ? rewrite::HrefMode::kResolver : rewrite::HrefMode::kUrn;
  if (o.partition_sep == 0) {
    options.link.partition_sep = resolver ? '#' : '~';
  } else if (o.partition_sep == '#' || o.partition_sep == '~') {
    options.link.partition_sep = o.partition_sep;
  } else {
    return make_error(ErrorCode::kInvalidArgument, "partition_sep is '#' or '~'");
  }
  if (resolver) {
    if (!impl.resolvers) return *impl.resolvers_error;
    options.link.resolvers = impl.resolvers.get();
  }
  return options;
}

}  // namespace

const char* version() {
  return LEXLINK_VERSION;
}

std::string default_data_folder() {
  return default_data_dir();
}

std::vector<std::string> jurisdictions(const std::string& data_folder) {
  return grammar_names(data_folder.empty() ? default_data_dir() : data_folder);
}

Result<Extractor> Extractor::load(const ExtractorOptions& options) {
  return guarded<Result<Extractor>>([&]() -> Result<Extractor> {
    auto impl = std::make_shared<Impl>();
    impl->data_folder = options.data_folder.empty() ? default_data_dir() : options.data_folder;
    if (!is_data_dir(impl->data_folder)) {
      Error e = make_error(ErrorCode::kNotFound,
                           "not a lexlink data folder (it holds no grammars/ and lexicons/)");
      e.file = impl->data_folder;
      return e;
    }
    if (options.jurisdictions.empty()) {
      return make_error(ErrorCode::kInvalidArgument, "no jurisdiction to load");
    }
    extract::ExtractorOptions eo;
    eo.data_dir = impl->data_folder;
    eo.grammars = options.jurisdictions;
    eo.engine = options.reference_engine ? scan::Engine::kRe2 : scan::Engine::kHyperscan;
    eo.cache_dir = options.cache_folder;
    auto x = extract::Extractor::load(eo);
    if (!x) return x.error();
    impl->extractor = std::move(*x);
    impl->jurisdictions = options.jurisdictions.size() == 1 && options.jurisdictions[0] == "auto"
                              ? grammar_names(impl->data_folder)
                              : options.jurisdictions;
    impl->max_bytes = options.max_document_bytes;
    auto resolvers = urn::Profiles::load(impl->data_folder);
    if (resolvers) {
      impl->resolvers = std::make_shared<const urn::Profiles>(std::move(*resolvers));
    } else {
      impl->resolvers_error = resolvers.error();
    }
    return Extractor(std::move(impl));
  });
}

Result<std::vector<Citation>> Extractor::extract(std::string_view document,
                                                 const DocumentOptions& options) const {
  return guarded<Result<std::vector<Citation>>>([&]() -> Result<std::vector<Citation>> {
    auto view = view_of(options);
    if (!view) return view.error();
    if (Status s = check_buffer(document, *view, impl_->max_bytes); !s) return s.error();
    document::ReadOptions ro;
    ro.refuse_binary = false;  // the caller's own text
    document::DocumentReader in(ro);
    in.open_buffer(document);
    return citations_of(*impl_, in, *view, options.self_urn);
  });
}

Result<std::vector<Citation>> Extractor::extract_file(const std::string& path,
                                                      const DocumentOptions& options) const {
  return guarded<Result<std::vector<Citation>>>([&]() -> Result<std::vector<Citation>> {
    auto view = view_of(options);
    if (!view) return view.error();
    if (path.empty()) return make_error(ErrorCode::kInvalidArgument, "no file named (empty path)");
    document::ReadOptions ro;
    ro.max_bytes = impl_->max_bytes;
    document::DocumentReader in(ro);
    if (Status s = in.open(path); !s) return s.error();
    return citations_of(*impl_, in, *view, options.self_urn);
  });
}

Result<MarkupResult> Extractor::markup(std::string_view document,
                                       const MarkupOptions& options) const {
  return guarded<Result<MarkupResult>>([&]() -> Result<MarkupResult> {
    auto view = view_of(options.document);
    if (!view) return view.error();
    if (Status s = check_buffer(document, *view, impl_->max_bytes); !s) return s.error();
    auto rewrite_options = rewrite_options_of(*impl_, options);
    if (!rewrite_options) return rewrite_options.error();
    document::ReadOptions ro;
    ro.refuse_binary = false;
    document::DocumentReader in(ro);
    in.open_buffer(document);
    MarkupResult result;
    result.document.reserve(document.size() + document.size() / 8);
    io::StringSink sink(result.document);
    document::ExtractorSource source(impl_->extractor, options.document.self_urn);
    const document::MarkupJob job(*view, *rewrite_options, impl_->extractor.get());
    Status s = job.run(in, source, sink,
                       [&](std::vector<rewrite::Outcome>& outcomes, std::vector<std::string>& w) {
                         for (rewrite::Outcome& o : outcomes) {
                           result.outcomes.push_back(to_public(std::move(o)));
                         }
                         outcomes.clear();
                         w.clear();
                         return Status::Ok();
                       });
    if (!s) return s.error();
    return result;
  });
}

const std::vector<std::string>& Extractor::jurisdictions() const {
  return impl_->jurisdictions;
}

const std::string& Extractor::data_folder() const {
  return impl_->data_folder;
}

Result<std::string> unmark(std::string_view document) {
  return guarded<Result<std::string>>([&]() -> Result<std::string> {
    if (document.data() == nullptr || document.empty()) {
      return make_error(ErrorCode::kInvalidArgument, "empty document (no bytes given)");
    }
    document::ReadOptions ro;
    ro.refuse_binary = false;
    document::DocumentReader in(ro);
    in.open_buffer(document);
    std::string out;
    out.reserve(document.size());
    io::StringSink sink(out);
    auto counts = document::unmark_document(in, sink);
    if (!counts) return counts.error();
    return out;
  });
}

Status urn_validate(std::string_view name, const UrnOptions& options) {
  return guarded<Status>([&]() -> Status {
    urn::ParseError e;
    if (!urn::validate(name, parse_options(options), &e)) return with_position(e);
    return Status::Ok();
  });
}

Result<UrnParts> urn_parse(std::string_view name, const UrnOptions& options) {
  return guarded<Result<UrnParts>>([&]() -> Result<UrnParts> {
    const urn::ParseOptions po = parse_options(options);
    auto u = urn::parse(name, po);
    if (!u) return with_position(u.error());
    UrnParts out;
    urn::NormalizeOptions n;
    n.parse = po;
    auto canonical = urn::normalize(name, n);
    if (!canonical) return with_position(canonical.error());
    out.json = urn::structure_json(*u).dump(-1, ' ', false,
                                            nlohmann::ordered_json::error_handler_t::replace);
    // The parts are those of the canonical form (lower case, NFC, percent-encoded).
    auto c = urn::parse(*canonical, po);
    if (!c) return make_error(ErrorCode::kInternal, "the canonical form does not parse");
    out.jurisdiction = std::string(c->jurisdiction_code());
    out.work = c->work_name();
    out.document_name = std::string(c->document_name());
    out.partition = std::string(c->partition());
    out.year = std::string(c->year());
    out.year_only = c->year_only();
    out.canonical = std::move(*canonical);
    return out;
  });
}

Result<std::string> urn_normalize(std::string_view name, const UrnOptions& options, bool fold) {
  return guarded<Result<std::string>>([&]() -> Result<std::string> {
    urn::NormalizeOptions n;
    n.parse = parse_options(options);
    n.fold = fold;
    auto r = urn::normalize(name, n);
    if (!r) return with_position(r.error());
    return std::move(*r);
  });
}

Result<bool> urn_equal(std::string_view a, std::string_view b, const UrnOptions& options) {
  return guarded<Result<bool>>([&]() -> Result<bool> {
    // Each name is checked with the caller's options first (equivalent() takes fewer).
    for (std::string_view name : {a, b}) {
      urn::ParseError e;
      if (!urn::validate(name, parse_options(options), &e)) return with_position(e);
    }
    urn::EquivalenceOptions eo;
    eo.allow_iri = options.iri;
    auto r = urn::equivalent(a, b, eo);
    if (!r) return with_position(r.error());
    return *r;
  });
}

Result<std::string> urn_resolve(std::string_view name, char partition_sep,
                                const std::string& data_folder) {
  return guarded<Result<std::string>>([&]() -> Result<std::string> {
    if (partition_sep != '#' && partition_sep != '~') {
      return make_error(ErrorCode::kInvalidArgument, "partition_sep is '#' or '~'");
    }
    auto profiles = urn::Profiles::load(data_folder.empty() ? default_data_dir() : data_folder);
    if (!profiles) return profiles.error();
    urn::ParseOptions po;
    po.allow_unnumbered = true;
    auto u = urn::parse(name, po);
    if (!u) return with_position(u.error());
    return profiles->resolve(*u, urn::ResolveOptions{partition_sep});
  });
}

}  // namespace lexlink
