"""Other real files of five formats (import trial D), through the real server
(SPEC §12, §16): LNT reports of format versions 1 and 2 and Bencher adapter
fixtures from the formats' own repositories, OSU 5.6 logs from ReFrame runs
(Intel MPI with a blank first line, osu_mbw_mr with one pair, osu_latency from
size 0), Google Benchmark JSON written by Debian's libbenchmark 1.7.1 with
user statistics (one in percent), per-benchmark repetitions and aggregate-only
reports, Trace Event JSON of Perfetto's own flow-event tests and of Debian's
PyTorch 1.13 profiler, and a Perfetto protobuf trace of Debian's Chromium 156
(tests/data/import/public/*, SOURCES.md's "import trial D" says where each
file comes from and how it was made).

Each file is imported through POST /api/v1/import and what is stored is
checked against numbers this test reads from the file itself with its own
parsers (never Prophecy's code): exactly where the file fixes the number
(the API writes 16 significant digits), to 1e-15 relative where the import
converts a unit. The same file again, as named and under format=auto,
stores nothing new. A file that is not what the format reads (the protobuf
trace) is refused with what it is, and stores nothing."""
import collections
import json
import os
import re
import urllib.parse

from prophecy_test import Server, report, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
DATA = os.path.join(SRC, "tests/data/import/public")
S = Server()


def read(*p):
    with open(os.path.join(DATA, *p), "rb") as f:
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


# ---- LNT ----------------------------------------------------------------------

# LNT's own upgrade of a version 1 report: the entry's suffix names the metric
V1_SUFFIX = {"exec": "execution_time", "compile": "compile_time", "code_size": "code_size",
             "score": "score", "mem": "mem_bytes", "user": "user_time", "sys": "sys_time",
             "wall": "wall_time", "hash": None}


def lnt_expect(doc):
    """The report's runs: (test name, metrics, runtime) per sample, and its
    system and commit; version 1 or 2."""
    tests = collections.defaultdict(dict)
    if "Machine" in doc:
        system, commit = doc["Machine"]["Name"], doc["Run"]["Info"]["run_order"]
        for t in doc["Tests"]:
            name, suffix = t["Name"].rsplit(".", 1)
            if V1_SUFFIX[suffix] is not None:
                tests[name][V1_SUFFIX[suffix]] = t["Data"]
    else:
        system = doc["machine"]["name"]
        v5 = doc.get("format_version") == "5"
        run_info = doc["run_parameters"] if v5 else doc["run"]
        commit = doc["commit"]["value"] if v5 else run_info["llvm_project_revision"]
        for t in doc["tests"]:
            tests[t["name"]].update({k: v for k, v in t.items()
                                     if k != "name" and not k.startswith("hash")})
    start = doc["Run"]["Start Time"] if "Machine" in doc else run_info["start_time"]
    runs = []
    for name, m in tests.items():
        rt_key = next((k for k in ("execution_time", "compile_time", "wall_time")
                       if k in m), None)
        # a number is every sample's (a code size), a list one per sample
        n = max([len(v) for v in m.values() if isinstance(v, list)] or [1])
        at = {k: (v if isinstance(v, list) else [v] * n) for k, v in m.items()}
        for i in range(n):
            metrics = {k: v[i] for k, v in at.items() if k != rt_key and i < len(v)}
            runs.append((name, metrics, at[rt_key][i] if rt_key else None))
    return runs, system, commit, start.replace(" ", "T")


