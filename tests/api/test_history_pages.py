#!/usr/bin/env python3
"""The history pages (SPEC §11) over HTTP against the real server: the alerts
page and its triage form (CSRF + token, the same rule as PATCH
/api/v1/alerts/{id}, nothing changed on refusal), a configuration's history
page (the series of GET /api/v1/series as SVG, change points), the compare
page, and the application page's links to each configuration's history."""
import html
import re
import urllib.parse

from prophecy_test import Server, report, test

S = Server()
CONF = {"application": "hp", "executable": "e", "system": "s", "nprocs": 4,
        "inputs": {"N": 100}}
QUERY = "application=hp&executable=e&system=s&nprocs=4&input.N=100&y=runtime"


def post_run(runtime, commit, branch, day):
    doc = dict(CONF, runtime=runtime, commit=commit, branch=branch,
               started_at="2026-11-%02dT10:00:00Z" % day)
    st, b = S.post("/api/v1/runs", doc)
    assert st == 201, b
    return b


def page(path, status=200):
    st, body, _ = S.request("GET", path, token=None, raw=True)
    assert st == status, (path, st, body[:300])
    return body.decode()


def triage(alert, fields):
    body = urllib.parse.urlencode(fields)
    origin = "http://127.0.0.1:%d" % S.port
    st, payload, resp = S.request("POST", "/alerts/%d" % alert, body, token=None,
                                  ctype="application/x-www-form-urlencoded",
                                  headers={"Origin": origin}, raw=True)
    return st, payload.decode(), resp


# Ten steady runs on main (10 and 11 s alternately), a watch, then a slow run
# on a branch: the watch raises one alert.
for day in range(1, 11):
    post_run(10.0 + day % 2, "c%d" % day, "main", day)
st, w = S.post("/api/v1/watches", {"application": "hp", "system": "s", "y": "runtime",
                                   "detector": {"test": "zscore", "threshold": 3,
                                                "window": 10}})
assert st == 201, w
ANSWER = post_run(30.0, "slow1", "feature", 11)
ALERT = ANSWER["alerts"][0]["id"]
post_run(30.5, "slow2", "feature", 12)
post_run(29.5, "slow3", "feature", 13)


@test
def alerts_page_lists_the_alert_with_a_triage_form():
    body = page("/alerts")
    assert "slow1" in body and "hp" in body, body[:2000]
    assert re.search(r'<form [^>]*method="post" action="/alerts/%d"' % ALERT, body), body[:3000]
    assert 'name="csrf"' in body and 'name="token"' in body
    # the alert's expected value with its band, as GET /api/v1/alerts gives it
    # ("lo", "hi"): the page read other names and never showed the band
    row = re.search(r'<tr id="alert-%d".*?</tr>' % ALERT, body, re.S).group(0)
    al = ANSWER["alerts"][0]
    assert al["lo"] is not None and al["hi"] is not None, al
    assert re.search(r'\[[0-9.]+ s,</span> <span class="metric">[0-9.]+ s\]', row), row
    # the filter by state is the API's: open lists it, resolved does not
    assert "slow1" in page("/alerts?state=open")
    assert "slow1" not in page("/alerts?state=resolved")


