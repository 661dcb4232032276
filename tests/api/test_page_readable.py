"""Pages read as people read them (SPEC §16 "Where users look"), over HTTP
against the real prophecyd: the call tree of a profile of several ranks
aggregates them one way in every column and says which (real CUBE and
HPCToolkit profiles: the mean; a real Caliper profile: the largest), and no
page prints a JSON value as JSON text (a watch's test, a parameterization's
points, a system's metadata)."""
import html
import os
import re
import urllib.parse

from prophecy_test import Server, report, tar_of, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
CORPUS = os.path.join(SRC, "../shared/corpus/imports")
S = Server("--demo")


def page(path):
    st, body, _ = S.request("GET", path, token=None, raw=True)
    assert st == 200, (path, st, body[:300])
    return body.decode()


def text_of(body):
    """What a person reads: the page without its markup and plots, and
    without what is JSON on purpose, to send to the API (the modeling
    request, "POST /api/v1/watches with {...}")."""
    body = re.sub(r"<svg.*?</svg>|<pre.*?</pre>|<footer.*?</footer>|with <code>\{.*?</code>",
                  "", body, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def imported(path, fmt):
    """The run id of a corpus file imported through the API, or None (and
    SKIP) without the corpus."""
    full = os.path.join(CORPUS, path)
    if not os.path.exists(full):
        print(f"SKIP: no import corpus at {os.path.normpath(CORPUS)}")
        return None
    if os.path.isdir(full):
        data = tar_of(full)
    else:
        with open(full, "rb") as f:
            data = f.read()
    q = urllib.parse.urlencode({"filename": os.path.basename(path), "format": fmt})
    st, ans = S.request("POST", "/api/v1/import?" + q, data, ctype="application/octet-stream")
    assert st in (200, 201) and len(ans["ids"]) == 1, ans
    return ans["ids"][0]


def tree_of(rid):
    """The run page's call tree: its caption, and per path (its title) the
    inclusive, exclusive and share columns as shown."""
    body = page(f"/runs/{rid}")
    cap = re.search(r'<h2 id="calltree">Call tree</h2>\n<p class="muted">(.*?)</p>', body)
    rows = re.findall(r'<span class="ct-name" title="([^"]*)">[^<]*</span><span '
                      r'class="ct-incl num">([^<]*)</span><span class="ct-excl num">'
                      r'([^<]*)</span><span class="ct-share num">([^<]*)</span>', body)
    assert cap and rows, body[:2000]
    return text_of(cap.group(1)), {html.unescape(r[0]): r[1:] for r in rows}


def leaves(run):
    names = [k["name"] for k in run["kernels"] if k["time"] is not None]
    return [n for n in names if not any(m.startswith(n + "/") for m in names)]


def check_mean_tree(rid, nprocs):
    """A tree of means: a leaf's inclusive time is its exclusive time (the
    slowest rank's inclusive beside the mean exclusive was the mix), and
    the roots' shares are of the mean process's time."""
    st, run = S.get(f"/api/v1/runs/{rid}")
    assert st == 200, run
    cap, rows = tree_of(rid)
    mixed = [(n, rows[n]) for n in leaves(run) if rows[n][0] != rows[n][1]]
    assert not mixed, mixed[:5]
    assert f"Every column is the mean over the {nprocs} processes" in cap, cap
    assert "share of the mean process's time" in cap, cap
    roots = [v for n, v in rows.items() if "/" not in n]
    assert sum(float(v[2].rstrip(" %")) for v in roots) > 99.8, roots


@test
def a_cube_profile_of_8_ranks_is_a_tree_of_means():
    rid = imported("cube/pycubexr_kripke.p8_profile.cubex", "cube")
    if rid is None:
        return
    check_mean_tree(rid, 8)
    # the leaf MPI_Init: 52.22 ms on the mean rank (its slowest: 73.91 ms)
    _, rows = tree_of(rid)
    assert rows["PARALLEL/MPI_Init"] == ("52.22 ms", "52.22 ms", "0.3 %"), rows


@test
def an_hpctoolkit_database_of_4_ranks_is_a_tree_of_means():
    rid = imported("hpctoolkit/hatchet_hpctoolkit-cpi-database", "hpctoolkit")
    if rid is not None:
        check_mean_tree(rid, 4)


@test
def a_caliper_profile_of_4_ranks_is_a_tree_of_the_slowest():
    rid = imported("caliper-json/hatchet_cpi-callpath-profile.json", "caliper-json")
    if rid is None:
        return
    st, run = S.get(f"/api/v1/runs/{rid}")
    cap, rows = tree_of(rid)
    assert "Every column is the largest over the 4 processes" in cap, cap
    assert "share of the runtime" in cap, cap
    main = next(k for k in run["kernels"] if k["name"].endswith("/main"))
    assert rows[main["name"]][2] == "91.5 %", rows[main["name"]]  # 484.9 of 529.9 ms


def no_json(body, where):
    t = text_of(body)
    found = re.findall(r'.{0,40}(?:\{"|\["|\[\{|\[\[|":).{0,40}', t)
    assert not found, (where, found[:3])
    return t


@test
def watches_read_as_words_not_json():
    for w in ({"application": "matmul (example)", "system": "IBM SP2 (example)",
               "nprocs": 8, "inputs": {"N": 1000}, "y": "runtime",
               "detector": {"test": "zscore", "threshold": 3, "window": 20}},
              {"application": "matmul (example)", "system": "IBM SP2 (example)",
               "y": "runtime", "detector": {"test": "iqr",
                                            "threshold": 1.5, "window": 10}}):
        st, b = S.post("/api/v1/watches", w)
        assert st == 201, b
    st, m = S.post("/api/v1/fit", {"application": "matmul (example)", "x": "N",
                                   "system": "SGI Origin2000 (example)",
                                   "fixed": {"nprocs": 8}, "save": True})
    assert st == 201, m
    st, b = S.post("/api/v1/watches", {"detector": {"model": m["id"]}})
    assert st == 201, b
    q = urllib.parse.urlencode({"application": "matmul (example)",
                                "system": "IBM SP2 (example)", "nprocs": 8,
                                "input.N": 1000, "input.L": 1024, "y": "runtime"})
    no_json(page("/alerts"), "alerts")
    t = no_json(page("/history?" + q), "history")
    assert re.search(r"Watch \d+: runtime of matmul \(example\) on IBM SP2 \(example\), "
                     r"8 procs, N=1000 — test = zscore, threshold = 3, window = 20", t), t
    assert "test = iqr, threshold = 1.5, window = 10" in t, t
    assert f"outside the prediction interval of model {m['id']}" in t, t


@test
def a_parameterization_and_system_metadata_read_as_words_not_json():
    st, m = S.post("/api/v1/parameterize",
                   {"template": "matmul master/slave", "system": "IBM SP2 (example)",
                    "application": "matmul (example)",
                    "vars": {"N": [100, 2000], "P": 8, "L": 1024}, "save": True})
    assert st == 201, m
    no_json(page(f"/models/{m['id']}"), "model")
    st, b = S.request("PUT", "/api/v1/systems/meta%20box",
                      {"description": "d", "metadata": {"nodes": 128,
                                                        "gpus": ["A100", "H100"],
                                                        "net": {"kind": "IB", "gbps": 200}}})
    assert st in (200, 201), b
    t = no_json(page("/systems/meta%20box"), "system")
    assert "gpus A100, H100" in t and "net gbps = 200, kind = IB" in t, t


report()
