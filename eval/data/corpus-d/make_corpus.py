#!/usr/bin/env python3
"""corpus-d (16 cases from 6 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import glob
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src, upto  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-d")
rp, one, two = CORPUS.rp, CORPUS.one, CORPUS.two


# ---------------------------------------------------------------------------------------------
# E3SM-Project/perf-data: E3SM performance data store (DOE E3SM project)
E3 = "E3SM-Project/perf-data"
FC1 = "10911c4b27ad73025b081daa7c05d3c70908cfe5", "v2-overview/chrysalis-perf-study/fcase-timers1.txt"
FC0 = "375732cfac78e017207d91a91dbb24b77e672870", "v2-overview/F-case-chrys-nodecount-sweep/timers0.txt"


def wallmax(line):
    """GPTL timer line: the wallmax column, the number just before the first '('"""
    return float(line.split("(")[0].split()[-1])


def read_fcase(path):
    """{compset: {nodes: wallmax of CPL:RUN_LOOP [s]}}; the case name ends in .<nodes>"""
    out = defaultdict(dict)
    case = None
    with open(path) as f:
        for line in f.read().splitlines():
            if not line.strip():
                continue
            if not line.startswith('"'):
                case = line.strip()
            elif line.startswith('"CPL:RUN_LOOP"'):
                compset = "F2010" if "F2010-CICE" in case else "FC5AV1C" if "FC5AV1C-L" in case else None
                assert compset, case
                out[compset][int(case.rsplit(".", 1)[1])] = wallmax(line)
    return out


def build_e3sm_fcase():
    r1 = read_fcase(rp(E3, FC1[1]))
    r0 = read_fcase(rp(E3, FC0[1]))
    for compset, name, what in [
            ("F2010", "e3sm-v2-f2010-chrysalis-nodes-p",
             "E3SM v2 atmosphere-land F case (compset F2010-CICE, grid ne30pg2_ne30pg2)"),
            ("FC5AV1C", "e3sm-v1-fc5av1c-chrysalis-nodes-p",
             "E3SM v1 atmosphere-land F case (compset FC5AV1C-L, grid ne30_ne30), the v1 baseline of the same study")]:
        d = defaultdict(list)
        for run in (r1, r0):
            for nodes, t in run[compset].items():
                d[nodes].append(t)
        one(name, src(E3, FC1[0], FC1[1]) + " ; " + src(E3, FC0[0], FC0[1]).replace("github ", ""), "p", "s",
            "%s, node-count sweep on the Chrysalis cluster (ANL; 64 MPI ranks per node: 320 ranks on 5 nodes ... 5440 on 85, "
            "as the timer lines show): wallmax of the coupler run-loop timer CPL:RUN_LOOP [s] over p = nodes. Strong scaling: "
            "the same simulated period at every node count. The node counts 5, 10, 20, 29, 38, 43, 45, 49, 51, 57, 59, 68, 70, 85 "
            "were chosen by the authors to suit the decomposition (v2-overview readme). Two runs of the sweep are used as "
            "repetitions: fcase-timers1.txt (the second run, the one the authors' paper uses) and timers0.txt (the first "
            "run, same cases without the 'v2-overview-fcase-chrysalis-r0.' prefix; it has no 29-node run), so 29 nodes has one "
            "row and every other count two. raw/ holds the case-name and CPL:RUN_LOOP lines of both files (CUT). Not monotone "
            "everywhere (e.g. 43 vs 45 nodes; 68 vs 70 nodes for F2010), as measured. Train p=5..51, test p=59, 68, 70, 85 "
            "(57 not used)." % what,
            d, upto(d, hi=51), [59, 68, 70, 85])


NH = "06302137b8959e706b635b7ecc23c8cc68c7de16", "nhxx-sl-summit-mar2021/summary-table.txt"


def read_nh(path):
    """{section title: {first column: second column}}"""
    out, sec = {}, None
    with open(path) as f:
        for line in f.read().splitlines():
            if line.startswith(">>>"):
                sec = " ".join(line[3:].split())
                out[sec] = {}
            elif line.strip() and not line.startswith("#") and sec:
                c = line.split()
                out[sec][int(c[0])] = float(c[1])
    return out


def build_e3sm_nh():
    t = read_nh(rp(E3, NH[1]))
    for sec, name, alg, train, test in [
            ("ne 128 qsize 10 nmax 4096 alg Eul main_loop", "homme-nh-summit-ne128-eul-mainloop-p", "Eulerian tracer transport",
             [16, 32, 64, 128], [256]),
            ("ne 256 qsize 10 nmax 4096 alg SL main_loop", "homme-nh-summit-ne256-sl-mainloop-p", "semi-Lagrangian tracer transport",
             [64, 128, 256, 512], [1024])]:
        d = {k: [v] for k, v in t[sec].items()}
        one(name, src(E3, NH[0], NH[1]), "p", "s",
            "HOMME non-hydrostatic dynamical core (HOMMEXX, E3SM), %s, ne=%s cubed-sphere grid, 10 tracers, nmax=4096 steps, "
            "on Summit (ORNL, GPUs): the main_loop time [second column of the authors' summary table] over p = Summit nodes "
            "(first column; it matches the nnode of the run files in the data/ directory next to it). Strong scaling, one "
            "value per node count as the table gives it (the data directory has 2-3 runs per point; how the table reduces "
            "them is not stated, and the table has no header: the unit is taken to be seconds). raw/ holds the table's "
            "two comment lines and the section used (CUT). Train p=%s, test p=%s."
            % (alg, sec.split()[1], ",".join(map(str, train)), ",".join(map(str, test))),
            d, train, test)


RS = "3b5f3ec8036db41852699ff903241e029a92ef0c", "RS-theta/frontier/july2024/run1/"


def build_e3sm_rs():
    d = defaultdict(list)
    for path in sorted(glob.glob(rp(E3, RS[1], "time-thetaxx-ne*-nmax500.2082566"))):
        ne = None
        with open(path) as f:
            for line in f.read().splitlines():
                if line.startswith("ne ="):
                    ne = int(line.split("=")[1])
                elif line.startswith('"prim_main_loop"'):
                    d[ne].append(wallmax(line))
    one("homme-theta-frontier-2gcd-ne-n", src(E3, RS[0], RS[1] + "time-thetaxx-ne{2,3,4,6,10,15,18,20,24}-nmax500.2082566"), "n", "s",
        "HOMME theta-l dycore with Kokkos/HIP (theta-nlev128-kokkos, E3SM), jw_baroclinic test, 128 levels, 10 tracers, "
        "nmax=500 steps, on Frontier (ORNL) with 2 MPI ranks on 2 GCDs of one node (run.sh: srun -n2 --gpus-per-node=2): "
        "wallmax of prim_main_loop [s] over n = ne, the cubed-sphere elements per cube edge (6*ne^2 elements in all), so "
        "a problem-size sweep at fixed resources. One run per ne. The ne=16 file exists and is not used. Each raw/ file "
        "keeps the ne line, the nmax line, the GPTL header and the prim_main_loop line of the ~11.6 KB source file (CUT). "
        "The time grows slowly at small ne (GPU not filled: 3.6 s at ne=2, 5.9 s at ne=6) and faster later. "
        "Train n=2,3,4,6,10, test n=15,18,20,24.",
        d, [2, 3, 4, 6, 10], [15, 18, 20, 24])


# ---------------------------------------------------------------------------------------------
# Devid-developer/hpc-exam: 2-D 5-point heat stencil (HPC course exam, Trieste 2024/25) on Leonardo Booster (CINECA)
DD = "Devid-developer/hpc-exam"


def build_dd():
    commit, path = "4ac08e20cd97592b1a8e9c84f64a5a2d9785e0de", "results/49277667_mpi_strong/go_mpi_strong.csv"
    d = defaultdict(list)
    for r in read_dicts(rp(DD, path)):
        assert r["threads"] == "1"
        d[int(r["tasks"])].append(float(r["t_wall"]))
    one("dd-leonardo-stencil-mpi-strong-p", src(DD, commit, path), "p", "s",
        "2-D 5-point heat stencil (MPI, exam of the HPC course at Trieste 2024/25), grid 25000x25000, 200 iterations, "
        "strong scaling: t_wall [s] (max over ranks, per the job script) over p = MPI ranks 1..64, 1 thread per rank, "
        "on Leonardo Booster nodes (CINECA, partition boost_usr_prod; the job uses 32 cores per node: p<=32 on one node, "
        "p=64 on two). One run per p. The time falls slowly from 8 to 16 ranks (39.3 -> 32.6 s) and then halves twice "
        "(16.2 s at 32, 8.1 s at 64), as measured. Train p=1..16, test p=32, 64.",
        d, [1, 2, 4, 8, 16], [32, 64])
    commit, path = "beb1da34e29dabde6caad64eea85257d01ac031c", "results/49349184_mpi_node_scaling/go_mpi_node_scaling.csv"
    rows = read_dicts(rp(DD, path))
    for kind, name, what in [
            ("strong", "dd-leonardo-stencil-node-strong-p", "strong scaling, grid 25000x25000"),
            ("weak", "dd-leonardo-stencil-node-weak-p", "weak scaling, grid 6250^2 per node (the file's grid_x/grid_y: "
             "6250 at 1 node ... 25000 at 16 nodes; cells_per_node about 3.9e7)")]:
        d = defaultdict(list)
        for r in rows:
            if r["scaling"] == kind:
                assert r["ranks_per_node"] == "4" and r["threads_per_rank"] == "8"
                d[int(r["nodes"])].append(float(r["t_wall"]))
        one(name, src(DD, commit, path), "p", "s",
            "2-D 5-point heat stencil (MPI + OpenMP, exam of the HPC course at Trieste 2024/25), %s, 100 iterations: "
            "t_wall [s] over p = Leonardo Booster nodes 1..16, 4 MPI ranks x 8 OpenMP threads per node (32 cores). "
            "One run per p. Train p=1,2,4,8, test p=16." % what,
            d, [1, 2, 4, 8], [16])


# ---------------------------------------------------------------------------------------------
# Almouhannad/Parallel-Processing-examples-using-Java: primes below N with Java threads (chunks method)
AM = "Almouhannad/Parallel-Processing-examples-using-Java", "2bad761c03f3d5dcdf2796e27dddeae72c0be5f9", \
    "PrimesFinder/src/main/java/PrimesFinder/ChunksMethod/README.md"


def build_am():
    d = defaultdict(list)
    n = None
    with open(rp(AM[0], AM[2])) as f:
        for line in f.read().splitlines():
            if line.startswith("## N = "):
                n = int(line[7:].replace(",", ""))
            elif line.startswith("| ") and line.split("|")[1].strip().isdigit():
                c = [x.strip() for x in line.split("|")]
                assert c[2].endswith("ms")
                d[(int(c[1]), n)].append(float(c[2][:-2]))
    two("am-java-primes-chunks-pn", src(*AM), "ms",
        "Java program counting the primes below N with p threads, each testing a chunk of the range (the repository's "
        "'ChunksMethod'): 'Average Time' [ms] over p = threads x n = N. The README at this commit (a later version than "
        "other stored ones, whose tables differ) reports one average per point, in whole milliseconds; how many runs "
        "were averaged and the machine are not stated (the time stops falling at about 8 threads). p = 1..8192 and "
        "N = 100..1e8 in the file; only N >= 1e5 is used because smaller N give times of 1-7 ms or erratic values "
        "(e.g. 775 ms at N=1000, p=2). Anomaly kept in the training box: N=1e5 reads 52 ms at p=1 and 3-4 ms at p=2..16. "
        "Past about 64 threads the time grows with p (thread creation), also at N=1e5 and 1e6. Train p in {1,2,4,8} x "
        "n in {1e5,1e6,1e7,1e8}; test p=16,32,64 x the same n, so every test point extrapolates in p only.",
        d, [1, 2, 4, 8], [10**5, 10**6, 10**7, 10**8], [16, 32, 64], [10**5, 10**6, 10**7, 10**8])


# ---------------------------------------------------------------------------------------------
# deivgin/parallel-computing: parallel insertion sort with MPI (course lab 4)
DG = "deivgin/parallel-computing", "3a8a25e1d26107f7a733a4319cf9036001fb3072", "lab4/run-data.md"


def build_dg():
    d = defaultdict(list)
    size = p = None
    with open(rp(DG[0], DG[2])) as f:
        for line in f.read().splitlines():
            if line.startswith("Array size:"):
                size = int(line.split(":")[1])
            elif line.startswith("Number of processes:"):
                p = int(line.split(":")[1])
            elif line.startswith("Parallel time:") and size == 100000:
                d[p].append(float(line.split(":")[1].split()[0]))
    one("dg-mpi-insertion-sort-p", src(*DG), "p", "s",
        "Parallel insertion sort of 100000 elements (course lab 4; each of p processes sorts its part, O((n/p)^2) work, then "
        "the parts are merged): 'Parallel time' [s] over p = processes ('cores' in the headings) 2..256. One run per p; "
        "the machine is not named. Superlinear at first (1.64 s at p=2, 0.034 s at p=16), fastest at p=32 (0.018 s), slower "
        "again beyond (0.066 s at 128, 0.116 s at 256), as measured. The sequential time and the N=1e6 line are not used. "
        "Train p=2,4,8,16, test p=32,64,128.",
        d, [2, 4, 8, 16], [32, 64, 128])


# ---------------------------------------------------------------------------------------------
# Parataisa/Perf-or-comp: memory latency benchmark (performance-oriented computing course, Innsbruck) on LCC3
PT = "Parataisa/Perf-or-comp", "43102351329996a3590a4ee784ee5b8f9754c7d1", "06/data/memory_latency_cluster.csv"


def build_pt():
    d = defaultdict(list)
    for r in read_dicts(rp(PT[0], PT[2])):
        d[int(r["Block Size (bytes)"])].append(float(r["Latency (ns)"]))
    one("pt-lcc3-memory-latency-n", src(*PT), "n", "ns",
        "Memory load latency [ns] (the file's 'Latency (ns)'; its cycle column is not used) over n = block (working set) "
        "size [bytes] 512 B .. 16 MiB, measured on the course's cluster (LCC3, Intel Xeon X5650 per the same repository's "
        "result reports). One value per size. Staircase through the caches as measured: 1.34 ns up to 32 KiB, 3.4-3.5 ns "
        "at 64-128 KiB, 9-22 ns from 256 KiB to 2 MiB, then about 107-110 ns from 4 MiB on: every test point lies past "
        "this last jump, which the training range does not show. Train n=512 B .. 2 MiB, test n=4, 8, 16 MiB.",
        d, upto(d, hi=2097152), [4194304, 8388608, 16777216])


# ---------------------------------------------------------------------------------------------
# lczech/grenedalf-paper: paper artifact, thread scaling of grenedalf (population-genetics statistics)
LC = "lczech/grenedalf-paper", "3f4602b1f487f0bbf8ab411d095e797483cfb5ef", "benchmark-scaling/measure_time.csv"


def build_lc():
    rows = read_rows_tsv(rp(LC[0], LC[2]))
    for test_name, typ, name, what in [
            ("grenedalf/diversity-strong", "bam", "lc-grenedalf-diversity-strong-bam-p",
             "grenedalf diversity, strong scaling: 8 BAM samples (0.7-1.4 GB each) at every thread count"),
            ("grenedalf/diversity-weak", "bam", "lc-grenedalf-diversity-weak-bam-p",
             "grenedalf diversity, weak scaling: the first p of the 8 BAM samples with p threads"),
            ("grenedalf/fst-strong", "sync", "lc-grenedalf-fst-strong-sync-p",
             "grenedalf fst, strong scaling: the 8 samples as converted sync files at every thread count")]:
        d = defaultdict(list)
        for r in rows:
            if r[1] == test_name and r[3] == typ:
                assert r[4] == "size"
                d[int(r[5])].append(float(r[6]))
        one(name, src(*LC), "p", "s",
            "%s: wall time [s] (last column; measured by the script around the grenedalf call) over p = the file's "
            "'size' = --threads 1..8, on the authors' 8-core workstation (measure.py: 'We are on an 8-core system'). "
            "One run per p, July 2024. The time stops falling at about 3-4 threads (the authors' README: statistics "
            "computation is the bottleneck), as measured. Train p=1..4, test p=5..8." % what,
            d, [1, 2, 3, 4], [5, 6, 7, 8])


LCR = "lczech/grenedalf-paper", "88fde154f3c6d5985ec0b82214c6087e91226940", "benchmark-random/measure_time.csv"
LCR_PY = "12931291b4faf1eeee4986a9582d536eb2ca5a29", "benchmark-random/measure.py"


def lcr_sizes():
    """the sizes=[...] list of the copied benchmark-random/measure.py"""
    with open(rp(LCR[0], LCR_PY[1])) as f:
        text = f.read()
    body = text[text.index("sizes=[") + 7:]
    return [int(x) for x in body[:body.index("]")].replace(",", " ").split()]


def build_lcr():
    rows = {r[0]: r[1:] for r in read_rows_tsv(rp(LCR[0], LCR[2]))}
    sizes = lcr_sizes()
    assert len(sizes) == 16
    for key, name, what in [
            ("grenedalf/diversity.sh", "lc-grenedalf-diversity-random-n", "grenedalf diversity (window 1000 in measure.py)"),
            ("grenedalf/fst.sh", "lc-grenedalf-fst-random-n", "grenedalf fst (measure.py runs it with windows 0, 1 and 1000; "
             "which of them this row is, is not stated)")]:
        vals = [float(v) for v in rows[key]]
        assert len(vals) == len(sizes)
        d = {n: [v] for n, v in zip(sizes, vals)}
        one(name, src(*LCR) + " ; sizes from " + LCR_PY[1] + " @" + LCR_PY[0], "n", "s",
            "%s on random simulated data: time [s] over n = dataset size. The CSV row has 16 values and no header; "
            "n is taken from the sizes list of the repository's benchmark-random/measure.py (1000 ... 1e8 in 1-2-5 steps; "
            "read at commit 12931291b4fa, not the CSV's commit), which runs the grenedalf suites with iterations=3: "
            "whether a value is a mean, a minimum or one run is not stated. Unit not stated; seconds assumed (the script "
            "measures wall time). Machine: the authors' workstation (not named here). The time is nearly flat up to about "
            "1e5 (start-up cost) and then grows about linearly, as measured. Train n=1000 .. 2e7, test n=5e7, 1e8." % what,
            d, sizes[:14], sizes[14:])


def read_rows_tsv(path):
    with open(path) as f:
        return [l.split("\t") for l in f.read().splitlines() if l.strip()]


BUILDERS = [build_e3sm_fcase, build_e3sm_nh, build_e3sm_rs, build_dd, build_am, build_dg, build_pt, build_lc, build_lcr]


if __name__ == "__main__":
    CORPUS.main(BUILDERS)