@test
def a_long_commit_is_short_and_a_time_band_starts_at_zero():
    """A 40-digit commit shows its first 12 (the whole in the title) in the
    alert, group and series tables, so the triage column stays in view at
    1280 px; the band of a z-score watch (mean ± 3 sd) reaches below 0 after
    an outlier, and a time's band is shown from 0 (the API keeps the number)."""
    conf = dict(CONF, application="hp-long")
    full = "0123456789abcdef0123456789abcdef01234567"
    for day, rt in enumerate((11.0, 12.0, 13.0, 14.0, 15.0), start=1):
        st, b = S.post("/api/v1/runs", dict(conf, runtime=rt,
                                             started_at="2026-11-%02dT10:00:00Z" % day))
        assert st == 201, b
    st, w = S.post("/api/v1/watches", {"application": "hp-long", "system": "s",
                                       "y": "runtime", "detector": {"test": "zscore",
                                                                    "threshold": 3,
                                                                    "window": 5}})
    assert st == 201, w
    alerts = []
    for day, rt in ((6, 90.0), (7, 900.0)):
        st, b = S.post("/api/v1/runs", dict(conf, runtime=rt, commit=full,
                                             started_at="2026-11-%02dT10:00:00Z" % day))
        assert st == 201 and len(b["alerts"]) == 1, b
        alerts.append(b["alerts"][0])
    assert alerts[1]["lo"] < 0 < alerts[1]["hi"], alerts[1]  # 28.8 ± 3 · 34.2
    body = page("/alerts")
    row = re.search(r'<tr id="alert-%d".*?</tr>' % alerts[1]["id"], body, re.S).group(0)
    assert '<code title="%s">%s</code>' % (full, full[:12]) in row, row
    assert full + "<" not in body, "the whole commit is shown in a table"
    assert re.search(r'\[0 s,</span> <span class="metric">131\.5 s\]', row), row
    group = re.search(r'<tr id="group-[0-9]+"><td><code title="%s">%s</code>' %
                      (full, full[:12]), body)
    assert group, body[:4000]
    hist = page("/history?" + QUERY.replace("application=hp&", "application=hp-long&"))
    assert '<code title="%s">%s</code>' % (full, full[:12]) in hist
    assert "[0 s, 131.5 s]" in html.unescape(re.sub(r"<[^>]+>", "", hist)), hist[-3000:]
    # the chart's axis and band start at 0 too (the axis went to -80 s)
    svg = hist[hist.index("<svg"):hist.index("</svg>")]
    assert not re.search(r">(-|\u2212)[0-9]", html.unescape(svg)), svg[:3000]
    assert re.search(r"\[0, 131\.4[0-9]*\]", svg), svg[:3000]


@test
def triage_needs_csrf_and_a_token_and_a_known_state():
    body = page("/alerts")
    csrf = re.search(r'name="csrf" value="([^"]+)"', body).group(1)
    before = S.content()
    st, _, _ = triage(ALERT, {"csrf": csrf, "state": "resolved", "token": "wrong"})
    assert st == 401
    st, _, _ = triage(ALERT, {"csrf": "1.abcd", "state": "resolved", "token": S.token})
    assert st == 403
    st, out, _ = triage(ALERT, {"csrf": csrf, "state": "closed", "token": S.token})
    assert st == 422 and "state" in html.unescape(out), out[:500]
    st, _, _ = triage(99999, {"csrf": csrf, "state": "resolved", "token": S.token})
    assert st == 404
    assert S.content() == before
    st, _, resp = triage(ALERT, {"csrf": csrf, "state": "false_positive", "token": S.token})
    assert st == 303 and resp.getheader("Location") == "/alerts", st
    st, a = S.get("/api/v1/alerts?state=false_positive")
    assert [x["id"] for x in a["alerts"]] == [ALERT], a


@test
def history_page_draws_the_series_with_its_change_point():
    body = page("/history?" + QUERY)
    assert "<svg" in body and "History" in body
    # every run of the configuration is a point titled with its commit
    for c in ("c1", "c10", "slow1", "slow3"):
        assert c in body, c
    # the shift from ~10.5 s to ~30 s is marked where it happened
    assert "change" in body.lower(), body[:3000]
    # the same errors as the API: y is required, an unknown configuration is 404
    page("/history?" + QUERY.replace("&y=runtime", ""), 422)
    page("/history?" + QUERY.replace("nprocs=4", "nprocs=5"), 404)
    page("/history?" + QUERY + "&colour=red", 400)


