#!/usr/bin/env python3
"""Draw a reproducible sample of the citations a publisher did not link, to be read by hand.

`lexlink eval CORPUS --details D.jsonl` lists every prediction no gold row agrees with; those
whose `overlaps_gold` is false touch no link at all: the publisher left that text unlinked. Some
publishers link only part of what they cite (legislation.gov.uk's "made" instruments, Laws.Africa,
the US Code), so whether those predictions are errors can only be told by reading them. This
script draws N of them with a fixed seed and writes a TSV with each one's context and an empty
`verdict` column; once the verdicts are filled in, `--score FILE.tsv` prints how many of the
sample were right and the precision the sample implies, with a 95% Wilson interval.

  bench/audit_unlinked.py sample CORPUS DETAILS.jsonl [--n 60] [--seed 1] > SAMPLE.tsv
  bench/audit_unlinked.py score SAMPLE.tsv [--eval-line "work P=... pred=... left out=..."]

Verdicts: `correct` (a citation, and the name is right as far as it goes: a partial name counts
when what it names is right), `wrong-work` (a citation, but of another work or a wrong number),
`wrong-partition` (right work, wrong partition), `not-citation` (no citation there).
"""
import argparse
import csv
import json
import math
import random
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
    rows.sort(key=lambda d: (d["doc"], d["char_start"], d["char_end"], d["urn"]))
    picked = random.Random(args.seed).sample(rows, min(args.n, len(rows)))
    picked.sort(key=lambda d: (d["doc"], d["char_start"], d["char_end"], d["urn"]))
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
        out.writerow([d["doc"], s, e, d["text"], d["urn"], d["rule"], ctx, "", ""])
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
    k = counts["correct"]
    lo, hi = wilson(k, n)
    print(f"{args.sample}: {n} read; " + ", ".join(f"{v} {c}" for v, c in counts.items()))
    print(f"share correct: {k / n:.3f} (95% Wilson interval {lo:.3f}-{hi:.3f})")
    if args.linked_tp is not None:
        # Precision with the unlinked predictions counted at the sampled share: the linked ones
        # as eval --linked-only scored them, the unlinked at k/n (and the interval's ends).
        tp, linked, unlinked, recall = args.linked_tp, args.linked, args.unlinked, args.recall
        for label, share in (("estimate", k / n), ("low", lo), ("high", hi)):
            p = (tp + share * unlinked) / (linked + unlinked)
            f1 = 2 * p * recall / (p + recall) if p + recall else 0.0
            print(f"{label}: precision {p:.3f}, F1 {f1:.3f} (recall {recall:.3f})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("corpus")
    s.add_argument("details")
    s.add_argument("--n", type=int, default=60)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--context", type=int, default=160)
    c = sub.add_parser("score")
    c.add_argument("sample")
    c.add_argument("--linked-tp", type=float, help="true positives among the linked predictions (eval --linked-only: P x pred)")
    c.add_argument("--linked", type=float, help="linked predictions (eval --linked-only: pred)")
    c.add_argument("--unlinked", type=float, help="predictions left out (eval --linked-only: left out)")
    c.add_argument("--recall", type=float, help="recall (eval)")
    args = ap.parse_args()
    if args.cmd == "sample":
        sample(args)
    else:
        if args.linked_tp is not None and None in (args.linked, args.unlinked, args.recall):
            sys.exit("--linked-tp needs --linked, --unlinked and --recall")
        score(args)


if __name__ == "__main__":
    main()
