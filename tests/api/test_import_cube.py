"""The real files of ../shared/corpus/imports/cube and extrap-experiment
(SPEC §16) through POST /api/v1/import and `prophecyd import`: every file
imports with the numbers its facts.json gives, importing it again stores
nothing new, `--format auto` agrees, and a truncated copy is refused with a
message naming what is wrong while the database stays as it was. Also a
scaling-study directory of .cubex files (Extra-P's layout)."""
import io
import json
import math
import os
import re
import shutil
import subprocess
import tarfile
import urllib.parse
import uuid

from prophecy_test import PROPHECYD, Server, report, test

SRC = os.environ.get("PROPHECY_SRC", os.path.join(os.path.dirname(__file__), "../.."))
CORPUS = os.path.join(SRC, "../shared/corpus/imports")
FACTS = json.load(open(os.path.join(CORPUS, "facts.json")))
CUBES = sorted(k for k in FACTS if k.startswith("cube/"))
S = Server()


def close(a, b, rel=1e-14):
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-300)


def read(path):
    with open(os.path.join(CORPUS, path), "rb") as f:
        return f.read()


def post_import(body, **query):
    q = urllib.parse.urlencode(query)
    return S.request("POST", "/api/v1/import" + ("?" + q if q else ""), body,
                     ctype="application/octet-stream")


def run_of(rid):
    st, run = S.get(f"/api/v1/runs/{rid}")
    assert st == 200, run
    for k in run["kernels"]:
        m = k.get("metrics") or {}
        k["m"] = json.loads(m) if isinstance(m, str) else m
    return run


def kernels_of(run):
    return {k["name"]: k for k in run["kernels"]}


def region_sum(run, region, metric, nloc):
    """A metric summed over the call paths ending in `region` and over the
    locations (the kernels keep the mean over the locations)."""
    total = 0.0
    for name, k in kernels_of(run).items():
        if name.split("/")[-1] == region:
            total += (k["m"]["inclusive_mean"] if metric == "time" else k["m"][metric]) * nloc
    return total


def check_cube(path, run):
    f = FACTS[path]["facts"]
    root = f["root_cnodes"][0]
    per_loc = root["values_per_location"]["time"]
    nloc = f["locations"]
    assert run["nprocs"] == f["location_groups"], (path, run["nprocs"])
    # the run time: the root's inclusive time on the slowest location
    assert close(run["runtime"], max(per_loc)), (path, run["runtime"], per_loc)
    ks = kernels_of(run)
    assert len(ks) == f["cnodes"], (path, len(ks))
    rk = ks[root["region"]]
    assert close(rk["m"]["inclusive_mean"], sum(per_loc) / nloc), (path, rk)
    assert close(rk["m"]["inclusive"], max(per_loc)), (path, rk)
    assert close(rk["m"]["inclusive_min"], min(per_loc)), (path, rk)
    assert rk["calls"] == max(root["values_per_location"]["visits"]), (path, rk)
    # exclusive kernel times: they add up to the roots' mean inclusive time
    total = sum(k["time"] for k in run["kernels"])
    assert total <= run["runtime"] * (1 + 1e-12), (path, total, run["runtime"])
    assert close(total, sum(per_loc) / nloc, 1e-9), (path, total)
    for k in run["kernels"]:
        assert k["time"] >= 0, k
        assert k["m"]["exclusive_min"] <= k["time"] <= k["m"]["exclusive_max"] + 1e-15, k
        assert k["m"]["inclusive_min"] <= k["m"]["inclusive_mean"] <= k["m"]["inclusive"], k
    # every metric with data is a kernel metric
    for m in f["metrics_with_data"]:
        assert m == "time" or all(m in k["m"] for k in run["kernels"]), (path, m)
    # visits (an EXCLUSIVE metric) per region, summed over its call paths
    for region, sums in f["per_region_sum_over_cnodes_and_locations"].items():
        if "visits" in sums:
            got = region_sum(run, region, "visits", nloc)
            assert close(got, sums["visits"]), (path, region, got, sums)
    assert {"creator", "cube_version"} <= set(run.get("tags", {})) or \
        f["attrs"].get("Creator") is None, run.get("tags")


@test
def every_cube_file_imports_with_its_numbers_once():
    for path in CUBES:
        body = read(path)
        name = os.path.basename(path)
        before = S.content()
        st, got = post_import(body, format="cube", filename=name)
        assert st == 201, (path, st, got)
        assert got["format"] == "cube" and got["created"] == 1, got
        run = run_of(got["ids"][0])
        check_cube(path, run)
        # no program name in these anchors: the file's base name
        assert run["application"] == name[:-len(".cubex")], run["application"]
        # again, and with format auto: recognised, nothing new
        after = S.content()
        assert after != before
        for q in ({"format": "cube"}, {}):
            st, again = post_import(body, filename=name, **q)
            assert st == 200, (path, q, st, again)
            assert again["format"] == "cube" and again["existing"] == 1, again
            assert again["ids"] == got["ids"], again
        assert S.content() == after, path


