"""Hostile clients against the real prophecyd, over raw sockets (issue 12):
bad percent-encodings on every route with a segment, early answers that
never read the body, conflicting headers, too many or unknown query
parameters, HEAD, idle and slow-drip connections, the connection and body
budgets, and the token rules. Every test ends with the server healthy."""
import json
import os
import re
import socket
import subprocess
import time
import urllib.parse
import uuid

import prophecy_test as pt
from prophecy_test import PROPHECYD, Server, report, run_doc, test

S = Server("--max-body", "65536", "--request-timeout", "2")

# Every route with a captured segment (server/routes.c), with a method it answers.
SEGMENT_ROUTES = [
    ("GET", "/api/v1/runs/{}"), ("GET", "/api/v1/applications/{}"),
    ("PUT", "/api/v1/applications/{}"), ("GET", "/api/v1/systems/{}"),
    ("PUT", "/api/v1/systems/{}"), ("POST", "/api/v1/systems/{}/benchmarks"),
    ("GET", "/api/v1/systems/{}/benchmarks"), ("POST", "/api/v1/systems/{}/parameters"),
    ("GET", "/api/v1/systems/{}/parameters"), ("DELETE", "/api/v1/systems/{}/parameters/{}"),
    ("POST", "/api/v1/systems/{}/parameters/fit"), ("GET", "/api/v1/templates/{}"),
    ("GET", "/api/v1/models/{}"), ("GET", "/api/v1/models/{}/predict"),
    ("GET", "/plots/{}"), ("GET", "/applications/{}"), ("GET", "/runs/{}"),
    ("GET", "/systems/{}"), ("GET", "/models/{}"), ("GET", "/static/{}"),
]
BAD_SEGMENTS = ["%", "%zz", "a%4", "%00", "x%0", "%%41", "%g1"]


def raw(data, srv=None, timeout=10, source=None, read=True):
    """Sends raw bytes; returns (status, headers dict, body) or None when the
    server closed without an answer."""
    srv = srv or S
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=timeout,
                                 source_address=(source, 0) if source else None)
    try:
        s.sendall(data)
        if not read:
            return s
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            out += chunk
            head, sep, rest = out.partition(b"\r\n\r\n")
            if sep:
                m = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
                if m and len(rest) >= int(m.group(1)):
                    break
                if data.startswith(b"HEAD ") and m:
                    break
    finally:
        if read:
            s.close()
    if not out:
        return None
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for ln in lines[1:]:
        k, _, v = ln.partition(":")
        headers[k.strip().lower()] = v.strip()
    return status, headers, body


def req(method, target, headers=(), body=b"", srv=None, **kw):
    h = "".join(f"{k}: {v}\r\n" for k, v in headers)
    data = f"{method} {target} HTTP/1.1\r\nHost: x\r\n{h}\r\n".encode() + body
    return raw(data, srv=srv, **kw)


def auth(srv=None):
    return ("Authorization", "Bearer " + (srv or S).token)


def healthy(srv=None):
    r = req("GET", "/api/v1/health", [("Connection", "close")], srv=srv)
    assert r is not None and r[0] == 200, r


def error_code(r):
    return json.loads(r[2])["error"]["code"]


@test
def bad_percent_encoding_in_any_segment_is_400():
    for method, pattern in SEGMENT_ROUTES:
        for bad in BAD_SEGMENTS:
            path = pattern.replace("{}", bad)
            hs = [auth(), ("Connection", "close")]
            body = b""
            if method in ("POST", "PUT"):
                body = b"{}"
                hs += [("Content-Type", "application/json"), ("Content-Length", "2")]
            r = req(method, path, hs, body)
            assert r is not None, (method, path, "no answer")
            assert r[0] == 400, (method, path, r[0], r[2][:200])
    healthy()


@test
def head_answers_as_get_without_a_body():
    r = req("HEAD", "/api/v1/health", [("Connection", "close")])
    assert r[0] == 200 and r[2] == b"", r
    r = req("HEAD", "/", [("Connection", "close")])
    assert r[0] == 200 and r[1]["content-type"].startswith("text/html"), r
    r = req("DELETE", "/api/v1/health", [("Connection", "close")])
    assert r[0] == 405 and "HEAD" in r[1]["allow"], r


@test
def conflicting_content_lengths_are_400():
    before = S.content()
    doc = json.dumps(run_doc(id="dup-cl")).encode()
    r = req("POST", "/api/v1/runs", [auth(), ("Content-Type", "application/json"),
                                     ("Content-Length", str(len(doc))),
                                     ("Content-Length", str(len(doc) - 5))], doc)
    assert r is not None and r[0] == 400, r
    assert S.content() == before
    healthy()


@test
def many_query_parameters_are_400():
    for n in (1000, 3000):
        q = "&".join(f"p{i}=1" for i in range(n))
        r = req("GET", "/api/v1/runs?" + q, [("Connection", "close")])
        assert r is not None and r[0] == 400, (n, r)
    healthy()