@test
def lnt_reports_of_version_1_and_2():
    # v1: nts.NAME.{compile,hash,exec,code_size}, a "-link" test that only
    # compiled (its compile time is its run time); v1 of the compile suite:
    # .user/.sys/.wall with 3 samples each, names with quotes and commas;
    # v2: a custom schema of sizes and a score, no time at all (runtime
    # absent, SPEC §16); v5 of the nts suite: 3 samples per test, tests of
    # a code size only, sub-benchmarks named "X.test:BM_MemCmp<1, EqZero, First>"
    for name, app, nruns in (("lnt_v1_sample_report.json", "nts", 2),
                             ("lnt_v1_compile_submission.json", "compile", 6),
                             ("lnt_v2_customschema_report.json", "nts", 1),
                             ("lnt_v5_nts_r597917-sifive.json", "nts", 82)):
        want, system, commit, start = lnt_expect(json.loads(read("lnt-json", name)))
        ans = imported(read("lnt-json", name), format="lnt-json", filename=name)
        assert ans["runs"] == nruns == len(want), (name, ans)
        runs = [run(i) for i in ans["ids"]]

        def key(exe, rt, metrics):  # as the API writes the numbers
            def r16(v):
                return None if v is None else float(f"{v:.16g}")
            return exe, r16(rt), tuple(sorted((k, r16(v)) for k, v in metrics.items()))
        # a test's samples may repeat (tools/test/ret0: 0.00946 twice): as multisets
        assert sorted(repr(key(exe, rt, m)) for exe, m, rt in want) == sorted(
            repr(key(r["executable"], r["runtime"], r["metrics"])) for r in runs), name
        for r in runs:
            assert r["system"] == system and r["commit"] == commit, (name, r["id"])
            assert r["started_at"] == start, (name, r["started_at"], start)
            assert r["application"] == app, r["application"]  # the tag, else "nts"
        st, again = post(read("lnt-json", name), format="lnt-json", filename="other.json")
        assert st == 200 and again["created"] == 0, again


# ---- Bencher Metric Format ----------------------------------------------------

def bmf_expect(doc):
    """(benchmark, numeric parameters) -> (inputs, metrics, runtime), read as
    Bencher reads a report: v1 entries of one parameter set merge, latency in
    ns."""
    out = {}
    for bench, body in doc.items():
        entries = body if isinstance(body, list) else [{"measures": body}]
        for e in entries:
            params = e.get("parameters") or {}
            nums = {k: float(v) for k, v in params.items()}
            _, metrics = out.setdefault((bench, tuple(sorted(nums.items()))), (nums, {}))
            for mname, vals in e["measures"].items():
                div = 1e9 if mname == "latency" else 1
                for field, v in vals.items():
                    suffix = {"value": "", "lower_value": "_lower",
                              "upper_value": "_upper"}.get(field, "_" + field)
                    metrics[mname + suffix] = v / div
    return {k: (inputs, m, m.get("latency")) for k, (inputs, m) in out.items()}


@test
def bmf_adapter_fixtures():
    # a benchmark without parameters beside one whose two entries (no
    # parameters, empty parameters) merge; nine numeric parameters; seven
    # named values beside value and its bounds; no final newline
    for name, nruns in (("bencher_report_v1_parameters.json", 2),
                        ("bencher_report_v1_bad_parameters.json", 1),
                        ("bencher_report_v1_cap.json", 1),
                        ("bencher_report_latency.json", 3)):
        want = bmf_expect(json.loads(read("bmf", name)))
        ans = imported(read("bmf", name), format="bmf", filename=name, system="ci-d")
        assert ans["runs"] == nruns == len(want), (name, ans)
        runs = [run(i) for i in ans["ids"]]
        for (bench, _), (inputs, metrics, rt) in want.items():
            r = [x for x in runs if x["executable"] == bench and x["inputs"] == inputs]
            assert len(r) == 1, (name, bench, inputs, runs)
            r = r[0]
            assert set(r["metrics"]) == set(metrics), (name, r["metrics"], metrics)
            for k, v in metrics.items():
                assert close(v, r["metrics"][k]), (name, k, v, r["metrics"])
            assert close(rt, r["runtime"]), (name, r["runtime"], rt)


# ---- OSU ----------------------------------------------------------------------

OSU_NAMES = {"Latency": "MPISR", "Allreduce Latency": "MPIAR",
             "Multiple Bandwidth / Message Rate": "MPIMBW"}


