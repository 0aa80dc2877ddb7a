"""Writes the requests of tests/data/service/requests.tsv as seeds of service_request_fuzz, one
file per request, in the target's layout: a byte (method in bits 0-2, Content-Type in bits 3-5,
an Origin in bit 6: the tables of service_request_fuzz.cpp), the target, '\\n', the body.
Usage: service_seeds.py TABLE DIR"""
import os
import re
import sys

METHODS = ["GET", "POST", "POST", "POST", "PUT", "OPTIONS", "DELETE", "PATCH"]
TYPES = ["application/json", "text/plain", "text/html", "application/xml",
         "application/octet-stream", "text/plain; charset=latin1", "", "image/png"]


def unescape(s):
    """The table's escapes: \\t \\n \\\\ \\xNN (any other backslash is dropped)."""
    out = bytearray()
    i = 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            c = s[i + 1]
            if c == "x" and i + 3 < len(s) + 1:
                out.append(int(s[i + 2:i + 4], 16))
                i += 4
                continue
            out += {"t": b"\t", "n": b"\n"}.get(c, c.encode())
            i += 2
            continue
        out += s[i].encode()
        i += 1
    return bytes(out)


def main():
    table, folder = sys.argv[1], sys.argv[2]
    rows = [l.rstrip("\n").split("\t") for l in open(table, encoding="utf-8")
            if not l.startswith("#")][1:]
    for n, (setup, method, target, headers, body, status, expect) in enumerate(rows):
        m = re.search(r"Content-Type: ([^|]*)", headers)
        kind = m.group(1).strip() if m else ""
        t = TYPES.index(kind) if kind in TYPES else 6
        first = METHODS.index(method) | (t << 3) | (0x40 if "Origin:" in headers else 0)
        with open(os.path.join(folder, "request-%03d" % n), "wb") as f:
            f.write(bytes([first]) + unescape(target) + b"\n" + unescape(body))


main()
