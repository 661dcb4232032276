#!/usr/bin/env python3
"""The issue-12 starvation attacks against a prophecyd binary, with figures.

    python3 bench/http_attacks.py [PROPHECYD] [--old]

Starts PROPHECYD (default build/bin/prophecyd) on a temporary database and runs:

  idle   1,000 connections that send nothing (from 127.0.0.2..127.0.0.9);
         reports how many the server holds, its RSS, and whether and how fast
         /api/v1/health answers a client from 127.0.0.1 meanwhile.
  body   100 connections POST /api/v1/runs without a token, each announcing
         and sending an 8 MiB body; reports the server's peak RSS (VmHWM).
  fits   two concurrent 100,000-point two-variable fits (POST /api/v1/fit);
         reports /api/v1/health latency (median, p99, max) while they run.

The availability cases of issue 34, each printing health latency and the
server's memory without the attack and with it, in the same run:

  lockout   one address (127.0.0.2) holds 300 idle connections (more than
            its budget), reopening each one the server drops; 20 health probes
            from that address.
  compares  16 concurrent GET /api/v1/compare over a 200,000-run database.
  alerts    one batch of 2,000 runs under 10 watches: 20,000 alerts.
  otf2      OTF2 archives of 10,000 and 4,000 locations (1 MiB chunks) and of 200
            locations written with 16 MiB chunks (written by
            build/tests/test_otf2_memory --write): the server's peak and the
            reader child's peak.
  caliper   a Caliper json-split chain of 50,000 nodes (1.4 MB).
  bigtrace  a 4,096-rank trace (the limit) with its run, POST /api/v1/traces.
  (otf2 also uploads a single run every 0.5 s during each import: the
  writer must not wait for the archive's read.)

--old skips the options the old server does not know. Figures of the
issue-34 cases, with their targets: bench/http_attacks.md.
"""
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
OLD = "--old" in sys.argv
BIN = args[0] if args else os.path.join(HERE, "..", "build", "bin", "prophecyd")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for ln in f:
            if ln.startswith(field + ":"):
                return int(ln.split()[1]) // 1024
    return -1


def open_conns(pid):
    return len([x for x in os.listdir(f"/proc/{pid}/fd")
                if os.readlink(f"/proc/{pid}/fd/{x}").startswith("socket:")])


def health(port, timeout=30):
    t = time.time()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = s.recv(100)
        s.close()
        ok = data.startswith(b"HTTP/1.1 200")
    except OSError:
        ok = False
    return ok, time.time() - t


def start(*extra):
    tmp = tempfile.mkdtemp(prefix="prophecy-attack-")
    port = free_port()
    log = open(os.path.join(tmp, "log"), "w")
    proc = subprocess.Popen([BIN, "serve", "--db", os.path.join(tmp, "a.db"), "--listen",
                             f"127.0.0.1:{port}", "--quiet", *extra], stdout=log, stderr=log)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, port, tmp


def idle_attack():
    proc, port, _ = start()
    base = rss(proc.pid)
    socks = []
    for i in range(1000):
        try:
            socks.append(socket.create_connection(
                ("127.0.0.1", port), timeout=1, source_address=(f"127.0.0.{2 + i % 8}", 0)))
        except OSError:
            pass
    time.sleep(1)
    held = open_conns(proc.pid) - 1
    ok, lat = health(port, timeout=10)
    print(f"idle: opened {len(socks)} idle connections; server holds {held}; "
          f"RSS {base} -> {rss(proc.pid)} MB; health {'ok' if ok else 'FAILED'} in "
          f"{lat * 1000:.1f} ms")
    t0 = time.time()
    while time.time() - t0 < 70 and open_conns(proc.pid) - 1 > 0:
        time.sleep(1)
    print(f"idle: the server dropped them after {time.time() - t0 + 1:.0f} s "
          f"(held now: {open_conns(proc.pid) - 1})")
    for s in socks:
        s.close()
    proc.kill()
    proc.wait()