def osu_expect(text):
    """(name, L, P, stat) -> [values] read from the log: the title, a
    "# [ pairs: N ]" line, the '# Size' column line, then rows of numbers."""
    out = collections.defaultdict(list)
    title = cols = pairs = None
    for line in text.splitlines():
        m = re.match(r"# OSU MPI (.*) Test v[0-9.]+", line)
        if m:
            title, cols, pairs = m.group(1), None, None
            continue
        m = re.search(r"pairs: (\d+)", line)
        if m:
            pairs = int(m.group(1))
        if line.startswith("# Size"):
            cols = re.split(r"\s{2,}", line[2:].strip())
            continue
        parts = line.split()
        if not (title and cols and parts and len(parts) == len(cols)):
            continue
        vals = [float(x) for x in parts]
        name, size = OSU_NAMES[title], int(vals[0])
        p = 2 * pairs if pairs else 2 if title == "Latency" else None
        for c, v in zip(cols[1:], vals[1:]):
            if c in ("MB/s", "Bandwidth (MB/s)"):  # kept as measured, and per message
                out[(name + "_MBS", size, p, "mean")].append(v)
                out[(name, size, p, "mean")].append(size / (v * 1e6))
            elif c == "Messages/s":
                out[(name + "_MSGS", size, p, "mean")].append(v)
            else:
                assert c in ("Latency (us)", "Avg Latency(us)"), c
                out[(name, size, p, "mean")].append(v * 1e-6)
    return out


@test
def osu_reframe_logs():
    # Intel MPI's osu_allreduce after a blank line (no nprocs given: no P),
    # osu_mbw_mr with one pair (P = 2), osu_latency from size 0
    for name, system, n in (("excalibur_alaska-ib-impi_osu_allreduce.out", "al-impi", 19),
                            ("excalibur_alaska-ib-ompi4_osu_mbw_mr_pairs1.out", "al-mbw", 69),
                            ("excalibur_csd3-cclake_osu_latency.out", "csd3", 24)):
        text = read("osu", name).decode()
        want = osu_expect(text)
        ans = imported(text.encode(), format="osu", filename=name, system=system)
        assert ans["benchmarks"]["created"] == n == sum(map(len, want.values())), (name, ans)
        st, body = S.get("/api/v1/systems/" + system + "/benchmarks")
        assert st == 200, body
        got = collections.defaultdict(list)
        for b in body["benchmarks"]:
            got[(b["name"], b["args"]["L"], b["args"].get("P"), b["stat"])].append(b["time"])
        assert set(got) == set(want), (name, set(got) ^ set(want))
        for k, vals in want.items():
            assert len(got[k]) == 1 and close(vals[0], got[k][0]), (name, k, vals, got[k])


# ---- Google Benchmark -----------------------------------------------------------

SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
NOT_COUNTERS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
                "repetitions", "repetition_index", "threads", "iterations", "real_time",
                "cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "label",
                "complexity", "big_o", "rms", "cpu_coefficient", "real_coefficient"}


def gbench_family(run_name):
    """The name's parts up to the first argument or run option."""
    parts = run_name.split("/")
    for i, part in enumerate(parts[1:], 1):
        if ":" in part or part in ("real_time", "process_time", "manual_time") or \
                re.fullmatch(r"-?[0-9.]+", part):
            return "/".join(parts[:i])
    return run_name


def gbench_inputs(run_name, threads):
    """The numbers among the name's parts: NAME:N, positional ones as argK."""
    inputs, k = {}, 0
    for part in run_name.split("/")[1:]:
        key, _, val = part.rpartition(":")
        try:
            v = float(val)
        except ValueError:
            continue
        if key in ("repeats", "min_time", "iterations"):
            continue
        if not key:
            k += 1
            key = f"arg{k}"
        inputs[key] = v
    inputs.setdefault("threads", float(threads))
    return inputs


