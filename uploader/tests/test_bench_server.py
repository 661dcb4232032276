#!/usr/bin/env python3
"""prophecy-bench --quick on 2 ranks, uploading to the real prophecyd: the
benchmarks and fitted parameters must be stored for the system."""
import json
import os
import resource
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serverlib  # noqa: E402

bench = os.path.join(serverlib.bin_dir(), "prophecy-bench")
if not os.access(bench, os.X_OK):
    print("SKIP: %s not built" % bench)
    sys.exit(serverlib.SKIP)
mpiexec = os.environ.get("MPIEXEC") or "mpirun"
srv = serverlib.Server()
system = "bench box/2"  # a name that needs URL encoding


def mpirun(*args, preexec_fn=None):
    extra = []
    ver = subprocess.run([mpiexec, "--version"], capture_output=True, text=True)
    if "open" in (ver.stdout + ver.stderr).lower():
        extra = ["--oversubscribe", "--allow-run-as-root"]
    return subprocess.run([mpiexec] + extra + ["-np", "2", bench] + list(args),
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=preexec_fn)


def test_quick_upload():
    # How long --quick takes is a benchmark figure, not a unit test: on a
    # loaded 2-core machine the wall time says more about the neighbours.
    r = mpirun("--quick", "--system", system, "--server", srv.url, "--token", srv.token)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    name = urllib.parse.quote(system, safe="")
    b = srv.get("/api/v1/systems/%s/benchmarks" % name)["benchmarks"]
    names = {x["name"] for x in b}
    assert {"MPISR", "MPIBC", "IADD", "MULADD", "FMA"} <= names, names
    assert len([x for x in b if x["name"] == "MPISR"]) == 26, len(b)  # 13 sizes x min/median
    # TRIAD: three arrays of B/24 doubles for B = 4 KiB * 2^k, min and median
    tr = [x for x in b if x["name"] == "TRIAD"]
    want = sorted(24 * ((4096 << k) // 24) for k in range(19))
    assert sorted(x["args"]["B"] for x in tr if x["stat"] == "min") == want, tr
    assert sorted(x["args"]["B"] for x in tr if x["stat"] == "median") == want, tr
    assert all(x["time"] > 0 and set(x["args"]) == {"B"} for x in tr), tr
    p = srv.get("/api/v1/systems/%s/parameters" % name)["parameters"]
    text = str(p)
    for key in ("MPISR", "MPIBC", "ADDM", "FMA"):
        assert key in text, p


def test_bad_token_rejected():
    r = mpirun("--quick", "--quiet", "--system", system, "--server", srv.url,
               "--token", "not-a-token")
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "401" in r.stderr, r.stderr
    assert '"benchmarks"' in r.stdout  # measurements kept on stdout


def test_dry_run():
    r = mpirun("--quick", "--quiet", "--dry-run")
    assert r.returncode == 0 and '"MPISR(L)"' in r.stdout, r.stderr


def test_short_of_memory_keeps_the_rest():
    # TRIAD wants 1 GiB on rank 0; with 900 MiB of address space per process
    # it measures the sizes that fit and says so, and nothing else is lost.
    # (ASan reserves terabytes of address space for its shadow: not there.)
    ldd = subprocess.run(["ldd", bench], capture_output=True, text=True).stdout
    if "libasan" in ldd:
        print("  (skipped under ASan: an address-space limit breaks its shadow memory)")
        return

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (900 << 20, 900 << 20))
    r = mpirun("--quick", "--dry-run", preexec_fn=limit)
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert "TRIAD stops at" in r.stderr, r.stderr
    b = json.loads(r.stdout)["benchmarks"]
    sizes = sorted(x["args"]["B"] for x in b if x["name"] == "TRIAD" and x["stat"] == "min")
    assert 10 <= len(sizes) < 19, sizes
    assert sizes == sorted(24 * ((4096 << k) // 24) for k in range(len(sizes))), sizes
    assert len([x for x in b if x["name"] == "MPISR"]) == 26, b


checks = serverlib.Checks()
for t in [test_quick_upload, test_bad_token_rejected, test_dry_run,
          test_short_of_memory_keeps_the_rest]:
    checks.run(t)
rc = checks.report()
srv.close(rc == 0)
sys.exit(rc)
