"""`lexlink serve` on loopback, over real sockets (Python's http.client and raw sockets): the
endpoints answer as the CLI does (markup byte for byte, extract citation for citation), and the
wire's limits hold: 413 before an oversized body is read, 408 for a body that stops, JSON for a
malformed request, a stalled client does not hold up the others, 32 clients at once, a token
for an address other than loopback, SIGTERM stops it."""

import glob
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time

import pytest

CLI = os.environ["LEXLINK_CLI"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def start(*args):
    """Starts `lexlink serve --listen 127.0.0.1:0 ARGS`; returns (process, port)."""
    p = subprocess.Popen([CLI, "serve", "--listen", "127.0.0.1:0", "--cache", "-", *args],
                         stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
    assert m, line
    return p, int(m.group(1))


@pytest.fixture(scope="module")
def server():
    p, port = start("--request-timeout", "1")
    yield port
    p.send_signal(signal.SIGTERM)
    assert p.wait(timeout=10) == 0


def call(port, method, path, body=None, headers=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, dict(r.getheaders()), data


def raw(port, data, timeout=10):
    """Sends bytes on a new connection; returns the answer: until a whole response (its headers
    and Content-Length bytes) has come, the server closes, or `timeout` passes."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(timeout)
    s.sendall(data)
    out = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            out += b
            head, sep, body = out.partition(b"\r\n\r\n")
            m = re.search(rb"Content-Length: (\d+)", head)
            if sep and m and len(body) >= int(m.group(1)):
                break
    except socket.timeout:
        pass
    s.close()
    return out


def test_healthz_and_metrics(server):
    status, headers, body = call(server, "GET", "/healthz")
    assert status == 200 and headers["Content-Type"] == "application/json"
    j = json.loads(body)
    assert j["status"] == "ok" and "it" in j["jurisdictions"]
    status, headers, body = call(server, "GET", "/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    assert b'lexlink_requests_total{endpoint="healthz",status="200"}' in body


def documents():
    """Real documents of the repository: the corpora's texts and the views' HTML and XML."""
    out = sorted(glob.glob(os.path.join(ROOT, "corpora/*/text/*")))[::7]
    out += sorted(glob.glob(os.path.join(ROOT, "tests/data/text/views/*.src.*")))
    assert len(out) >= 10
    return out


def test_markup_is_the_cli_markup_byte_for_byte(server):
    for path in documents():
        with open(path, "rb") as f:
            doc = f.read()
        cli = subprocess.run([CLI, "markup", "--jurisdiction", "auto", path], capture_output=True)
        kind = "text/html" if path.endswith(".html") else (
            "application/xml" if path.endswith(".xml") else "application/octet-stream")
        status, headers, body = call(server, "POST", "/v1/markup?href=urn", doc,
                                     {"Content-Type": kind})
        if cli.returncode != 0:  # a file that looks binary: refused both ways
            assert b"binary" in cli.stderr and status == 415, path
            continue
        want = cli.stdout
        assert status == 200, (path, body[:300])
        assert body == want, path
        assert headers["Content-Type"] == kind
        assert int(headers["Lexlink-Linked"]) <= int(headers["Lexlink-Citations"])


def test_extract_is_the_cli_extract(server):
    for path in documents():
        with open(path, "rb") as f:
            doc = f.read()
        cli = subprocess.run([CLI, "extract", "--jurisdiction", "auto", "--offsets", "all", path],
                             capture_output=True)
        status, _, body = call(server, "POST", "/v1/extract?href=urn", doc,
                               {"Content-Type": "application/octet-stream"})
        if cli.returncode != 0:
            assert b"binary" in cli.stderr and status == 415, path
            continue
        want = [json.loads(l) for l in cli.stdout.splitlines()]
        for c in want:
            del c["file"]
            del c["href"]
        assert status == 200, (path, body[:300])
        got = json.loads(body)["citations"]
        for c in got:
            assert c.pop("href") == c["urn"]
        assert got == want, path


def test_json_text_with_utf16_offsets(server):
    text = "\U0001F600 ai sensi della legge 3 aprile 2000, n. 56"
    status, _, body = call(server, "POST", "/v1/extract",
                           json.dumps({"text": text, "jurisdiction": "it", "offsets": "utf16"}),
                           {"Content-Type": "application/json"})
    assert status == 200
    (c,) = json.loads(body)["citations"]
    # What a JavaScript editor slices with.
    units = text.encode("utf-16-le")
    assert units[2 * c["utf16_start"]:2 * c["utf16_end"]].decode("utf-16-le") == c["text"]
    assert "start" not in c and "char_start" not in c


def test_oversized_body_is_refused_before_it_is_read(server):
    head = (b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
            b"Content-Length: 100000000\r\n\r\n")
    t = time.monotonic()
    out = raw(server, head, timeout=5)
    assert out.startswith(b"HTTP/1.1 413 ")
    assert b'"code":"too_large"' in out
    assert time.monotonic() - t < 2


def test_a_body_that_stops_gets_408(server):
    head = (b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
            b"Content-Length: 100\r\n\r\nlegge 3 aprile")
    out = raw(server, head, timeout=8)
    assert out.startswith(b"HTTP/1.1 408 "), out[:200]
    assert b'"code":"timeout"' in out


@pytest.mark.parametrize("request_bytes", [
    b"GARBAGE\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 20000 + b"\r\n\r\n",
    b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\n\r\n",
    b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
])
def test_malformed_requests_get_json_errors(server, request_bytes):
    out = raw(server, request_bytes, timeout=5)
    assert re.match(rb"HTTP/1\.1 4\d\d ", out), out[:200]
    body = out.split(b"\r\n\r\n", 1)[1]
    j = json.loads(body)
    assert j["error"]["code"] and j["error"]["message"]


def test_a_stalled_client_does_not_hold_up_the_others(server):
    stalled = [socket.create_connection(("127.0.0.1", server)) for _ in range(8)]
    for s in stalled:
        s.sendall(b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nContent-Le")
    t = time.monotonic()
    status, _, _ = call(server, "GET", "/healthz")
    assert status == 200
    assert time.monotonic() - t < 0.5
    for s in stalled:
        s.close()


def test_32_clients_at_once_get_the_same_answers(server):
    body = json.dumps({"text": "art. 3 della legge 3 aprile 2000, n. 56 e d.lgs. 165/2001",
                       "jurisdiction": "it"})
    _, _, want = call(server, "POST", "/v1/extract", body, {"Content-Type": "application/json"})
    results = []

    def client():
        c = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
        for _ in range(20):  # keep-alive: one connection per client
            c.request("POST", "/v1/extract", body=body, headers={"Content-Type": "application/json"})
            r = c.getresponse()
            results.append((r.status, r.read()))
        c.close()

    threads = [threading.Thread(target=client) for _ in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 640
    assert all(r == (200, want) for r in results)


def test_an_address_other_than_loopback_needs_a_token():
    r = subprocess.run([CLI, "serve", "--listen", "0.0.0.0:0"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2
    assert "needs --token" in r.stderr


def test_with_a_token_every_request_carries_it():
    p, port = start("--token", "s3cret")
    try:
        status, headers, body = call(port, "GET", "/healthz")
        assert status == 401 and headers["WWW-Authenticate"] == "Bearer"
        assert json.loads(body)["error"]["code"] == "unauthorized"
        status, _, _ = call(port, "GET", "/healthz", headers={"Authorization": "Bearer s3cret"})
        assert status == 200
    finally:
        p.send_signal(signal.SIGINT)
        assert p.wait(timeout=10) == 0


def test_help_states_the_limits():
    r = subprocess.run([CLI, "serve", "--help"], capture_output=True, text=True, check=True)
    for default in ["127.0.0.1:8750", "8388608", "--request-timeout", "--connections N",
                    "--allow-origin", "--token"]:
        assert default in r.stdout


def test_the_openapi_file_says_what_the_service_does(server):
    import yaml  # Debian's python3-yaml

    with open(os.path.join(ROOT, "docs/openapi.yaml"), encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    schemas = spec["components"]["schemas"]
    _, _, body = call(server, "POST", "/v1/extract",
                      json.dumps({"text": "legge 3 aprile 2000, n. 56", "jurisdiction": "it"}),
                      {"Content-Type": "application/json"})
    (c,) = json.loads(body)["citations"]
    assert set(c) == set(schemas["Citation"]["properties"])
    for path in spec["paths"]:
        status, _, _ = call(server, "GET", path.replace("{name}", "urn:lex:it:stato:legge:2000;1"))
        assert status in (200, 405), path
    # Every key of a document request is read (markup takes all but offsets, extract all but
    # profile), and one more is refused.
    keys = set(schemas["DocumentRequest"]["properties"]) - {"text", "content"}
    values = {"format": "text", "jurisdiction": "it", "self": "urn:lex:it:stato:legge:2000;1",
              "offsets": "utf16", "href": "urn", "partition_sep": "~", "profile": "html"}
    assert keys == set(values)
    for endpoint, left_out in [("/v1/extract", "profile"), ("/v1/markup", "offsets")]:
        request = {k: v for k, v in values.items() if k != left_out}
        request["text"] = "legge 3 aprile 2000, n. 56"
        status, _, body = call(server, "POST", endpoint, json.dumps(request),
                               {"Content-Type": "application/json"})
        assert status == 200, body
        request[left_out] = values[left_out]
        status, _, _ = call(server, "POST", endpoint, json.dumps(request),
                            {"Content-Type": "application/json"})
        assert status == 400


def test_bodies_held_at_once_are_bounded():
    p, port = start("--max-body", "1000", "--max-inflight", "1000", "--request-timeout", "3")
    try:
        held = socket.create_connection(("127.0.0.1", port))
        held.sendall(b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                     b"Content-Length: 800\r\n\r\nlegge")
        time.sleep(0.3)
        out = raw(port, b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                        b"Content-Length: 500\r\n\r\n" + b"a" * 500, timeout=5)
        assert out.startswith(b"HTTP/1.1 503 "), out[:200]
        assert b"Retry-After: 1" in out and b'"code":"busy"' in out
        held.close()
        time.sleep(3.5)  # the held body times out and gives its room back
        status, _, _ = call(port, "POST", "/v1/extract", b"a" * 500, {"Content-Type": "text/plain"})
        assert status == 200
    finally:
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=10) == 0
