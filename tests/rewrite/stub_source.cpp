#include "rewrite/stub_source.h"

#include <cstdlib>

#include "support/test_support.h"

namespace lexlink::test {

std::optional<rewrite::Request> locate(const text::TextView& view, const std::string& locator,
                                       const std::string& urn) {
  rewrite::Request r;
  r.urn = urn;
  if (locator.rfind("inner ", 0) == 0) {  // "inner t:legge": an inner request
    auto inner = locate(view, locator.substr(6), urn);
    if (inner) inner->inner = true;
    return inner;
  }
  const std::size_t colon = locator.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const std::string kind = locator.substr(0, colon);
  const std::string what = unescape(locator.substr(colon + 1));
  if (kind == "T" || kind == "O") {
    const std::size_t dash = what.find('-');
    if (dash == std::string::npos) return std::nullopt;
    const rewrite::Span s{std::strtoull(what.substr(0, dash).c_str(), nullptr, 10),
                          std::strtoull(what.substr(dash + 1).c_str(), nullptr, 10)};
    if (kind == "T") {
      r.text = s;
    } else {
      r.original = s;
    }
    return r;
  }
  const char c = kind.empty() ? '?' : kind[0];
  const int nth = kind.size() > 1 ? std::atoi(kind.c_str() + 1) : 1;
  const std::string& hay = c == 't' ? view.text : view.original;
  std::size_t at = std::string::npos;
  for (int k = 0; k < nth; ++k) {
    at = hay.find(what, at == std::string::npos ? 0 : at + 1);
    if (at == std::string::npos) return std::nullopt;
  }
  if (c == 't') {
    r.text = rewrite::Span{view.text_begin + at, view.text_begin + at + what.size()};
  } else if (c == 'o') {
    r.original = rewrite::Span{view.orig_begin + at, view.orig_begin + at + what.size()};
  } else {
    return std::nullopt;
  }
  return r;
}

std::vector<rewrite::Request> locate_all(const text::TextView& view, const std::string& locators,
                                         const std::string& urn) {
  std::vector<rewrite::Request> out;
  for (const std::string& one : split(locators, " || ")) {
    auto r = locate(view, one, urn);
    if (!r) return {};
    r->id = out.size() + 1;
    out.push_back(std::move(*r));
  }
  return out;
}

Status StubSource::find(const text::TextView& chunk, std::vector<rewrite::Request>& out) {
  used_.resize(requests_.size(), false);
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    if (used_[i]) continue;
    const rewrite::Request& r = requests_[i];
    const bool here = r.text ? (r.text->begin >= chunk.text_begin &&
                                r.text->begin < chunk.text_begin + chunk.text.size())
                             : (r.original && r.original->begin >= chunk.orig_begin &&
                                r.original->begin < chunk.orig_end);
    if (here) {
      out.push_back(r);
      used_[i] = true;
    }
  }
  return Status::Ok();
}

Status StubSource::finish(std::vector<rewrite::Request>& leftover) {
  used_.resize(requests_.size(), false);
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    if (!used_[i]) leftover.push_back(requests_[i]);
  }
  return Status::Ok();
}

}  // namespace lexlink::test
