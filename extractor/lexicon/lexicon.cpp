#include "lexicon/lexicon.h"

#include <algorithm>

#include "common/tsv.h"

namespace lexlink::lexicon {

int LexiconClass::column(std::string_view attribute) const {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == attribute) return static_cast<int>(i);
  }
  return -1;
}

int Lexicon::class_index(std::string_view name) const {
  for (std::size_t i = 0; i < classes_.size(); ++i) {
    if (classes_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

Status Lexicon::add_class(const std::string& name, const std::string& path,
                          const std::string& display_path, bool trigger) {
  std::string content;
  if (Status s = read_file(path, content); !s) {
    Error e = s.error();
    e.file = display_path;
    return e;
  }
  // The header is free-form after "phrase": read its first non-comment line.
  std::vector<std::string> header;
  {
    std::string_view rest = content;
    if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3);
    while (!rest.empty()) {
      const std::size_t eol = rest.find('\n');
      std::string_view line = rest.substr(0, eol);
      rest.remove_prefix(eol == std::string_view::npos ? rest.size() : eol + 1);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.empty() || line.front() == '#') continue;
      std::size_t start = 0;
      while (true) {
        const std::size_t tab = line.find('\t', start);
        header.emplace_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
        if (tab == std::string_view::npos) break;
        start = tab + 1;
      }
      break;
    }
  }
  if (header.empty() || header[0] != "phrase") {
    Error e = make_error(ErrorCode::kDataError,
                         "expected a header line starting with 'phrase' (then attribute names)");
    e.file = display_path;
    e.line = 1;
    e.col = 1;
    return e;
  }
  auto file = TsvFile::parse(display_path, std::move(content), header);
  if (!file) return file.error();

  LexiconClass cls;
  cls.name = name;
  cls.file = display_path;
  cls.columns.assign(header.begin() + 1, header.end());
  cls.trigger = trigger;
  const auto cls_index = static_cast<std::int32_t>(classes_.size());
  for (const TsvRow& row : file->rows()) {
    const auto row_index = static_cast<std::uint32_t>(cls.rows.size());
    std::string_view phrases = row.fields[0];
    std::size_t offset = 0;
    bool any = false;
    while (offset <= phrases.size()) {
      std::size_t bar = phrases.find(" | ", offset);
      std::string_view variant =
          phrases.substr(offset, bar == std::string_view::npos ? bar : bar - offset);
      std::size_t variant_col = offset;
      const bool exact = !variant.empty() && variant.front() == '=';
      if (exact) {
        variant.remove_prefix(1);
        ++variant_col;
      }
      offset = bar == std::string_view::npos ? phrases.size() + 1 : bar + 3;
      Tokens t;
      tokenize(variant, t);
      if (t.tokens.empty()) {
        return file->error_at(row, 0, variant_col, "empty phrase variant");
      }
      // The key: folded tokens, or "=" and the tokens as written for an exact variant.
      std::string key, folded;
      for (const Token& tok : t.tokens) {
        if (!folded.empty()) folded += ' ';
        folded += t.norm(tok);
      }
      if (exact) {
        key = "=";
        for (const Token& tok : t.tokens) {
          if (key.size() > 1) key += ' ';
          key += t.raw(tok);
        }
      } else {
        key = folded;
      }
      const std::string where = display_path + ":" + std::to_string(row.line);
      if (auto it = defined_at_.find(key); it != defined_at_.end()) {
        if (it->second == where) continue;  // the same phrase twice in one row (accents)
        return file->error_at(row, 0, variant_col,
                              "the phrase '" + std::string(variant) + "' (read as '" + key +
                                  "') is already defined at " + it->second);
      }
      defined_at_.emplace(key, where);
      Entry entry;
      entry.cls = cls_index;
      entry.row = row_index;
      for (std::size_t k = 1; k < t.tokens.size(); ++k) {
        entry.rest.emplace_back(t.norm(t.tokens[k]));
      }
      if (exact) {
        for (const Token& tok : t.tokens) entry.exact.emplace_back(t.raw(tok));
      }
      auto& list = by_first_[std::string(t.norm(t.tokens[0]))];
      list.push_back(std::move(entry));  // sorted longest first by index()
      // Triggers are found without regard to case; an exact variant is checked on the tokens.
      if (std::find(cls.variants.begin(), cls.variants.end(), folded) == cls.variants.end()) {
        cls.variants.push_back(folded);
      }
      std::string written;
      for (const Token& tok : t.tokens) {
        if (!written.empty()) written += ' ';
        written += t.raw(tok);
      }
      if (written != folded &&
          std::find(cls.written.begin(), cls.written.end(), written) == cls.written.end()) {
        cls.written.push_back(written);
      }
      any = true;
    }
    if (!any) return file->error_at(row, 0, 0, "empty phrase");
    cls.rows.emplace_back(row.fields.begin() + 1, row.fields.end());
    cls.row_lines.push_back(row.line);
  }
  classes_.push_back(std::move(cls));
  return Status::Ok();
}

void Lexicon::add_words(const std::vector<std::string>& norms) {
  extra_words_.insert(extra_words_.end(), norms.begin(), norms.end());
}

// Builds the lookup indexes, once every class and word is in (rebuilt after each file, they
// took a fifth of the start-up with every grammar loaded).
void Lexicon::index() {
  for (auto& [first, list] : by_first_) {
    std::stable_sort(list.begin(), list.end(),
                     [](const Entry& a, const Entry& b) { return a.rest.size() > b.rest.size(); });
  }
  first_index_ = StringTable();
  lists_.clear();
  for (const auto& [first, list] : by_first_) {
    first_index_.add(first, static_cast<std::uint32_t>(lists_.size()));
    lists_.push_back(&list);
  }
  first_index_.build();
  // Word ids: first tokens, then the other tokens of phrases, then the extra words.
  std::vector<std::string> list;
  std::map<std::string_view, std::uint32_t> known;
  auto id_of = [&](std::string_view w) {
    auto it = known.find(w);
    if (it != known.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(list.size());
    list.emplace_back(w);
    known.emplace(w, id);
    return id;
  };
  for (const auto& [first, entries] : by_first_) {
    id_of(first);
    for (const Entry& e : entries) {
      for (const std::string& r : e.rest) id_of(r);
    }
  }
  for (const std::string& w : extra_words_) id_of(w);
  by_first_id_.assign(list.size(), {0, 0});
  id_entries_.clear();
  rest_ids_.clear();
  for (const auto& [first, entries] : by_first_) {
    const std::uint32_t first_id = known.at(first);
    const auto begin = static_cast<std::uint32_t>(id_entries_.size());
    for (const Entry& e : entries) {
      IdEntry ie;
      ie.rest_begin = static_cast<std::uint32_t>(rest_ids_.size());
      ie.rest_len = static_cast<std::uint32_t>(e.rest.size());
      ie.cls = e.cls;
      ie.row = e.row;
      ie.exact = e.exact.empty() ? nullptr : &e.exact;
      for (const std::string& r : e.rest) rest_ids_.push_back(known.at(r));
      id_entries_.push_back(ie);
    }
    by_first_id_[first_id] = {begin, static_cast<std::uint32_t>(id_entries_.size())};
  }
  firsts_.assign(list.size(), First{});
  first_count_ = static_cast<std::uint32_t>(firsts_.size());
  for (std::size_t k = 0; k < list.size(); ++k) {
    First& f = firsts_[k];
    bool single_seen = false;
    for (std::uint32_t x = by_first_id_[k].first; x < by_first_id_[k].second; ++x) {
      const IdEntry& e = id_entries_[x];
      if (e.rest_len > 0) {
        f.next |= std::uint64_t{1} << (rest_ids_[e.rest_begin] & 63);
      } else if (!single_seen) {  // the first one-word entry is the one longest_from() takes
        single_seen = true;
        f.single = e.exact != nullptr ? First::kChecked : First::kPlain;
        f.cls = e.cls;
        f.row = e.row;
      }
    }
  }
  words_.build(list);
  word_list_ = std::move(list);
}

PhraseMatch Lexicon::longest_from(const Tokens& tokens, const std::uint32_t* ids, std::uint32_t i,
                                  std::uint32_t end) const {
  PhraseMatch m;
  const auto [begin, stop] = by_first_id_[ids[i]];
  const std::size_t n = std::min<std::size_t>(tokens.tokens.size(), end);
  for (std::uint32_t k = begin; k < stop; ++k) {
    const IdEntry& e = id_entries_[k];
    if (i + 1 + e.rest_len > n) continue;
    bool ok = true;
    const std::uint32_t* rest = rest_ids_.data() + e.rest_begin;
    for (std::uint32_t r = 0; ok && r < e.rest_len; ++r) {
      ok = ids[i + 1 + r] == rest[r] && tokens.tokens[i + 1 + r].newlines_before < 2;
    }
    if (ok && e.exact != nullptr) {
      for (std::size_t r = 0; ok && r < e.exact->size(); ++r) {
        ok = !tokens.source.empty() && tokens.raw(tokens.tokens[i + r]) == (*e.exact)[r];
      }
    }
    if (ok) {
      m.first = i;
      m.count = 1 + e.rest_len;
      m.cls = e.cls;
      m.row = e.row;
      return m;  // entries are sorted longest first
    }
  }
  return m;
}

PhraseMatch Lexicon::longest_at(const Tokens& tokens, std::uint32_t i, std::uint32_t end) const {
  PhraseMatch m;
  const std::uint32_t list = first_index_.find(tokens.norm(tokens.tokens[i]));
  if (list == StringTable::kMissing) return m;
  const std::size_t n = std::min<std::size_t>(tokens.tokens.size(), end);
  for (const Entry& e : *lists_[list]) {
    if (i + 1 + e.rest.size() > n) continue;
    bool ok = true;
    for (std::size_t k = 0; ok && k < e.rest.size(); ++k) {
      const Token& t = tokens.tokens[i + 1 + k];
      ok = t.newlines_before < 2 && tokens.norm(t) == e.rest[k];
    }
    for (std::size_t k = 0; ok && k < e.exact.size(); ++k) {
      ok = !tokens.source.empty() && tokens.raw(tokens.tokens[i + k]) == e.exact[k];
    }
    if (ok) {
      m.first = i;
      m.count = static_cast<std::uint32_t>(1 + e.rest.size());
      m.cls = e.cls;
      m.row = e.row;
      return m;  // entries are sorted longest first
    }
  }
  return m;
}

}  // namespace lexlink::lexicon