@test
def values_the_facts_give_per_region():
    # One location: every stored value is the kernel's own (CubeLib's two
    # call-tree orders agree for these trees, so facts.json reads them right).
    st, got = post_import(read("cube/extrap_mm.x1y1z1.r1_profile.cubex"), format="cube")
    ks = kernels_of(run_of(got["ids"][0]))
    sums = FACTS["cube/extrap_mm.x1y1z1.r1_profile.cubex"]["facts"][
        "per_region_sum_over_cnodes_and_locations"]
    init = ks["main/init_mat"]
    assert close(init["time"], sums["init_mat"]["time"]), init
    assert init["calls"] == 2 and init["m"]["visits"] == 2, init
    for m in ("PAPI_FP_OPS", "PAPI_L2_TCM", "PAPI_L3_TCM", "min_time", "max_time"):
        assert close(init["m"][m], sums["init_mat"][m]), (m, init)
    # main: inclusive as stored, exclusive = inclusive minus its three callees
    main = ks["main"]
    assert close(main["m"]["inclusive"], sums["main"]["time"]), main
    excl = sums["main"]["PAPI_FP_OPS"] - sum(
        sums[r]["PAPI_FP_OPS"] for r in ("init_mat", "zero_mat", "mat_mul"))
    assert main["m"]["PAPI_FP_OPS"] == excl == 6, main
    assert close(main["time"], sums["main"]["time"] - sum(
        sums[r]["time"] for r in ("init_mat", "zero_mat", "mat_mul"))), main
    # two processes x two threads: nprocs 2, threads 2, time = mean of 4
    st, got = post_import(read("cube/extrap_simple_threaded_example1.cubex"), format="cube")
    run = run_of(got["ids"][0])
    assert run["nprocs"] == 2 and run["inputs"] == {"threads": 2}, run
    ks = kernels_of(run)
    f = FACTS["cube/extrap_simple_threaded_example1.cubex"]["facts"]
    for r in ("foo", "bar", "omp parallel"):
        k = ks["main/" + r]
        want = f["per_region_sum_over_cnodes_and_locations"][r]
        assert close(k["time"] * 4, want["time"]), (r, k, want)
        assert close(k["m"]["visits"] * 4, want["visits"]), (r, k, want)
    assert close(ks["main"]["time"], (34.2 - 9.9 - 8.3 - 13.2) / 4), ks["main"]
    assert ks["main/zero"]["time"] == 0 and ks["main/zero"]["m"]["visits"] == 0.5


@test
def inclusive_metrics_are_read_in_cubelibs_wide_order():
    # Score-P 6.0, 4 ranks: the values facts.json lists for MPI_Init and
    # MPI_Comm_size, and the call tree read the way CubeLib wrote it.
    path = "cube/csc_mandelbrot_4_profile.cubex"
    st, got = post_import(read(path), format="cube")
    run = run_of(got["ids"][0])
    for v in FACTS[path]["values"][2:]:
        region = v["what"].split("'")[1]
        for metric in ("time", "visits"):
            assert close(region_sum(run, region, metric, 4), v["value"][metric]), (v, metric)
    ks = kernels_of(run)
    # The INCLUSIVE metric's rows follow CubeLib's "wide" order (pycubexr's
    # _wide_enumeration): kernel's callee abs2 comes after every child of
    # main. facts.json's per-region `time` for abs2, cmap, MPI_Gather,
    # save_png and MPI_Finalize reads them depth first, which its own
    # min_time/max_time (EXCLUSIVE, depth first) contradict: MPI_Gather is
    # visited once per rank with max_time summing to 0.884 s, so its time
    # cannot be 0.013 s.
    gather = ks["mandelbrot/main/MPI_Gather"]
    assert close(gather["m"]["inclusive_mean"] * 4, 0.8841838052486506), gather
    assert close(gather["m"]["inclusive"], 0.4451419997157116), gather
    assert gather["m"]["bytes_sent"] * 4 == 262144, gather
    abs2 = ks["mandelbrot/main/kernel/abs2"]
    assert close(abs2["m"]["inclusive_mean"] * 4, 0.6872529746470535), abs2
    assert abs2["calls"] == 5414973, abs2
    # Kripke, 8 ranks: MPI_Init as facts.json gives it; MPI_Comm_rank's
    # visits (EXCLUSIVE) too, its time read in the wide order
    path = "cube/pycubexr_kripke.p8_profile.cubex"
    st, got = post_import(read(path), format="cube")
    run = run_of(got["ids"][0])
    want = FACTS[path]["values"][2]["value"]
    assert close(region_sum(run, "MPI_Init", "time", 8), want["time"]), want
    assert close(region_sum(run, "MPI_Init", "PAPI_FP_OPS", 8), want["PAPI_FP_OPS"])
    assert region_sum(run, "MPI_Comm_rank", "visits", 8) == 8033
    assert region_sum(run, "MPI_Comm_rank", "time", 8) < 0.1  # 8033 calls of <= 0.3 ms


