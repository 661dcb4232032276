#!/usr/bin/env python3
"""Writes the small CUBE4 and Extra-P experiment fixtures of this directory
(and the fuzz seeds of tests/data/fuzz/fuzz_import_cube and
fuzz_import_extrap_experiment) the way CubeLib and Extra-P write them:

- a .cubex is a ustar archive: anchor.xml (plain or gzip), then per metric
  with data ID.index ("CUBEX.INDEX", 1 as int32 for the byte order, int16
  version, uint8 format, int32 N, N int32 call-tree positions) and ID.data
  ("CUBEX.DATA" + N x locations values, or "ZCUBEX.DATA", int64 N, N int64
  triples (uncompressed position, compressed position, compressed size) and
  one zlib stream per call-tree node);
- positions count the call tree depth first for EXCLUSIVE metrics and in
  CubeLib's "wide" order for INCLUSIVE ones (pycubexr's _wide_enumeration);
- a .extra-p is a ZIP holding experiment.json.

Run it from anywhere: python3 tests/data/import/cube/make.py"""
import gzip
import io
import json
import os
import struct
import tarfile
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FUZZ = os.path.join(HERE, "../../fuzz")

DTYPES = {"DOUBLE": "d", "FLOAT": "d", "MINDOUBLE": "d", "MAXDOUBLE": "d",
          "UINT64": "Q", "INT64": "q", "INT32": "i", "UINT8": "B"}


def flatten(tree):
    """Pre-order list of (name, parent index, children indices)."""
    out = []

    def walk(node, parent):
        me = len(out)
        out.append([node[0], parent, []])
        if parent >= 0:
            out[parent][2].append(me)
        for ch in node[1]:
            walk(ch, me)
    for root in tree:
        walk(root, -1)
    return out


def wide(nodes):
    order = []
    for r in range(len(nodes)):
        if nodes[r][1] >= 0:
            continue
        order.append(r)
        stack = [r]
        while stack:
            n = stack.pop()
            order.extend(nodes[n][2])
            stack.extend(reversed(nodes[n][2]))
    return order


def anchor(metrics, nodes, groups, idattr="id", doctype="", attrs=()):
    regions = []
    for n in nodes:
        if n[0] not in regions:
            regions.append(n[0])
    x = ['<?xml version="1.0" encoding="UTF-8"?>\n', doctype, '<cube version="4.4">\n']
    for k, v in attrs:
        x.append(f'<attr key="{k}" value="{v}"/>\n')
    x.append("<metrics>\n")
    for i, m in enumerate(metrics):
        x.append(f'<metric {idattr}="{i}" type="{m["type"]}"><disp_name>{m["name"]}</disp_name>'
                 f'<uniq_name>{m["name"]}</uniq_name><dtype>{m["dtype"]}</dtype>')
        if m.get("nest"):  # the next metric inside this one, before its uom
            continue
        x.append(f'<uom>{m.get("uom", "#")}</uom><url></url><descr></descr></metric>\n')
        if i > 0 and metrics[i - 1].get("nest"):
            p = metrics[i - 1]
            x.append(f'<uom>{p.get("uom", "#")}</uom><url></url><descr></descr></metric>\n')
    x.append("</metrics>\n<program>\n")
    for i, r in enumerate(regions):
        x.append(f'<region {idattr}="{i}" mod="a.c" begin="1" end="2"><name>{r}</name>'
                 f'<mangled_name>{r}</mangled_name><paradigm>user</paradigm>'
                 f'<role>function</role><url></url><descr></descr></region>\n')

    def cn(i):
        s = f'<cnode {idattr}="{i}" calleeId="{regions.index(nodes[i][0])}">\n'
        return s + "".join(cn(c) for c in nodes[i][2]) + "</cnode>\n"
    x.extend(cn(i) for i in range(len(nodes)) if nodes[i][1] < 0)
    x.append('</program>\n<system>\n<systemtreenode Id="0"><name>machine</name>'
             '<class>machine</class>\n')
    loc = 0
    for g, nthreads in enumerate(groups):
        x.append(f'<locationgroup Id="{g}"><name>rank {g}</name><rank>{g}</rank>'
                 '<type>process</type>\n')
        for t in range(nthreads):
            x.append(f'<location Id="{loc}"><name>thread {t}</name><rank>{t}</rank>'
                     '<type>thread</type></location>\n')
            loc += 1
        x.append("</locationgroup>\n")
    x.append("</systemtreenode>\n</system>\n</cube>\n")
    return "".join(x).encode()