@test
def history_page_lists_only_its_configurations_alerts_and_not_ready():
    # SPEC §17: the same watch raises an alert in another configuration of hp
    # (8 procs) and a watch of another application raises one too; the 4-proc
    # history lists only its own.
    other = dict(CONF, nprocs=8)
    for day in range(1, 11):
        st, b = S.post("/api/v1/runs", dict(other, runtime=20.0 + day % 2,
                                            commit="o%d" % day, branch="main",
                                            started_at="2026-11-%02dT11:00:00Z" % day))
        assert st == 201, b
    st, b = S.post("/api/v1/runs", dict(other, runtime=60.0, commit="oslow",
                                        started_at="2026-11-11T11:00:00Z"))
    assert st == 201 and len(b["alerts"]) == 1, b
    eight = b["alerts"][0]["id"]
    st, w = S.post("/api/v1/watches", {"application": "hp_other", "system": "s",
                                       "detector": {"test": "percent", "threshold": 10,
                                                    "window": 2}})
    assert st == 201, w
    ids = []
    for day, rt in ((1, 5.0), (2, 5.0), (3, 5.0), (4, 9.0)):
        st, b = S.post("/api/v1/runs", {"application": "hp_other", "executable": "e",
                                        "system": "s", "nprocs": 4, "inputs": {"N": 100},
                                        "runtime": rt,
                                        "started_at": "2026-11-%02dT12:00:00Z" % day})
        assert st == 201, b
        ids += [a["id"] for a in b.get("alerts", [])]
    assert len(ids) == 1, ids
    body = page("/history?" + QUERY)
    shown = set(int(x) for x in re.findall(r'<tr id="alert-(\d+)"', body))
    assert ALERT in shown and eight not in shown and ids[0] not in shown, shown
    body8 = page("/history?" + QUERY.replace("nprocs=4", "nprocs=8"))
    shown8 = set(int(x) for x in re.findall(r'<tr id="alert-(\d+)"', body8))
    assert shown8 == {eight}, shown8
    # the first run of hp_other was judged without enough history: "not
    # ready", with no interval, never "outside [0, 0]"
    st, ser = S.get("/api/v1/series?application=hp_other&system=s&y=runtime")
    first = ser["points"][0]["judgements"][0]
    assert first["ready"] is False and first["lo"] is None and first["hi"] is None, first
    assert first["expected"] is None and first["out"] is False, first
    assert ser["points"][1]["judgements"][0]["ready"] is True
    other_body = page("/history?application=hp_other&system=s&y=runtime")
    rows = re.findall(r"<tr[^>]*><td>[^<]*</td><td class=\"num\"><a href=\"/runs/\d+\">"
                      r"\d+</a></td>.*?</tr>", other_body)
    assert len(rows) == 4, other_body[-3000:]
    # percent needs one run of history: only the first run is not ready
    assert ["<td>not ready</td>" in r for r in rows] == [False, False, False, True], rows
    assert "<td></td><td>not ready</td>" in rows[3], rows
    assert "outside" not in "".join(rows) and "[0 s, 0 s]" not in other_body, rows


@test
def compare_page_shows_the_ratio_and_the_test():
    body = page("/compare?a=branch:main&b=branch:feature&application=hp")
    assert "<svg" in body and "branch:feature" in html.unescape(body), body[:2000]
    st, c = S.get("/api/v1/compare?a=branch:main&b=branch:feature&application=hp")
    assert st == 200, c
    row = c["rows"][0]
    ratio = row["sides"][1]["ratio"]
    assert abs(ratio - 30.0 / 10.5) < 1e-9, ratio  # means 30.0 and 10.5
    assert row["sides"][1]["significant"] is True
    # the change in percent (+185.7 %), not the ratio
    assert ("%+.3g %%" % (100 * (ratio - 1))) in body, body[:3000]
    # one side only: the API refuses it; the page offers the picker with a kept
    st, b = S.get("/api/v1/compare?a=branch:main&application=hp")
    assert st in (400, 422), (st, b)
    body = page("/compare?a=branch:main&application=hp")
    assert 'id="compare-pick"' in body
    assert '<option value="branch:main" selected>' in body, body[:3000]


@test
def application_page_links_each_configuration_to_its_history():
    body = page("/applications/hp")
    links = re.findall(r'href="(/history\?[^"]+)"', body)
    assert links, body[:2000]
    assert html.unescape(links[0]).endswith("y=runtime")
    page(html.unescape(links[0]))



