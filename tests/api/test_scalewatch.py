#!/usr/bin/env python3
"""The scaling-law watch (SPEC §17) over HTTP against the real server, on both
engines: a watch {"detector": {"scaling": {"x": "nprocs", "target": X,
"baseline": "branch:B"}}} fits the law over nprocs of each new commit's runs
(once they cover 4 processor counts) and of the baseline branch's, and raises
one alert when their predictions at the target differ beyond both intervals.
A commit whose law adds 0.05·p to the baseline's 100/p + 1 raises exactly one
alert, with kind, target, both formulas and its ratio at the target; a commit
measured with the baseline's law raises none; bad watches are refused with
the field named and store nothing."""
import json
import urllib.parse

from prophecy_test import Server, report, test

S = Server()
TARGET = 256
NOISE = [-0.003, 0.001, 0.003, -0.002, 0.002, -0.001, 0.0005]


def base_law(p):
    return 100.0 / p + 1


def worse_law(p):
    return 100.0 / p + 1 + 0.05 * p


def run(app, p, law, commit, branch, k, rep=0, system="cluster"):
    """Stores one run of law at p processes; returns the alerts it raised."""
    doc = {"application": app, "executable": "solver", "system": system, "nprocs": p,
           "inputs": {"N": 4096}, "runtime": law(p) * (1 + NOISE[(k + rep) % 7]),
           "branch": branch}
    if commit is not None:
        doc["commit"] = commit
    st, b = S.post("/api/v1/runs", doc)
    assert st == 201, b
    return b.get("alerts", [])


def watch(app, **scaling):
    det = {"x": "nprocs", "target": TARGET, "baseline": "branch:main"}
    det.update(scaling)
    st, w = S.post("/api/v1/watches", {"application": app, "system": "cluster",
                                       "y": "runtime", "detector": {"scaling": det}})
    assert st == 201, w
    return w["id"]


def baseline(app):
    """main: two commits, each at 2..64 processes, twice."""
    for c, commit in enumerate(["m1", "m2"]):
        for k, p in enumerate([2, 4, 8, 16, 32, 64]):
            for rep in range(2):
                assert run(app, p, base_law, commit, "main", k + c, rep) == []


def alerts_of(commit, app):
    st, b = S.get("/api/v1/alerts?" + urllib.parse.urlencode(
        {"commit": commit, "application": app}))
    assert st == 200, b
    return b["alerts"]


@test
def law_change_raises_one_alert_with_its_ratio():
    wid = watch("sw")
    baseline("sw")
    # the commit's first three processor counts: too few to fit a law
    raised = []
    for k, p in enumerate([64, 32, 16]):
        raised += run("sw", p, worse_law, "bad", "feature", k)
    assert raised == [], raised
    # the fourth makes the law: one alert, on the run that completed it
    raised = run("sw", 8, worse_law, "bad", "feature", 3)
    assert len(raised) == 1, raised
    a = raised[0]
    assert a["kind"] == "scaling" and a["watch"] == wid and a["commit"] == "bad", a
    assert a["x"] == "nprocs" and a["target"] == TARGET and a["nprocs"] == 8, a
    assert a["ratio_at_target"] > 1.1 and a["value"] > a["hi"], a
    assert a["direction"] == "up" and a["state"] == "open", a
    # more runs of the commit raise nothing more; they refine its law
    for k, p in enumerate([4, 2, 64, 32, 16, 8]):
        assert run("sw", p, worse_law, "bad", "feature", k, 1) == []
    listed = alerts_of("bad", "sw")
    assert [x["id"] for x in listed] == [a["id"]], listed
    a = listed[0]
    want = worse_law(TARGET) / base_law(TARGET)          # 14.19 / 1.39 = 10.2
    assert abs(a["ratio_at_target"] / want - 1) < 0.1, (a["ratio_at_target"], want)
    assert abs(a["ratio_at_target"] - a["value"] / a["expected"]) < 1e-9, a
    assert abs(a["expected"] / base_law(TARGET) - 1) < 0.05, a
    assert abs(a["value"] / worse_law(TARGET) - 1) < 0.1, a
    assert a["lo"] < a["expected"] < a["hi"] < a["value"], a
    assert a["state"] == "open" and a["direction"] == "up", a
    assert a["formula"].startswith("y = ") and "nprocs" in a["formula"], a
    assert a["baseline_formula"].startswith("y = ") and "nprocs" in a["baseline_formula"]
    assert a["formula"] != a["baseline_formula"], a
    for k in ("predicted", "baseline_predicted", "baseline_lo", "baseline_hi"):
        assert k not in a, a
    # the run that raised it shows the verdict and the alert on its series
    # (no band: the law's prediction at the target is no interval of the run)
    st, s = S.get("/api/v1/series?" + urllib.parse.urlencode(
        {"application": "sw", "system": "cluster", "nprocs": 8, "y": "runtime"}))
    assert st == 200, s
    js = [j for pt in s["points"] if pt["run"] == a["run"] for j in pt["judgements"]]
    assert len(js) == 1 and js[0]["watch"] == wid and js[0]["alert"] == a["id"], js
    assert js[0]["out"] is True and js[0]["lo"] is None and js[0]["hi"] is None, js
    # its group's worst ratio is the ratio at the target
    st, g = S.get("/api/v1/alert-groups")
    assert st == 200, g
    grp = [x for x in g["groups"] if x["commit"] == "bad"]
    assert len(grp) == 1 and grp[0]["alerts"] == [a["id"]], g
    assert abs(grp[0]["worst_ratio"] - a["ratio_at_target"]) < 1e-9, grp
    # the watch lists its detector as created
    st, l = S.get("/api/v1/watches")
    w = [x for x in l["watches"] if x["id"] == wid][0]
    assert w["detector"] == {"scaling": {"x": "nprocs", "target": TARGET,
                                         "baseline": "branch:main",
                                         "threshold": 0.1}}, w
    # the alerts page shows it: the target, the ratio and both laws
    st, html, _ = S.request("GET", "/alerts", token=None, raw=True)
    html = html.decode()
    assert st == 200 and "Scaling law changed" in html, html[:2000]
    assert "at nprocs = 256" in html, html
    # a law is written term by term (web/page.h page_law), escaped
    esc = a["formula"].replace("&", "&amp;").replace("<", "&lt;")
    law = "<code class=\"law\"><span>" + esc.replace(" ", "</span> <span>") + "</span></code>"
    assert law in html, (law, html)
    print("ratio at %d: %.4g (laws: %.4g), %s against %s" % (
        TARGET, a["ratio_at_target"], want, a["formula"], a["baseline_formula"]))
    # deleting the watch takes its alert and group entry with it
    st, b = S.request("DELETE", "/api/v1/watches/%d" % wid)
    assert st == 200 and b == {"deleted": wid}, b
    assert alerts_of("bad", "sw") == []
    st, g = S.get("/api/v1/alert-groups")
    assert all(x["commit"] != "bad" for x in g["groups"]), g