@test
def long_query_strings_are_answered():
    # Long enough to exhaust libmicrohttpd's connection memory while it parses
    # them (it used to drop the connection without a word).
    for n, width in ((512, 80), (400, 100), (100, 600), (1, 70000)):
        q = "&".join(f"p{i}=" + "v" * width for i in range(n))
        r = req("GET", "/api/v1/predict?" + q, [("Connection", "close")])
        assert r is not None and r[0] == 400, (n, width, r)
    healthy()


@test
def oversized_and_repeated_headers_are_answered():
    for hs in ([("X-Big", "a" * 60000)], [(f"X-A{i}", "1") for i in range(1000)],
               [(f"X-A{i}", "1") for i in range(3000)],
               [("Authorization", "Bearer x"), ("Authorization", "Bearer y")]):
        r = req("GET", "/api/v1/health", hs + [("Connection", "close")])
        assert r is not None and r[0] in (200, 400, 431), (len(hs), r)
    healthy()


@test
def unknown_query_parameters_are_400_naming_them():
    for target, name in [("/api/v1/runs?aplication=x", "aplication"),
                         ("/api/v1/runs?started_after=2026", "started_after"),
                         ("/api/v1/health?x=1", "x"),
                         ("/api/v1/applications?sort=name", "sort")]:
        r = req("GET", target, [("Connection", "close")])
        assert r[0] == 400, (target, r)
        err = json.loads(r[2])["error"]
        assert err["code"] == "unknown_parameter" and err["field"] == name, err
    # the ones a route reads pass
    r = req("GET", "/api/v1/runs?application=x&limit=5", [("Connection", "close")])
    assert r[0] == 200, r
    # the form steps: their own names and prefixes pass, others are a 400 page
    r = req("GET", "/model/parameterize?step=1&v.N=3&mode.N=fixed", [("Connection", "close")])
    assert r[0] in (200, 422) and b"Parameterization" in r[2], (r[0], r[2][:300])
    r = req("GET", "/model/fit?step=1&aplication=x", [("Connection", "close")])
    assert r[0] == 400 and b"aplication" in r[2], (r[0], r[2][:300])


@test
def rejected_requests_are_answered_before_the_body():
    # No token, 404, 405, 413: answered at once although the body never comes.
    cases = [("POST", "/api/v1/runs", [], 401),
             ("POST", "/api/v1/nowhere", [auth()], 404),
             ("PUT", "/api/v1/runs", [auth()], 405),
             ("POST", "/api/v1/runs", [auth(), ("Content-Length", "100000000")], 413)]
    for method, path, hs, want in cases:
        hs = hs + [("Content-Type", "application/json")]
        if not any(k == "Content-Length" for k, _ in hs):
            hs.append(("Content-Length", "60000"))
        t = time.time()
        r = req(method, path, hs, timeout=5)
        assert r is not None and r[0] == want, (method, path, r)
        assert time.time() - t < 1.5, (method, path, time.time() - t)
    healthy()


@test
def over_limit_body_gets_413_instead_of_100_continue():
    s = req("POST", "/api/v1/runs", [auth(), ("Content-Type", "application/json"),
                                     ("Content-Length", "1000000"),
                                     ("Expect", "100-continue")], read=False, timeout=5)
    data = s.recv(4096)
    s.close()
    assert data.startswith(b"HTTP/1.1 413"), data[:100]
    healthy()


@test
def idle_and_slow_drip_connections_are_dropped():
    idle = [socket.create_connection(("127.0.0.1", S.port)) for _ in range(20)]
    drip = socket.create_connection(("127.0.0.1", S.port))
    drip.sendall(b"GET /api/v1/health HTTP/1.1\r\n")
    body = socket.create_connection(("127.0.0.1", S.port))
    body.sendall(("POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
                  "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
                  % S.token).encode())
    t = time.time()
    closed_at = {}
    socks = idle + [drip, body]
    for s in socks:
        s.settimeout(0.2)
    while time.time() - t < 8 and len(closed_at) < len(socks):
        for i, s in enumerate(socks):
            if i in closed_at:
                continue
            try:
                if i == len(idle):
                    s.sendall(b"X")  # one byte at a time keeps no one waiting
                elif i == len(idle) + 1:
                    s.sendall(b" ")
                d = s.recv(100)
                if not d or d.startswith(b"HTTP/1.1 4"):
                    closed_at[i] = time.time() - t
            except socket.timeout:
                pass
            except OSError:
                closed_at[i] = time.time() - t
        healthy()
    for s in socks:
        s.close()
    assert len(closed_at) == len(socks), (len(closed_at), closed_at)
    assert max(closed_at.values()) < 5, closed_at


@test
def connection_budget_per_client_keeps_others_served():
    k = Server("--max-conns-per-client", "8", "--request-timeout", "30")
    try:
        hold = []
        for _ in range(40):  # from another loopback address
            try:
                hold.append(socket.create_connection(("127.0.0.1", k.port), timeout=2,
                                                     source_address=("127.0.0.2", 0)))
            except OSError:
                pass
        time.sleep(0.2)
        t = time.time()
        healthy(k)
        assert time.time() - t < 1, time.time() - t
        for s in hold:
            s.close()
    finally:
        k.close()


