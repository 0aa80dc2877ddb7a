"""Shared fixtures of the Python module's tests (pytest; run by ctest as python.pytest).

The module is imported from the build tree (ctest sets PYTHONPATH=BUILD/python); the data folder
is the source tree's, named explicitly; compiled trigger databases go to a temporary cache.
LEXLINK_CLI names the lexlink program the library's answers are compared with.
"""

import os
import pathlib

import pytest

import lexlink

SOURCE = pathlib.Path(__file__).resolve().parents[2]


def unescape(field: str) -> bytes:
    """The C-style escapes of the test tables (\\xHH \\n \\t \\\\) as bytes."""
    out = bytearray()
    raw = field.encode("utf-8")
    i = 0
    while i < len(raw):
        c = raw[i]
        if c != 0x5C or i + 1 >= len(raw):
            out.append(c)
            i += 1
            continue
        e = chr(raw[i + 1])
        if e == "t":
            out += b"\t"
            i += 2
        elif e == "n":
            out += b"\n"
            i += 2
        elif e == "x" and i + 3 < len(raw):
            out.append(int(raw[i + 2 : i + 4], 16))
            i += 4
        else:
            out.append(raw[i + 1])
            i += 2
    return bytes(out)


def table(relative: str, header):
    """The rows of a TSV table of the source tree (comments '#', then the header), as
    (line number, fields) pairs; the header must be the one given."""
    rows = []
    seen_header = False
    path = SOURCE / relative
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if not seen_header:
                assert fields == list(header), f"{relative}:{number}: header {fields}"
                seen_header = True
                continue
            assert len(fields) == len(header), f"{relative}:{number}: {len(fields)} fields"
            rows.append((number, fields))
    assert rows, f"{relative}: no rows"
    return rows


@pytest.fixture(scope="session")
def cache(tmp_path_factory):
    return str(tmp_path_factory.mktemp("lexlink-cache"))


@pytest.fixture(scope="session")
def data():
    return str(SOURCE)


@pytest.fixture(scope="session")
def extractor(data, cache):
    """Every jurisdiction of the source tree, as `lexlink extract` loads them by default."""
    return lexlink.Extractor("auto", data, cache=cache)


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("LEXLINK_CLI")
    if not path:
        pytest.skip("LEXLINK_CLI is not set (ctest sets it)")
    return path
