"""Pages read as people read them (SPEC §16 "Where users look"), over HTTP
against the real prophecyd: no page prints a JSON value as JSON text (a
parameterization's points, a system's metadata)."""
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
