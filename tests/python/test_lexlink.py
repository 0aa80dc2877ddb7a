"""The Python module lexlink tested as a Python program uses it: the bad-input table every API
shares (tests/data/lexlink/bad-input.tsv), offsets in each unit on text outside the BMP and on
HTML with entities, the same citations as the CLI on the bundled corpora, markup and unmark,
threads sharing one extractor, the URN tables of tests/data/urn, and stubs that name what the
module defines."""

import ast
import concurrent.futures
import json
import pathlib
import subprocess
import threading
import time

import pytest

import lexlink
from conftest import SOURCE, table, unescape

STATUS = {
    "INVALID_ARGUMENT": "invalid_argument",
    "DATA": "data_error",
    "NOT_FOUND": "not_found",
    "IO": "io_error",
    "LIMIT_EXCEEDED": "limit_exceeded",
    "UNSUPPORTED": "unsupported",
}
BAD_INPUT = table(
    "tests/data/lexlink/bad-input.tsv", ["case", "call", "options", "input", "status", "message"]
)


def options_of(column):
    return {} if column == "-" else dict(kv.split("=", 1) for kv in column.split(" "))


def run_row(call, options, document, cache):
    """One row of bad-input.tsv through the Python API."""
    urn_options = {}
    if "max_length" in options:
        urn_options["max_length"] = int(options["max_length"])
    if call == "urn_validate":
        return lexlink.urn.validate(document, **urn_options)
    if call == "urn_normalize":
        return lexlink.urn.normalize(document, **urn_options)
    if call == "urn_parse":
        return lexlink.urn.parse(document, **urn_options)
    if call == "unmark":
        return lexlink.unmark(document)
    data = str(SOURCE / options["data"]) if "data" in options else str(SOURCE)
    kwargs = {"cache": cache}
    if "max" in options:
        kwargs["max_document_bytes"] = int(options["max"])
    jurisdiction = options.get("jurisdictions", "auto").split(",")
    x = lexlink.Extractor(jurisdiction, data, **kwargs)
    if call == "open":
        return x
    doc = {"encoding": options["encoding"]} if "encoding" in options else {}
    if call == "extract":
        return x.extract(document, **doc)
    if call == "extract_file":
        path = document if document is None else (str(SOURCE / document.decode()) if document else "")
        return x.extract_file(path, **doc)
    if call == "markup":
        return x.markup(document, profile=options.get("profile", "auto"), **doc)
    raise AssertionError(f"unknown call {call}")


@pytest.mark.parametrize("line,row", BAD_INPUT, ids=[r[1][0] for r in BAD_INPUT])
def test_bad_input(line, row, cache):
    name, call, options, given, status, message = row
    # Python has no null pointer: None is refused by the argument's type (TypeError).
    document = None if given == "NULL" else (b"" if given == "-" else unescape(given))
    if document is None:
        with pytest.raises(TypeError):
            run_row(call, options_of(options), document, cache)
        return
    if status == "OK":
        run_row(call, options_of(options), document, cache)
        return
    with pytest.raises(lexlink.Error) as caught:
        run_row(call, options_of(options), document, cache)
    e = caught.value
    assert e.code == STATUS[status], f"bad-input.tsv:{line}: {e}"
    assert e.message
    if message != "-":
        assert message in str(e), f"bad-input.tsv:{line}: {e}"


def test_error_location(cache):
    with pytest.raises(lexlink.Error) as caught:
        lexlink.Extractor("g", str(SOURCE / "tests/data/grammars-bad/unknown-setting"), cache=cache)
    e = caught.value
    assert (e.code, e.file, e.line, e.col) == ("data_error", "grammars/g/g.grammar", 3, 5)
    assert str(e).startswith("grammars/g/g.grammar:3:5: ")


def test_offsets_in_every_unit(extractor):
    # Characters outside the BMP (an emoji, CJK extension B) before and between citations.
    text = "😀 Visto il d.lgs. 30 marzo 2001, n. 165 𠀀 e l’art. 3 della legge 3 aprile 2000, n. 56"
    raw = text.encode("utf-8")
    utf16 = text.encode("utf-16-le")
    from_str = extractor.extract(text)
    from_bytes = extractor.extract(raw)
    assert [c.urn for c in from_str] == [
        "urn:lex:it:stato:decreto.legislativo:2001-03-30;165",
        "urn:lex:it:stato:legge:2000-04-03;56~art3",
    ]
    assert [c.urn for c in from_bytes] == [c.urn for c in from_str]
    for s, b in zip(from_str, from_bytes):
        assert text[s.start : s.end] == s.text  # str indices
        assert raw[b.start : b.end].decode() == b.text  # byte offsets
        assert (s.char_start, s.char_end) == (s.start, s.end)
        assert (b.byte_start, b.byte_end) == (b.start, b.end)
        assert (s.byte_start, s.byte_end, s.utf16_start) == (b.start, b.end, b.utf16_start)
        assert utf16[2 * s.utf16_start : 2 * s.utf16_end].decode("utf-16-le") == s.text
        assert s.complete and not s.inner and s.jurisdiction == "it" and s.rule.startswith("it/")