@test
def baseline_law_raises_none():
    watch("sw2")
    baseline("sw2")
    for rep in range(2):
        for k, p in enumerate([64, 32, 16, 8, 4, 2]):
            assert run("sw2", p, base_law, "good", "feature", k + 3, rep) == []
    assert alerts_of("good", "sw2") == []
    # judged and found unchanged: on the run's series its verdict (not out, no
    # alert) and no band, since it judged the commit's law at the target, not
    # the run's value
    st, s = S.get("/api/v1/series?" + urllib.parse.urlencode(
        {"application": "sw2", "system": "cluster", "nprocs": 8, "y": "runtime"}))
    assert st == 200, s
    js = [j for pt in s["points"] for j in pt["judgements"]]
    assert js and all(j["out"] is False and j["alert"] is None and j["lo"] is None and
                      j["hi"] is None and j["expected"] is None for j in js), js
    assert any(j["ready"] for j in js), js
    # a run without a commit is not the scaling watch's to judge
    assert run("sw2", 128, worse_law, None, "feature", 0) == []
    # nor are other alerts shaped as its
    st, b = S.get("/api/v1/alerts")
    assert st == 200 and all("kind" not in x or x["kind"] == "scaling"
                             for x in b["alerts"]), b


@test
def commit_baseline_and_threshold():
    # against one commit; a threshold as large as the change hides it
    watch("sw3", baseline="commit:m1")
    wid = watch("sw3", baseline="commit:m1", threshold=20)
    baseline("sw3")
    raised = []
    for k, p in enumerate([64, 32, 16, 8]):
        raised += run("sw3", p, worse_law, "bad3", "feature", k)
    assert len(raised) == 1 and raised[0]["watch"] != wid, raised
    # the baseline commit's own runs are not judged against themselves
    assert alerts_of("m1", "sw3") == []


@test
def refined_alert_resolves_and_reopens():
    """The alert follows the commit's law as its runs arrive: resolved "not
    confirmed" when the runs no longer tell a change, open again when they
    do; never a second alert."""
    watch("sw5")
    baseline("sw5")
    raised, k = [], 0
    for p in [8, 16, 32, 64]:
        raised += run("sw5", p, worse_law, "fl", "feature", k)
        k += 1
    assert len(raised) == 1 and raised[0]["state"] == "open", raised
    aid = raised[0]["id"]
    for p in [8, 16, 32, 64]:                 # the baseline's law at each x
        raised += run("sw5", p, base_law, "fl", "feature", k)
        k += 1
    a = alerts_of("fl", "sw5")
    assert len(a) == 1 and a[0]["id"] == aid, a
    assert a[0]["state"] == "resolved" and a[0]["reason"] == "not confirmed", a
    for rep in range(2):                      # and the change again, twice
        for p in [8, 16, 32, 64]:
            raised += run("sw5", p, worse_law, "fl", "feature", k)
            k += 1
    a = alerts_of("fl", "sw5")
    assert len(raised) == 1 and [x["id"] for x in a] == [aid], (raised, a)
    assert a[0]["state"] == "open" and a[0]["reason"] is None, a
    assert a[0]["ratio_at_target"] > 2, a


