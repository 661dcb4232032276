"""Other real files of six formats, through the real server (SPEC §16): Google
Benchmark JSON written by Debian's libbenchmark 1.7.1, an LNT v5 report and
Bencher adapter fixtures from the formats' own repositories, OSU 5.8 logs
(plain, `-f`, a non-blocking collective, launcher preambles and /usr/bin/time
trailers), Trace Event JSON written by Node.js 20, Chromium 156 and clang 14, and an
OTF2 trace written by Debian's python3-otf2 (tests/data/import/public/*,
SOURCES.md there says where each file comes from and how it was made).

Each file is imported through POST /api/v1/import and what is stored is
checked against numbers this test reads from the file itself with its own
parsers (never Prophecy's code): exactly where the file fixes the number
(the API writes 16 significant digits), to 1e-15 relative where the import
converts a unit (ns -> s, us -> s, MB/s -> the time of one message). Then
the same file again, under `format=auto` and under another file name where
the format names the application from the content, stores nothing new. The
OTF2 trace's figures come from python3-otf2's reader (ref_otf2 in SOURCES.md),
written down here because the tests do not install that package."""
import collections
import json
import os
import re
import urllib.parse

from prophecy_test import Server, report, tar_of, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
DATA = os.path.join(SRC, "tests/data/import/public")
S = Server()


def path(*p):
    return os.path.join(DATA, *p)


def read(*p):
    with open(path(*p), "rb") as f:
        return f.read()


def post(body, **query):
    return S.request("POST", "/api/v1/import?" + urllib.parse.urlencode(query), body,
                     ctype="application/octet-stream")


def run(i):
    st, r = S.get(f"/api/v1/runs/{i}")
    assert st == 200, r
    return r


def same(want, got):
    """Exactly the file's number, as the API writes it (16 digits)."""
    return got is not None and float(f"{want:.16g}") == got


def close(want, got, rel=1e-15):
    """A converted number: the file's times a unit factor."""
    return got is not None and abs(got - want) <= rel * abs(want) + 1e-300


def imported(body, **query):
    """Imports body, checks that it stores something and that the same file
    again (as named, and recognised by format=auto) stores nothing; returns
    the answer of the first import."""
    st, ans = post(body, **query)
    assert st == 201, ans
    before = S.content()
    for q in (query, dict(query, format="auto")):
        st2, again = post(body, **q)
        assert st2 == 200 and again["created"] == 0, (q, again)
        assert again["format"] == ans["format"], again
    assert S.content() == before
    return ans


# ---- Google Benchmark ------------------------------------------------------

SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
NOT_COUNTERS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
                "repetitions", "repetition_index", "threads", "iterations", "real_time",
                "cpu_time", "time_unit", "aggregate_name", "aggregate_unit",
                "error_occurred", "error_message", "label"}


