#include "eval/score.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <tuple>

namespace lexlink::eval {

Counts& Counts::operator+=(const Counts& o) {
  docs += o.docs;
  gold += o.gold;
  predictions += o.predictions;
  tp_work += o.tp_work;
  tp_partition += o.tp_partition;
  hit_work += o.hit_work;
  hit_partition += o.hit_partition;
  unlinked += o.unlinked;
  return *this;
}

double f1(double p, double r) {
  return p + r > 0 ? 2 * p * r / (p + r) : 0.0;
}

namespace {

Scores scores(std::size_t tp, std::size_t predictions, std::size_t hit, std::size_t gold) {
  Scores s;
  s.precision = predictions != 0 ? double(tp) / double(predictions) : 0.0;
  s.recall = gold != 0 ? double(hit) / double(gold) : 0.0;
  s.f1 = f1(s.precision, s.recall);
  return s;
}

}  // namespace

Scores work_scores(const Counts& c) {
  return scores(c.tp_work, c.predictions, c.hit_work, c.gold);
}

Scores partition_scores(const Counts& c) {
  return scores(c.tp_partition, c.predictions, c.hit_partition, c.gold);
}

std::string report(std::string_view name, const Counts& c, double mb_s) {
  const Scores w = work_scores(c), p = partition_scores(c);
  std::string out(name);
  char line[512];
  std::snprintf(line, sizeof line,
                ": work P=%.3f R=%.3f F1=%.3f; partition P=%.3f R=%.3f F1=%.3f\n", w.precision,
                w.recall, w.f1, p.precision, p.recall, p.f1);
  out += line;
  std::snprintf(line, sizeof line,
                "work_f1=%.3f part_f1=%.3f p=%.3f r=%.3f docs=%zu gold=%zu pred=%zu mb_s=%.2f\n",
                w.f1, p.f1, w.precision, w.recall, c.docs, c.gold, c.predictions, mb_s);
  out += line;
  return out;
}

const char* to_string(DetailKind kind) {
  switch (kind) {
    case DetailKind::kFalsePositive: return "false-positive";
    case DetailKind::kPartitionMismatch: return "partition-mismatch";
    case DetailKind::kMissed: return "missed";
    case DetailKind::kMissedPartition: return "missed-partition";
  }
  return "?";
}

DocumentGold::DocumentGold(const std::vector<GoldLink>& rows)
    : rows_(&rows), by_start_(rows.size()) {
  std::iota(by_start_.begin(), by_start_.end(), std::size_t{0});
  std::stable_sort(by_start_.begin(), by_start_.end(),
                   [&](std::size_t a, std::size_t b) { return rows[a].start < rows[b].start; });
  for (const GoldLink& g : rows) {
    longest_ = std::max(longest_, g.end > g.start ? g.end - g.start : 0);
    if (g.name) jurs_.insert(g.name->jur);
  }
}

bool DocumentGold::overlaps_any(std::uint64_t start, std::uint64_t end) const {
  bool any = false;
  for_each_overlapping(start, end, [&](std::size_t) { any = true; });
  return any;
}

DocumentScore score_document(const DocumentGold& gold, const std::vector<Prediction>& predictions,
                             const ScoreOptions& options) {
  DocumentScore out;
  Counts& n = out.counts;
  const std::vector<GoldLink>& rows = gold.rows();
  n.docs = 1;
  n.gold = rows.size();
  std::vector<char> hit_w(rows.size(), 0), hit_p(rows.size(), 0);
  std::vector<std::size_t> work_rows;  // a prediction's work hits (for the details)
  for (const Prediction& c : predictions) {
    const auto p = score_parse(c.urn);
    if (!p || (!options.measure.empty() && p->measure != options.measure)) continue;
    const bool overlaps = gold.overlaps_any(c.char_start, c.char_end);
    if (!gold.has_jurisdiction(p->jur) && !overlaps) continue;
    if (options.linked_only && !overlaps) {
      ++n.unlinked;
      continue;
    }
    ++n.predictions;
    bool hw = false, hp = false;
    work_rows.clear();
    gold.for_each_overlapping(c.char_start, c.char_end, [&](std::size_t i) {
      if (!work_match(rows[i].name, p)) return;
      hw = true;
      hit_w[i] = 1;
      if (options.details) work_rows.push_back(i);
      if (partition_match(rows[i].name, p)) {
        hp = true;
        hit_p[i] = 1;
      }
    });
    n.tp_work += hw;
    n.tp_partition += hp;
    if (options.details && !hp) {
      DetailRow d{hw ? DetailKind::kPartitionMismatch : DetailKind::kFalsePositive,
                  c.char_start,
                  c.char_end,
                  c.text,
                  c.urn,
                  c.rule,
                  overlaps,
                  {}};
      for (std::size_t i : work_rows) {
        d.gold.push_back({rows[i].start, rows[i].end, rows[i].cited, rows[i].urn});
      }
      std::sort(d.gold.begin(), d.gold.end(), [](const auto& a, const auto& b) {
        return std::tie(a.char_start, a.char_end, a.urn) <
               std::tie(b.char_start, b.char_end, b.urn);
      });
      out.details.push_back(std::move(d));
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    n.hit_work += hit_w[i] != 0;
    n.hit_partition += hit_p[i] != 0;
    if (options.details && hit_p[i] == 0) {
      out.details.push_back({hit_w[i] ? DetailKind::kMissedPartition : DetailKind::kMissed,
                             rows[i].start,
                             rows[i].end,
                             rows[i].cited,
                             rows[i].urn,
                             "",
                             false,
                             {}});
    }
  }
  return out;
}

}  // namespace lexlink::eval
