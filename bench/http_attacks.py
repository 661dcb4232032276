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

--old skips the options the old server does not know.
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


def start():
    tmp = tempfile.mkdtemp(prefix="prophecy-attack-")
    port = free_port()
    log = open(os.path.join(tmp, "log"), "w")
    proc = subprocess.Popen([BIN, "serve", "--db", os.path.join(tmp, "a.db"), "--listen",
                             f"127.0.0.1:{port}", "--quiet"], stdout=log, stderr=log)
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


if __name__ == "__main__":
    which = [a for a in ("idle", "body", "fits") if "--" + a in sys.argv] or \
        ["idle", "body", "fits"]
    for w in which:
        {"idle": idle_attack, "body": body_attack, "fits": fit_attack}[w]()
