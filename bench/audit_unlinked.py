#!/usr/bin/env python3
"""Draw a reproducible sample of the citations a publisher did not link, to be read by hand.

`lexlink eval CORPUS --details D.jsonl` lists every prediction no gold row agrees with; those
whose `overlaps_gold` is false touch no link at all: the publisher left that text unlinked. Some
publishers link only part of what they cite (legislation.gov.uk's "made" instruments, Laws.Africa,
the US Code), so whether those predictions are errors can only be told by reading them. `sample`
draws N of them (those whose hash with the seed is smallest) and writes a TSV with each one's
context and an empty `verdict` column; once the verdicts are filled in, `score` prints how many of the
sample were right (95% Wilson interval) and, given what `lexlink eval CORPUS --linked-only`
printed, the precision and F1 had the unlinked predictions been scored at the sample's share.

  bench/audit_unlinked.py sample CORPUS DETAILS.jsonl [--n 60] [--seed 1] [--verdicts OLD.tsv] > SAMPLE.tsv
  bench/audit_unlinked.py score SAMPLE.tsv [--linked-only-eval EVAL.txt]

Verdicts: `correct` (a citation, and the name is right as far as it goes: a partial name counts
when what it names is right), `wrong-work` (a citation, but of another work or a wrong number),
`wrong-partition` (right work, wrong partition), `not-citation` (no citation there).
"""
import argparse
import csv
import json
import math
import re
import hashlib
import sys
from pathlib import Path

VERDICTS = ("correct", "wrong-work", "wrong-partition", "not-citation")


def sample(args):
    rows = []
    with open(args.details, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d.get("kind") == "false-positive" and d.get("overlaps_gold") is False:
                rows.append(d)
    # The N predictions whose keyed hash is smallest: a prediction is drawn or not whatever the
    # others are, so a change that adds or removes a few predictions leaves the rest of the
    # sample, and the verdicts already given, as they were (--verdicts FILE reuses them).
    def rank(d):
        key = f"{args.seed}\t{d['doc']}\t{d['char_start']}\t{d['char_end']}\t{d['urn']}"
        return hashlib.sha256(key.encode("utf-8")).hexdigest()
    picked = sorted(rows, key=rank)[: args.n]
    picked.sort(key=lambda d: (d["doc"], d["char_start"], d["char_end"], d["urn"]))
    known = {}
    if args.verdicts:
        with open(args.verdicts, encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                if row["verdict"].strip():
                    known[(row["doc"], int(row["char_start"]), int(row["char_end"]), row["urn"])] = (
                        row["verdict"], row["note"])
    texts = {}
    out = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    out.writerow(["doc", "char_start", "char_end", "text", "urn", "rule", "context", "verdict", "note"])
    for d in picked:
        if d["doc"] not in texts:
            texts[d["doc"]] = (Path(args.corpus) / "text" / (d["doc"] + ".txt")).read_text(encoding="utf-8")
        t = texts[d["doc"]]
        s, e = d["char_start"], d["char_end"]
        if t[s:e] != d["text"]:
            sys.exit(f"{d['doc']}:{s}-{e}: the text there is not {d['text']!r}")
        ctx = (t[max(0, s - args.context):s] + "[[" + t[s:e] + "]]" + t[e:e + args.context])
        ctx = " ".join(ctx.split())
        verdict, note = known.get((d["doc"], s, e, d["urn"]), ("", ""))
        out.writerow([d["doc"], s, e, d["text"], d["urn"], d["rule"], ctx, verdict, note])
    print(f"{len(picked)} of {len(rows)} unlinked predictions, seed {args.seed}", file=sys.stderr)


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (mid - half, mid + half)


def score(args):
    counts = {v: 0 for v in VERDICTS}
    with open(args.sample, encoding="utf-8") as f:
        for i, row in enumerate(csv.DictReader(f, delimiter="\t"), start=2):
            v = row["verdict"].strip()
            if v not in counts:
                sys.exit(f"{args.sample}:{i}: verdict {v!r} is not one of {', '.join(VERDICTS)}")
            counts[v] += 1
    n = sum(counts.values())
    if n == 0:
        sys.exit(f"{args.sample}: no rows")
    k = counts["correct"]
    lo, hi = wilson(k, n)
    print(f"{args.sample}: {n} read; " + ", ".join(f"{v} {c}" for v, c in counts.items()))
    print(f"share correct: {k / n:.3f} (95% Wilson interval {lo:.3f}-{hi:.3f})")
    if args.linked_only_eval:
        # The precision had every prediction been scored: those a link overlaps as
        # `eval --linked-only` scored them, the unlinked ones at the sample's share (work level:
        # right work, partition level: right work and partition), with the interval's ends.
        text = Path(args.linked_only_eval).read_text(encoding="utf-8")
        m = re.search(r"work P=([0-9.]+) R=([0-9.]+) F1=[0-9.]+; partition P=([0-9.]+) R=([0-9.]+)", text)
        pred = re.search(r"\bpred=([0-9]+)", text)
        left = re.search(r"left out \(no gold row overlaps them\): ([0-9]+)", text)
        if not (m and pred and left):
            sys.exit(f"{args.linked_only_eval}: not the output of lexlink eval --linked-only")
        linked, unlinked = int(pred.group(1)), int(left.group(1))
        kw = k + counts["wrong-partition"]
        for label, (p_linked, recall, right) in (
                ("work", (float(m.group(1)), float(m.group(2)), kw)),
                ("partition", (float(m.group(3)), float(m.group(4)), k))):
            lo_s, hi_s = wilson(right, n)
            parts = []
            for share in (right / n, lo_s, hi_s):
                p = (p_linked * linked + share * unlinked) / (linked + unlinked)
                f1 = 2 * p * recall / (p + recall) if p + recall else 0.0
                parts.append((p, f1))
            print(f"{label}: precision {parts[0][0]:.3f} ({parts[1][0]:.3f}-{parts[2][0]:.3f}), "
                  f"F1 {parts[0][1]:.3f} ({parts[1][1]:.3f}-{parts[2][1]:.3f}), recall {recall:.3f}; "
                  f"{linked} linked predictions, {unlinked} unlinked at {right}/{n}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("corpus")
    s.add_argument("details")
    s.add_argument("--n", type=int, default=60)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--context", type=int, default=160)
    s.add_argument("--verdicts", help="an earlier judged sample: its verdicts are kept for the rows drawn again")
    c = sub.add_parser("score")
    c.add_argument("sample")
    c.add_argument("--linked-only-eval", help="what `lexlink eval CORPUS --linked-only` printed (a file)")
    args = ap.parse_args()
    if args.cmd == "sample":
        sample(args)
    else:
        score(args)


if __name__ == "__main__":
    main()
