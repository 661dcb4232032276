#!/usr/bin/env python3
"""corpus-m (9 two-variable grids from 3 repositories): builds cases/*.json from the copies of the source files in
raw/, with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src, upto  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-m")
rp, two = CORPUS.rp, CORPUS.two

N_TEST = [1024, 16384, 65536]


# ---------------------------------------------------------------------------------------------
# ukri-excalibur/excalibur-tests: ReFrame benchmark baselines of UK HPC systems (ExCALIBUR); Intel MPI Benchmarks
# Uniband/Biband run once with -npmin 1, so one output file holds the whole grid p = 2, 4, 8, ... x n = 0 .. 4 MiB
EX = "ukri-excalibur/excalibur-tests"


def read_imb(path):
    """{(p, n): [Mbytes/sec]} from an IMB-MPI1 output: the '# #processes = p' blocks, rows '#bytes #repetitions
    Mbytes/sec Msg/sec'. Size 0 (0.00 Mbytes/sec) is skipped: the corpus takes positive values only."""
    d = defaultdict(list)
    p = None
    with open(path) as f:
        for line in f:
            s = line.split()
            if line.startswith("# #processes = "):
                p = int(s[3])
            elif p is not None and len(s) == 4 and s[0].isdigit():
                n, mbs = int(s[0]), float(s[2])
                if n > 0:
                    d[(p, n)].append(mbs)
            elif not s:
                p = None
    return d


