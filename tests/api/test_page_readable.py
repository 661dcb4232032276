"""Pages read as people read them (SPEC §16 "Where users look"), over HTTP
against the real prophecyd: no page prints a JSON value as JSON text (a
watch's test, a parameterization's points, a system's metadata)."""
import html
import re
import urllib.parse

from prophecy_test import Server, report, test

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
