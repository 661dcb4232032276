"""The trace page of a trace without MPI calls, against the real prophecyd
(docs/traces.md "A trace without MPI calls"): a real clang 14 -ftime-trace
file (tests/data/import/public/chrome-trace, one compiling thread and the
"Total NAME" summaries clang writes each on a thread id of its own) and a
small Trace Event file of three threads are imported through the API, and
recorder files of a program that made no MPI call are uploaded. Their
pages say the trace has no MPI calls, carry no wait, traffic or load section
and call their lanes threads and their profile one per state; the OTF2
fixture (MPI calls on two ranks) keeps every section and its words. A trace
stored before the load answer counted the MPI calls is told apart by its
communication time. The time a thread spent in none of its events is
"outside any event" on the page and in its charts (an MPI trace's keeps
"compute"), and a trace of more than 10 states colours each state apart,
the rest one grey "other"."""
import html as htmllib
import io
import json
import os
import re
import struct
import tarfile
import urllib.parse

from prophecy_test import Server, report, run_doc, tar_of, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
CLANG = os.path.join(SRC, "tests/data/import/public/chrome-trace/clang14_time_trace.json")
OTF2 = os.path.join(SRC, "tests/data/import/otf2/trace")
MPI_SECTIONS = ("wait", "traffic", "load")
ALL_SECTIONS = ("profile", "wait", "traffic", "load", "timeline", "occupancy", "clusters")
S = Server()


def imported(body, **query):
    st, ans = S.request("POST", "/api/v1/import?" + urllib.parse.urlencode(query), body,
                        ctype="application/octet-stream")
    assert st == 201 and ans["runs"] == 1, (st, ans)
    return ans["ids"][0]


def page(rid):
    st, body, _ = S.request("GET", f"/runs/{rid}/trace", raw=True, token=None)
    assert st == 200, st
    return body.decode()


def answer(rid, name):
    st, a = S.get(f"/api/v1/runs/{rid}/trace/{name}")
    assert st == 200, (name, st, a)
    return a


def svg(rid, name):
    st, body, _ = S.request("GET", f"/plots/run-{rid}-{name}.svg", raw=True, token=None)
    assert st == 200 and b"<svg" in body, (name, st)
    return body.decode()


def legend(text):
    """A chart's legend as [(fill, text)]: its swatches (the timeline's
    10-pixel squares, the bars' 12-pixel ones) and their labels."""
    return [(f, htmllib.unescape(t)) for f, t in re.findall(
        r'<rect [^>]*width="1[02]" height="1[02]" fill="(#[0-9a-f]{6})"/>\s*'
        r'<text[^>]*>([^<]*)</text>', text)]


def page_text(html):
    """The words of a page: its tags (and the charts' inside them) left out."""
    return htmllib.unescape(re.sub(r"<svg.*?</svg>|<[^>]+>", " ", html, flags=re.S))


def sections(html):
    return re.findall(r'<section id="([a-z]+)"', html)


def headings(html):
    return re.findall(r"<h[23][^>]*>([^<]*)</h[23]>", html)


with open(CLANG, "rb") as f:
    CLANG_RID = imported(f.read(), format="chrome-trace", filename="clang14_time_trace.json")