EX_FILES = [
    # (name, system dir, bench, commit of .out, commit of .sh, test p, machine text, odd)
    ("ex-alaska-impi-uniband-pn", "alaska/ib-gcc9-impi-verbs", "Uniband",
     "44d97246f33d00ac4795594a7c993e37d8945de7", "44d97246f33d00ac4795594a7c993e37d8945de7", [32, 64],
     "on the system the repository calls 'alaska' (node CPU not named in the files read), with Intel MPI 2019.7 over InfiniBand verbs, gcc 9.3, "
     "IMB 2019 Update 5 (job script: --ntasks=64 --ntasks-per-node=32, so 2 nodes; mpirun -np 64 IMB-MPI1 uniband "
     "-npmin 1). With -npmin 1 IMB runs p = 2, 4, ..., 64 in one job, the other ranks waiting in MPI_Barrier; "
     "ranks are placed in blocks of 32 per node, so p <= 32 stays on the first node and only p = 64 crosses the "
     "network (IMB pairs rank i with rank i + p/2). ",
     "The aggregate bandwidth grows about 2x per doubling of p up to p = 16 (9303 Mbytes/s at 512 B, p=16), "
     "then falls: at p = 32 it is 8432 at 512 B and 17000-20000 from 2 KiB on, at p = 64 about 12000 from 2 KiB "
     "on, below p = 16's values, so the test points lie past a regime change in p. Within every p the growth "
     "stalls between 256 and 512 B (1100.66 -> 1184.64 at p=2, where it doubled per step before), a protocol step."),
    ("ex-alaska-impi-biband-pn", "alaska/ib-gcc9-impi-verbs", "Biband",
     "546c19c245d71115dc0527fa6c1f90bccab32dea", "44d97246f33d00ac4795594a7c993e37d8945de7", [32, 64],
     "on the system the repository calls 'alaska' (node CPU not named in the files read), with Intel MPI 2019.7 over InfiniBand verbs, gcc 9.3, "
     "IMB 2019 Update 5 (job script: --ntasks=64 --ntasks-per-node=32, 2 nodes; mpirun -np 64 IMB-MPI1 biband "
     "-npmin 1). With -npmin 1 IMB runs p = 2, 4, ..., 64 in one job; p <= 32 stays on the first node, only p = 64 "
     "crosses the network. ",
     "At p = 64 the small-message values are erratic (2.45 Mbytes/s at 1 B against 65.68 at p = 32; 131.11 at 8 B, "
     "77.04 at 16 B, 233.72 at 128 B, then 7399.82 at 256 B). At 64 KiB p = 32 (31619) is below p = 16 (62093), "
     "and p = 16 itself falls from 76044 at 16 KiB to 28990 at 128 KiB: the test points lie past a regime change "
     "in p."),
    ("ex-csd3-cclake-ompi-uniband-pn", "csd3/cclake-ib-gcc9-ompi3-ucx", "Uniband",
     "7cb06bc5a0946a51729b6000baf331fd5067dad2", "bb370176f4723f20187f88d0c6cd80401e119f82", [32, 64, 112],
     "on CSD3 (Cambridge) Cascade Lake nodes, partition cclake, with Open MPI 3.1.6 over UCX (mlx5_0), gcc 9.1, "
     "IMB 2019 Update 6 (job script: --ntasks=112 --ntasks-per-node=56, 2 nodes; srun IMB-MPI1 uniband -npmin 1), "
     "so p = 2, 4, ..., 64 and 112 run in one job; p <= 32 stays on the first node, p = 64 puts 8 ranks on the "
     "second, p = 112 fills both. ",
     "Between 8 and 16 KiB the bandwidth collapses for p >= 8 (p=16: 65358 -> 21047 Mbytes/s; p=32: 127529 -> "
     "20745), eases at p = 4 (17606 -> 16786) and rises at p = 2 (2748 -> 7599): the 16 and 64 KiB test points lie "
     "past a protocol switch that the box (up to 8 KiB) never shows. At 128 B the growth stalls at every p and "
     "dips at p = 2 (482.54 at 64 B, 336.61 at 128 B). p = 112 is below "
     "p = 32 and 64 at every size (e.g. 9388 against 50119 and 43328 at 1 KiB)."),
    ("ex-csd3-cclake-ompi-biband-pn", "csd3/cclake-ib-gcc9-ompi3-ucx", "Biband",
     "bb370176f4723f20187f88d0c6cd80401e119f82", "bb370176f4723f20187f88d0c6cd80401e119f82", [32, 64, 112],
     "on CSD3 (Cambridge) Cascade Lake nodes, partition cclake, with Open MPI 3.1.6 over UCX (mlx5_0), gcc 9.1, "
     "IMB 2019 Update 6 (job script: --ntasks=112 --ntasks-per-node=56, 2 nodes; srun IMB-MPI1 biband -npmin 1), "
     "so p = 2, 4, ..., 64 and 112 run in one job; p <= 32 stays on the first node, p = 64 puts 8 ranks on the "
     "second, p = 112 fills both. ",
     "Between 8 and 16 KiB the bandwidth collapses for p >= 8 (p=32: 168027 -> 20183 Mbytes/s), eases at p = 4 "
     "(21236 -> 19930) and jumps at p = 2 (3325 -> 10680): the 16 and 64 KiB test points lie past a protocol "
     "switch the box never shows. At 128 B the growth stalls at every p and dips at p = 2 (522.30 at 64 B, 368.72 "
     "at 128 B)."),
]


def build_ex():
    for name, sysdir, bench, c_out, c_sh, ptest, machine, odd in EX_FILES:
        out = "output/%s/imb/IMB_%s_1_0/rfm_IMB_%s_1_0_job.out" % (sysdir, bench, bench)
        sh = out[:-4] + ".sh"
        d = read_imb(rp(EX, out))
        two(name, src(EX, c_out, out) + " ; job script %s @%s %s" % (EX, c_sh, sh), "Mbytes/sec",
            "Intel MPI Benchmarks %s: aggregate bandwidth [Mbytes/sec as IMB prints it, higher is better] over "
            "p = MPI processes taking part x n = message size [bytes], " % bench + machine
            + "One run per point (IMB's figure over its repetitions, 1000 up to 32 KiB). Size 0 is left out (0.00 "
            "Mbytes/sec). The values are a bandwidth, not a time: they grow with n and saturate. Train p in "
            "{2,4,8,16} x n = 1 B .. 8 KiB (14 sizes); test p = %s x n = 1 KiB, 16 KiB, 64 KiB (the points at 1 KiB "
            "extrapolate in p only). " % ", ".join(str(p) for p in ptest) + odd,
            d, [2, 4, 8, 16], upto({n for (_, n) in d}, hi=8192), ptest, N_TEST)