def check_gbench(fname, app, nruns, spot):
    doc = json.loads(read("gbench", fname))
    ans = imported(read("gbench", fname), format="gbench", filename=fname)
    assert ans["runs"] == nruns, ans
    runs = [run(i) for i in ans["ids"]]
    by_rt = collections.defaultdict(list)
    for r in runs:
        assert r["application"] == app and r["system"] == doc["context"]["host_name"], r
        assert r["nprocs"] == 1, r
        by_rt[r["runtime"]].append(r)
    rows = doc["benchmarks"]
    aggs = collections.defaultdict(dict)  # run_name -> aggregate_name -> row
    for b in rows:
        if b.get("run_type") == "aggregate":
            aggs[b["run_name"]][b["aggregate_name"]] = b
    bigo = {b["run_name"]: b for b in rows if b.get("aggregate_name") == "BigO"}
    rms = {b["run_name"]: b for b in rows if b.get("aggregate_name") == "RMS"}
    measured = [b for b in rows if b.get("run_type") == "iteration" and not b.get("error_occurred")]
    only_aggs = [a["mean"] for rn, a in aggs.items() if "mean" in a and
                 not any(b["run_name"] == rn for b in measured)]
    assert len(measured) + len(only_aggs) == nruns
    checked = 0
    for b in measured + only_aggs:
        sc = SCALE[b["time_unit"]]
        want_rt = b["real_time"] * sc
        cands = [r for r in runs if close(want_rt, r["runtime"])]
        assert len(cands) >= 1, (b["name"], want_rt)
        r = cands[0]
        m = r["metrics"]
        assert close(b["cpu_time"] * sc, m["cpu_time"]), (b["name"], m)
        if b.get("run_type") == "iteration":
            assert same(b["iterations"], m["iterations"]), (b["name"], m)
        else:  # its mean row's iterations are the number of repetitions
            assert "iterations" not in m, (b["name"], m)
        for k, v in b.items():
            if k not in NOT_COUNTERS and isinstance(v, (int, float)):
                assert same(v, m[k]), (b["name"], k, v, m.get(k))
                checked += 1
        for an, a in aggs.get(b["run_name"], {}).items():
            if an in ("BigO", "RMS"):
                continue
            f = 1 if an == "cv" else SCALE[a["time_unit"]]
            assert close(a["real_time"] * f, m[f"real_time_{an}"]), (b["name"], an, m)
            assert close(a["cpu_time"] * f, m[f"cpu_time_{an}"]), (b["name"], an, m)
            for k, v in a.items():  # the counters' statistics too
                if k not in NOT_COUNTERS and isinstance(v, (int, float)):
                    assert same(v, m[f"{k}_{an}"]), (b["name"], k, an, m)
            checked += 2
        fam = b["run_name"].split("/")[0]
        if fam + "_BigO" in [x["name"] for x in bigo.values()] or fam in bigo:
            o = bigo.get(fam)
            assert same(o["real_coefficient"], m["big_o_real_coefficient"]), m
            assert same(o["cpu_coefficient"], m["big_o_cpu_coefficient"]), m
            assert same(rms[fam]["rms"], m["rms"]), m
        checked += 3
    for exe, inputs, count in spot:
        got = [r for r in runs if r["executable"] == exe and r["inputs"] == inputs]
        assert len(got) == count, (exe, inputs, [(r["executable"], r["inputs"]) for r in runs])
    # the same content under another file name names the same application
    st, again = post(read("gbench", fname), format="gbench", filename="renamed.json")
    assert st == 200 and again["created"] == 0, again
    return checked


@test
def gbench_counters_complexity_units_and_a_failed_benchmark():
    # Debian's libbenchmark 1.7.1: BigO + RMS over a Range, rate counters,
    # ArgNames, ms and s units, threads, SkipWithError, a fixture reported
    # by its aggregates only
    n = check_gbench("gbench_trial.json", "gbtrial", 18, [
        ("BM_Sort", {"arg1": 64.0, "threads": 1.0}, 1),
        ("BM_Accumulate", {"n": 100000.0, "threads": 1.0}, 3),
        ("BM_Strings", {"arg1": 256.0, "arg2": 1024.0, "threads": 1.0}, 2),
        ("BM_Threaded", {"threads": 2.0}, 1),
        ("BM_Slow", {"threads": 1.0}, 1),
        ("Vec/Max", {"arg1": 512.0, "threads": 1.0}, 1),
        ("BM_Fails", {"threads": 1.0}, 0)])
    assert n > 100, n
    st, body = S.get("/api/v1/runs?" + urllib.parse.urlencode(
        {"application": "gbtrial", "executable": "BM_Sort"}))
    assert all(r["commit"] == "abc123" and r["tags"] == {"library_build_type": "debug"}
               for r in body["runs"]), body


@test
def gbench_aggregates_only():
    # the same program as CI runs often do: --benchmark_repetitions=2
    # --benchmark_report_aggregates_only=true; each benchmark one run of its
    # mean with every statistic of its times and counters, BM_Fails no run
    check_gbench("gbench_trial_aggregates_only.json", "gbtrial", 6, [
        ("BM_Sort", {"arg1": 4096.0, "threads": 1.0}, 1),
        ("BM_Threaded", {"threads": 2.0}, 1),
        ("BM_Fails", {"threads": 1.0}, 0)])


