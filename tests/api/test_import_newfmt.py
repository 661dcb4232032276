"""SPEC §16's new formats on the real files of ../shared/corpus/imports/:
chrome-trace, hpctoolkit (both database layouts), nsys-sqlite. Per sample:
the import through POST /api/v1/import, the exact numbers of its facts.json
(and of an independent reading of the file where the facts leave a number
open), the same import again stores nothing, a truncated copy is a 422 that
stores nothing, and --format auto recognises it. Then GET /runs/{id}/trace.json
of an imported trace: its structure and its exact event counts and durations."""
import io
import re
import json
import os
import sqlite3
import subprocess
import tarfile
import urllib.parse
from collections import Counter, defaultdict

from prophecy_test import PROPHECYD, Server, report, tar_of, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
CORPUS = os.path.join(SRC, "../shared/corpus/imports")
FACTS = json.load(open(os.path.join(CORPUS, "facts.json")))
S = Server()



def tar_with(directory, name, data):
    """The directory's tar with member `name` replaced by data."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for root, _, files in sorted(os.walk(directory)):
            for f in sorted(files):
                path = os.path.join(root, f)
                rel = os.path.relpath(path, directory)
                if rel == name:
                    info = tarfile.TarInfo(rel)
                    info.size = len(data)
                    t.addfile(info, io.BytesIO(data))
                else:
                    t.add(path, arcname=rel)
    return out.getvalue()


def tar_with_only(name, data):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def body_of(rel):
    full = os.path.join(CORPUS, rel)
    if os.path.isdir(full):
        return tar_of(full)
    with open(full, "rb") as f:
        return f.read()


def post_import(body, **query):
    q = urllib.parse.urlencode(query)
    return S.request("POST", "/api/v1/import" + ("?" + q if q else ""), body,
                     ctype="application/octet-stream")


def close(a, b, rel=1e-12):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def the_sample(fmt, rel, truncated):
    """Imports rel as fmt; checks again / auto / truncated. Returns the run."""
    name = os.path.basename(rel)
    body = body_of(rel)
    st, out = post_import(body, format=fmt, filename=name)
    assert st == 201, (rel, st, out)
    assert out["format"] == fmt and out["runs"] == 1 and out["created"] == 1, out
    run_id = out["ids"][0]
    snapshot = S.content()
    st, again = post_import(body, format=fmt, filename=name)
    assert st == 200 and again["created"] == 0 and again["existing"] == 1, again
    assert again["ids"] == [run_id], again
    st, auto = post_import(body, filename=name)
    assert st == 200 and auto["format"] == fmt and auto["existing"] == 1, (rel, auto)
    assert S.content() == snapshot
    st, bad = post_import(truncated, format=fmt, filename=name)
    assert st == 422, (rel, st, bad)
    assert bad["error"]["message"], bad
    assert S.content() == snapshot, rel
    st, run = S.get(f"/api/v1/runs/{run_id}")
    assert st == 200, run
    return run


def kernels_of(run):
    return {k["name"]: k for k in run["kernels"]}


# ---- chrome-trace -------------------------------------------------------------

def stored_name(name):
    """A name as the importers keep it: leading blanks dropped, at most 256
    bytes cut at a character boundary, trailing blanks dropped, control
    characters blanked."""
    full = name.lstrip(" \t").encode()
    n = min(len(full), 256)
    while 0 < n < len(full) and (full[n] & 0xC0) == 0x80:
        n -= 1
    text = full[:n].decode().rstrip(" \t")
    return "".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in text)


def chrome_events(rel):
    doc = json.load(open(os.path.join(CORPUS, rel)))
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def llvm_total(e):
    """A summary clang's -ftime-trace writes after its timeline: "Total
    NAME" at ts 0, alone on a thread id, args {count, avg ms}: a sum over
    NAME's events, not a span of time (a kernel, not a track of the trace)."""
    args = e.get("args")
    return (e.get("ph") == "X" and e.get("ts") == 0 and
            str(e.get("name", "")).startswith("Total ") and isinstance(args, dict) and
            "count" in args and "avg ms" in args)


def chrome_durations(events):
    """An independent reading: per name [count, total µs, max µs] of X
    events and B/E pairs (an E closes the last open B of its pid/tid), and
    per (pid, tid) track its durations by name (LLVM's summaries in no
    track)."""
    agg = defaultdict(lambda: [0, 0.0, 0.0])
    per_track = defaultdict(Counter)
    stacks = defaultdict(list)
    for e in events:
        ph = e.get("ph")
        if ph == "X":
            d = e.get("dur", 0)
            name, track = e.get("name"), (e.get("pid"), e.get("tid"))
        elif ph == "B":
            stacks[(e.get("pid"), e.get("tid"))].append(e)
            continue
        elif ph == "E":
            s = stacks[(e.get("pid"), e.get("tid"))]
            if not s:
                continue
            b = s.pop()
            d = e["ts"] - b["ts"]
            name, track = b.get("name"), (e.get("pid"), e.get("tid"))
        else:
            continue
        name = stored_name(name)
        a = agg[name]
        a[0] += 1
        a[1] += d
        a[2] = max(a[2], d)
        if not llvm_total(e):
            per_track[track][name] += 1
    return agg, per_track