@test
def gbench_user_statistics_and_aggregate_only_reports():
    # Debian's libbenchmark 1.7.1: ComputeStatistics("max") in time and
    # ("spread", kPercentage) as a ratio, Repetitions(3) on one benchmark,
    # ReportAggregatesOnly / DisplayAggregatesOnly, ArgsProduct with ArgNames,
    # a lambda complexity over RangeMultiplier(4), MeasureProcessCPUTime,
    # kAvgThreadsRate, RegisterBenchmark names with a "/"
    name = "gbench_trial_d.json"
    doc = json.loads(read("gbench", name))
    rows = doc["benchmarks"]
    ans = imported(read("gbench", name), format="gbench", filename=name)
    runs = [run(i) for i in ans["ids"]]
    aggs = collections.defaultdict(dict)
    for b in rows:
        if b["run_type"] == "aggregate":
            aggs[b["run_name"]][b["aggregate_name"]] = b
    measured = [b for b in rows if b["run_type"] == "iteration"]
    only = [a["mean"] for rn, a in aggs.items() if "mean" in a
            and not any(b["run_name"] == rn for b in measured)]
    assert ans["runs"] == len(measured) + len(only) == 17, ans
    checked = 0
    for b in measured + only:
        sc = SCALE[b["time_unit"]]
        family = gbench_family(b["run_name"])
        cand = [r for r in runs if close(b["real_time"] * sc, r["runtime"])]
        assert len(cand) == 1, (b["name"], cand)
        r, m = cand[0], cand[0]["metrics"]
        assert r["executable"] == family and r["application"] == "gbtrial_d", (b["name"], r)
        assert r["inputs"] == gbench_inputs(b["run_name"], b["threads"]), (b["name"], r)
        assert r["system"] == doc["context"]["host_name"] and r["nprocs"] == 1, r
        assert r["commit"] == "d4e5f6" and r["branch"] == "trial-d", r
        assert close(b["cpu_time"] * sc, m["cpu_time"]), (b["name"], m)
        assert ("iterations" in m) == (b["run_type"] == "iteration"), (b["name"], m)
        for k, v in b.items():
            if k not in NOT_COUNTERS and isinstance(v, (int, float)):
                assert same(v, m[k]), (b["name"], k, m)
                checked += 1
        for an, a in aggs.get(b["run_name"], {}).items():
            # a statistic in percent is a ratio; the others are times
            f = 1 if a["aggregate_unit"] == "percentage" else SCALE[a["time_unit"]]
            assert close(a["real_time"] * f, m[f"real_time_{an}"]), (b["name"], an, m)
            assert close(a["cpu_time"] * f, m[f"cpu_time_{an}"]), (b["name"], an, m)
            for k, v in a.items():
                if k not in NOT_COUNTERS and isinstance(v, (int, float)):
                    assert same(v, m[f"{k}_{an}"]), (b["name"], k, an, m)
            checked += 1
        fit = aggs.get(family, {})
        if "BigO" in fit:
            assert same(fit["BigO"]["real_coefficient"], m["big_o_real_coefficient"]), m
            assert same(fit["BigO"]["cpu_coefficient"], m["big_o_cpu_coefficient"]), m
            assert same(fit["RMS"]["rms"], m["rms"]), m
            checked += 1
    assert checked > 40, checked
    # the user statistic "spread" (kPercentage) is a ratio below 1 here, its
    # "max" a time of nanoseconds
    sq = [r for r in runs if r["executable"] == "BM_Sqrt"]
    assert len(sq) == 3 and all(0 < r["metrics"]["real_time_spread"] < 5 and
                                r["metrics"]["real_time_max"] < 1e-6 for r in sq), sq