@test
def gbench_templates_captures_interleaved_repetitions():
    # templates, BENCHMARK_CAPTURE, DenseRange with a negative argument, a
    # label, MinTime, ThreadRange, manual time, two repetitions interleaved
    check_gbench("gbench_trial2.json", "gbtrial2", 24, [
        ("BM_Fill<float>", {"arg1": 1024.0, "threads": 1.0}, 2),
        ("BM_Parse/small", {"threads": 1.0}, 2),
        ("BM_Shift", {"arg1": -2.0, "threads": 1.0}, 2),
        ("BM_Map", {"arg1": 64.0, "threads": 2.0}, 2),
        ("BM_Manual", {"threads": 1.0}, 2)])


# ---- LNT --------------------------------------------------------------------

@test
def lnt_v5_report():
    name = "lnt_v5_libcxx_r552558-linux-1.json"
    doc = json.loads(read("lnt-json", name))
    ans = imported(read("lnt-json", name), format="lnt-json", filename=name)
    assert ans["runs"] == len(doc["tests"]) == 25, ans
    runs = [run(i) for i in ans["ids"]]
    by_exe = {r["executable"]: r for r in runs}
    for t in doc["tests"]:
        r = by_exe[t["name"]]
        # LNT's schema: execution_time in seconds, as recorded
        assert same(t["execution_time"], r["runtime"]), (t, r)
        assert r["system"] == doc["machine"]["name"], r
        assert r["commit"] == doc["commit"]["value"], r
        assert r["started_at"] == doc["run_parameters"]["start_time"], r
    st, again = post(read("lnt-json", name), format="lnt-json", filename="other.json")
    assert st == 200 and again["created"] == 0, again


# ---- Bencher Metric Format --------------------------------------------------

def bmf_expect(doc):
    """benchmark (with its non-numeric parameters) -> (inputs, metrics, runtime),
    read as Bencher reads a report: v1 entries of one parameter set merge."""
    out = {}
    for bench, body in doc.items():
        entries = body if isinstance(body, list) else [{"measures": body}]
        for e in entries:
            params = e.get("parameters") or {}
            nums = {k: float(v) for k, v in params.items() if isinstance(v, (int, float))}
            strs = sorted((k, v) for k, v in params.items() if not isinstance(v, (int, float)))
            exe = bench + ("{" + ",".join(f"{k}={v}" for k, v in strs) + "}" if strs else "")
            key = (exe, tuple(sorted(nums.items())))
            _, metrics, _ = out.setdefault(key, (nums, {}, None))
            for mname, vals in e["measures"].items():
                div = 1e9 if mname == "latency" else 1
                for field, v in vals.items():
                    suffix = {"value": "", "lower_value": "_lower",
                              "upper_value": "_upper"}.get(field, "_" + field)
                    metrics[mname + suffix] = v / div
    result = {}
    for (exe, nums), (inputs, metrics, _) in out.items():
        rt = metrics.get("latency", metrics.get("build-time"))
        result[(exe, nums)] = (inputs, metrics, rt)
    return result


@test
def bmf_reports():
    for name in ("bencher_report_dhat.json", "bencher_report_mixed_versions.json",
                 "bencher_report_v1_canonical.json"):
        want = bmf_expect(json.loads(read("bmf", name)))
        ans = imported(read("bmf", name), format="bmf", filename=name, system="ci")
        assert ans["runs"] == len(want), (name, ans)
        runs = [run(i) for i in ans["ids"]]
        for (exe, nums), (inputs, metrics, rt) in want.items():
            r = [x for x in runs if x["executable"] == exe and x["inputs"] == inputs]
            assert len(r) == 1, (name, exe, runs)
            r = r[0]
            assert set(r["metrics"]) == set(metrics), (name, r["metrics"], metrics)
            for k, v in metrics.items():
                assert close(v, r["metrics"][k]), (name, k, v, r["metrics"])
            if rt is None:  # dhat: bytes and blocks, no time (SPEC §16)
                assert r["runtime"] is None, r
            else:
                assert close(rt, r["runtime"]), (name, r)
    # the run page reads the units: latency in seconds, throughput per second
    st, body, _ = S.request("GET", f"/runs/{ans['ids'][0]}", raw=True, token=None)
    page = body.decode()
    assert st == 200 and ">3 ns<" in page and ">30 ns<" in page and ">100 /s<" in page, page