def check_chrome(rel, application, trace_names):
    facts = FACTS["chrome-trace/" + os.path.basename(rel)]
    body = body_of(rel)
    run = the_sample("chrome-trace", rel, body[: len(body) // 2])
    events = chrome_events(rel)
    agg, tracks = chrome_durations(events)
    ks = kernels_of(run)
    assert run["application"] == application, run["application"]
    assert len(ks) == len(agg), (len(ks), len(agg))
    # facts.json: count, total and max of the X events it names
    for v in facts["values"]:
        if isinstance(v["value"], dict):
            f = v["value"]
            k = ks[f["name"]]
            assert k["calls"] == f["count"] and k["metrics"]["count"] == f["count"], k
            assert close(k["time"], f["dur_sum"] / 1e6), (k, f)
            assert close(k["metrics"]["max"], f["dur_max"] / 1e6), (k, f)
        else:
            assert sum(1 for e in events if e.get("ph") == "X") == v["value"]
    for name, (count, total, mx) in agg.items():
        k = ks[name]
        assert k["calls"] == count and close(k["time"], total / 1e6), (name, k, total)
    starts = [e["ts"] for e in events if e.get("ph") in ("X", "B")]
    ends = [e["ts"] + e.get("dur", 0) for e in events if e.get("ph") in ("X", "E")]
    assert close(run["runtime"], (max(ends) - min(starts)) / 1e6), run["runtime"]
    pids = {e.get("pid") for e in events if e.get("ph") in ("X", "B", "E")}
    assert run["nprocs"] == len(pids), run["nprocs"]
    # the trace: one rank per pid/tid pair with durations
    st, info = S.get(f"/api/v1/runs/{run['id']}/trace/profile")
    assert st == 200 and info["nranks"] == len(tracks), (st, info if st != 200 else
                                                         info["nranks"])
    st, doc, resp = S.request("GET", f"/runs/{run['id']}/trace.json", raw=True)
    assert st == 200 and resp.getheader("Content-Type") == "application/json", st
    doc = json.loads(doc)
    xs = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    assert len(xs) == sum(c for t in tracks.values() for c in t.values()), len(xs)
    got = defaultdict(lambda: [0, 0.0])
    for e in xs:
        got[e["name"]][0] += 1
        got[e["name"]][1] += e["dur"]
    for name in trace_names:
        assert got[name][0] == agg[name][0], (name, got[name], agg[name])
        assert close(got[name][1], agg[name][1], 1e-9), (name, got[name], agg[name])
    # LLVM's summaries are kernels (above), never events of the trace
    for name in {e["name"] for e in events if llvm_total(e)}:
        assert name in ks and name not in got, name
    return run


@test
def chrome_trace_kineto():
    check_chrome("chrome-trace/kineto_gpu_metrics_input.json", "python",
                 ["PyTorch Profiler (0)", "ProfilerStep#2", "MmBackward", "aten::mm"])


@test
def chrome_trace_clang_time_trace():
    run = check_chrome("chrome-trace/clang16_main.json", "clang.exe",
                       ["Source", "ExecuteCompiler"])
    # one thread compiled; its 140 "Total" summaries are no threads of their own
    st, info = S.get(f"/api/v1/runs/{run['id']}/trace/profile")
    assert st == 200 and info["nranks"] == 1, info["nranks"]


@test
def chrome_trace_chrome_devtools_array_with_begin_end_pairs():
    run = check_chrome("chrome-trace/speedscope_chrome69_simple.json",
                       "speedscope_chrome69_simple",  # Browser and Renderer: no one name
                       ["MessageLoop::RunTask", "EvaluateScript", "UpdateLayer"])
    k = kernels_of(run)["UpdateLayer"]  # B/E pairs only
    assert k["calls"] == 120, k


@test
def chrome_trace_refusals_name_the_event():
    snapshot = S.content()
    for body, needle in [
        (b'{"traceEvents": [{"ph": "X", "ts": "soon", "dur": 1, "name": "a"}]}',
         "traceEvents[0]"),
        (b'{"traceEvents": [{"ph": "X", "ts": 1, "dur": -1, "name": "a"}]}', "dur"),
        (b'{"traceEvents": [{"ts": 1}]}', "phase"),
        (b'{"traceEvents": [{"ph": "i", "ts": 1, "name": "a"}]}', "no duration events"),
        (b'{"traceEvents": [{"ph": "X", "ts": 1, "dur": 2, "name": "a"}', "truncated"),
        (b'{"other": 1}', "no traceEvents"),
    ]:
        st, out = post_import(body, format="chrome-trace", filename="t.json")
        assert st == 422 and needle in out["error"]["message"], (body, out)
    assert S.content() == snapshot
    # the array form may end without "]" (a stopped writer): accepted
    st, out = post_import(b'[{"ph": "X", "pid": 1, "tid": 1, "ts": 5, "dur": 2, '
                          b'"name": "a"},\n', filename="open.json")
    assert st == 201 and out["format"] == "chrome-trace", out


# ---- hpctoolkit ----------------------------------------------------------------

def check_sum_at_most_runtime(run):
    total = sum(k["time"] for k in run["kernels"])
    assert total <= run["runtime"] * (1 + 1e-12), (total, run["runtime"])


@test
def hpctoolkit_experiment_xml_with_metric_db_files():
    rel = "hpctoolkit/hatchet_hpctoolkit-cpi-database"
    facts = FACTS[rel]["facts"]
    full = os.path.join(CORPUS, rel)
    dbs = sorted(f for f in os.listdir(full) if f.endswith(".metric-db"))
    data = open(os.path.join(full, dbs[0]), "rb").read()
    run = the_sample("hpctoolkit", rel, tar_with(full, dbs[0], data[: len(data) // 2]))
    ks = kernels_of(run)
    assert run["application"] == "cpi", run["application"]  # the XML Header's name
    assert run["nprocs"] == facts["ranks"] == 4, run["nprocs"]
    main = ks["main"]
    per = facts["main_values_per_profile"]
    assert close(main["metrics"]["inclusive"], max(v[0] for v in per.values()) / 1e6), main
    assert close(main["metrics"]["inclusive_min"], min(v[0] for v in per.values()) / 1e6)
    assert close(main["metrics"]["inclusive_mean"],
                 sum(v[0] for v in per.values()) / len(per) / 1e6), main
    assert main["time"] == 0.0 and main["metrics"]["exclusive_max"] == 0.0, main
    # an independent reading: per profile, node 1 (the root) and the frames'
    # exclusive values; frames named by procedure paths
    import struct
    import xml.etree.ElementTree as ET
    tree = ET.parse(os.path.join(full, "experiment.xml")).getroot()
    procs = {p.get("i"): p.get("n") for p in tree.iter("Procedure")}
    frames = {}  # node id -> path

    def walk(el, path):
        for c in el:
            if c.tag in ("PF", "Pr"):
                name = procs[c.get("n")]
                p = path if (not path and name == "<program root>") else path + [name]
                if p is not path:
                    frames[int(c.get("i"))] = "/".join(p)
                walk(c, p)
            elif c.tag != "M":
                walk(c, path)
    walk(tree.find(".//SecCallPathProfileData"), [])
    assert set(frames.values()) == set(ks), set(frames.values()) ^ set(ks)
    roots, excl = [], defaultdict(float)
    for f in dbs:
        d = open(os.path.join(full, f), "rb").read()
        n, m = struct.unpack(">II", d[24:32])
        vals = [struct.unpack(">%dd" % m, d[32 + 8 * m * i: 32 + 8 * m * (i + 1)])
                for i in range(n)]
        roots.append(vals[0][0])
        for node, path in frames.items():
            excl[path] += vals[node - 1][1] / len(dbs)
    assert close(run["runtime"], max(roots) / 1e6), (run["runtime"], roots)
    for path, e in excl.items():
        assert close(ks[path]["time"], e / 1e6, 1e-9), (path, ks[path], e)
    check_sum_at_most_runtime(run)


def v4_reference(full):
    """An independent reading of meta.db/profile.db (FORMATS.md): the
    title, the execution-scope id of the time metric, the ranks, and per
    profile the global context's inclusive value."""
    import struct
    meta = open(os.path.join(full, "meta.db"), "rb").read()
    prof = open(os.path.join(full, "profile.db"), "rb").read()
    u64 = lambda b, o: struct.unpack_from("<Q", b, o)[0]
    cstr = lambda b, o: b[o:b.index(b"\0", o)].decode()
    title = cstr(meta, u64(meta, u64(meta, 0x18)))
    sec = u64(meta, 0x38)
    pm, nm, szm, szsi = u64(meta, sec), struct.unpack_from("<I", meta, sec + 8)[0], \
        meta[sec + 12], meta[sec + 13]
    incl = None
    for i in range(nm):
        md = pm + i * szm
        name = cstr(meta, u64(meta, md))
        psi, nsi = u64(meta, md + 8), struct.unpack_from("<H", meta, md + 0x18)[0]
        for j in range(nsi):
            inst = psi + j * szsi
            scope = cstr(meta, u64(meta, u64(meta, inst)))
            if "TIME" in name and scope == "execution":
                incl = struct.unpack_from("<H", meta, inst + 8)[0]
    sec = u64(prof, 0x18)
    pp, np_, szp = u64(prof, sec), struct.unpack_from("<I", prof, sec + 8)[0], prof[sec + 12]
    roots, ranks = [], set()
    for i in range(np_):
        pi = pp + i * szp
        if struct.unpack_from("<I", prof, pi + 0x28)[0] & 1:
            continue
        nvals, pvals = u64(prof, pi), u64(prof, pi + 8)
        nctx, pidx = struct.unpack_from("<I", prof, pi + 0x10)[0], u64(prof, pi + 0x18)
        tup = u64(prof, pi + 0x20)
        for k in range(struct.unpack_from("<H", prof, tup)[0]):
            if prof[tup + 8 + 16 * k] == 2:  # RANK
                ranks.add(struct.unpack_from("<I", prof, tup + 8 + 16 * k + 4)[0])
        for c in range(nctx):
            ctx, start = struct.unpack_from("<IQ", prof, pidx + 12 * c)
            end = struct.unpack_from("<IQ", prof, pidx + 12 * (c + 1))[1] \
                if c + 1 < nctx else nvals
            for v in range(start, end):
                mid, val = struct.unpack_from("<Hd", prof, pvals + 10 * v)
                if ctx == 0 and mid == incl:
                    roots.append(val)
    return title, ranks, roots


@test
def hpctoolkit_v4_meta_and_profile_db():
    rel = "hpctoolkit/pipit_ping-pong-hpctoolkit_v4"
    facts = FACTS[rel]["facts"]
    full = os.path.join(CORPUS, rel)
    data = open(os.path.join(full, "profile.db"), "rb").read()
    run = the_sample("hpctoolkit", rel,
                     tar_with(full, "profile.db", data[: len(data) // 2]))
    ks = kernels_of(run)
    title, ranks, roots = v4_reference(full)
    assert run["application"] == title == facts["title"], run["application"]
    assert run["nprocs"] == len(ranks) == facts["ranks"], run["nprocs"]
    assert len(roots) == facts["profile_db"]["profiles_incl_summary"] - 1
    assert close(run["runtime"], max(roots)), (run["runtime"], roots)  # CPUTIME (sec)
    leaves = {n.split("/")[-1] for n in ks if not n.startswith("...")}
    assert leaves <= set(facts["function_names"]), leaves - set(facts["function_names"])
    assert {"main", "MPI_Finalize", "PMPI_Send [libmpi.so.12.1.1]"} <= leaves, leaves
    assert close(ks["main"]["metrics"]["inclusive"], max(roots)), ks["main"]
    check_sum_at_most_runtime(run)


def tiny_hpc(per_rank, inline=False, no_excl=False, db_table=None, counters=False,
             raw_time=False):
    """An experiment.xml database of <program root>/main/solve with CPUTIME
    (usec) and PAPI_TOT_CYC, one metric-db per rank: per_rank[r] maps node
    id -> (time I, time E, cycles I, cycles E). inline: no metric-db files,
    and no MetricDBTable unless db_table; counters: the time metric renamed
    to a counter (no time at all); raw_time: the time a raw per-thread metric
    (t="nil", as before hpcprof summarises) with no exclusive partner."""
    import struct
    xml = b'''<?xml version="1.0"?>
<HPCToolkitExperiment version="2.0"><Header n="tiny"/>
<SecCallPathProfile i="0" n="tiny"><SecHeader><MetricTable>
<Metric i="2" n="CPUTIME (usec):Sum (I)" t="inclusive" partner="3"/>
<Metric i="3" n="CPUTIME (usec):Sum (E)" t="exclusive" partner="2"/>
<Metric i="4" n="PAPI_TOT_CYC:Sum (I)" t="inclusive" partner="5"/>
<Metric i="5" n="PAPI_TOT_CYC:Sum (E)" t="exclusive" partner="4"/>
</MetricTable><MetricDBTable>
<MetricDB i="0" n="CPUTIME (usec) (I)" t="inclusive" db-id="0" db-num-metrics="4" db-header-sz="24"/>
<MetricDB i="1" n="CPUTIME (usec) (E)" t="exclusive" db-id="1" db-num-metrics="4" db-header-sz="24"/>
<MetricDB i="2" n="PAPI_TOT_CYC (I)" t="inclusive" db-id="2" db-num-metrics="4" db-header-sz="24"/>
<MetricDB i="3" n="PAPI_TOT_CYC (E)" t="exclusive" db-id="3" db-num-metrics="4" db-header-sz="24"/>
</MetricDBTable><ProcedureTable>
<Procedure i="7" n="main"/><Procedure i="8" n="solve"/><Procedure i="9" n="&lt;program root&gt;"/>
</ProcedureTable></SecHeader><SecCallPathProfileData>
<M n="2" v="700"/>
<PF i="2" n="9"><M n="2" v="700"/><C i="3"><PF i="4" n="7"><M n="2" v="700"/><M n="3" v="100"/>
<S i="5"/><C i="6"><PF i="7" n="8"><M n="2" v="600"/><M n="3" v="600"/><M n="4" v="8"/><M n="5" v="8"/>
<S i="8"/></PF></C></PF></C></PF>
</SecCallPathProfileData></SecCallPathProfile></HPCToolkitExperiment>
'''
    if inline and not db_table:  # hpcprof without metric-db files names none
        xml = re.sub(rb"<MetricDBTable>.*</MetricDBTable>", b"", xml, flags=re.S)
    if counters:
        xml = xml.replace(b"CPUTIME (usec)", b"PAPI_L1_DCM")
    if raw_time:
        xml = xml.replace(b't="inclusive" partner="3"', b't="nil"')
        xml = xml.replace(b'"CPUTIME (usec):Sum (E)"', b'"X:Sum (E)"')
    if no_excl:  # the exclusive column names another metric: time is derived
        xml = xml.replace(b"CPUTIME (usec):Sum (E)", b"OTHER:Sum (E)")
        xml = xml.replace(b"CPUTIME (usec) (E)", b"OTHER (E)")
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        files = [("experiment.xml", xml)]
        for r, vals in enumerate([] if inline else per_rank):
            rows = b"".join(struct.pack(">4d", *vals.get(i, (0, 0, 0, 0)))
                            for i in range(1, 9))
            files.append((f"1.tiny-{r:06d}-000-a8c00270-{100 + r}-0.metric-db",
                          b"HPCPROF-metricdb__00.10b" + struct.pack(">II", 8, 4) + rows))
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return out.getvalue()


@test
def hpctoolkit_aggregates_over_ranks_as_documented():
    # rank 0: main 100 us exclusive of 400; rank 1: main 300 of 1000
    ranks = [{1: (400, 0, 50, 0), 2: (400, 0, 50, 0), 4: (400, 100, 50, 10),
              7: (300, 300, 40, 40)},
             {1: (1000, 0, 90, 0), 2: (1000, 0, 90, 0), 4: (1000, 300, 90, 30),
              7: (700, 700, 60, 60)}]
    st, out = post_import(tiny_hpc(ranks), format="hpctoolkit", system="box")
    assert st == 201, out
    st, run = S.get(f"/api/v1/runs/{out['ids'][0]}")
    ks = kernels_of(run)
    assert run["application"] == "tiny" and run["nprocs"] == 2, run
    assert close(run["runtime"], 1000e-6), run["runtime"]  # the root, the larger rank
    assert set(ks) == {"main", "main/solve"}, ks
    assert close(ks["main"]["time"], 200e-6) and close(ks["main/solve"]["time"], 500e-6)
    m = ks["main"]["metrics"]
    assert close(m["inclusive"], 1000e-6) and close(m["inclusive_min"], 400e-6), m
    assert close(m["inclusive_mean"], 700e-6) and close(m["exclusive_max"], 300e-6), m
    m = ks["main/solve"]["metrics"]
    assert m["PAPI_TOT_CYC"] == 60 and m["PAPI_TOT_CYC (exclusive)"] == 50, m
    check_sum_at_most_runtime(run)
    # without an exclusive time: inclusive minus the callees' inclusive
    st, out = post_import(tiny_hpc(ranks, no_excl=True), format="hpctoolkit",
                          system="box3")
    assert st == 201, out
    st, run = S.get(f"/api/v1/runs/{out['ids'][0]}")
    ks = kernels_of(run)
    assert close(ks["main"]["time"], 200e-6) and close(ks["main/solve"]["time"], 500e-6)
    assert close(ks["main"]["metrics"]["exclusive_max"], 300e-6), ks["main"]
    assert ks["main"]["metrics"]["OTHER (exclusive)"] == 200, ks["main"]  # the raw column
    # without metric-db files: the XML's own (summary) values, one profile
    st, out = post_import(tiny_hpc([], inline=True), format="hpctoolkit", system="box2")
    assert st == 201, out
    st, run = S.get(f"/api/v1/runs/{out['ids'][0]}")
    ks = kernels_of(run)
    assert close(run["runtime"], 700e-6) and run["nprocs"] == 1, run
    assert close(ks["main"]["time"], 100e-6) and close(ks["main/solve"]["time"], 600e-6)
    assert ks["main/solve"]["metrics"]["PAPI_TOT_CYC"] == 8, ks["main/solve"]
    # counters only (no time metric, SPEC §16): a run without a runtime whose
    # kernels carry the counters and no time
    st, out = post_import(tiny_hpc([], inline=True, counters=True), format="hpctoolkit",
                          system="box4")
    assert st == 201, out
    st, run = S.get(f"/api/v1/runs/{out['ids'][0]}")
    ks = kernels_of(run)
    assert run["runtime"] is None and set(ks) == {"main", "main/solve"}, run
    assert ks["main/solve"]["time"] is None and ks["main/solve"]["metrics"] == {
        "PAPI_L1_DCM": 600, "PAPI_L1_DCM (exclusive)": 600, "PAPI_TOT_CYC": 8,
        "PAPI_TOT_CYC (exclusive)": 8}, ks["main/solve"]
    assert ks["main"]["metrics"]["PAPI_L1_DCM (exclusive)"] == 100, ks["main"]


@test
def hpctoolkit_refuses_summaries_and_raw_times():
    snapshot = S.content()
    # the XML names metric-db files that are not here: its inline values are
    # sums over the profiles (":Sum"), not one run's
    st, out = post_import(tiny_hpc([], inline=True, db_table=True), format="hpctoolkit")
    assert st == 422 and out["error"]["message"] == (
        "experiment.xml: it names 4 metric-db columns (MetricDBTable) but no "
        "*.metric-db file is here: its inline values are summaries over the profiles, "
        "not a run's; import the database directory with its metric-db files"), out
    # a raw per-thread time metric (t="nil", as hpcprof writes before summarising)
    st, out = post_import(tiny_hpc([], inline=True, raw_time=True), format="hpctoolkit")
    assert st == 422 and out["error"]["message"] == (
        "experiment.xml: the time metric CPUTIME (usec):Sum (I) holds raw per-thread "
        "values (t=\"nil\", neither inclusive nor exclusive), which are not read: open "
        "the measurements with hpcprof to summarise them"), out
    assert S.content() == snapshot


@test
def hpctoolkit_refuses_damaged_databases():
    snapshot = S.content()
    full = os.path.join(CORPUS, "hpctoolkit/pipit_ping-pong-hpctoolkit_v4")
    meta = open(os.path.join(full, "meta.db"), "rb").read()
    bad = bytearray(meta)
    bad[0x38:0x40] = (len(meta) + 4096).to_bytes(8, "little")  # Metrics beyond the end
    st, out = post_import(tar_with(full, "meta.db", bytes(bad)), format="hpctoolkit")
    assert st == 422 and "meta.db" in out["error"]["message"], out
    full = os.path.join(CORPUS, "hpctoolkit/hatchet_hpctoolkit-cpi-database")
    xml = open(os.path.join(full, "experiment.xml"), "rb").read()
    st, out = post_import(tar_with(full, "experiment.xml", xml.replace(b"</PF>", b"</C>", 1)),
                          format="hpctoolkit")
    assert st == 422 and "experiment.xml:" in out["error"]["message"], out
    # values nowhere (a 2020-2021 database keeps them in its own sparse files)
    import re
    bare = re.sub(rb"<M [^>]*/>", b"", xml)
    st, out = post_import(tar_with_only("experiment.xml", bare), format="hpctoolkit")
    assert st == 422 and out["error"]["message"] == (
        "experiment.xml: it names 2 metric-db columns (MetricDBTable) but no *.metric-db "
        "file is here; import the database directory with its metric-db files"), out
    bare = re.sub(rb"<MetricDBTable>.*</MetricDBTable>", b"", bare, flags=re.S)
    st, out = post_import(tar_with_only("experiment.xml", bare), format="hpctoolkit")
    assert st == 422 and "neither *.metric-db files nor values" in out["error"]["message"], out
    # a profile whose sampling recorded nothing: an empty MetricTable (hpcviewer's
    # bug-nocallpath) is said so, not sent to look for sparse files
    empty = re.sub(rb"<MetricTable>.*</MetricTable>", b"<MetricTable></MetricTable>", bare,
                   flags=re.S)
    st, out = post_import(tar_with_only("experiment.xml", empty), format="hpctoolkit")
    assert st == 422 and out["error"]["message"] == (
        "experiment.xml: experiment.xml defines no metric: the profile measured nothing"
    ) and out["error"]["field"] == "MetricTable", out
    # hpcprof's experiment.xml 4.0 (before meta.db): the tree only, MetricDBs
    # of a name alone, the values in the sparse cct.db and profile.db
    v4 = re.sub(rb' db-[a-z-]+="[^"]*"', b"", bare.replace(b'version="2.0"', b'version="4.0"'))
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in [("experiment.xml", v4), ("profile.db", b"HPCPROF-tmsdb_____\x00"),
                           ("cct.db", b"HPCPROF-cmsdb_____\x00")]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    st, out = post_import(out.getvalue(), format="hpctoolkit")
    assert st == 422, out
    assert out["error"]["message"].startswith(
        "experiment.xml:233: experiment.xml version 4.0 keeps its values in the sparse "
        "cct.db and profile.db hpcprof wrote before meta.db, which are not read"), out
    assert S.content() == snapshot


# ---- nsys-sqlite ---------------------------------------------------------------

@test
def nsys_sqlite_saxpy():
    rel = "nsys-sqlite/pipit_saxpy-mpi-cuda_perlmutter0.sqlite"
    facts = FACTS[rel]["facts"]
    body = body_of(rel)
    run = the_sample("nsys-sqlite", rel, body[: len(body) // 2])
    ks = kernels_of(run)
    top = facts["top_kernels"][0]
    k = ks[top["name"]]
    assert k["calls"] == top["count"] == facts["kernels"], k
    assert close(k["time"], top["total_ns"] / 1e9) and close(k["time"],
                                                             facts["kernel_total_ns"] / 1e9)
    assert close(k["metrics"]["min"], top["min_ns"] / 1e9), k
    assert close(k["metrics"]["max"], top["max_ns"] / 1e9), k
    gpu = [n for n in ks if "(" in n and not n.startswith("[")]
    assert len(gpu) == facts["kernel_names"], gpu
    copies = [k for n, k in ks.items() if n.startswith("[CUDA memcpy")]
    assert sum(k["calls"] for k in copies) == facts["memcpy"], copies
    api = [k for n, k in ks.items() if n.startswith("cu")]
    assert sum(k["calls"] for k in api) == facts["runtime_calls"], len(api)
    for a in facts["top_runtime_apis"]:
        assert ks[a["name"]]["calls"] == a["count"], a
        assert close(ks[a["name"]]["time"], a["total_ns"] / 1e9), a
    # an independent reading of the same file through Python's sqlite3
    con = sqlite3.connect(os.path.join(CORPUS, rel))
    dur, = con.execute("SELECT duration FROM ANALYSIS_DETAILS").fetchone()
    for kind, n, ns, nbytes in con.execute(
            "SELECT copyKind, COUNT(*), SUM(end - start), SUM(bytes) "
            "FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1"):
        name = {1: "[CUDA memcpy HtoD]", 2: "[CUDA memcpy DtoH]"}[kind]
        assert ks[name]["calls"] == n and close(ks[name]["time"], ns / 1e9), ks[name]
        assert ks[name]["metrics"]["bytes"] == nbytes, ks[name]
    nvtx = con.execute("SELECT coalesce(n.text, s.value), COUNT(*), SUM(n.end - n.start) "
                       "FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
                       "WHERE n.eventType IN (59, 60) AND n.end IS NOT NULL "
                       "GROUP BY 1").fetchall()
    assert {r[0] for r in nvtx} == {"MPI_Init", "MPI_Send", "MPI_Recv", "MPI_Finalize",
                                    "saxpy"}, nvtx
    for name, n, ns in nvtx:
        assert ks[name]["calls"] == n and close(ks[name]["time"], ns / 1e9), ks[name]
    con.close()
    assert close(run["runtime"], dur / 1e9), run["runtime"]
    assert run["application"] == "saxpy-mpi-cuda" and run["nprocs"] == 1, run
    assert run["started_at"] == "2023-06-26T21:00:57Z", run["started_at"]
    assert run["tags"]["gpu"] == "NVIDIA A100-SXM4-40GB", run["tags"]


@test
def nsys_sqlite_refuses_what_is_not_an_export():
    snapshot = S.content()
    st, out = post_import(b"SQLite format 3\0" + b"\0" * 84, format="nsys-sqlite",
                          filename="x.sqlite")
    assert st == 422 and "x.sqlite" in out["error"]["message"], out
    # a real SQLite file without any CUDA activity
    path = os.path.join(S.tmp, "empty.sqlite")
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT)")
    con.commit()
    con.close()
    st, out = post_import(open(path, "rb").read(), format="nsys-sqlite",
                          filename="empty.sqlite")
    assert st == 422 and "no CUDA kernels" in out["error"]["message"], out
    assert S.content() == snapshot


@test
def chrome_trace_perfetto_export_with_a_large_system_trace_string():
    # Perfetto's JSON export carries the ftrace text as one string, larger
    # than any event may be: it is skipped, not decoded (through the CLI: the
    # server's body limit is 8 MiB)
    ftrace = "# tracer: nop\\n" + "x\\\"y " * (4 << 20)
    body = ('{"traceEvents": [{"ph": "X", "pid": 3, "tid": 4, "ts": 1, "dur": 2, '
            '"name": "' + "n" * 300 + '"}], "systemTraceEvents": "' + ftrace + '", '
            '"metadata": {"trace-config": ""}}').encode()
    assert len(body) > 16 << 20
    path, db = os.path.join(S.tmp, "perfetto.json"), os.path.join(S.tmp, "cli.db")
    with open(path, "wb") as f:
        f.write(body)
    out = subprocess.run([PROPHECYD, "import", path, "--db", db], capture_output=True,
                         text=True)
    assert out.returncode == 0 and "(chrome-trace)" in out.stdout, out.stderr
    con = sqlite3.connect(db)
    rows = con.execute("SELECT name, time, calls FROM kernels").fetchall()
    con.close()
    assert rows == [("n" * 256, 2e-6, 1)], rows


@test
def trace_json_of_an_otf2_trace_agrees_with_its_profile():
    data = os.path.join(SRC, "tests/data/import/otf2/trace")
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for root, _, files in sorted(os.walk(data)):
            for f in sorted(files):
                t.add(os.path.join(root, f), arcname=os.path.relpath(os.path.join(root, f), data))
    st, res = post_import(out.getvalue(), format="otf2", application="otf2 json")
    assert st == 201, res
    rid = res["ids"][0]
    st, prof = S.get(f"/api/v1/runs/{rid}/trace/profile")
    assert st == 200, prof
    st, text, resp = S.request("GET", f"/runs/{rid}/trace.json", raw=True)
    assert st == 200, text
    doc = json.loads(text)
    assert doc["otherData"]["nranks"] == prof["nranks"], doc["otherData"]
    for rank in prof["ranks"]:
        calls = Counter(e["name"] for e in doc["traceEvents"]
                        if e["ph"] == "X" and e["pid"] == rank["rank"] and e["cat"] != "state")
        want = {k: v for k, v in rank["calls"].items() if v}
        assert dict(calls) == want, (rank["rank"], calls, want)
        secs = defaultdict(float)
        for e in doc["traceEvents"]:
            if e["ph"] == "X" and e["pid"] == rank["rank"] and e["cat"] != "state":
                secs[e["name"]] += e["dur"] / 1e6
        for k in want:
            assert close(secs[k], rank["time"][k], 1e-9), (k, secs[k], rank["time"][k])


@test
def trace_json_of_a_run_without_a_trace_is_404():
    st, out = S.post("/api/v1/runs", {"application": "plain", "executable": "plain",
                                      "system": "s", "nprocs": 1, "runtime": 1.0})
    assert st == 201, out
    rid = out["ids"][0]
    st, out = S.get(f"/runs/{rid}/trace.json")
    assert st == 404 and out["error"]["code"] == "not_found", out
    st, out = S.get("/runs/999999/trace.json")
    assert st == 404, out


@test
def trace_json_of_a_known_trace_exactly():
    # two ranks, nested states with known begins and ends to the nanosecond
    events = [
        {"ph": "X", "pid": 0, "tid": 0, "ts": 0, "dur": 1000, "name": "solve"},
        {"ph": "X", "pid": 0, "tid": 0, "ts": 100.5, "dur": 200.25, "name": "exchange"},
        {"ph": "B", "pid": 1, "tid": 0, "ts": 10, "name": "solve"},
        {"ph": "E", "pid": 1, "tid": 0, "ts": 1500.001},
        {"ph": "C", "pid": 0, "ts": 0, "name": "memory", "args": {"bytes": 4096}},
        {"ph": "M", "pid": 0, "name": "process_name", "args": {"name": "solver"}},
        {"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "solver"}},
    ]
    st, out = post_import(json.dumps({"traceEvents": events,
                                      "displayTimeUnit": "ns"}).encode(),
                          filename="known.json", system="box")
    assert st == 201 and out["format"] == "chrome-trace", out
    rid = out["ids"][0]
    st, run = S.get(f"/api/v1/runs/{rid}")
    assert run["application"] == "solver" and run["nprocs"] == 2, run
    assert close(run["runtime"], 1500.001e-6), run["runtime"]
    assert run["metrics"] == {"memory": 4096}, run["metrics"]
    ks = kernels_of(run)
    assert ks["solve"]["calls"] == 2 and close(ks["solve"]["time"], 2490.001e-6), ks
    assert close(ks["solve"]["metrics"]["max"], 1490.001e-6), ks
    assert close(ks["exchange"]["time"], 200.25e-6), ks
    st, text, resp = S.request("GET", f"/runs/{rid}/trace.json", raw=True)
    assert st == 200, text
    doc = json.loads(text)
    assert doc["otherData"] == {"producer": "prophecy", "nranks": 2, "dropped": 0}, doc
    ev = doc["traceEvents"]
    meta = [e for e in ev if e["ph"] == "M"]
    assert [(e["pid"], e["name"], e["args"]) for e in meta] == [
        (0, "process_name", {"name": "rank 0"}), (0, "process_sort_index", {"sort_index": 0}),
        (0, "thread_name", {"name": "rank 0"}), (1, "process_name", {"name": "rank 1"}),
        (1, "process_sort_index", {"sort_index": 1}), (1, "thread_name", {"name": "rank 1"})]
    xs = [(e["pid"], e["tid"], e["name"], e["cat"], e["ts"], e["dur"])
          for e in ev if e["ph"] == "X"]
    # times from the trace's first begin; µs to the nanosecond
    assert xs == [(0, 0, "solve", "state", 0, 1000), (0, 0, "exchange", "state", 100.5, 200.25),
                  (1, 1, "solve", "state", 10, 1490.001)], xs
    # the trace page links it
    st, page = S.get(f"/runs/{rid}/trace")
    assert st == 200 and f'href="/runs/{rid}/trace.json"' in page, st
    # and it reads back as the same trace
    st, again = post_import(text, filename="again.json", format="chrome-trace")
    assert st == 201, again
    st, run2 = S.get(f"/api/v1/runs/{again['ids'][0]}")
    k2 = kernels_of(run2)
    assert k2["solve"]["calls"] == 2 and close(k2["solve"]["time"], 2490.001e-6), k2
    assert run2["nprocs"] == 2, run2


report()