def body_attack():
    proc, port, _ = start()
    base = rss(proc.pid)
    body = b"x" * (8 << 20)
    answers = {}

    def one(i):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=30,
                                         source_address=(f"127.0.0.{2 + i % 8}", 0))
            s.sendall(b"POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nContent-Type: "
                      b"application/json\r\nContent-Length: %d\r\n\r\n" % len(body))
            try:
                s.sendall(body)
            except OSError:
                pass
            d = s.recv(20)
            answers[d[9:12]] = answers.get(d[9:12], 0) + 1
            s.close()
        except OSError:
            answers[b"err"] = answers.get(b"err", 0) + 1

    ts = [threading.Thread(target=one, args=(i,)) for i in range(100)]
    t = time.time()
    for th in ts:
        th.start()
    for th in ts:
        th.join()
    print(f"body: 100 unauthenticated 8 MiB POSTs in {time.time() - t:.1f} s, answers "
          f"{ {k.decode(): v for k, v in answers.items()} }; RSS {base} MB, peak "
          f"{rss(proc.pid, 'VmHWM')} MB, after {rss(proc.pid)} MB")
    proc.kill()
    proc.wait()


def fit_attack():
    proc, port, _ = start()
    data = [[1 + i % 500, 1 + i // 500, 3.0 * (1 + i % 500) + 0.5 * (1 + i // 500)]
            for i in range(100000)]
    req = json.dumps({"vars": ["n", "p"], "data": data}).encode()
    done = []

    def fit():
        s = socket.create_connection(("127.0.0.1", port), timeout=300)
        s.sendall(b"POST /api/v1/fit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                  b"\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(req) + req)
        out = b""
        while True:
            d = s.recv(65536)
            if not d:
                break
            out += d
        done.append(out[9:12])

    lat = []
    ts = [threading.Thread(target=fit) for _ in range(2)]
    t0 = time.time()
    for th in ts:
        th.start()
    while len(done) < 2 and time.time() - t0 < 300:
        ok, l = health(port)
        lat.append(l * 1000)
        time.sleep(0.01)
    for th in ts:
        th.join()
    lat.sort()
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else -1
    print(f"fits: two 100,000-point fits took {time.time() - t0:.1f} s "
          f"({[d.decode() for d in done]}); health during them: {len(lat)} requests, "
          f"median {statistics.median(lat):.1f} ms, p99 {p99:.1f} ms, max {lat[-1]:.1f} ms")
    proc.kill()
    proc.wait()


# ---- issue 34: availability -------------------------------------------------------


def token(tmp):
    return subprocess.run([BIN, "token", "create", "bench", "--db", os.path.join(tmp, "a.db")],
                          capture_output=True, text=True, check=True).stdout.strip()


def request(port, method, path, body=None, tok=None, ctype="application/json", timeout=600):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    if tok:
        head += f"Authorization: Bearer {tok}\r\n"
    if body is not None:
        head += f"Content-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
    s.sendall(head.encode() + b"\r\n" + (body or b""))
    out = b""
    while True:
        d = s.recv(1 << 20)
        if not d:
            break
        out += d
    s.close()
    head, _, payload = out.partition(b"\r\n\r\n")
    return int(head.split()[1]) if head else 0, payload


def health_stats(port, n=20, source=None):
    lat, ok = [], 0
    for _ in range(n):
        t = time.time()
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=10,
                                         source_address=(source, 0) if source else None)
            s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            ok += s.recv(12) == b"HTTP/1.1 200"
            s.close()
        except OSError:
            pass
        lat.append((time.time() - t) * 1000)
        time.sleep(0.01)
    lat.sort()
    return ok, statistics.median(lat), lat[-1]


def baseline(name, proc, port):
    ok, med, mx = health_stats(port)
    print(f"{name}: without the attack: health {ok}/20 ok, median {med:.1f} ms, max "
          f"{mx:.1f} ms; RSS {rss(proc.pid)} MB")
    return rss(proc.pid)


def reset_peak(pid):
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def lockout_attack():
    proc, port, _ = start()
    baseline("lockout", proc, port)
    stop = []
    held = []

    def hold():
        socks = []
        while not stop:
            alive = []
            for s in socks:
                try:
                    if s.recv(1) == b"":
                        s.close()
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    s.close()
                    continue
                alive.append(s)
            while len(alive) < 300 and not stop:
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=1,
                                                 source_address=("127.0.0.2", 0))
                    s.setblocking(False)
                    alive.append(s)
                    held.append(1)
                except OSError:
                    break
            socks = alive
            time.sleep(0.005)
        for s in socks:
            s.close()

    th = threading.Thread(target=hold)
    th.start()
    time.sleep(1)
    ok, med, mx = health_stats(port, source="127.0.0.2")
    stop.append(1)
    th.join()
    print(f"lockout: with 300 idle connections from 127.0.0.2 reopened ({len(held)} opened): "
          f"health from 127.0.0.2 {ok}/20 ok, median {med:.1f} ms, max {mx:.1f} ms; RSS "
          f"{rss(proc.pid)} MB")
    proc.kill()
    proc.wait()