# ---- OSU ----------------------------------------------------------------------

OSU_NAMES = {"Latency": "MPISR", "Bandwidth": "MPIBW", "Allgatherv Latency": "MPIAGV",
             "Non-blocking Allgatherv Latency": "MPIIAGV"}


def osu_expect(text, nprocs):
    """(name, L, P, stat) -> [values] read from the log: a title line, a
    '# Size' column line, then the lines of as many numbers."""
    out = collections.defaultdict(list)
    title = cols = None
    for line in text.splitlines():
        m = re.match(r"# OSU MPI (.*) Test v[0-9.]+", line)
        if m:
            title, cols = m.group(1), None
            continue
        if line.startswith("# Size"):
            cols = re.split(r"\s{2,}", line[2:].strip())
            continue
        parts = line.split()
        if not (title and cols and parts and len(parts) == len(cols)):
            continue
        try:
            vals = [float(x) for x in parts]
        except ValueError:
            continue
        name, size = OSU_NAMES[title], int(vals[0])
        p = 2 if title in ("Latency", "Bandwidth") else nprocs
        for c, v in zip(cols[1:], vals[1:]):
            if c.startswith("Bandwidth"):
                out[(name, size, p, "mean")].append(size / (v * 1e6))
                out[(name + "_MBS", size, p, "mean")].append(v)
            elif c in ("Latency (us)", "Avg Latency(us)", "Overall(us)"):
                out[(name, size, p, "mean")].append(v * 1e-6)
            elif c in ("Min Latency(us)", "Max Latency(us)"):
                out[(name, size, p, c[:3].lower())].append(v * 1e-6)
            elif c == "Pure Comm.(us)":
                out[(name + "_COMM", size, p, "mean")].append(v * 1e-6)
            elif c in ("Min Comm.(us)", "Max Comm.(us)"):
                out[(name + "_COMM", size, p, c[:3].lower())].append(v * 1e-6)
    return out


def system_benchmarks(system):
    st, body = S.get("/api/v1/systems/" + urllib.parse.quote(system) + "/benchmarks")
    assert st == 200, body
    got = collections.defaultdict(list)
    for b in body["benchmarks"]:
        got[(b["name"], b["args"]["L"], b["args"].get("P"), b["stat"])].append(b["time"])
    return got


@test
def osu_logs():
    cases = [("uibk_osu5.8_latency_slurm.log", "uibk-lat", None, 24),
             ("uibk_osu5.8_bw_nodes.log", "uibk-bw", None, 46),
             ("sc23_osu_allgatherv_slurm-503306.out", "thor-ag", 128, 156),
             ("sc23_osu_iallgatherv_bf3_ucc.log", "thor-iag", 128, 52)]
    for name, system, nprocs, n in cases:
        text = read("osu", name).decode()
        want = osu_expect(text, nprocs)
        q = {"format": "osu", "filename": name, "system": system}
        if nprocs:
            q["nprocs"] = nprocs
        ans = imported(text.encode(), **q)
        assert ans["benchmarks"]["created"] == n == sum(map(len, want.values())), (name, ans)
        got = system_benchmarks(system)
        assert set(got) == set(want), (name, set(got) ^ set(want))
        for k, vals in want.items():
            g = sorted(got[k])
            assert len(g) == len(vals) and all(close(w, x) for w, x in zip(sorted(vals), g)), \
                (name, k, vals, g)


def over_message_size(system):
    """The system page's two plots: (latency figure, bandwidth figure) HTML."""
    st, body, _ = S.request("GET", "/systems/" + urllib.parse.quote(system), raw=True,
                            token=None)
    assert st == 200, body
    page = body.decode()
    figs = re.findall(r"<figure.*?</figure>", page, re.S)
    lat = [f for f in figs if "Latency over message size" in f]
    bw = [f for f in figs if "Bandwidth over message size" in f]
    return (lat[0] if lat else ""), (bw[0] if bw else ""), page