def test_offsets_in_html_with_entities(extractor):
    html = "<p>&#x1F600; legge 3 aprile&nbsp;2000, n.&#160;56 &amp; altro</p>"
    (c,) = extractor.extract(html, format="html")
    assert html[c.start : c.end] == "legge 3 aprile&nbsp;2000, n.&#160;56"
    assert c.text == "legge 3 aprile\u00a02000, n.\u00a056"
    assert (c.byte_start, c.utf16_start) == (c.start, c.start)  # ASCII before it


def cli_citations(cli, path):
    out = subprocess.run(
        [cli, "extract", "--jurisdiction", "auto", "--offsets", "all", str(path)],
        check=True,
        capture_output=True,
        env={"LEXLINK_DATA": str(SOURCE), "XDG_CACHE_HOME": "/nonexistent"},
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


CORPUS_FILES = sorted(p for p in (SOURCE / "corpora").glob("*/text/*") if p.is_file())[::7][:12]


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_same_citations_as_the_cli(path, extractor, cli):
    ours = extractor.extract_file(str(path))
    theirs = cli_citations(cli, path)
    assert len(ours) == len(theirs) > 0
    for c, t in zip(ours, theirs):
        assert (c.start, c.end, c.urn, c.rule) == (t["start"], t["end"], t["urn"], t["rule"])
        assert (c.char_start, c.utf16_start, c.utf16_end) == (
            t["char_start"],
            t["utf16_start"],
            t["utf16_end"],
        )
    # The same file given as bytes and as str: the same citations, offsets in each unit.
    raw = path.read_bytes()
    assert [(c.start, c.urn) for c in extractor.extract(raw)] == [(c.start, c.urn) for c in ours]
    text = raw.decode("utf-8")
    assert [(c.char_start, c.urn) for c in extractor.extract(text)] == [
        (c.char_start, c.urn) for c in ours
    ]


@pytest.mark.parametrize("as_bytes", [False, True])
def test_markup_then_unmark_gives_the_input_back(extractor, as_bytes):
    html = "<p>Vista la legge 3 aprile 2000, n. 56 😀, e l’art. 5 del d.lgs. 30 marzo 2001, n. 165.</p>"
    doc = html.encode() if as_bytes else html
    marked, outcomes = extractor.markup(doc, outcomes=True)
    assert type(marked) is type(doc)
    assert marked.count(b"<a " if as_bytes else "<a ") == 2
    assert lexlink.unmark(marked) == doc
    assert extractor.unmark(marked) == doc
    assert [o.reason for o in outcomes] == ["linked", "linked"]
    for o in outcomes:
        assert o.linked and o.href == o.urn
        cited = doc[o.start : o.end]
        assert (cited.decode() if as_bytes else cited).startswith(("legge", "art."))
    assert extractor.markup(doc) == marked


def test_markup_options(extractor):
    doc = "<p>art. 5 della legge 3 aprile 2000, n. 56</p>"
    resolver = extractor.markup(doc, href="resolver")
    assert "normattiva.it" in resolver
    with pytest.raises(ValueError):
        extractor.markup(doc, href="nowhere")
    with pytest.raises(ValueError):
        extractor.markup(doc, partition_sep="/")
    with pytest.raises(ValueError):
        extractor.extract(doc, format="pdf")
    with pytest.raises(ValueError):  # a str is UTF-8 by definition
        extractor.extract(doc, encoding="latin1")
    assert extractor.extract(doc.encode("latin1"), encoding="latin1")
    with pytest.raises(TypeError):
        extractor.extract(bytearray(b"legge 3 aprile 2000, n. 56"))
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate is no text
        extractor.extract("legge \udc80 3 aprile 2000, n. 56")


def test_self_urn(extractor):
    doc = "Ai sensi dell'articolo 3 del presente decreto"
    self_urn = "urn:lex:it:stato:decreto.legislativo:2001-03-30;165"
    assert [c.urn for c in extractor.extract(doc, self_urn=self_urn)] == [self_urn + "~art3"]
    assert extractor.extract(doc) == []  # the document's own name is unknown


def test_threads_share_one_extractor(extractor):
    texts = [p.read_text(encoding="utf-8") for p in CORPUS_FILES]
    alone = [[(c.start, c.urn) for c in extractor.extract(t)] for t in texts]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(3):
            shared = list(pool.map(lambda t: [(c.start, c.urn) for c in extractor.extract(t)], texts))
            assert shared == alone


def test_extractor_properties(extractor, data):
    assert extractor.jurisdictions == lexlink.jurisdictions(data)
    assert "it" in extractor.jurisdictions and extractor.data_folder == data
    assert lexlink.Extractor("it", data).jurisdictions == ["it"]
    assert lexlink.Extractor(["it", "uk"], data).jurisdictions == ["it", "uk"]
    assert lexlink.__version__.count(".") == 2


@pytest.mark.parametrize("line,row", table("tests/data/urn/valid.tsv", ["name", "covers", "canonical"]))
def test_urn_valid(line, row):
    name = unescape(row[0]).decode()
    canonical = name if row[2] == "=" else unescape(row[2]).decode()
    lexlink.urn.validate(name)
    assert lexlink.urn.is_valid(name)
    assert lexlink.urn.normalize(name) == canonical
    parts = lexlink.urn.parse(name)
    assert parts.canonical == canonical
    assert canonical.startswith(f"urn:lex:{parts.jurisdiction}")
    assert lexlink.urn.equal(name, canonical)


@pytest.mark.parametrize(
    "line,row", table("tests/data/urn/invalid.tsv", ["name", "position", "production", "message"])
)
def test_urn_invalid(line, row):
    name = unescape(row[0])
    assert not lexlink.urn.is_valid(name)
    with pytest.raises(lexlink.Error) as caught:
        lexlink.urn.validate(name)
    e = caught.value
    assert e.code in ("invalid_argument", "limit_exceeded")
    assert e.col == int(row[1]) + 1, str(e)
    assert row[3] in str(e)


@pytest.mark.parametrize("line,row", table("tests/data/urn/resolve.tsv", ["name", "sep", "url"]))
def test_urn_resolve(line, row, data):
    name, sep, url = row
    if url.startswith("!"):
        with pytest.raises(lexlink.Error) as caught:
            lexlink.urn.resolve(name, partition_sep=sep, data=data)
        assert url[1:] in str(caught.value)
    else:
        assert lexlink.urn.resolve(name, partition_sep=sep, data=data) == url


def test_urn_parts():
    p = lexlink.urn.parse("URN:LEX:IT:Stato:Legge:2000;56~art3")
    assert (p.jurisdiction, p.partition, p.year, p.year_only) == ("it", "art3", "2000", True)
    assert p.work == "urn:lex:it:stato:legge:2000;56"
    assert p.structure["measure"]["type"] == "Legge"  # the structure of the name as written
    assert lexlink.urn.normalize("urn:lex:it:stato:legge:2000-04-03;56~Art3") == (
        "urn:lex:it:stato:legge:2000-04-03;56~Art3"
    )
    assert not lexlink.urn.equal("urn:lex:it:stato:legge:2000-04-03;56", "urn:lex:it:stato:legge:2000-04-03;57")


def stub_names(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom) and node.module is None:
            names.update(a.asname or a.name for a in node.names)
    return names


def test_stubs_name_what_the_module_defines():
    package = pathlib.Path(lexlink.__file__).parent
    assert (package / "py.typed").exists()
    assert stub_names(package / "__init__.pyi") == set(lexlink.__all__)
    assert stub_names(package / "urn.pyi") == set(lexlink.urn.__all__)
    for cls in ("Citation", "LinkOutcome", "Extractor"):
        tree = ast.parse((package / "__init__.pyi").read_text(encoding="utf-8"))
        (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls]
        stubbed = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} - {"__init__"}
        defined = {n for n in dir(getattr(lexlink, cls)) if not n.startswith("_")}
        assert stubbed == defined, cls


def test_the_gil_is_released_while_a_document_is_read(extractor):
    # While another thread reads a large document, this one keeps running Python: were the GIL
    # held through the call, this thread would stand still for the whole call (its longest gap
    # between two turns of the loop would be about the call's length).
    doc = b"".join(p.read_bytes() for p in CORPUS_FILES)
    doc *= max(1, (16 << 20) // len(doc))  # about 16 MB: a call of a few tenths of a second
    call = {}

    def read():
        t0 = time.perf_counter()
        extractor.extract(doc)
        call["seconds"] = time.perf_counter() - t0

    worker = threading.Thread(target=read)
    last, longest = time.perf_counter(), 0.0  # (start() itself waits for the worker)
    worker.start()
    while worker.is_alive():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    longest = max(longest, time.perf_counter() - last)  # the wait that ended the loop
    worker.join()
    assert call["seconds"] > 0.1, call
    assert longest < call["seconds"] / 2, (longest, call)