@test
def history_page_tells_apart_the_alerts_two_watches_raise_on_one_run():
    # two watches judge every run of hw; a slow run is out for both: the
    # history page lists two alerts of the same run, told apart by their watch
    # (it listed the page's own configuration twice instead)
    base = {"application": "hw", "executable": "e", "system": "s", "nprocs": 2}
    for day in range(1, 9):
        st, b = S.post("/api/v1/runs", dict(base, runtime=10.0 + day % 2 * 0.2,
                                            commit="w%d" % day,
                                            started_at="2026-11-%02dT10:00:00Z" % day))
        assert st == 201, b
    ids = []
    for det in ({"test": "zscore"}, {"test": "percent", "threshold": 10}):
        st, w = S.post("/api/v1/watches", {"application": "hw", "system": "s",
                                           "y": "runtime", "detector": det})
        assert st == 201, w
        ids.append(w["id"])
    st, b = S.post("/api/v1/runs", dict(base, runtime=20.0, commit="slow",
                                        started_at="2026-11-09T10:00:00Z"))
    assert st == 201 and sorted(a["watch"] for a in b["alerts"]) == ids, b
    body = page("/history?application=hw&executable=e&system=s&nprocs=2&y=runtime")
    table = body.split('<h2 id="alerts">', 1)[1].split("</table>", 1)[0]
    assert "<th>Watch</th>" in table and "<th>Configuration</th>" not in table, table
    for a in b["alerts"]:
        row = re.search(r'<tr id="alert-%d".*?</tr>' % a["id"], table, re.S).group(0)
        assert '<a href="#watch-%d">watch %d</a>' % (a["watch"], a["watch"]) in row, row
        assert 'id="watch-%d"' % a["watch"] in body
    # the alerts page still names each alert's configuration
    assert "<th>Configuration</th>" in page("/alerts")


@test
def model_page_shows_its_ledger():
    base = {"application": "lg", "executable": "e", "system": "s", "inputs": {"N": 100}}
    for p_, rt in ((1, 80.0), (2, 40.4), (4, 19.8), (8, 10.1), (16, 5.0)):
        st, b = S.post("/api/v1/runs", dict(base, nprocs=p_, runtime=rt,
                                            started_at="2026-11-01T10:00:00Z"))
        assert st == 201, b
    # the paper's rule (graph "unknown") interpolates the 5 points with a quartic:
    # no degrees of freedom, no interval, so it cannot watch
    st, m = S.post("/api/v1/fit", {"application": "lg", "system": "s", "x": "nprocs",
                                   "fixed": {"N": 100}, "graph": "unknown", "save": True})
    assert st == 201 and m["model"]["state"]["has_interval"] is False, m
    st, b = S.post("/api/v1/watches", {"detector": {"model": m["id"]}})
    assert st == 422 and "no prediction interval" in b["error"]["message"], b
    st, m = S.post("/api/v1/fit", {"application": "lg", "system": "s", "x": "nprocs",
                                   "fixed": {"N": 100}, "graph": "auto", "save": True})
    assert st == 201, m
    body = page("/models/%d" % m["id"])
    assert "No run has been judged against this model yet" in body, body[-3000:]
    st, w = S.post("/api/v1/watches", {"detector": {"model": m["id"]}})
    assert st == 201, w
    st, pr = S.get("/api/v1/models/%d/predict?nprocs=8" % m["id"])
    for day, rt in ((2, pr["y"]), (3, pr["y"]), (4, pr["y"]), (5, 10 * pr["y"])):
        st, b = S.post("/api/v1/runs", dict(base, nprocs=8, runtime=rt, commit="k%d" % day,
                                            started_at="2026-11-%02dT10:00:00Z" % day))
        assert st == 201, b
    body = page("/models/%d" % m["id"])
    assert "This model has seen 4 runs since it was saved; 75 % inside its interval" \
        in body, body[-3000:]
    rows = re.findall(r"<tr( class=\"alert\")?><td class=\"when\"><span class=\"nw\">2026-11-(\d\d)", body)
    assert rows == [(' class="alert"', "05"), ("", "04"), ("", "03"), ("", "02")], rows

S.close()
report()