@test
def osu_bandwidth_tests_are_not_latencies_on_the_system_page():
    # a bandwidth test's benchmark is the time of one message, L / bandwidth:
    # drawn as a bandwidth (or left to its twin as measured), never on the
    # latency plot, for every bandwidth test (osu_mbw_mr too, and the same
    # tests on GPU buffers, MPIBW_DD); the shared corpus's osu_mbw_mr log
    lat, bw, _ = over_message_size("uibk-bw")
    assert "osu_bw" in bw and lat == "", lat
    mbw = os.path.join(SRC, "../shared/corpus/imports/osu/"
                       "excalibur_alaska-roce-ompi4_osu_mbw_mr_16.out")
    if not os.path.isfile(mbw):
        print("  (no shared corpus beside the checkout: osu_mbw_mr not checked)")
        return
    with open(mbw, "rb") as f:
        st, ans = post(f.read(), format="osu", system="alaska-mbw", filename="mbw.out")
    assert st == 201, ans
    lat, bw, page = over_message_size("alaska-mbw")
    assert lat == "" and "osu_mbw_mr" in bw, lat
    row = re.search(r'<tr><td class="desc">osu_mbw_mr\b.*?</tr>', page, re.S)
    assert row and "<td>bandwidth</td>" in row.group(0), row


# ---- Trace Event JSON ---------------------------------------------------------

def chrome_expect(doc):
    """name -> (total us, count, max us), the run time in us and the number
    of processes with duration events: X events,
    B/E pairs per pid/tid, nestable async b/e pairs per category and id."""
    ev = doc["traceEvents"] if isinstance(doc, dict) else doc
    tot, cnt, mx = collections.Counter(), collections.Counter(), {}
    stacks, astacks, spans = collections.defaultdict(list), collections.defaultdict(list), []

    def add(n, b, e):
        tot[n] += e - b
        cnt[n] += 1
        mx[n] = max(mx.get(n, 0), e - b)
        spans.append((b, e))
    for e in ev:
        ph = e.get("ph")
        if ph == "X":
            add(e["name"], e["ts"], e["ts"] + e.get("dur", 0))
        elif ph == "B":
            stacks[(e.get("pid"), e.get("tid"))].append(e)
        elif ph == "E" and stacks[(e.get("pid"), e.get("tid"))]:
            b = stacks[(e.get("pid"), e.get("tid"))].pop()
            add(b["name"], b["ts"], e["ts"])
        elif ph in ("b", "e"):
            key = (e.get("cat"), e.get("id"), json.dumps(e.get("id2"), sort_keys=True))
            if ph == "b":
                astacks[key].append(e)
                continue
            s = astacks[key]
            for i in range(len(s) - 1, -1, -1):
                if "name" not in e or s[i]["name"] == e["name"]:
                    b = s.pop(i)
                    add(b["name"], b["ts"], e["ts"])
                    break
    rt = max(e for _, e in spans) - min(b for b, _ in spans)
    pids = {e.get("pid") for e in ev if e.get("ph") in ("X", "B", "E", "b", "e")}
    return {n: (tot[n], cnt[n], mx[n]) for n in tot}, rt, len(pids)


