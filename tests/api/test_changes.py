"""API tests of change points (SPEC §17): GET /api/v1/changes over whole
histories, the changepoint watch and the scaling-law change watch."""
import math
import re

from prophecy_test import Server, report, run_doc, test

S = Server()


def expect_error(status, body, want_status, want_code, field=None):
    assert status == want_status, (status, body)
    assert body["error"]["code"] == want_code, body
    if field is not None:
        assert body["error"].get("field") == field, body


def at(i):
    return "2026-%02d-%02dT%02d:00:00Z" % (1 + i // 500, 1 + (i // 20) % 25, i % 20)


def noise(i):
    """Deterministic noise within +-2.5 %: a step of 15 % never overlaps."""
    return 1 + 0.025 * math.sin(i * 1.7)


def upload(app, values, nprocs=8, commit="c%03d", **over):
    ids = []
    for i, v in enumerate(values):
        d = run_doc(application=app, runtime=v, started_at=at(i), nprocs=nprocs,
                    kernels=[], metrics={}, commit=commit % i)
        d.update(over)
        st, b = S.post("/api/v1/runs", d)
        assert st == 201, b
        ids.append(b["ids"][0])
    return ids


@test
def changes_find_a_step_with_its_culprit_range():
    step = [10 * noise(i) for i in range(20)] + [11.5 * noise(i) for i in range(20, 35)]
    flat = [10 * noise(i) for i in range(35)]
    ids = upload("chg", step, nprocs=8)
    upload("chg", flat, nprocs=16)
    st, b = S.get("/api/v1/changes?application=chg")
    assert st == 200, b
    assert len(b["changes"]) == 1, b
    c = b["changes"][0]
    assert c["configuration"] == {"executable": "matmul_sgi", "system": "SGI Origin2000",
                                  "nprocs": 8, "inputs": {"N": 1000.0}}, c
    assert c["y"] == "runtime" and c["run"] == ids[20], c
    assert (c["commit"], c["from_commit"], c["to_commit"]) == ("c020", "c019", "c020"), c
    # found with the 24th run: its 4 newest all above the 20 before, U = 80,
    # p = 2 / C(24, 4) over the size's share of the significance (1/4)
    assert math.isclose(c["p_value"], 8 / 10626, rel_tol=1e-12), c
    assert math.isclose(c["before"], sum(step[:20]) / 20, rel_tol=1e-12), c
    assert math.isclose(c["after"], sum(step[20:]) / 15, rel_tol=1e-12), c
    assert math.isclose(c["ratio"], c["after"] / c["before"], rel_tol=1e-12), c
    # the flat configuration alone: nothing
    st, b = S.get("/api/v1/changes?application=chg&nprocs=16")
    assert st == 200 and b == {"changes": []}, b
    st, b = S.get("/api/v1/changes?application=chg&nprocs=8&y=runtime")
    assert st == 200 and [x["run"] for x in b["changes"]] == [ids[20]], b
    # a quantity no run has: no points, no change
    st, b = S.get("/api/v1/changes?application=chg&y=metric:mflops")
    assert st == 200 and b == {"changes": []}, b


@test
def history_page_marks_the_change_with_its_range():
    q = "application=chg&system=SGI%20Origin2000&nprocs=8&y=runtime"
    st, body, _ = S.request("GET", "/history?" + q, token=None, raw=True)
    assert st == 200, body[:300]
    body = body.decode()
    # the one change point of the API, in the list with its culprit range
    # and the means either side, and as the chart's one change line
    items = re.findall(r'<ul class="changes">(.*?)</ul>', body, re.S)
    assert len(items) == 1 and items[0].count("<li>") == 1, items
    assert '<code class="range">c019..c020</code>' in items[0], items[0]
    assert "Shifted at commit <code>c020</code>" in items[0], items[0]
    st, body, _ = S.request("GET", "/history?" + q.replace("nprocs=8", "nprocs=16"),
                            token=None, raw=True)
    assert st == 200 and '<ul class="changes">' not in body.decode()


CP_WATCH = {"application": "cpw", "system": "SGI Origin2000", "y": "runtime",
            "detector": {"test": "changepoint"}}


@test
def changepoint_watch_alerts_once_where_the_change_is():
    # the first run makes the application; the watch then judges every run
    step = [10 * noise(i) for i in range(20)] + [11.5 * noise(i) for i in range(20, 50)]
    flat = [10 * noise(i) for i in range(50)]
    ids, alerts = [], []
    upload("cpw", step[:1], nprocs=8)
    st, b = S.post("/api/v1/watches", CP_WATCH)
    assert st == 201, b
    wid = b["id"]
    for i in range(1, 50):
        for nprocs, series in ((8, step), (16, flat)):
            d = run_doc(application="cpw", runtime=series[i], started_at=at(i),
                        nprocs=nprocs, kernels=[], metrics={}, commit="c%03d" % i)
            st, b = S.post("/api/v1/runs", d)
            assert st == 201, b
            alerts += b["alerts"]
            if nprocs == 8:
                ids.append(b["ids"][0])
    # one alert: the 24th run of the step reveals the change at the 21st
    assert len(alerts) == 1, alerts
    al = alerts[0]
    assert al["watch"] == wid and al["commit"] == "c023" and al["direction"] == "up", al
    assert math.isclose(al["value"], step[23], rel_tol=1e-15), al
    assert math.isclose(al["expected"], sum(step[:20]) / 20, rel_tol=1e-12), al
    # the same change point as GET /api/v1/changes finds over the history
    st, c = S.get("/api/v1/changes?application=cpw")
    assert [(x["configuration"]["nprocs"], x["to_commit"]) for x in c["changes"]] == \
        [(8, "c020")], c
    st, ws = S.get("/api/v1/watches")
    mine = [x for x in ws["watches"] if x["id"] == wid][0]
    assert mine["detector"] == {"test": "changepoint", "threshold": 0.001, "window": 67}
    assert mine["judged"] == 98 and mine["out"] == 1, mine
    # the judgements before the 13th run are "not ready"
    st, s = S.get("/api/v1/series?application=cpw&system=SGI%20Origin2000&nprocs=8"
                  "&y=runtime")
    outs = [p["judgements"][0]["out"] for p in s["points"][1:]]
    assert outs.count(True) == 1 and s["points"][23]["judgements"][0]["out"], outs


@test
def changepoint_watch_bad_definitions_store_nothing():
    before = S.content()
    for det, field in (({"test": "changepoint", "threshold": 1.5}, "detector.threshold"),
                       ({"test": "changepoint", "threshold": 0}, "detector.threshold"),
                       ({"test": "changepoint", "threshold": "low"},
                        "detector.threshold"),
                       ({"test": "changepoint", "window": 30}, "detector"),
                       ({"test": "changepoints"}, "detector.test")):
        st, b = S.post("/api/v1/watches", dict(CP_WATCH, detector=det))
        expect_error(st, b, 422, "invalid", field)
    assert S.content() == before


@test
def changes_bad_queries():
    st, b = S.get("/api/v1/changes")
    expect_error(st, b, 422, "invalid", "application")
    st, b = S.get("/api/v1/changes?application=chg&y=walltime")
    expect_error(st, b, 400, "bad_parameter", "y")
    st, b = S.get("/api/v1/changes?application=chg&nprocs=zero")
    expect_error(st, b, 400, "bad_parameter", "nprocs")
    st, b = S.get("/api/v1/changes?application=nosuchapp")
    expect_error(st, b, 404, "not_found")
    st, b = S.get("/api/v1/changes?application=chg&colour=red")
    expect_error(st, b, 400, "unknown_parameter", "colour")


if __name__ == "__main__":
    try:
        report()
    finally:
        S.close()