@test
def a_truncated_cube_file_is_refused_and_nothing_stored():
    body = read("cube/pycubexr_kripke.p8_profile.cubex")
    before = S.content()
    st, got = post_import(body[:len(body) // 2], format="cube", filename="kripke.cubex")
    assert st == 422, got
    assert "truncated" in got["error"]["message"], got
    assert S.content() == before
    # a whole archive whose time data lost its last bytes
    members = tarfile.open(fileobj=io.BytesIO(body))
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for m in members.getmembers():
            data = members.extractfile(m).read()
            if m.name == "1.data":
                data = data[:-8]
            m.size = len(data)
            t.addfile(m, io.BytesIO(data))
    for q in ({"format": "cube"}, {}):
        st, got = post_import(out.getvalue(), filename="kripke.cubex", **q)
        assert st == 422, got
        assert got["error"]["message"].startswith("kripke.cubex: 1.data holds ") and \
            "truncated" in got["error"]["message"], got
    # without its name, the archive's members are loose files: the member at fault
    st, got = post_import(out.getvalue(), format="cube")
    assert st == 422 and got["error"]["message"].startswith("1.data: holds "), got
    assert S.content() == before


def cli(db, *args):
    return subprocess.run([PROPHECYD, "import", *args, "--db", db], capture_output=True,
                          text=True)


@test
def a_scaling_study_directory_is_one_run_per_profile():
    d = os.path.join(S.tmp, "study")
    layout = {"mm.p1.n10.r1": "cube/extrap_mm.x1y1z1.r1_profile.cubex",
              "mm.p1.n10.r2": "cube/extrap_simple_threaded_example1.cubex",
              "mm.p8.n20.r1": "cube/pycubexr_kripke.p8_profile.cubex"}
    for sub, src in layout.items():
        os.makedirs(os.path.join(d, sub))
        shutil.copy(os.path.join(CORPUS, src), os.path.join(d, sub, "profile.cubex"))
    with open(os.path.join(d, "README"), "w") as f:
        f.write("job scripts and notes beside the profiles are skipped\n")
    db = os.path.join(S.tmp, "study.db")
    r = cli(db, "--system", "cluster", d)
    assert r.returncode == 0, r.stderr
    assert "imported 3 runs" in r.stdout and "(cube)" in r.stdout, r.stdout
    r = cli(db, "--system", "cluster", d)
    assert "imported 0 runs (3 already stored)" in r.stdout, r.stdout
    # the same directory through the API, as a tar archive
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        t.add(d, arcname=".")
    st, got = post_import(out.getvalue(), system="cluster")
    assert st == 201 and got["format"] == "cube" and got["created"] == 3, got
    runs = [run_of(i) for i in got["ids"]]
    by_dir = {(r["nprocs"], r["inputs"].get("n")): r for r in runs}
    assert set(by_dir) == {(1, 10), (2, 10), (8, 20)}, by_dir.keys()
    assert all(r["application"] == "mm" for r in runs), runs
    # p is the process count: it is nprocs where the profile agrees, else kept
    assert "p" not in by_dir[(1, 10)]["inputs"] and "p" not in by_dir[(8, 20)]["inputs"]
    assert by_dir[(2, 10)]["inputs"] == {"n": 10, "p": 1, "threads": 2}, by_dir[(2, 10)]


@test
def a_file_imported_from_a_directory_and_uploaded_alone_is_one_run():
    """A .cubex of its own name is itself wherever it lies: `prophecyd import
    results/x.cubex` and the same file uploaded alone (x.cubex) stored two
    runs, the directory's name entering the run's identity. Where the
    directory names the run (Score-P's profile.cubex, parameters in its
    name) it still does."""
    db = os.path.join(S.tmp, "dirs.db")
    name = "extrap_simple_threaded_example1.cubex"
    for sub in ("results", "elsewhere"):
        os.makedirs(os.path.join(S.tmp, sub), exist_ok=True)
        shutil.copy(os.path.join(CORPUS, "cube", name), os.path.join(S.tmp, sub, name))
    r = cli(db, os.path.join(S.tmp, "results", name))
    assert r.returncode == 0 and "imported 1 run (0 already stored)" in r.stdout, r
    for path in (os.path.join(S.tmp, "elsewhere", name), os.path.join(CORPUS, "cube", name)):
        r = cli(db, path)
        assert r.returncode == 0 and "imported 0 runs (1 already stored)" in r.stdout, \
            (path, r.stdout, r.stderr)
    # and through the server: the run the CLI stored, then the upload
    st, got = post_import(read("cube/" + name), filename=name)
    assert st in (200, 201), got
    before = S.content()
    cli_srv = subprocess.run([PROPHECYD, "import", os.path.join(S.tmp, "results", name),
                              "--db", S.db], capture_output=True, text=True)
    assert "imported 0 runs (1 already stored)" in cli_srv.stdout, cli_srv
    assert S.content() == before
    # profile.cubex in two directories: two runs, named by them
    for sub in ("lulesh-a", "lulesh-b"):
        os.makedirs(os.path.join(S.tmp, sub), exist_ok=True)
        shutil.copy(os.path.join(CORPUS, "cube", name),
                    os.path.join(S.tmp, sub, "profile.cubex"))
        r = cli(db, os.path.join(S.tmp, sub, "profile.cubex"))
        assert "imported 1 run (0 already stored)" in r.stdout, (sub, r.stdout)


@test
def a_cubex_through_the_upload_page_stays_one_file():
    st, page, _ = S.request("GET", "/upload", token=None, raw=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.decode()).group(1)
    boundary = "----cube" + uuid.uuid4().hex
    parts = []
    for k, v in {"csrf": csrf, "token": S.token, "format": "auto",
                 "system": "upload box"}.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"'
                     f'\r\n\r\n{v}\r\n'.encode())
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                 'filename="mm.x1.r1.cubex"\r\nContent-Type: application/octet-stream'
                 '\r\n\r\n'.encode() + read("cube/extrap_mm.x1y1z1.r1_profile.cubex") + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    st, body, _ = S.request("POST", "/upload/import", b"".join(parts), token=None,
                            ctype="multipart/form-data; boundary=" + boundary, raw=True)
    text = body.decode()
    assert st == 200 and "Imported 1 new run (0 already stored)" in text, (st, text[-2000:])
    st, runs = S.get("/api/v1/runs?application=mm.x1.r1&limit=10")
    assert st == 200 and len(runs["runs"]) == 1, runs
    assert runs["runs"][0]["system"] == "upload box", runs


XP = "extrap-experiment/two_parameter3.txt.extra-p"


@test
def an_extrap_experiment_keeps_its_statistics():
    body = read(XP)
    before = S.content()
    st, got = post_import(body, format="extrap-experiment", filename=os.path.basename(XP))
    assert st == 201 and got["created"] == 25, got
    f = FACTS[XP]["facts"]
    runs = {}
    for i in got["ids"]:
        r = run_of(i)
        runs[(r["inputs"]["x"], r["inputs"]["y"])] = r
        assert r["application"] == "two_parameter3.txt" and r["nprocs"] == 1, r
    assert set(runs) == {tuple(p) for p in f["points"]}, runs.keys()
    for s in f["series"]:
        for p in s["points"]:
            k = kernels_of(runs[tuple(p["coordinate"])])[s["region"]]
            m = s["metric"]
            # the API writes numbers with 16 significant digits
            if m == "time":
                assert close(k["time"], p["mean"], 1e-15), k
                assert close(k["m"]["inclusive"], p["mean"], 1e-15), k
            else:
                assert close(k["m"][m], p["mean"], 1e-15), (k, m)
            for stat, label in (("median", "median"), ("minimum", "min"),
                                ("maximum", "max"), ("std", "std"),
                                ("repetitions", "repetitions")):
                assert close(k["m"][f"{m}.{label}"], p[stat], 1e-15), (k, m, stat)
    for r in runs.values():  # top-level regions only: the run time is their sum
        assert close(r["runtime"], sum(k["time"] for k in r["kernels"])), r
    after = S.content()
    assert after != before
    for q in ({"format": "extrap-experiment"}, {}):
        st, again = post_import(body, filename=os.path.basename(XP), **q)
        assert st == 200 and again["existing"] == 25, again
        assert again["format"] == "extrap-experiment", again
    assert S.content() == after
    st, got = post_import(body[:len(body) - 100], filename="cut.extra-p")
    assert st == 422, got
    st, got = post_import(body[:len(body) - 100], format="extrap-experiment",
                          filename="cut.extra-p")
    assert st == 422 and got["error"]["message"].startswith("cut.extra-p: "), got
    assert "ZIP" in got["error"]["message"], got
    assert S.content() == after
    db = os.path.join(S.tmp, "xp.db")
    r = cli(db, os.path.join(CORPUS, XP))
    assert r.returncode == 0 and "imported 25 runs" in r.stdout, (r.stdout, r.stderr)
    assert "(extrap-experiment)" in r.stdout, r.stdout


report()
