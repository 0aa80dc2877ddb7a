// `lexlink eval`: the extractor scored against a corpus folder laid out like ../shared/corpora/*
// (gold.tsv and text/*.txt) with the definition of its README, as tools/score.py scores it. The
// documents are read here (document::DocumentExtractor, on --jobs threads); the gold, the matching
// and the counts are the eval library's (extractor/eval/).
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "batch/ordered_pool.h"
#include "cli/args.h"
#include "cli/batch.h"
#include "cli/commands.h"
#include "cli/extractor_setup.h"
#include "cli/json_lines.h"
#include "document/extract_document.h"
#include "document/reader.h"
#include "eval/gold.h"
#include "eval/score.h"
#include "extract/document_name.h"
#include "extract/extractor.h"
#include "text/view_builder.h"

namespace lexlink::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

constexpr const char* kEvalUsage =
    "usage: lexlink eval CORPUS_DIR [--jurisdiction J] [--limit N] [--details FILE]\n"
    "                   [--measure M] [--linked-only] [--jobs N]\n"
    "Scores the extractor against CORPUS_DIR/gold.tsv and CORPUS_DIR/text/*.txt (layout and\n"
    "scoring as in the corpora README): precision, recall and F1 at work and partition level.\n"
    "--details FILE writes every miss and false positive (JSON Lines) for reading.\n"
    "The jurisdiction defaults to the folder name's prefix (it-normattiva-... -> it).\n"
    "Gold rows without a urn are mapped from their publisher identifier with\n"
    "lexicons/<jurisdiction>/publisher-ids.tsv when it exists (lexicons/README.md); a\n"
    "document id it maps gives that document's own name (as --self would).\n"
    "--measure M scores only names of measure type M, gold and predicted (fr: --measure code\n"
    "gives the article-level agreement on code citations).\n"
    "--linked-only leaves out of precision the predictions that overlap no gold row (for\n"
    "publishers that link only some citations: the agreement where both sides link); their\n"
    "number is printed.\n"
    "--jobs N reads N documents at a time (default: every core); the scores and details are\n"
    "the same for any N.\n";

// A corpus folder's name, however the path is spelled ("corpora/uk-clml/", "uk-clml/.", "."):
// the label of the scores and the source of the default jurisdiction.
std::string corpus_name(const fs::path& corpus) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(corpus, ec), ec);
  if (ec) p = corpus.lexically_normal();
  std::string name = p.filename().string();
  if (name.empty()) name = p.parent_path().filename().string();
  return name;
}

// The jurisdiction a corpus folder's name gives: its prefix (it-normattiva-... -> it).
std::string default_jurisdiction(const fs::path& corpus) {
  const std::string name = corpus_name(corpus);
  return name.substr(0, name.find('-'));
}

// The measure types of the gold rows that have a name, sorted (for --measure that selects none).
std::string gold_measures(const fs::path& corpus) {
  auto rows = eval::read_gold((corpus / "gold.tsv").string());
  std::set<std::string> types;
  if (rows) {
    for (const auto& [doc, links] : eval::scored_gold(std::move(*rows))) {
      for (const eval::GoldLink& g : links) {
        if (g.name && !g.name->measure.empty()) types.insert(g.name->measure);
      }
    }
  }
  std::string out;
  for (const std::string& t : types) out += (out.empty() ? "" : ", ") + t;
  return out.empty() ? "none" : out;
}