def pack(dtype, v, e):
    if dtype == "TAU_ATOMIC":
        return struct.pack(e + "Idddd", *v)
    if dtype == "RATE":
        return struct.pack(e + "dd", *v)
    return struct.pack(e + DTYPES[dtype], v)


def cubex(tree, groups, metrics, values, *, gz=False, big=False, compress=False,
          idattr="id", doctype="", attrs=(("Creator", "make.py"),), drop=(),
          bad_checksums=False):
    """values: {metric: {pre-order cnode index: [value per location]}}."""
    nodes = flatten(tree)
    w = wide(nodes)
    e = ">" if big else "<"
    files = {}
    xml = anchor(metrics, nodes, groups, idattr, doctype, attrs)
    files["anchor.xml"] = gzip.compress(xml, mtime=0) if gz else xml
    for i, m in enumerate(metrics):
        vals = values.get(m["name"])
        if vals is None:
            continue
        order = w if m["type"] == "INCLUSIVE" else list(range(len(nodes)))
        pos = sorted(order.index(c) for c in vals)
        files[f"{i}.index"] = (b"CUBEX.INDEX" + struct.pack(e + "ihBi", 1, 0, 1, len(pos)) +
                               b"".join(struct.pack(e + "i", p) for p in pos))
        rows = [b"".join(pack(m["dtype"], v, e) for v in vals[order[p]]) for p in pos]
        if compress:
            z = [zlib.compress(r) for r in rows]
            head, at, unc = b"", 0, 0
            for r, c in zip(rows, z):
                head += struct.pack(e + "qqq", unc, at, len(c))
                at += len(c)
                unc += len(r)
            files[f"{i}.data"] = b"ZCUBEX.DATA" + struct.pack(e + "q", len(z)) + head + b"".join(z)
        else:
            files[f"{i}.data"] = b"CUBEX.DATA" + b"".join(rows)
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in files.items():
            if name in drop:
                continue
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            ti.mtime = 0
            t.addfile(ti, io.BytesIO(data))
        end = t.offset
    # one zero block ends the archive (tar pads to 10 KiB; the seeds stay small)
    data = bytearray(out.getvalue()[:end] + bytes(512))
    if bad_checksums:  # as CubeLib 4.8 wrote them
        at = 0
        while at < end:
            size = int(data[at + 124:at + 135], 8)
            data[at + 148:at + 156] = b"0000000\0"
            at += 512 + (size + 511) // 512 * 512
    return bytes(data)


TIME = {"name": "time", "type": "INCLUSIVE", "dtype": "DOUBLE", "uom": "sec"}
VISITS = {"name": "visits", "type": "EXCLUSIVE", "dtype": "UINT64", "uom": "occ"}
# main -> {init, solve -> {halo, calc}, halo}: the wide order differs from the
# depth-first one, and two cnodes of main call "halo" (call paths main/halo and
# main/solve/halo)
TREE = [("main", [("init", []), ("solve", [("halo", []), ("calc", [])]), ("halo", [])])]
# inclusive time per location (2 ranks x 1 thread)
TIMES = {0: [10.0, 12.0], 1: [1.0, 1.5], 2: [7.0, 8.0], 3: [2.0, 3.5], 4: [4.0, 4.0],
         5: [0.5, 0.25]}
VISITS_V = {0: [1, 1], 1: [1, 1], 2: [1, 1], 3: [10, 12], 4: [10, 10], 5: [2, 3]}