THREADS_RID = imported(json.dumps({"traceEvents": [
    {"ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 100, "name": "load"},
    {"ph": "X", "pid": 1, "tid": 1, "ts": 10, "dur": 30, "name": "parse"},
    {"ph": "X", "pid": 1, "tid": 2, "ts": 5, "dur": 90, "name": "parse"},
    {"ph": "X", "pid": 2, "tid": 7, "ts": 20, "dur": 50, "name": "render"},
]}).encode(), format="chrome-trace", filename="threads.json", application="threads")
MPI_RID = imported(tar_of(OTF2), format="otf2", application="otf2 lanes")
# 13 states one after the other on one thread, s01 the longest (130 us)
# down to s13 (10 us): more states than the palette has colours
MANY = ["s%02d" % k for k in range(1, 14)]
MANY_RID = imported(json.dumps({"traceEvents": [
    {"ph": "X", "pid": 1, "tid": 1, "ts": sum(140 - 10 * j for j in range(1, k)),
     "dur": 140 - 10 * k, "name": MANY[k - 1]} for k in range(1, 14)
]}).encode(), format="chrome-trace", filename="many.json", application="many states")


def recorded_states_only(nranks):
    """trace.RANK files of format version 3 (docs/traces.md) of a program
    that made no MPI call: each rank in a probe state "solve" from 0.1 s to
    0.5 s of its 1 s."""
    files = {}
    for r in range(nranks):
        name = b"solve"
        head = struct.pack("<8sIIIIQQQIIQ", b"PRPHTRC\0", 3, r, nranks, 1, 1, 10**9, 0,
                           48, 0, 0)
        names = struct.pack("<H", len(name)) + name
        ev = struct.pack("<QQqiiiiIHH", 10**8, 5 * 10**8, 0, -1, -1, 0, 0, 0, 0, 0)
        files[f"trace.{r}"] = head + names + ev
    return files


def ustar(files):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for n, data in files.items():
            info = tarfile.TarInfo(n)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return out.getvalue()


st, b = S.post("/api/v1/runs", run_doc(id="recorded states", application="states",
                                        nprocs=2))
assert st == 201, b
RECORDED_RID = b["ids"][0]
st, b = S.post(f"/api/v1/runs/{RECORDED_RID}/trace", ustar(recorded_states_only(2)),
               ctype="application/x-tar")
assert st == 201 and b["nranks"] == 2, b


@test
def a_compile_is_one_thread_without_mpi_calls():
    html = page(CLANG_RID)
    assert "This trace has no MPI calls" in html and 'id="no-mpi"' in html, html[:2000]
    assert "1 thread," in html and "ranks" not in html.split("</h1>")[1].split("</p>")[0]
    assert sections(html) == ["profile", "timeline", "occupancy", "clusters"], sections(html)
    for name in MPI_SECTIONS:
        assert f'href="#{name}"' not in html and f"/trace/{name}\"" not in html, name
    # nothing on the page calls a thread a rank or a state an MPI routine
    for h in headings(html):
        assert "rank" not in h.lower() and "MPI" not in h, h
    assert "Profile: time per state" in html and "Clusters: representative threads" in html
    assert "Which thread is in which cluster" in html
    assert "States never occupied" not in html  # p2p, collective, wait are no states here
    # the summaries are no lanes: one thread, its time per state adding up
    load = answer(CLANG_RID, "load")
    assert load["mpi_calls"] == 0 and load["nranks"] == 1, load
    prof = answer(CLANG_RID, "profile")
    assert prof["routines"] == [] and len(prof["ranks"]) == 1, prof["nranks"]
    rk = prof["ranks"][0]
    assert abs(sum(rk["classes"].values()) - rk["exec"]) < 1e-9, rk["classes"]
    assert rk["classes"]["ExecuteCompiler"] > 0 and not any(
        c.startswith("Total ") for c in rk["classes"]), rk["classes"]
    assert "Time per state per thread" in svg(CLANG_RID, "profile")
    assert "Timeline: state of each thread" in svg(CLANG_RID, "timeline")
    st, body, _ = S.request("GET", f"/plots/run-{CLANG_RID}-timeline.svg?width=300",
                            raw=True, token=None)
    assert st == 200 and b"state of each thread" in body, st
    # the MPI analyses still answer at their routes, as before
    for name in MPI_SECTIONS:
        a = answer(CLANG_RID, name)
        assert a["nranks"] == 1, (name, a)


@test
def threads_of_a_trace_event_file():
    html = page(THREADS_RID)
    assert "3 threads," in html and "This trace has no MPI calls" in html
    assert sections(html) == ["profile", "timeline", "occupancy", "clusters"], sections(html)
    assert "<th>Threads</th>" in html
    prof = answer(THREADS_RID, "profile")
    # thread (1, 1): load 0..100 with parse 10..40 inside: 70 + 30 us
    c = prof["ranks"][0]["classes"]
    assert abs(c["load"] - 70e-6) < 1e-12 and abs(c["parse"] - 30e-6) < 1e-12, c
    assert "Per-thread state timeline of 3 threads" in svg(THREADS_RID, "timeline")
    assert "Scatterplot matrix of the threads" in svg(THREADS_RID, "clusters")


@test
def a_recorded_trace_of_states_only():
    """The recorder's files of a program that made no MPI call: its ranks
    are threads too."""
    html = page(RECORDED_RID)
    assert "2 threads," in html and "This trace has no MPI calls" in html
    assert sections(html) == ["profile", "timeline", "occupancy", "clusters"], sections(html)
    assert answer(RECORDED_RID, "load")["mpi_calls"] == 0
    c = answer(RECORDED_RID, "profile")["ranks"][1]["classes"]
    assert abs(c["solve"] - 0.4) < 1e-9 and abs(c["compute"] - 0.6) < 1e-9, c


@test
def an_mpi_trace_keeps_every_section():
    html = page(MPI_RID)
    assert "no MPI calls" not in html and 'id="no-mpi"' not in html
    assert sections(html) == list(ALL_SECTIONS), sections(html)
    assert "2 ranks," in html
    for title in ("Profile: time per MPI routine", "Wait: who waits for whom",
                  "Traffic: messages between ranks", "Load: computation and communication",
                  "Clusters: representative ranks", "Which rank is in which cluster"):
        assert title in html, title
    assert "<th>Ranks</th>" in html
    assert answer(MPI_RID, "load")["mpi_calls"] == 2  # a barrier on each rank
    assert "Time per routine per rank" in svg(MPI_RID, "profile")
    assert "Timeline: state of each rank" in svg(MPI_RID, "timeline")


@test
def time_outside_every_event_is_not_called_compute():
    """Without MPI calls, "compute" (not inside an MPI call) means nothing:
    the recorded threads spent 0.6 s of their 1 s outside their "solve"
    state, and the page, the charts of its sections and the load chart say
    so; the JSON answers keep the class's name for programs."""
    html = page(RECORDED_RID)
    assert "its innermost event, or outside any event when in none." in html
    assert ("the time a thread spent in none of its events is called "
            "<em>outside any event</em> (in the JSON answers, as in an MPI trace, "
            "<code>compute</code>)") in html, html[:3000]
    assert "<th>outside any event</th>" in html  # the occupancy's figures
    # "compute" only where the notice names the JSON's class
    assert page_text(html).count("compute") == 1, page_text(html)
    for name in ("profile", "timeline", "occupancy"):
        assert dict((t, f) for f, t in legend(svg(RECORDED_RID, name))) == {
            "outside any event": "#1f77b4", "solve": "#9467bd"}, name
    load = svg(RECORDED_RID, "load")
    assert "Load: execution time per thread, imbalance 1.00 (max/mean)" in load, load
    assert [t for _, t in legend(load)] == ["execution"] and "compute" not in load
    c = answer(RECORDED_RID, "profile")["ranks"][0]["classes"]
    assert set(c) == {"compute", "solve"} and abs(c["compute"] - 0.6) < 1e-9, c
    assert answer(RECORDED_RID, "occupancy")["classes"][0] == "compute"


@test
def an_mpi_trace_still_computes():
    """In an MPI trace "compute" is the time in no MPI call: unchanged."""
    html = page(MPI_RID)
    assert "outside any event" not in html
    assert "into computation and the MPI routines it called" in html
    assert "compute" in [t for _, t in legend(svg(MPI_RID, "profile"))]
    assert "compute" in [t for _, t in legend(svg(MPI_RID, "timeline"))]
    assert [t for _, t in legend(svg(MPI_RID, "load"))] == ["communication", "compute"]
    assert "Load: compute imbalance" in svg(MPI_RID, "load")
    rk = answer(MPI_RID, "profile")["ranks"][0]
    assert abs(rk["compute"] - 0.7) < 1e-9, rk  # 1 s less the barrier's 0.3 s
    # its region called "compute" is a state, told apart from the class
    assert set(rk["classes"]) == {"collective", "main", "compute (state)"}, rk
    # and so in the charts' legends: one "compute", the region "compute (state)"
    # (cut to the timeline's 10 characters), never a second "compute"
    texts = [t for _, t in legend(svg(MPI_RID, "timeline"))]
    assert texts.count("compute") == 1 and "compute (\u2026" in texts, texts
    texts = [t for _, t in legend(svg(MPI_RID, "occupancy"))]
    assert sorted(texts) == ["collective", "compute (state)", "main"], texts


@test
def more_states_than_colours():
    """13 states: the 9 with the most time keep a colour each, the same in
    the timeline, the profile and the occupancy, and the other 4 are one
    grey "other"; no colour names two states."""
    tl = legend(svg(MANY_RID, "timeline"))
    assert [t for _, t in tl] == MANY[:9] + ["other (4 more)"], tl
    fills = [f for f, _ in tl]
    assert len(set(fills)) == len(fills), tl
    # s01..s06 are classes 4..9 and keep those colours, s07..s09 take the
    # colours no state kept (MPI's classes': none occupied), the rest grey
    assert fills == ["#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
                     "#7f7f7f", "#1f77b4", "#ff7f0e", "#2ca02c", "#b8b8b8"], fills
    for name in ("profile", "occupancy"):
        entries = legend(svg(MANY_RID, name))
        assert sorted(entries) == sorted(tl), (name, entries)
    # an MPI trace's occupancy in its timeline's colours too (it was drawn
    # in the renderer's order: collective blue, main orange, compute green)
    tl = dict((t, f) for f, t in legend(svg(MPI_RID, "timeline")))
    occ = dict((t, f) for f, t in legend(svg(MPI_RID, "occupancy")))
    assert occ["main"] == tl["main"] == "#9467bd", (occ, tl)
    assert occ["collective"] == tl["collective"] == "#2ca02c", (occ, tl)
    # the page: every chart's legend without a colour twice
    html = page(MANY_RID)
    charts = re.findall(r"<svg xmlns.*?</svg>", html, flags=re.S)
    assert len(charts) == 4, len(charts)
    for chart in charts:
        fills = [f for f, _ in legend(chart)]
        assert len(set(fills)) == len(fills), legend(chart)


@test
def a_trace_stored_before_the_count_is_told_by_its_communication():
    """A load answer without mpi_calls (stored by an earlier version): no
    time in MPI is a trace of states, some is an MPI trace."""
    for rid, mpi in ((THREADS_RID, False), (MPI_RID, True)):
        load = answer(rid, "load")
        del load["mpi_calls"]
        S.sql("UPDATE trace_analyses SET answer = ? WHERE run_id = ? AND name = 'load'",
              (json.dumps(load), rid))
        html = page(rid)
        assert ("This trace has no MPI calls" in html) != mpi, rid
        assert ('id="wait"' in html) == mpi, rid


try:
    report()
finally:
    S.close()