// The gold rows that are scored, by document, and the publisher-ids map (`ids`, empty when the
// jurisdiction has none), which also names the documents. Prints the error and returns
// nullopt when gold.tsv or the map cannot be read.
std::optional<std::map<std::string, std::vector<eval::GoldLink>>> load_gold(
    const Context& context, const fs::path& corpus, const std::string& jur,
    const std::string& measure, extract::DocumentIds& ids) {
  auto rows = eval::read_gold((corpus / "gold.tsv").string());
  if (!rows) {
    std::fprintf(stderr, "lexlink eval: %s\n", rows.error().to_string().c_str());
    return std::nullopt;
  }
  // lexicons/<jur>/publisher-ids.tsv: publisher identifiers -> URN:LEX names, for the gold rows
  // the corpus leaves without a urn (the same pattern/urn format as document-ids.tsv).
  const std::string map_path = context.data_dir + "/lexicons/" + jur + "/publisher-ids.tsv";
  std::error_code ec;
  if (fs::exists(map_path, ec)) {
    if (Status st = ids.load(map_path); !st) {
      std::fprintf(stderr, "lexlink eval: %s\n", st.error().to_string().c_str());
      return std::nullopt;
    }
  }
  if (!ids.empty()) {
    eval::map_publisher_ids(*rows, [&](std::string_view key) { return ids.rewrite(key); });
  }
  return eval::scored_gold(std::move(*rows), measure);
}

// --limit N: a number of documents (0: all). False, after a message, when it is not one.
bool read_limit(const Args& args, std::size_t& limit) {
  const std::string& s = args.get("limit");
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || s[0] < '0' || s[0] > '9' || *end != 0 || errno != 0) {
    std::fprintf(stderr, "lexlink eval: --limit needs a number of documents, not '%s'\n",
                 s.c_str());
    return false;
  }
  limit = static_cast<std::size_t>(v);
  return true;
}

// The lines of `eval --details` for document `doc`.
void write_details(std::ostream& out, const std::string& doc,
                   const std::vector<eval::DetailRow>& rows) {
  for (const eval::DetailRow& d : rows) {
    const bool predicted = d.kind == eval::DetailKind::kFalsePositive ||
                           d.kind == eval::DetailKind::kPartitionMismatch;
    json line{{"kind", eval::to_string(d.kind)}, {"doc", doc},     {"char_start", d.char_start},
              {"char_end", d.char_end},          {"text", d.text}, {"urn", d.urn}};
    if (predicted) {
      line["rule"] = d.rule;
      line["overlaps_gold"] = d.overlaps_gold;
    }
    if (d.kind == eval::DetailKind::kPartitionMismatch) {
      json gold = json::array();
      for (const auto& g : d.gold) {
        gold.push_back(json{{"char_start", g.char_start},
                            {"char_end", g.char_end},
                            {"text", g.text},
                            {"urn", g.urn}});
      }
      line["gold"] = std::move(gold);
    }
    out << to_json_line(line) << "\n";
  }
}

// A document's predictions, read by a worker.
struct DocPredictions {
  std::vector<eval::Prediction> predictions;
  std::string error;
  std::uint64_t bytes = 0;  // read from the document
};

}  // namespace