def fixtures():
    base = dict(tree=TREE, groups=[1, 1], metrics=[VISITS, TIME],
                values={"time": TIMES, "visits": VISITS_V})
    f = {}
    f["solver.cubex"] = cubex(**base)
    f["solver_gz_big_z.cubex"] = cubex(**base, gz=True, big=True, compress=True,
                                       idattr="Id")
    f["solver_cube48.cubex"] = cubex(**base, bad_checksums=True)
    f["kinds.cubex"] = cubex(
        tree=[("main", [("send", [])])], groups=[2],
        metrics=[TIME,
                 {"name": "min_time", "type": "EXCLUSIVE", "dtype": "MINDOUBLE"},
                 {"name": "msg", "type": "EXCLUSIVE", "dtype": "TAU_ATOMIC"},
                 {"name": "rate", "type": "EXCLUSIVE", "dtype": "RATE"},
                 {"name": "errs", "type": "EXCLUSIVE", "dtype": "INT32"},
                 {"name": "flag", "type": "EXCLUSIVE", "dtype": "UINT8"},
                 {"name": "hist", "type": "EXCLUSIVE", "dtype": "HISTOGRAM(4)"},
                 {"name": "ctr", "type": "EXCLUSIVE", "dtype": "UINT64"}],
        values={"time": {0: [2.0, 2.0], 1: [0.5, 1.5]},
                "min_time": {0: [2.0, 1.0], 1: [0.25, 0.5]},
                "msg": {1: [(2, 8.0, 64.0, 72.0, 4160.0), (1, 16.0, 16.0, 16.0, 256.0)]},
                "rate": {1: [(10.0, 2.0), (20.0, 3.0)]},
                "errs": {1: [-3, 1]}, "flag": {0: [1, 0]},
                # a counter that wrapped below 0: CubeLib reads it as 0
                "ctr": {1: [2**64 - 5, 7]}})
    f["exclusive_time.cubex"] = cubex(
        tree=[("main", [("a", []), ("b", [])])], groups=[1],
        metrics=[{"name": "time", "type": "EXCLUSIVE", "dtype": "DOUBLE", "uom": "msec"}],
        values={"time": {0: [1000.0], 1: [2000.0], 2: [500.0]}})
    # Scalasca nests metrics: time > execution, the parent's uom after the child
    f["nested_metrics.cubex"] = cubex(
        tree=[("main", [("work", [])])], groups=[1],
        metrics=[dict(TIME, nest=True, uom="usec"),
                 {"name": "execution", "type": "INCLUSIVE", "dtype": "DOUBLE"}],
        values={"time": {0: [3e6], 1: [1e6]}, "execution": {0: [2.0], 1: [1.0]}})
    # two roots (a thread's own tree beside main), sparse rows: the run time
    # is the largest sum of the roots' inclusive times on one location
    f["two_roots.cubex"] = cubex(
        tree=[("main", [("a", []), ("b", [])]), ("!$omp parallel", [("c", [])])],
        groups=[2], metrics=[TIME, VISITS],
        values={"time": {0: [5.0, 0.0], 2: [1.0, 0.0], 3: [2.0, 4.0], 4: [1.5, 3.0]},
                "visits": {0: [1, 0], 3: [1, 1]}})
    f["no_time.cubex"] = cubex(tree=[("main", [])], groups=[1], metrics=[VISITS],
                               values={"visits": {0: [1]}})
    f["doctype.cubex"] = cubex(
        tree=[("main", [])], groups=[1], metrics=[TIME], values={"time": {0: [1.0]}},
        doctype='<!DOCTYPE cube [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n')
    f["short_index.cubex"] = cubex(**base, drop=("1.index",))
    deep = ("f0", [])
    for i in range(1, 40):
        deep = (f"function_with_a_long_name_{i:02d}", [deep])
    f["deep.cubex"] = cubex(tree=[deep], groups=[1], metrics=[TIME],
                            values={"time": {i: [float(40 - i)] for i in range(40)}})
    return f


def experiment():
    pts = [[p, n] for p in (2, 4, 8) for n in (10, 20)]
    ms = {}
    for cp in ("main", "main->solve"):
        ms[cp] = {}
        for metric in ("time", "bytes"):
            ms[cp][metric] = []
            for p, n in pts:
                base = n * (1.0 if cp == "main" else 0.75) * (1 if metric == "time" else 8)
                ms[cp][metric].append({"coordinate": [p, n], "median": base,
                                       "mean": base * 1.01, "minimum": base * 0.9,
                                       "maximum": base * 1.2, "std": base * 0.05,
                                       "repetitions": 3, "values": None})
    doc = {"Extra-P": "4.2.0", "parameters": ["p", "n"], "measurements": ms}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        zi = zipfile.ZipInfo("experiment.json", date_time=(2024, 1, 1, 0, 0, 0))
        zi.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(zi, json.dumps(doc))
    return out.getvalue()