def stamp(i):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1790000000 + i))


def runs_body(app, n, first, **over):
    runs = []
    for k in range(first, first + n):
        d = {"application": app, "executable": "e", "system": "s", "nprocs": 8,
             "inputs": {"N": 1000}, "runtime": 10.0 + (k % 7) * 0.01, "started_at": stamp(k)}
        d.update({key: (v(k) if callable(v) else v) for key, v in over.items()})
        runs.append(d)
    return json.dumps({"runs": runs}).encode()


def compares_attack():
    proc, port, tmp = start()
    tok = token(tmp)
    t = time.time()
    for first in range(0, 200000, 10000):
        st, _ = request(port, "POST", "/api/v1/runs",
                        runs_body("big", 10000, first, branch="main",
                                  commit=lambda k: "c%d" % (k % 2)), tok)
        assert st == 201, st
    print(f"compares: 200,000 runs stored in {time.time() - t:.0f} s")
    base = baseline("compares", proc, port)
    q = "/api/v1/compare?a=branch:main&b=commit:c1&application=big"
    t = time.time()
    st, _ = request(port, "GET", q)
    one = time.time() - t
    reset_peak(proc.pid)
    done = []
    ts = [threading.Thread(target=lambda: done.append(request(port, "GET", q)[0]))
          for _ in range(16)]
    t = time.time()
    for th in ts:
        th.start()
    time.sleep(min(one, 0.5))
    ok, med, mx = health_stats(port)
    for th in ts:
        th.join()
    print(f"compares: one compare {one * 1000:.0f} ms; 16 in flight took "
          f"{time.time() - t:.1f} s ({sorted(set(done))}): health {ok}/20 ok, median "
          f"{med:.1f} ms, max {mx:.1f} ms; peak RSS {rss(proc.pid, 'VmHWM')} MB "
          f"({rss(proc.pid, 'VmHWM') - base} above idle)")
    proc.kill()
    proc.wait()


def alerts_attack():
    proc, port, tmp = start()
    tok = token(tmp)
    st, _ = request(port, "POST", "/api/v1/runs", runs_body("storm", 1, 0), tok)
    for k in range(10):
        body = json.dumps({"application": "storm", "system": "s", "y": "runtime",
                           "detector": {"test": "percent", "threshold": 10 + k,
                                        "window": 1}}).encode()
        st, _ = request(port, "POST", "/api/v1/watches", body, tok)
        assert st == 201, st
    base = baseline("alerts", proc, port)
    body = runs_body("storm", 2000, 1, runtime=lambda k: 100.0 if k % 2 else 10.0)
    reset_peak(proc.pid)
    got = []
    th = threading.Thread(target=lambda: got.append(request(port, "POST", "/api/v1/runs",
                                                            body, tok)))
    t = time.time()
    th.start()
    time.sleep(0.2)
    ok, med, mx = health_stats(port, n=10)
    th.join()
    st, payload = got[0]
    n = len(json.loads(payload)["alerts"]) if st == 201 else 0
    print(f"alerts: one batch of 2,000 runs under 10 watches: {st}, {n} alerts in "
          f"{time.time() - t:.1f} s; health meanwhile {ok}/10 ok, median {med:.1f} ms, max "
          f"{mx:.1f} ms; peak RSS {rss(proc.pid, 'VmHWM')} MB "
          f"({rss(proc.pid, 'VmHWM') - base} above idle), after {rss(proc.pid)} MB")
    proc.kill()
    proc.wait()