@test
def body_budget_answers_503_with_retry_after():
    k = Server("--max-body", "1048576", "--max-buffered", "1048576")
    try:
        first = req("POST", "/api/v1/runs", [auth(k), ("Content-Type", "application/json"),
                                             ("Content-Length", "1000000")], b"{",
                    srv=k, read=False)
        time.sleep(0.2)
        r = req("POST", "/api/v1/runs", [auth(k), ("Content-Type", "application/json"),
                                         ("Content-Length", "100000")], b"{", srv=k)
        assert r is not None and r[0] == 503 and r[1].get("retry-after"), r
        first.close()
        time.sleep(0.3)
        doc = json.dumps(run_doc(id="after-budget")).encode()
        r = req("POST", "/api/v1/runs", [auth(k), ("Content-Type", "application/json"),
                                         ("Content-Length", str(len(doc)))], doc, srv=k)
        assert r[0] == 201, r
    finally:
        k.close()


@test
def costly_requests_queue_on_workers_and_health_keeps_answering():
    import threading
    k = Server("--workers", "1", "--queue", "2", "--threads", "1")
    try:
        data = [[1 + i % 100, 1 + i // 100, 3.0 * (1 + i % 100) + 0.5 * (1 + i // 100)]
                for i in range(3000)]
        doc = json.dumps({"vars": ["n", "p"], "data": data}).encode()
        got = []

        def fit():
            got.append(req("POST", "/api/v1/fit", [("Content-Type", "application/json"),
                                                   ("Content-Length", str(len(doc))),
                                                   ("Connection", "close")], doc, srv=k,
                           timeout=120))
        ts = [threading.Thread(target=fit) for _ in range(5)]
        for t in ts:
            t.start()
        time.sleep(0.3)
        t0 = time.time()
        healthy(k)  # one MHD thread, yet not stuck behind the fits
        assert time.time() - t0 < 1, time.time() - t0
        for t in ts:
            t.join()
        # One computing, up to two waiting (at least one, as the worker may
        # not have taken the first yet), the rest refused.
        codes = sorted(r[0] for r in got)
        assert codes.count(200) >= 2 and 503 in codes and len(codes) == 5, codes
        assert all(r[1].get("retry-after") for r in got if r[0] == 503), got
    finally:
        k.close()


@test
def bearer_scheme_is_case_insensitive():
    doc = json.dumps(run_doc(id="lower-" + uuid.uuid4().hex)).encode()
    r = req("POST", "/api/v1/runs", [("Authorization", "bearer " + S.token),
                                     ("Content-Type", "application/json"),
                                     ("Content-Length", str(len(doc)))], doc)
    assert r[0] == 201, r


@test
def form_token_is_checked_on_its_own():
    page = req("GET", "/upload", [("Connection", "close")])[2].decode()
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    fields = {"csrf": csrf, "token": "pt_wrong", "id": "web-" + uuid.uuid4().hex,
              "application": "a", "executable": "e", "system": "s", "nprocs": "1",
              "runtime": "1", "inputs": "", "kernels": "", "metrics": "", "started_at": ""}
    body = urllib.parse.urlencode(fields).encode()
    before = S.content()
    r = req("POST", "/upload/run", [auth(),
                                    ("Content-Type", "application/x-www-form-urlencoded"),
                                    ("Content-Length", str(len(body)))], body)
    assert r[0] == 401, (r[0], r[2][:300])
    assert S.content() == before


@test
def health_is_open_under_protect_reads():
    k = Server("--protect-reads")
    try:
        healthy(k)
        r = req("GET", "/api/v1/runs", [("Connection", "close")], srv=k)
        assert r[0] == 401, r
    finally:
        k.close()


@test
@pt.sqlite_only("one server per SQLite file (links to it); servers share PostgreSQL")
def second_server_through_a_link_refuses():
    link = os.path.join(S.tmp, "link.db")
    hard = os.path.join(S.tmp, "hard.db")
    os.symlink(S.db, link)
    os.link(S.db, hard)
    for path in (link, hard):
        out = subprocess.run([PROPHECYD, "serve", "--db", path, "--listen", "127.0.0.1:0",
                              "--quiet"], capture_output=True, text=True, timeout=10)
        assert out.returncode != 0 and "already serving" in out.stderr, out.stderr
    healthy()


@test
def commands_refuse_a_missing_database_and_know_help():
    missing = os.path.join(S.tmp, "typo.db")
    for args in (["token", "create", "x"], ["token", "list"], ["export"],
                 ["backup", os.path.join(S.tmp, "b.db")]):
        out = subprocess.run([PROPHECYD, *args, "--db", missing], capture_output=True,
                             text=True)
        assert out.returncode != 0 and "no database" in out.stderr, (args, out.stderr)
        assert not os.path.exists(missing), args
    for cmd in ("serve", "token", "import", "export", "backup"):
        out = subprocess.run([PROPHECYD, cmd, "--help"], capture_output=True, text=True)
        assert out.returncode == 0 and "usage: prophecyd" in out.stdout, (cmd, out.stderr)


@test
def server_is_still_healthy():
    healthy()


S.close()
report()