def runtime_experiment():
    """One parameter, the metric runtime, main->a->b without main->a."""
    ms = {"main": {"runtime": []}, "main->a->b": {"runtime": []}}
    for n in (1, 2):
        for cp, v in (("main", 10.0 * n), ("main->a->b", 4.0 * n)):
            ms[cp]["runtime"].append({"coordinate": [n], "median": v, "mean": v,
                                      "minimum": v, "maximum": v, "std": 0.0,
                                      "repetitions": 1, "values": None})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        zi = zipfile.ZipInfo("experiment.json", date_time=(2024, 1, 1, 0, 0, 0))
        zi.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(zi, json.dumps({"Extra-P": "4.2.0", "parameters": ["n"],
                                   "measurements": ms}))
    return out.getvalue()


def npy(values, shape):
    """A NumPy .npy array (format 1.0) of float64, as numpy.lib.format writes."""
    shp = "(%d,)" % shape[0] if len(shape) == 1 else "(" + ", ".join(map(str, shape)) + ")"
    head = "{'descr': '<f8', 'fortran_order': False, 'shape': %s, }" % shp
    pad = 64 - (10 + len(head) + 1) % 64
    head = head + " " * (pad % 64) + "\n"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode() +
            struct.pack("<%dd" % len(values), *values))


def values_experiment():
    """Repetitions kept (values/0.vals and values/0.indx): one run per
    repetition. main->work at p=2 has two repetitions only; bytes at p=1 is
    two values per repetition, one of them masked (written as 1e20)."""
    arrays, ms = [], {"main": {"time": [], "bytes": []}, "main->work": {"time": []}}
    for p in (1, 2):
        for cp, metric, vals, shape in (
                ("main", "time", [10.0 * p, 11.0 * p, 12.0 * p], (3,)),
                ("main", "bytes", [8.0, 1e20, 16.0, 24.0, 32.0, 32.0], (3, 2))
                if p == 1 else ("main", "bytes", [8.0, 16.0, 32.0], (3,)),
                ("main->work", "time", [6.0 * p, 7.0 * p, 8.0 * p][:3 if p == 1 else 2],
                 (3 if p == 1 else 2,))):
            ms[cp][metric].append({"coordinate": [p], "median": 0, "mean": 0, "minimum": 0,
                                   "maximum": 0, "std": 0, "repetitions": shape[0],
                                   "values": [0, len(arrays)]})
            arrays.append(npy(vals, shape))
    vals, pos = b"Extra-P VALUES\0\0", []
    for a in arrays:
        pos.append(len(vals))
        vals += a
    indx = b"Extra-P INDEX\0\0\0" + struct.pack("<Q", len(pos)) + b"".join(
        struct.pack("<Q", q) for q in pos)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in (("experiment.json", json.dumps(
                {"Extra-P": "4.2.0", "parameters": ["p"], "measurements": ms}).encode()),
                ("values/0.vals", vals), ("values/0.indx", indx)):
            zi = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    return out.getvalue()


def main():
    for name, data in fixtures().items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)
    xp = experiment()
    xdir = os.path.join(HERE, "../extrap-experiment")
    os.makedirs(xdir, exist_ok=True)
    with open(os.path.join(xdir, "solver.extra-p"), "wb") as f:
        f.write(xp)
    with open(os.path.join(xdir, "runtime.extra-p"), "wb") as f:
        f.write(runtime_experiment())
    with open(os.path.join(xdir, "values.extra-p"), "wb") as f:
        f.write(values_experiment())
    for target, seeds in (("fuzz_import_cube", ("solver.cubex", "solver_gz_big_z.cubex", "solver_cube48.cubex",
                                                "kinds.cubex", "exclusive_time.cubex")),
                          ("fuzz_import_extrap_experiment", ())):
        d = os.path.join(FUZZ, target)
        os.makedirs(d, exist_ok=True)
        for s in seeds:
            with open(os.path.join(HERE, s), "rb") as f, open(os.path.join(d, s), "wb") as g:
                g.write(f.read())
    with open(os.path.join(FUZZ, "fuzz_import_extrap_experiment", "solver.extra-p"),
              "wb") as f:
        f.write(xp)
    with open(os.path.join(FUZZ, "fuzz_import_extrap_experiment", "values.extra-p"),
              "wb") as f:
        f.write(values_experiment())


if __name__ == "__main__":
    main()
