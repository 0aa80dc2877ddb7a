#!/usr/bin/env python3
"""Checks the eval tests' expectations against the team's score.py itself.

usage: python3 tests/data/eval/score_py_check.py SCORE_PY [--write]
  SCORE_PY  the team's tools/score.py (/work/shared/tools/score.py; not in this repository,
            so the C++ tests use what this script recorded and checked)

1. norm_num.tsv, score_parse.tsv, work_match.tsv: each row against score.py's own norm_num,
   parse and work_match (taken from its source: score.py runs its scoring when imported).
   norm_num.tsv's score_py column says whether score.py gives the same or, for the non-ASCII
   rows eval/score_name.h documents, not.
2. corpora/<case>/score_py.txt: score.py run on the case (a temporary copy named after the case,
   with its gold.tsv and empty text files; this script as the CLI score.py runs, printing the
   case's predictions.tsv as `lexlink extract` prints JSON Lines), its throughput left out.
   --write records the reports instead of comparing them.
Prints what differs and exits 1, else "score.py agrees" and exits 0.
"""
import ast, json, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = ["overlaps", "jurisdictions", "measure", "small"]


def fake_cli(argv):
    """`score_py_check.py extract --jurisdiction J CORPUS/text/DOC.txt`: the case's predictions."""
    path = argv[-1]
    doc = os.path.basename(path)[: -len(".txt")]
    preds = os.path.join(os.environ["SCORE_PY_CHECK_CASE"], "predictions.tsv")
    for row in read_table(preds)[1]:
        if row[0] == doc:
            print(json.dumps({"file": path, "char_start": int(row[1]), "char_end": int(row[2]),
                              "text": row[4], "urn": row[3], "rule": row[5]}))


def read_table(path):
    """A test table (tests/support load_table's format): header, rows; '#' lines skipped."""
    rows = []
    with open(path, encoding="utf-8", newline="\n") as f:
        for line in f:
            line = line.rstrip("\n").rstrip("\r")
            if not line or line.startswith("#"):
                continue
            rows.append(line.split("\t"))
    return rows[0], rows[1:]


def unescape(s):
    """tests/support unescape(): \\t \\n \\xNN and \\<c>, on the UTF-8 bytes."""
    out, b, i = bytearray(), s.encode("utf-8"), 0
    while i < len(b):
        if b[i] != 0x5C or i + 1 >= len(b):
            out.append(b[i])
            i += 1
            continue
        c = chr(b[i + 1])
        i += 2
        if c == "t":
            out += b"\t"
        elif c == "n":
            out += b"\n"
        elif c == "x" and i + 1 < len(b):
            out.append(int(b[i:i + 2], 16))
            i += 2
        else:
            out += c.encode()
    return out.decode("utf-8")


def score_functions(score_py):
    """norm_num, parse and work_match from score.py's source, without running its scoring."""
    tree = ast.parse(open(score_py, encoding="utf-8").read())
    wanted = [n for n in tree.body
              if isinstance(n, ast.FunctionDef) and n.name in ("norm_num", "parse", "work_match")]
    ns = {"re": re}
    exec(compile(ast.Module(body=wanted, type_ignores=[]), score_py, "exec"), ns)
    return ns["norm_num"], ns["parse"], ns["work_match"]


def check_tables(score_py, problems):
    norm_num, parse, work_match = score_functions(score_py)
    _, rows = read_table(os.path.join(HERE, "norm_num.tsv"))
    for r in rows:
        same = norm_num(unescape(r[0])) == unescape(r[1])
        if same != (r[2] == "same"):
            problems.append(f"norm_num.tsv {r[0]!r}: score.py gives {norm_num(unescape(r[0]))!r}")
    header, rows = read_table(os.path.join(HERE, "score_parse.tsv"))
    fields = header[2:]
    for r in rows:
        p = parse(unescape(r[0]))
        if (p is not None) != (r[1] == "yes"):
            problems.append(f"score_parse.tsv {r[0]!r}: score.py gives {p}")
        elif p is not None:
            want = {k: unescape(v) for k, v in zip(fields, r[2:])}
            got = {k: p[k] for k in fields}
            if want != got:
                problems.append(f"score_parse.tsv {r[0]!r}: score.py gives {got}")
    _, rows = read_table(os.path.join(HERE, "work_match.tsv"))
    for r in rows:
        g, p = parse(unescape(r[0])), parse(unescape(r[1]))
        w = work_match(g, p)
        part = w and g["part"] == p["part"]
        if w != (r[2] == "yes") or part != (r[3] == "yes"):
            problems.append(f"work_match.tsv {r[0]} / {r[1]}: score.py gives {w}, {part}")


def check_corpora(score_py, write, problems):
    tmp = tempfile.mkdtemp()
    try:
        for case in CASES:
            src = os.path.join(HERE, "corpora", case)
            dst = os.path.join(tmp, case)
            os.makedirs(os.path.join(dst, "text"))
            shutil.copy(os.path.join(src, "gold.tsv"), dst)
            for row in read_table(os.path.join(src, "gold.tsv"))[1]:
                open(os.path.join(dst, "text", row[0] + ".txt"), "w").close()
            env = dict(os.environ, SCORE_PY_CHECK_CASE=src)
            r = subprocess.run([sys.executable, score_py, dst, "it", os.path.abspath(__file__)],
                               capture_output=True, text=True, env=env, check=True)
            report = re.sub(r" mb_s=[0-9.]*", "", r.stdout)
            recorded = os.path.join(src, "score_py.txt")
            if write:
                with open(recorded, "w", encoding="utf-8") as f:
                    f.write(report)
            elif not os.path.exists(recorded) or open(recorded, encoding="utf-8").read() != report:
                problems.append(f"{case}: score.py prints\n{report}")
    finally:
        shutil.rmtree(tmp)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "extract":
        fake_cli(sys.argv)
        return 0
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = []
    check_tables(sys.argv[1], problems)
    check_corpora(sys.argv[1], "--write" in sys.argv, problems)
    for p in problems:
        print(p)
    if problems:
        return 1
    print("score.py agrees")
    return 0


if __name__ == "__main__":
    sys.exit(main())