int eval_command(const Context& context, const std::vector<std::string>& argv) {
  Args args;
  args.flag("help").flag("linked-only");
  args.option("jurisdiction", "").option("limit", "0").option("details", "").option("measure", "");
  args.option("jobs", "0");
  args.option("engine", "hyperscan").option("cache", "").option("format", "text");
  args.option("encoding", "").option("self", "").option("href", "urn").option("partition-sep", "#");
  if (!args.parse(argv) || args.positional().size() != 1) {
    std::fprintf(stderr, "lexlink eval: %s\n\n%s",
                 args.error().empty() ? "give one CORPUS_DIR" : args.error().c_str(), kEvalUsage);
    return 2;
  }
  if (args.has("help")) {
    std::fputs(kEvalUsage, stdout);
    return 0;
  }
  std::size_t jobs_option = 0;
  if (!read_jobs("eval", args, jobs_option)) return 2;
  const fs::path corpus = args.positional()[0];
  std::error_code ec;
  if (!fs::is_regular_file(corpus / "gold.tsv", ec)) {
    std::fprintf(stderr,
                 "lexlink eval: %s: no gold.tsv (a corpus folder holds gold.tsv and text/*.txt: "
                 "lexlink eval --help)\n",
                 corpus.string().c_str());
    return 2;
  }
  std::string jur = args.get("jurisdiction");
  if (jur.empty()) jur = default_jurisdiction(corpus);
  // The extractor as `extract --jurisdiction J --format text` reads a document.
  Args extract_args;
  extract_args.option("jurisdiction", jur).option("self", "");
  extract_args.option("engine", args.get("engine")).option("cache", args.get("cache"));
  (void)extract_args.parse({});
  const auto extractor = load_extractor("eval", context, extract_args);
  if (!extractor) return 2;
  text::ViewOptions view;
  view.format = text::ViewOptions::FormatChoice::kText;

  eval::ScoreOptions options;
  options.measure = args.get("measure");
  options.linked_only = args.has("linked-only");
  extract::DocumentIds ids;
  const auto gold = load_gold(context, corpus, jur, options.measure, ids);
  if (!gold) return 2;
  if (gold->empty() && !options.measure.empty()) {
    std::fprintf(stderr,
                 "lexlink eval: --measure %s selects no gold row (the gold's measure types: "
                 "%s)\n",
                 options.measure.c_str(), gold_measures(corpus).c_str());
    return 1;
  }
  std::size_t limit = 0;
  if (!read_limit(args, limit)) return 2;
  std::unique_ptr<std::ofstream> details;
  if (!args.get("details").empty()) {
    details = std::make_unique<std::ofstream>(args.get("details"));
    if (!*details) {
      std::fprintf(stderr, "lexlink eval: --details %s: cannot open for writing\n",
                   args.get("details").c_str());
      return 2;
    }
    options.details = true;
  }

  // The documents are read by `jobs` threads and scored here, one at a time, in order.
  std::vector<std::pair<const std::string*, const std::vector<eval::GoldLink>*>> order;
  for (const auto& [doc, rows] : *gold) {
    if (limit != 0 && order.size() >= limit) break;
    order.emplace_back(&doc, &rows);
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t jobs = std::min(jobs_option, std::max<std::size_t>(1, order.size()));
  // One reading per worker: its citations' memory goes from document to document.
  std::vector<document::DocumentExtractor> readings;
  readings.reserve(jobs);
  for (std::size_t j = 0; j < jobs; ++j) readings.emplace_back(extractor, view);
  batch::OrderedPool<std::size_t, DocPredictions> pool(
      jobs, 2 * jobs + 2, [&](std::size_t& k, std::size_t worker) {
        DocPredictions r;
        const std::string path = (corpus / "text" / (*order[k].first + ".txt")).string();
        try {
          document::DocumentReader reader;
          Status st = reader.open(path);
          if (st) {
            st = readings[worker].run(
                reader, ids.rewrite(*order[k].first), [&](std::vector<extract::Citation>& chunk) {
                  for (const extract::Citation& c : chunk) {
                    r.predictions.push_back({c.char_start, c.char_end, c.urn, c.text, c.rule});
                  }
                  return Status::Ok();
                });
          }
          r.bytes = reader.bytes();
          if (!st) r.error = path + ": " + st.error().to_string();
        } catch (const std::exception& e) {
          r.error = path + ": failed: " + e.what();
        }
        return r;
      });
  eval::Counts total;
  std::uint64_t bytes = 0;
  std::size_t submitted = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    while (submitted < order.size() && !pool.full()) pool.submit(submitted++);
    const DocPredictions done = pool.pop();
    if (!done.error.empty()) {
      std::fprintf(stderr, "lexlink eval: %s\n", done.error.c_str());
      return 1;
    }
    bytes += done.bytes;
    const eval::DocumentGold doc_gold(*order[k].second);
    const eval::DocumentScore score = eval::score_document(doc_gold, done.predictions, options);
    total += score.counts;
    if (details) write_details(*details, *order[k].first, score.details);
  }
  const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fputs(
      eval::report(corpus_name(corpus), total, el > 0 ? double(bytes) / 1e6 / el : 0.0).c_str(),
      stdout);
  if (options.linked_only) {
    std::printf("left out (no gold row overlaps them): %zu\n", total.unlinked);
  }
  return 0;
}

}  // namespace lexlink::cli
