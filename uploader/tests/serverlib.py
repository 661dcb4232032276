"""Helpers for uploader tests against the real prophecyd (python3 stdlib only).

Starts prophecyd on a free port with a temporary database, creates a write
token, and offers small HTTP helpers. Exits 77 (CTest SKIP_RETURN_CODE) when
prophecyd has not been built.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

SKIP = 77


def bin_dir():
    d = os.environ.get("PROPHECY_BIN")
    if d:
        return d
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", "build", "bin")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    """A prophecyd on a free port; stop() and start() keep the database and port."""

    def __init__(self):
        self.prophecyd = os.environ.get("PROPHECYD") or os.path.join(bin_dir(), "prophecyd")
        if not os.access(self.prophecyd, os.X_OK):
            print("SKIP: %s not built" % self.prophecyd)
            sys.exit(SKIP)
        self.tmp = tempfile.mkdtemp(prefix="prophecy-upl-test-")
        self.db = os.path.join(self.tmp, "x.db")
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.proc = None
        # token create refuses a database that does not exist (a mistyped
        # --db must not become a new one): make the new one on purpose.
        open(self.db, "a").close()
        out = subprocess.run([self.prophecyd, "token", "create", "uploader-test", "--db",
                              self.db], capture_output=True, text=True, check=True)
        self.token = out.stdout.strip().splitlines()[-1].strip()
        self.start()

    def start(self):
        self.log = open(os.path.join(self.tmp, "server.log"), "a")
        self.proc = subprocess.Popen(
            [self.prophecyd, "serve", "--db", self.db, "--listen",
             "127.0.0.1:%d" % self.port],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 15
        while time.time() < deadline:
            try:
                self.get("/api/v1/health")
                return
            except (urllib.error.URLError, ConnectionError, OSError):
                if self.proc.poll() is not None:
                    raise RuntimeError("prophecyd exited: see %s/server.log" % self.tmp)
                time.sleep(0.1)
        raise RuntimeError("prophecyd did not answer within 15 s")

    def stop(self):
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
            self.log.close()

    def close(self, ok):
        self.stop()
        if ok:
            shutil.rmtree(self.tmp, ignore_errors=True)
        else:
            print("kept %s for inspection" % self.tmp)

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read().decode())

    def post(self, path, doc):
        req = urllib.request.Request(
            self.url + path, data=json.dumps(doc).encode(), method="POST",
            headers={"Content-Type": "application/json",
                     "Authorization": "Bearer " + self.token})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read().decode() or "null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read().decode() or "null")

    def runs(self, application):
        """All stored runs of an application, following the pagination."""
        out, after = [], 0
        while True:
            q = urllib.parse.urlencode({"application": application, "limit": 1000,
                                        "after": after})
            page = self.get("/api/v1/runs?" + q)
            out.extend(page["runs"])
            if page.get("next_after") is None:
                return out
            after = page["next_after"]


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def run(self, fn, *args):
        try:
            fn(*args)
        except AssertionError as e:
            self.failed += 1
            print("FAIL %s: %s" % (fn.__name__, e))
            return
        except Exception as e:  # noqa: BLE001 - report and go on
            self.failed += 1
            print("FAIL %s: %s: %s" % (fn.__name__, type(e).__name__, e))
            return
        self.passed += 1
        print("ok   %s" % fn.__name__)

    def report(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0
