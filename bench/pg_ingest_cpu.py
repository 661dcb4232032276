#!/usr/bin/env python3
"""The database's CPU per run stored on PostgreSQL, for two prophecyd
binaries side by side on the same data: 16 batches of 1,000 runs (two
configurations, 10 kernels, 2 metrics, 3 inputs a run), then 2,000
single-run POSTs, each binary on a fresh database, alternating.

    bench/pg_ingest_cpu.py PG_URI OLD_PROPHECYD|- NEW_PROPHECYD [ROUNDS]

PG_URI is a server's base URI ending in "/" (e.g. the test cluster of
tests/pg/cluster.py: postgresql://postgres@127.0.0.1:PORT/); the bench
creates and drops databases cpu_oldK / cpu_newK on it. It reads the CPU of
the database's backends from /proc (so it must run on the database's host,
as root or as its owner), which a loaded machine disturbs far less than wall
time; wall time per run is printed beside it. NOTRIG=1 disables the
app_kernels/app_metrics triggers of a pre-16 schema (what they cost).
CLIENTS=N posts the single runs from N concurrent clients (the writer then
commits several in one transaction, as under bench_ingest's 8 clients); the
server's own CPU per run is printed for them too.
bench_ingest --db gives the throughput against libpq's ceilings."""
import concurrent.futures, json, os, subprocess, sys, time, urllib.request
CLIENTS = int(os.environ.get("CLIENTS", "1"))
PG = sys.argv[1]
def psql(db, sql):
    return subprocess.run(["psql", "-X", "-qAt", "-d", PG + db, "-c", sql], capture_output=True, text=True).stdout.strip()
def backend_cpu(db):
    pids = psql("postgres", f"SELECT pid FROM pg_stat_activity WHERE datname = '{db}'").split()
    tot = 0
    for p in pids:
        try:
            f = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
            tot += int(f[11]) + int(f[12])
        except OSError:
            pass
    return tot / os.sysconf("SC_CLK_TCK")
def proc_cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
def run(binary, tag, port):
    db = "cpu_" + tag
    psql("postgres", f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
    psql("postgres", f'CREATE DATABASE "{db}"')
    uri = PG + db
    tok = subprocess.run([binary, "token", "create", "b", "--db", uri], capture_output=True, text=True).stdout.split()[-1]
    srv = subprocess.Popen([binary, "serve", "--db", uri, "--listen", f"127.0.0.1:{port}", "--quiet", "--sync", "normal"])
    time.sleep(1.5)
    def post(body):
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/runs", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer " + tok})
        return urllib.request.urlopen(req, timeout=600).status
    def doc(i, nconf):
        return {"id": f"{tag}-{i}", "application": "a", "executable": "e", "system": "s",
                "nprocs": 2 ** (i % nconf), "runtime": 1.0 + (i % 97) / 10, "inputs": {"N": 100, "M": 2, "K": 3},
                "metrics": {"flops": 1.0, "bytes": 2.0},
                "kernels": [{"name": f"k{j}", "time": 0.1, "calls": 1} for j in range(10)]}
    post(doc(-1, 1))
    if os.environ.get("NOTRIG"):
        psql(db, "ALTER TABLE kernels DISABLE TRIGGER app_kernels_add; ALTER TABLE run_metrics DISABLE TRIGGER app_metrics_add")
    c0 = backend_cpu(db); t0 = time.time()
    for b in range(16):
        assert post({"runs": [doc(b * 1000 + j, 2) for j in range(1000)]}) == 201
    c1 = backend_cpu(db); t1 = time.time()
    s1 = proc_cpu(srv.pid)
    def client(k):
        for j in range(k, 2000, CLIENTS):
            assert post(doc(100000 + j, 2)) == 201
    with concurrent.futures.ThreadPoolExecutor(CLIENTS) as ex:
        list(ex.map(client, range(CLIENTS)))
    c2 = backend_cpu(db); t2 = time.time(); s2 = proc_cpu(srv.pid)
    srv.terminate(); srv.wait()
    print(f"{tag}: batches: PG CPU {1e6*(c1-c0)/16000:.0f} us/run, wall {1e6*(t1-t0)/16000:.0f} us/run; "
          f"single ({CLIENTS} clients): PG CPU {1e6*(c2-c1)/2000:.0f} us/run, prophecyd CPU {1e6*(s2-s1)/2000:.0f} us/run, wall {1e6*(t2-t1)/2000:.0f} us/run", flush=True)
for k in range(int(sys.argv[4]) if len(sys.argv) > 4 else 2):
    if sys.argv[2] != "-":
        run(sys.argv[2], f"old{k}", 18901)
    run(sys.argv[3], f"new{k}", 18902)
