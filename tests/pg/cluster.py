#!/usr/bin/env python3
"""A private PostgreSQL cluster for the api_pg tests (ctest fixture).

    cluster.py start STATE   initdb into a new temporary directory, start the
                             server on a free port (unix socket in that
                             directory, TCP on 127.0.0.1 only) and write its
                             base URI and directory to STATE (JSON)
    cluster.py stop STATE    stop it and remove the directory

initdb refuses to run as root, so as root the cluster runs as the postgres
user (runuser). The Debian system cluster is never started. Without the
PostgreSQL server binaries start says so and writes no STATE: every api_pg
test then reports itself skipped (exit 77), never passed.
"""
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile


def binaries():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


def as_owner(cmd):
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(state):
    if os.path.exists(state):
        os.unlink(state)
    bindir = binaries()
    if bindir is None:
        print("PostgreSQL server binaries not installed: the api_pg tests will be skipped")
        return 0
    top = tempfile.mkdtemp(prefix="prophecy-pg-")
    os.chmod(top, 0o755)
    if os.geteuid() == 0:
        shutil.chown(top, "postgres")
    data = os.path.join(top, "data")
    subprocess.run(as_owner([os.path.join(bindir, "initdb"), "-D", data, "-A", "trust",
                             "-U", "postgres", "-E", "UTF8", "--no-sync"]),
                   check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    # Tests need speed, not crash safety of the cluster itself (a killed
    # prophecyd is what they test; the PostgreSQL server keeps running).
    opts = (f"-p {port} -k {top} -c listen_addresses=127.0.0.1 -c max_connections=500 "
            "-c fsync=off -c full_page_writes=off -c synchronous_commit=on")
    subprocess.run(as_owner([os.path.join(bindir, "pg_ctl"), "-D", data, "-l",
                             os.path.join(top, "log"), "-o", opts, "-w", "start"]),
                   check=True, stdout=subprocess.DEVNULL)
    with open(state, "w") as f:
        json.dump({"dir": top, "bindir": bindir,
                   "uri": f"postgresql://postgres@127.0.0.1:{port}/"}, f)
    print(f"PostgreSQL {bindir} on port {port} in {top}")
    return 0


def stop(state):
    try:
        with open(state) as f:
            st = json.load(f)
    except OSError:
        return 0
    subprocess.run(as_owner([os.path.join(st["bindir"], "pg_ctl"), "-D",
                             os.path.join(st["dir"], "data"), "-m", "immediate", "stop"]),
                   stdout=subprocess.DEVNULL)
    shutil.rmtree(st["dir"], ignore_errors=True)
    try:
        os.unlink(state)
    except OSError:
        pass
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        sys.exit("usage: cluster.py start|stop STATE")
    sys.exit(start(sys.argv[2]) if sys.argv[1] == "start" else stop(sys.argv[2]))