# ---------------------------------------------------------------------------------------------
# anhkiet287/matrix-mult-parallel: a parallel-computing course project (matrix multiply: naive, Strassen,
# 'proposed'); results/cluster_*_results.csv, rows of machine_id MPI-node16 (the course cluster; raw/ keeps those)
AK = "anhkiet287/matrix-mult-parallel", "25010f6edc90f34c1b12a60c62a7c7de5bb26fec"
AK_GEN = ("on the node the files call 'MPI-node16' (the course cluster; the repository's README names the cluster "
          "gateway.hpcc.vn, the node's CPU is not named in the files read). The source file also holds rows of the "
          "author's own machine ('kiet'); raw/ keeps the header and the MPI-node16 rows, the file's tail, in its "
          "order (CUT). One row per point. The thread or process counts are only 1, 2, 4, 8, so the box uses all "
          "four and the test points extrapolate in n only: train p in {1,2,4,8} x n = 128, 256, 512, 1024; test "
          "p = 1, 2, 4, 8 at n = 2048 (2x past the box). ")


def build_ak():
    path = "results/cluster_openmp_results.csv"
    rows = [r for r in read_dicts(rp(AK[0], path)) if r["machine_id"] == "MPI-node16" and r["approach"] == "openmp"]
    for algo, odd in [
            ("naive", "The time jumps 66x from n = 512 to 1024 at 1 thread (0.277 -> 18.36 s, 8x the flops), "
                      "then 7.6x to 2048 (139.5 s): a cache cliff inside the box. Thread scaling is near ideal "
                      "(1024: 18.36, 9.37, 4.92, 2.58 s)."),
            ("strassen", "At n = 128 more threads do not help (1.71, 1.86, 1.93, 1.99 ms for 1..8 threads); from "
                         "n = 256 on they do (1024: 0.686, 0.370, 0.208, 0.121 s). The README at commit 11d259c "
                         "still called Strassen a stub that calls naive; these later timings are 27x faster than "
                         "naive at n = 1024, so it was implemented by then."),
            ("proposed", "At n = 128, 8 threads are no faster than 4 (0.565 vs 0.587 ms); from n = 256 the scaling "
                         "is near ideal. Growth per doubling of n is 8.3x, 8.6x, 8.4x, 7.7x at 1 thread.")]:
        d = defaultdict(list)
        for r in rows:
            if r["algo"] == algo:
                d[(int(r["nthreads"]), int(r["n"]))].append(float(r["time_sec"]))
        two("ak-omp-%s-tn" % algo, src(AK[0], AK[1], path), "s",
            "Matrix multiplication C = A B of n x n doubles, algorithm '%s' with OpenMP: the column time_sec [s] "
            "over p = OpenMP threads x n = matrix order, " % algo + AK_GEN
            + "time_sec is the file's headline time over 7 repetitions (the file also gives time_min, time_max, "
            "time_mean; the builder did not read the code to confirm which statistic time_sec is). " + odd,
            d, [1, 2, 4, 8], [128, 256, 512, 1024], [1, 2, 4, 8], [2048])
    path = "results/cluster_mpi_results.csv"
    d = defaultdict(list)
    for r in read_dicts(rp(AK[0], path)):
        if r["machine_id"] == "MPI-node16" and r["algo"] == "naive":
            d[(int(r["nprocs"]), int(r["n"]))].append(float(r["time_sec"]))
    two("ak-mpi-naive-pn", src(AK[0], AK[1], path), "s",
        "Matrix multiplication C = A B of n x n doubles, naive triple loop distributed with MPI (master-worker, "
        "MPI_Scatterv/MPI_Gatherv per the README): the column time_sec [s] over p = MPI processes x n = matrix "
        "order, " + AK_GEN + "repetitions = 1 in every row. The time jumps 68x from n = 512 to 1024 at p = 1 "
        "(0.266 -> 18.02 s) and 9.2x to 2048 (165.8 s); the p = 1 times are close to the OpenMP file's 1-thread "
        "naive times on the same node (1.99 vs 1.83 ms at n = 128, 18.0 vs 18.4 s at 1024, 165.8 vs 139.5 s at "
        "2048).",
        d, [1, 2, 4, 8], [128, 256, 512, 1024], [1, 2, 4, 8], [2048])


