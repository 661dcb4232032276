"""Helpers for API tests: start the real prophecyd on a free port with a
temporary database, create a token, and speak HTTP to it (stdlib only)."""
import http.client
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

BIN = os.environ.get("PROPHECY_BIN", os.path.join(os.path.dirname(__file__), "../../build/bin"))
PROPHECYD = os.path.join(BIN, "prophecyd")

passed = 0
failed = 0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, *extra, db=None, tmp=None):
        self.tmp = tmp or tempfile.mkdtemp(prefix="prophecy-test-")
        self.db = db or os.path.join(self.tmp, "test.db")
        self.extra = extra
        self.proc = None
        self.start()
        if not hasattr(self, "token"):
            self.token = self.cli("token", "create", "tester").strip()

    def start(self):
        self.port = free_port()
        self.log = open(os.path.join(self.tmp, "server.log"), "ab")
        self.proc = subprocess.Popen(
            [PROPHECYD, "serve", "--db", self.db, "--listen", f"127.0.0.1:{self.port}",
             "--quiet", *self.extra], stdout=self.log, stderr=self.log)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("prophecyd exited with %s" % self.proc.returncode)
                time.sleep(0.05)
        raise RuntimeError("prophecyd did not start")

    def cli(self, *args, check=True):
        r = subprocess.run([PROPHECYD, *args, "--db", self.db], capture_output=True, text=True)
        if check and r.returncode != 0:
            raise RuntimeError(f"prophecyd {args} failed: {r.stderr}")
        return r.stdout

    def request(self, method, path, body=None, token=True, ctype="application/json",
                headers=None, raw=False):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        h = dict(headers or {})
        if token is True:
            h["Authorization"] = "Bearer " + self.token
        elif token:
            h["Authorization"] = "Bearer " + token
        data = None
        if body is not None:
            data = body if isinstance(body, (bytes, str)) else json.dumps(body)
            if isinstance(data, str):
                data = data.encode()
            if ctype:
                h["Content-Type"] = ctype
        conn.request(method, path, body=data, headers=h)
        resp = conn.getresponse()
        payload = resp.read()
        conn.close()
        if raw:
            return resp.status, payload, resp
        try:
            return resp.status, json.loads(payload) if payload else None
        except ValueError:
            return resp.status, payload.decode(errors="replace")

    def get(self, path, **kw):
        return self.request("GET", path, token=kw.pop("token", None), **kw)

    def post(self, path, body, **kw):
        return self.request("POST", path, body, **kw)

    def kill(self, sig=signal.SIGTERM):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=30)
        return self.proc.returncode

    def content(self):
        """Every user table's rows, for byte-for-byte content comparisons."""
        con = sqlite3.connect(self.db)
        out = {}
        for (name,) in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"):
            out[name] = con.execute(f"SELECT * FROM \"{name}\" ORDER BY 1").fetchall()
        con.close()
        return out

    def close(self):
        self.kill()
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def test(fn):
    global passed, failed
    try:
        fn()
        passed += 1
        print("ok  ", fn.__name__, flush=True)
    except Exception as e:  # report every failing test, keep going
        failed += 1
        import traceback
        traceback.print_exc()
        print("FAIL", fn.__name__, e, flush=True)
    return fn


def report():
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def run_doc(**over):
    d = {"application": "matmul", "executable": "matmul_sgi", "system": "SGI Origin2000",
         "nprocs": 8, "inputs": {"N": 1000}, "runtime": 12.5,
         "kernels": [{"name": "multiply", "time": 11.2, "calls": 1}],
         "metrics": {"mflops": 1596.0}, "started_at": "2026-11-21T10:00:00Z"}
    d.update(over)
    return d