@test
def gbench_files_of_2016_without_run_type():
    # the library's own compare.py inputs, in the format of 2016 (no
    # run_type, run_name, host_name or executable): repetitions as rows of
    # one name, "BM_Two_stat" (not an aggregate's suffix), a prefixed
    # family with and without its argument, ms beside ns
    for name in ("gbench_tools_test3_run0.json", "gbench_tools_test2_run.json"):
        doc = json.loads(read("gbench", name))
        ans = imported(read("gbench", name), format="gbench", filename=name)
        assert ans["runs"] == len(doc["benchmarks"]), (name, ans)
        runs = [run(i) for i in ans["ids"]]
        for b in doc["benchmarks"]:
            sc = SCALE[b["time_unit"]]
            inputs = {"arg1": float(b["name"].rsplit("/", 1)[1])} \
                if re.search(r"/[0-9]+$", b["name"]) else {}
            exe = re.sub(r"/[0-9]+$", "", b["name"])
            r = [x for x in runs if x["executable"] == exe and x["inputs"] == inputs and
                 close(b["real_time"] * sc, x["runtime"])]
            assert len(r) == 1, (name, b, runs)
            m = r[0]["metrics"]
            assert close(b["cpu_time"] * sc, m["cpu_time"]), (name, b, m)
            assert same(b["iterations"], m["iterations"]) and len(m) == 2, (name, b, m)
            assert r[0]["application"] == name[:-5] and r[0]["system"] == "unknown", r[0]
            assert r[0]["started_at"] == doc["context"]["date"].replace(" ", "T"), r[0]
            assert r[0]["tags"] == {k: v for k, v in doc["context"].items()
                                    if isinstance(v, str) and k != "date"}, r[0]


# ---- Trace Event JSON -----------------------------------------------------------

def chrome_expect(doc):
    """name -> (total us, count, max us), the run time in us and the number
    of processes with duration events: X events and B/E pairs per pid/tid."""
    ev = doc["traceEvents"] if isinstance(doc, dict) else doc
    tot, cnt, mx = collections.Counter(), collections.Counter(), {}
    stacks, spans = collections.defaultdict(list), []

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
    rt = max(e for _, e in spans) - min(b for b, _ in spans)
    pids = {e.get("pid") for e in ev if e.get("ph") in ("X", "B", "E")}
    return {n: (tot[n], cnt[n], mx[n]) for n in tot}, rt, len(pids)


@test
def chrome_traces_of_perfetto_tests_and_pytorch():
    # Perfetto's flow-event tests: five processes, v1 flows (s/t/f with
    # string ids), v2 flows (bind_id, flow_in/flow_out), tts/tdur, a B/E
    # pair, an instant, stackFrames, an event at ts 0; PyTorch 1.13's
    # profiler (no Kineto): a bare array, pid "CPU functions", nested ops
    for name, nprocs in (("perfetto_flow_events_json_v1.json", 5),
                         ("perfetto_flow_events_json_v2.json", 5),
                         ("torch113_cpu_trace.json", 1)):
        body = read("chrome-trace", name)
        kernels, rt, pids = chrome_expect(json.loads(body))
        assert pids == nprocs, (name, pids)
        ans = imported(body, format="chrome-trace", filename=name)
        assert ans["runs"] == 1, ans
        r = run(ans["ids"][0])
        assert close(rt * 1e-6, r["runtime"]) and r["nprocs"] == nprocs, (name, r)
        got = {k["name"]: k for k in r["kernels"]}
        assert set(got) == set(kernels), (name, set(got) ^ set(kernels))
        for n, (t, c, m) in kernels.items():
            k = got[n]
            assert close(t * 1e-6, k["time"]) and k["calls"] == c, (name, n, k, t, c)
            assert k["metrics"]["count"] == c and close(m * 1e-6, k["metrics"]["max"]), k
        st, page, _ = S.request("GET", f"/runs/{r['id']}", raw=True, token=None)
        assert st == 200 and "This run has a trace:" in page.decode(), name


@test
def perfetto_protobuf_trace_is_refused_by_name():
    # what Chromium 156 records without --trace-startup-format=json: not
    # Trace Event JSON; the answer says what it is and how to get JSON,
    # under format=chrome-trace and format=auto alike, and stores nothing
    body = read("chrome-trace", "chromium156_perfetto_proto.pb")
    before = S.content()
    # also as a recording that was stopped: cut within a packet
    for fmt, data in (("chrome-trace", body), ("auto", body), ("auto", body[:5000])):
        st, ans = post(data, format=fmt, filename="trace.pb")
        assert st == 422, (fmt, st, ans)
        text = json.dumps(ans)
        assert "Perfetto protobuf trace" in text and "traceconv json" in text, ans
        assert "trace.pb" in text, ans
    assert S.content() == before


report()