@test
def kernel_law():
    """y = kernel:NAME: the kernel's time is the law's quantity."""
    st, w = S.post("/api/v1/watches", {
        "application": "sw6", "system": "cluster", "y": "kernel:halo",
        "detector": {"scaling": {"target": 512, "baseline": "commit:k0"}}})
    assert st == 201, w
    raised = []
    for commit, law in (("k0", base_law), ("k1", worse_law)):
        for k, p in enumerate([4, 8, 16, 32, 64, 128]):
            st, b = S.post("/api/v1/runs", {
                "application": "sw6", "executable": "solver", "system": "cluster",
                "nprocs": p, "runtime": 500.0, "commit": commit,
                "kernels": [{"name": "halo", "time": law(p) * (1 + NOISE[k])},
                            {"name": "other", "time": 1.0}]})
            assert st == 201, b
            raised += b["alerts"]
    assert len(raised) == 1 and raised[0]["commit"] == "k1", raised
    a = alerts_of("k1", "sw6")[0]
    assert a["y"] == "kernel:halo" and a["target"] == 512, a
    want = worse_law(512) / base_law(512)                 # 27.4 / 1.195 = 22.9
    assert abs(a["ratio_at_target"] / want - 1) < 0.15, (a["ratio_at_target"], want)


@test
def input_law_per_curve():
    """x = an input: each processor count is a curve of its own, with its own
    law and alert; a curve without a change does not touch another's alert."""
    st, w = S.post("/api/v1/watches", {
        "application": "sw7", "system": "cluster", "y": "runtime",
        "detector": {"scaling": {"x": "N", "target": 65536, "baseline": "commit:n0"}}})
    assert st == 201, w

    def base(n):
        return 0.001 * n + 2

    def worse(n):
        return 0.001 * n + 2 + 1e-7 * n * n

    raised = []
    for commit, law4 in (("n0", base), ("n1", worse)):
        for nprocs, law in ((4, law4), (8, base)):   # nprocs 8: the same law
            for k, n in enumerate([512, 1024, 2048, 4096, 8192, 16384]):
                st, b = S.post("/api/v1/runs", {
                    "application": "sw7", "executable": "solver", "system": "cluster",
                    "nprocs": nprocs, "inputs": {"N": n, "mesh": 3},
                    "runtime": law(n) / (nprocs / 4) * (1 + NOISE[k]), "commit": commit})
                assert st == 201, b
                raised += b["alerts"]
    assert len(raised) == 1 and raised[0]["nprocs"] == 4, raised
    a = alerts_of("n1", "sw7")
    assert len(a) == 1 and a[0]["state"] == "open" and a[0]["x"] == "N", a
    assert a[0]["inputs"]["mesh"] == 3, a
    want = worse(65536) / base(65536)                     # 497.0 / 67.5 = 7.36
    assert abs(a[0]["ratio_at_target"] / want - 1) < 0.15, (a[0]["ratio_at_target"], want)
    assert "N" in a[0]["formula"], a


@test
def bad_watches_are_refused():
    before = S.content()
    cases = [
        ({"x": "nprocs", "baseline": "branch:main"}, "detector.scaling.target"),
        ({"target": 0, "baseline": "branch:main"}, "detector.scaling.target"),
        ({"target": "big", "baseline": "branch:main"}, "detector.scaling.target"),
        ({"target": 64}, "detector.scaling.baseline"),
        ({"target": 64, "baseline": "main"}, "detector.scaling.baseline"),
        ({"target": 64, "baseline": "branch:"}, "detector.scaling.baseline"),
        ({"target": 64, "baseline": "tag:a=b"}, "detector.scaling.baseline"),
        ({"target": 64, "baseline": "branch:main", "threshold": 0},
         "detector.scaling.threshold"),
        ({"target": 64, "baseline": "branch:main", "window": 3}, "detector.scaling"),
        ({"target": 64, "baseline": "branch:main", "x": ""}, "detector.scaling.x"),
    ]
    for det, field in cases:
        st, b = S.post("/api/v1/watches", {"application": "sw4", "system": "cluster",
                                           "detector": {"scaling": det}})
        assert st == 422 and b["error"]["field"] == field, (det, st, b)
    good = {"target": 64, "baseline": "branch:main"}
    for extra, field in [({"nprocs": 8}, "nprocs"), ({"confirm": 2}, "confirm"),
                         ({"inputs": {"N": 1}, "x": "N"}, "inputs")]:
        det = dict(good)
        if "x" in extra:
            det["x"] = extra.pop("x")
        body = {"application": "sw4", "system": "cluster", "detector": {"scaling": det}}
        body.update(extra)
        st, b = S.post("/api/v1/watches", body)
        assert st == 422 and b["error"]["field"] == field, (extra, st, b)
    st, b = S.post("/api/v1/watches", {"application": "sw4", "system": "cluster",
                                       "detector": {"scaling": good, "test": "zscore"}})
    assert st == 422 and b["error"]["field"] == "detector", b
    assert S.content() == before


report()