def children_peak(pid, peak):
    """The largest VmHWM of pid's children (forked by any of its threads)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/children") as f:
                for c in f.read().split():
                    peak[0] = max(peak[0], rss(int(c), "VmHWM"))
        except (OSError, ValueError):
            pass


def tar_of(dirname):
    import io
    import tarfile
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for root, _, files in sorted(os.walk(dirname)):
            for f in sorted(files):
                path = os.path.join(root, f)
                t.add(path, arcname=os.path.relpath(path, dirname))
    return bio.getvalue()


def otf2_attack():
    writer = os.path.join(os.path.dirname(BIN), "..", "tests", "test_otf2_memory")
    if not os.access(writer, os.X_OK):
        print(f"otf2: skipped ({writer} not built)")
        return
    proc, port, tmp = start("--max-body", str(256 << 20))
    tok = token(tmp)
    base = baseline("otf2", proc, port)
    for nloc, chunk in ((10000, 1), (4000, 1), (200, 16)):
        d = os.path.join(tmp, f"otf2-{nloc}")
        os.mkdir(d)
        subprocess.run([writer, "--write", d, str(nloc), str(chunk)], check=True)
        raw = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)
        body = tar_of(d)
        reset_peak(proc.pid)
        got, child = [], [0]
        th = threading.Thread(target=lambda: got.append(request(
            port, "POST", f"/api/v1/import?format=otf2&application=o{nloc}&system=s",
            body, tok, "application/x-tar")))
        t = time.time()
        th.start()
        lat, ups, up_at, last_up = [], [], [], 0.0
        while th.is_alive():
            children_peak(proc.pid, child)
            ok, l = health(port)
            lat.append(l * 1000)
            if time.time() - last_up > 0.5:
                # a single run's upload meanwhile: its writer job must not wait
                last_up = time.time()
                st, _ = request(port, "POST", "/api/v1/runs",
                                runs_body(f"during{nloc}", 1, len(ups)), tok)
                ups.append((time.time() - last_up) * 1000 if st == 201 else float("inf"))
                up_at.append(last_up)
            time.sleep(0.02)
        th.join()
        end = time.time()
        lat.sort()
        slowest = max(range(len(ups)), key=lambda k: ups[k]) if ups else 0
        print(f"otf2: {nloc} locations, {chunk} MiB chunks ({raw / 1e6:.2f} MB of files): "
              f"{got[0][0]}{'' if got[0][0] < 300 else ' ' + got[0][1][:160].decode()} in {time.time() - t:.1f} s; reader child peak {child[0]} MB; "
              f"server peak {rss(proc.pid, 'VmHWM')} MB ({rss(proc.pid, 'VmHWM') - base} "
              f"above idle); health meanwhile median {statistics.median(lat):.1f} ms, "
              f"max {lat[-1]:.1f} ms; {len(ups)} single-run uploads meanwhile, median "
              f"{statistics.median(ups) if ups else 0:.0f} ms, max "
              f"{max(ups) if ups else 0:.0f} ms (sent {end - up_at[slowest] if ups else 0:.1f} s "
              f"before the import's answer)")
    proc.kill()
    proc.wait()


def halo_trace_tar(P, run_json, peers=0):
    """P rank files of the recorder's format (version 3; docs/traces.md) in a
    tar with run.json: a ring, rank r sending 4 KiB to r+1, each even rank
    waiting 50 us for the odd one before it, and a barrier of the world.
    With peers > 0 instead: each rank receives from and sends to `peers`
    others (r -/+ 1 + 37k), every receive posted before its send: P * peers
    pairs in the wait and traffic matrices."""
    import io
    import struct
    import tarfile
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w", format=tarfile.USTAR_FORMAT) as t:
        def add(name, data):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
        add("run.json", run_json)
        for r in range(P):
            if peers:
                ev = []
                for k in range(peers):
                    fr, to, base = (r - 1 - 37 * k) % P, (r + 1 + 37 * k) % P, 1_000_000 * (k + 1)
                    ev.append((base - 300_000 - (r * 7 + k) % 1000, base - 100_000, 64, fr, -1,
                               1, 0, P, 6, 0))
                    ev.append((base, base + 500_000, 64 + (r + k) % 100, to, -1, 1, 0, P, 1, 0))
                data = b"PRPHTRC\0" + struct.pack("<IIIIQQQIIQ", 3, r, P, 0, len(ev),
                                                  1_000_000 * (peers + 2), 0, 48, 0, 0)
                add("trace.%d" % r, data + b"".join(struct.pack("<QQqiiiiIHH", *e)
                                                    for e in ev))
                continue
            end = 1_000_000_000 + 1000 * r
            to, fr = (r + 1) % P, (r - 1) % P
            if r % 2 == 0:
                p2p = [(100_000, 200_000, 4096, to, -1, 7, 0, P, 1, 0),
                       (300_000, 400_000 + 10 * r, 4096, fr, -1, 7, 0, P, 6, 0)]
            else:
                p2p = [(100_000, 300_000, 4096, fr, -1, 7, 0, P, 6, 0),
                       (350_000, 400_000, 4096, to, -1, 7, 0, P, 1, 0)]
            ev = [(0, end - 1, 0, -1, -1, 0, 0, 0, 0, 0)] + p2p + [
                (900_000_000, 900_000_000 + 5000 * (P - r), 0, -1, -1, 0, 0, P, 13, 0)]
            data = b"PRPHTRC\0" + struct.pack("<IIIIQQQIIQ", 3, r, P, 1, len(ev), end, 0,
                                              48, 0, 0) + struct.pack("<H", 5) + b"solve"
            for e in ev:
                data += struct.pack("<QQqiiiiIHH", *e)
            add("trace.%d" % r, data)
    return bio.getvalue()


def bigtrace_attack():
    """A 4,096-rank trace (the documented limit) with its run through
    POST /api/v1/traces: the time, the server's peak and health meanwhile;
    then one of 100 peers a rank (819,200 events, 40 MB) under --max-body
    128 MiB."""
    bigtrace_case(0, "wide")
    bigtrace_case(100, "dense", "--max-body", str(128 << 20))


def bigtrace_case(peers, app, *extra):
    proc, port, tmp = start(*extra)
    tok = token(tmp)
    base = baseline("bigtrace", proc, port)
    P = 4096
    run = json.dumps({"application": app, "executable": "e", "system": "s",
                      "nprocs": P, "runtime": 1.0}).encode()
    body = halo_trace_tar(P, run, peers)
    reset_peak(proc.pid)
    got = []
    th = threading.Thread(target=lambda: got.append(request(
        port, "POST", "/api/v1/traces", body, tok, "application/x-tar")))
    t = time.time()
    th.start()
    lat = []
    while th.is_alive():
        ok, l = health(port)
        lat.append(l * 1000 if ok else float("inf"))
        time.sleep(0.05)
    th.join()
    took = time.time() - t
    lat.sort()
    st, payload = got[0]
    rid = json.loads(payload).get("run_id") if st < 300 else None
    sizes = []
    for name in ("wait", "traffic"):
        st2, ans = request(port, "GET", f"/api/v1/runs/{rid}/trace/{name}")
        sizes.append(f"{name} {len(ans) / 1e3:.0f} KB ({st2})")
    print(f"bigtrace: 4,096 ranks, {P * (2 * peers or 4)} events ({len(body) / 1e6:.1f} MB tar): {st} in "
          f"{took:.1f} s; server peak {rss(proc.pid, 'VmHWM')} MB "
          f"({rss(proc.pid, 'VmHWM') - base} above idle), after {rss(proc.pid)} MB; "
          f"health meanwhile median {statistics.median(lat) if lat else 0:.1f} ms, max "
          f"{lat[-1] if lat else 0:.1f} ms; answers {', '.join(sizes)}")
    proc.kill()
    proc.wait()


def caliper_attack():
    proc, port, tmp = start()
    tok = token(tmp)
    base = baseline("caliper", proc, port)
    n = 50000
    nodes = [{"label": "n%d" % i, "column": "path", **({"parent": i - 1} if i else {})}
             for i in range(n)]
    doc = json.dumps({"data": [[n - 1, 1.0, 1.0]], "columns": ["path", "time (inc)", "time"],
                      "column_metadata": [{"is_value": False}, {"is_value": True},
                                          {"is_value": True}],
                      "nodes": nodes}, separators=(",", ":")).encode()
    reset_peak(proc.pid)
    got = []
    th = threading.Thread(target=lambda: got.append(request(
        port, "POST", "/api/v1/import?format=caliper-json&application=cal&system=s", doc,
        tok)))
    t = time.time()
    th.start()
    time.sleep(0.1)
    ok, med, mx = health_stats(port, n=10)
    th.join()
    print(f"caliper: a {n}-node chain ({len(doc) / 1e6:.1f} MB): {got[0][0]} in "
          f"{time.time() - t:.1f} s; health meanwhile {ok}/10 ok, median {med:.1f} ms, max "
          f"{mx:.1f} ms; peak RSS {rss(proc.pid, 'VmHWM')} MB "
          f"({rss(proc.pid, 'VmHWM') - base} above idle)")
    proc.kill()
    proc.wait()


CASES = {"idle": idle_attack, "body": body_attack, "fits": fit_attack,
         "lockout": lockout_attack, "compares": compares_attack, "alerts": alerts_attack,
         "otf2": otf2_attack, "caliper": caliper_attack, "bigtrace": bigtrace_attack}

if __name__ == "__main__":
    which = [a for a in CASES if "--" + a in sys.argv] or list(CASES)
    for w in which:
        CASES[w]()
