#!/usr/bin/env python3
"""Lists the functions of extractor/ longer than a limit (default 150 lines) that do not say why.

    scripts/function_lengths.py [--limit N] [--all] [--baseline FILE] [FILE...]

A function's length is the lines of its body, from the line of its opening brace to that of its
closing one. A long function is accepted when the comment just above its first line holds
"long-function:" followed by the reason it must be one piece. Lambdas and local classes count
as part of the function around them; functions defined in a class body count on their own.

The reading is a small brace scanner, not a C++ parser: comments, string and character
literals (raw strings too) and preprocessor lines are blanked first, then each '{' at namespace
or class scope is a function body when what precedes it since the last ';', '{' or '}' ends
with a parameter list (and qualifiers, a trailing return type or a constructor's initialisers).

Exit status 1 when a long function gives no reason; --all lists every function of at least the
limit, reasons or not, with its length. --baseline FILE (the ctest `function_lengths` passes
scripts/function_lengths.allow) names the long functions not split yet, one per line:
"PATH<TAB>FUNCTION<TAB>LINES<TAB>note"; those pass while they grow no longer than LINES, so that
no new one appears and none grows. A listed function that is split (or shorter than the limit)
must leave the list: the check fails on a stale line, so the list only shrinks.
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MARKER = "long-function:"

# The end of a function's head: a parameter list, then qualifiers or a trailing return type.
FUNCTION_END = re.compile(
    r"\)\s*(?:const\b|noexcept\b(?:\s*\([^)]*\))?|override\b|final\b|mutable\b|&&|&|"
    r"->\s*[\w:<>,\s*&]+?|\s)*$")
# A constructor's initialiser list: ") : member_(...), base(...)" (braces blanked before).
CTOR_INIT = re.compile(r"\)\s*(?:noexcept\s*)?:\s*[\w:]+\s*[({].*[)}]\s*$", re.S)
SCOPE = re.compile(r"\b(?:namespace|class|struct|union|enum)\b|extern\s*\"\"")


def blank(source: str) -> str:
    """The source with comments, literals and preprocessor lines replaced by spaces (newlines
    kept, so that offsets keep their line numbers)."""
    out = []
    i, n = 0, len(source)
    at_line_start = True
    while i < n:
        c = source[i]
        if at_line_start and c == "#":
            j = i
            while j < n and (source[j] != "\n" or source[j - 1] == "\\"):
                j += 1
            out.append(re.sub(r"[^\n]", " ", source[i:j]))
            i = j
            continue
        if c == "/" and source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
            continue
        if c == "/" and source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", source[i:j]))
            i = j
            continue
        raw = re.match(r'R"([^()\\\s]{0,16})\(', source[i:i + 20]) if c == "R" else None
        if raw and (i == 0 or not (source[i - 1].isalnum() or source[i - 1] == "_")):
            end = source.find(")" + raw.group(1) + '"', i)
            j = n if end < 0 else end + len(raw.group(1)) + 2
            out.append('""' + re.sub(r"[^\n]", " ", source[i + 2:j]))
            i = j
            continue
        if c in "\"'":
            if c == "'" and i > 0 and source[i - 1].isalnum():  # a digit separator: 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and source[j] != c and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
            continue
        out.append(c)
        at_line_start = c == "\n" or (at_line_start and c in " \t")
        i += 1
    return "".join(out)


def functions(source: str):
    """(name, first line, body start line, body end line) of each function of `source`."""
    text = blank(source)
    stack = []  # kinds: "scope", "function", "inner", "init"
    head_start = 0
    found = []
    line = 1
    starts = []  # (line of '{', head start offset) of the open functions
    i = 0
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == "{":
            head = text[head_start:i]
            if any(k in ("function", "inner") for k in stack):
                stack.append("inner")
            elif re.search(r"\)\s*(?:noexcept\s*)?:\s*[\w:]", head) and \
                    re.search(r"[\w>]\s*$", head):
                stack.append("init")  # a member initialised with braces in an initialiser list
            elif SCOPE.search(head) and not FUNCTION_END.search(head.rstrip()):
                stack.append("scope")
                head_start = i + 1
            elif FUNCTION_END.search(head.rstrip()) or CTOR_INIT.search(head.rstrip()):
                stack.append("function")
                starts.append((line, head_start))
            else:
                stack.append("scope")
                head_start = i + 1
        elif c == "}":
            kind = stack.pop() if stack else "scope"
            if kind == "function":
                body_line, start = starts.pop()
                head = text[start:text.rfind("{", start, i + 1)]
                first = source.count("\n", 0, start + len(head) - len(head.lstrip())) + 1
                m = re.search(r"(~?[\w:]+|operator\s*\S+)\s*\(", head)
                name = m.group(1) if m else "(lambda)"
                found.append((name, first, body_line, line))
            if kind in ("function", "scope"):
                head_start = i + 1
        elif c == ";" and not any(k in ("function", "inner") for k in stack):
            head_start = i + 1
    return found


def reason_above(lines, first_line):
    """Whether the comment block ending just above line `first_line` (1-based) holds MARKER."""
    k = first_line - 2
    while k >= 0 and lines[k].strip().startswith("//"):
        if MARKER in lines[k]:
            return True
        k -= 1
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=150)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--baseline")
    args = ap.parse_args()
    allowed = {}
    if args.baseline:
        for n, row in enumerate(pathlib.Path(args.baseline).read_text().split("\n"), 1):
            if not row.strip() or row.startswith("#"):
                continue
            f = row.split("\t")
            if len(f) < 3 or not f[2].isdigit():
                print(f"{args.baseline}:{n}:1: expected PATH<TAB>FUNCTION<TAB>LINES<TAB>note",
                      file=sys.stderr)
                return 2
            allowed[(f[0], f[1])] = int(f[2])
    seen = set()
    files = [pathlib.Path(f) for f in args.files] or sorted(
        p for p in (ROOT / "extractor").rglob("*") if p.suffix in (".cpp", ".h"))
    bad = 0
    for path in files:
        source = path.read_text(encoding="utf-8", errors="replace")
        lines = source.split("\n")
        for name, first, body, end in functions(source):
            length = end - body + 1
            if length < args.limit:
                continue
            why = reason_above(lines, first)
            rel = path.resolve().relative_to(ROOT) if path.resolve().is_relative_to(ROOT) else path
            key = (str(rel), name)
            if not why and key in allowed:
                seen.add(key)
                if length <= allowed[key]:
                    if args.all:
                        print(f"{rel}:{first}: {name}: {length} lines (baseline {allowed[key]})")
                    continue
                bad += 1
                print(f"{rel}:{first}: {name}: {length} lines, longer than its baseline "
                      f"{allowed[key]}: split it rather than let it grow")
                continue
            if not why:
                bad += 1
                print(f"{rel}:{first}: {name}: {length} lines, no '{MARKER}' comment above it")
            elif args.all:
                print(f"{rel}:{first}: {name}: {length} lines (a reason given)")
    if not args.files:
        for key in sorted(set(allowed) - seen):
            bad += 1
            print(f"{args.baseline}: {key[0]} {key[1]}: no longer a long function without a "
                  f"reason: remove its line")
    if bad:
        print(f"function_lengths: {bad} function(s) of {args.limit} lines or more without a "
              f"reason", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