# ---------------------------------------------------------------------------------------------
# luispky/HPC_project: FHPC course (Trieste), exercise 1: osu_bcast on 2 ORFEO THIN nodes, p = 4..48 (steps of 4)
# x n = 1 B .. 1 MiB, algorithms 0, 1, 2, 5, the whole sweep repeated 10 times in one file; raw/ keeps algorithm 0
LK = "luispky/HPC_project", "1ef2f36b0004496cd6fe10bc8dbda43ab40a69b0", "exercise1/results/bcastTHIN.csv"


def build_lk():
    d = defaultdict(list)
    for r in read_dicts(rp(LK[0], LK[2])):
        assert r["Algorithm"] == "0"
        d[(int(r["Processors"]), int(r["Size(bytes)"]))].append(float(r["Avg_Latency(us)"]))
    for k, v in d.items():
        assert len(v) == 10, (k, len(v))
    two("lk-thin-bcast-default-pn", src(*LK), "us",
        "osu_bcast average latency [us] over p = MPI ranks x n = message size [bytes], Open MPI's default bcast "
        "decision (rows with Algorithm = 0, 'ignore: baseline' in the author's script), on 2 ORFEO THIN nodes (FHPC "
        "course, Trieste; 2x 12-core Intel Xeon Gold 6126 per node, so p > 24 spans both nodes). The repository's "
        "exercise1/scripts/bcast_latencies.sh (same commit, kept in raw/) is the EPYC variant of the job that wrote "
        "these files: Open MPI 4.1.5, OSU 7.3, --map-by core, coll_tuned_use_dynamic_rules true, -i 1e4 -x 1e4, "
        "algorithms 0, 1, 2, 5, and the whole sweep repeated 10 times (iterations=10), appending to one CSV; its "
        "commented-out list 4..48 in steps of 4 is the p of this THIN file. The file holds 10 consecutive blocks "
        "in the same order, read here as those 10 runs: every run is its own training row (10 per point) and a "
        "test point's value is the median of its 10 runs. raw/ keeps the header and the algorithm-0 lines at "
        "p = 4, 8, 12, 16 (n = 1 B .. 8 KiB) and p = 24, 32, 48 (n = 1 KiB, 16 KiB, 64 KiB) in the file's order "
        "(CUT; 650 of the file's ~10,080 data lines). Train p in {4,8,12,16} x n = 1 B .. 8 KiB (14 sizes); test "
        "p = 24, 32, 48 x n = 1 KiB, 16 KiB, 64 KiB (the points at 1 KiB extrapolate in p only). The runs scatter "
        "widely: at p = 12 the 1 B latency is 30-34 us in every run against 0.7-8.8 us at p = 8 and 16, and the "
        "whole p = 12 sweep of runs 2 and 6 is 2-3x the other runs (66.05 and 69.74 us at 1 B, 24.59 and 21.48 us "
        "at 128 B against ~9.8); the p = 8 sweep of run 7 and the p = 16 sweep of run 9 are ~1.3-2x the others "
        "(15.37 against ~7.7 us at 128 B; 55.99 against ~37 us at 8 KiB); p = 4 reads 47.28 us at 1 B in run 4 "
        "against 1-4 us otherwise. Between 8 and 16 KiB "
        "the latency drops at every p (p=16: ~37 -> ~20 us), a protocol switch just outside the box, so the 16 "
        "and 64 KiB test points lie past it.",
        d, [4, 8, 12, 16], upto({n for (_, n) in d}, hi=8192), [24, 32, 48], N_TEST)


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_ex, build_ak, build_lk]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=2, max_per_repo=4)