@test
def chrome_traces_of_node_and_chromium():
    for name, app, nprocs in (("node20_trace.1.log", "node", 1),
                              ("clang14_time_trace.json", "clang", 1),
                              ("chromium156_user_timing.json", "chromium156_user_timing", 2)):
        body = read("chrome-trace", name)
        kernels, rt, pids = chrome_expect(json.loads(body))
        assert pids == nprocs, (name, pids)
        ans = imported(body, format="chrome-trace", filename=name)
        assert ans["runs"] == 1, ans
        r = run(ans["ids"][0])
        assert r["application"] == app and close(rt * 1e-6, r["runtime"]), (name, r["runtime"])
        assert r["nprocs"] == nprocs, (name, r["nprocs"])
        got = {k["name"]: k for k in r["kernels"]}
        assert set(got) == set(kernels), (name, set(got) ^ set(kernels))
        # its run page links the trace without calling a compiler's or a
        # browser's trace an MPI one
        st, page, _ = S.request("GET", f"/runs/{r['id']}", raw=True, token=None)
        assert st == 200 and "This run has a trace:" in page.decode(), name
        for n, (t, c, m) in kernels.items():
            k = got[n]
            assert close(t * 1e-6, k["time"]) and k["calls"] == c, (name, n, k, t, c)
            assert k["metrics"]["count"] == c and close(m * 1e-6, k["metrics"]["max"]), (n, k)


# ---- OTF2 ---------------------------------------------------------------------

# python3-otf2 3.0.2's reader over ring/ (flat profile: per location, a
# region's exclusive time is its own duration less its callees', its
# inclusive time counts recursion once; then max, mean and min over the
# locations that entered it), in ns (the clock is 1e9 ticks per second)
RING = {  # name: (excl max, excl mean, excl min, incl max, incl mean, incl min, calls)
    "main": (338970, 336285, 333600, 399990, 398505, 397020, 1),
    "solve": (15200, 14600, 14000, 39300, 37650, 36000, 1),
    "fib": (8300, 8150, 8000, 8300, 8150, 8000, 2),
    "worker_task": (40000, 40000, 40000, 40000, 40000, 40000, 1),
    "MPI_Send": (7200, 6600, 6000, 7200, 6600, 6000, 2),
    "MPI_Recv": (8600, 8300, 8000, 8600, 8300, 8000, 2),
    "MPI_Allreduce": (20010, 18510, 17010, 20010, 18510, 17010, 1),
    "MPI_Barrier": (7110, 6060, 5010, 7110, 6060, 5010, 1),
}



@test
def otf2_ring_exclusive_times():
    body = tar_of(path("otf2", "ring"))
    ans = imported(body, format="otf2", filename="ring.tar")
    r = run(ans["ids"][0])
    # ProgramBegin names /home/user/ring/build/ringapp; 4 process groups
    # (rank 0 has a second thread location); the trace is 400130 ns long
    assert r["application"] == "ringapp" and r["nprocs"] == 4, r
    assert close(400130e-9, r["runtime"]), r["runtime"]
    got = {k["name"]: k for k in r["kernels"]}
    assert set(got) == set(RING), got
    for n, (x, xm, xn, i, im, imin, calls) in RING.items():
        k, m = got[n], got[n]["metrics"]
        assert close(x * 1e-9, k["time"]) and k["calls"] == calls, (n, k)
        assert close(xm * 1e-9, m["mean"], 1e-12) and close(xn * 1e-9, m["min"]), (n, k)
        assert close(i * 1e-9, m["inclusive"]) and close(imin * 1e-9, m["inclusive_min"]), (n, k)
        assert close(im * 1e-9, m["inclusive_mean"], 1e-12), (n, k)
    # main's time is its own, not its callees' again: its inclusive time is
    # within the run time, its exclusive time that less solve and the MPI calls
    assert got["main"]["time"] < got["main"]["metrics"]["inclusive"] <= r["runtime"]
    # rank 0 holds a second (thread) location: the trace's ranks are the 4
    # members of the MPI locations group, and its messages are the MpiSend
    # records (python3-otf2: rank r sends 1024 and 2048 bytes to rank r+1)
    st, traffic = S.get(f"/api/v1/runs/{r['id']}/trace/traffic")
    assert st == 200 and traffic["nranks"] == 4, traffic
    ring = [[2 if j == (i + 1) % 4 else 0 for j in range(4)] for i in range(4)]
    assert traffic["p2p"]["msgs"] == ring, traffic
    assert traffic["p2p"]["bytes"] == [[1536 * x for x in row] for row in ring], traffic
    assert traffic["collective"]["calls"] == [2, 2, 2, 2], traffic


report()
