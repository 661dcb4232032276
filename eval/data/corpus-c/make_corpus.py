#!/usr/bin/env python3
"""corpus-c (17 cases from 6 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src, upto  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-c")
rp, one, two = CORPUS.rp, CORPUS.one, CORPUS.two


# ---------------------------------------------------------------------------------------------
# tanjaderin/HPC: FHPC course (Trieste) 2024/25 on ORFEO EPYC nodes: osu_reduce / osu_bcast over ranks x size,
# Mandelbrot strong scaling over OpenMP threads and MPI ranks
TD = "tanjaderin/HPC", "150d6e09c26647f3c6eb3bd0c79db273d75c9b38"


def build_td():
    for name, path, coll, alg, alg_name, script_note in [
            ("td-epyc-reduce-alg4-core-pn", "EX1/results/reduce_algo4_all.csv", "osu_reduce", 4, "binary",
             "the repository's job script EX1/jobs/reduce_algo4_all.sh writes this file"),
            ("td-epyc-bcast-alg2-core-pn", "EX1/results/bcast_algo2_all.csv", "osu_bcast", 2, "chain",
             "the repository's job script EX1/jobs/bcast_algo2_all.sh writes this file"),
            ("td-epyc-bcast-alg3-core-pn", "EX1/results/bcast_algo3.csv", "osu_bcast", 3, "pipeline",
             "the job script EX1/jobs/bcast_algo3.sh at this commit sweeps only 2 B over every even p, so it was edited "
             "after this file was written; the file's own columns are used")]:
        d = defaultdict(list)
        for r in read_dicts(rp(TD[0], path)):
            assert int(r["Algorithm"]) == alg
            d[(int(r["Processes"]), int(r["Size"]))].append(float(r["Latency(us)"]))
        ntrain = sorted({n for (_, n) in d if n <= 8192})
        jump = ("The file shows a jump of up to about 10x between 8 and 16 KiB at small p (a protocol or segment switch), "
                "outside the training box; the test sizes 16 and 64 KiB lie past it." if coll == "osu_bcast" else
                "There is no jump between 8 and 16 KiB here; the time steps up between 128 and 256 KiB (outside the "
                "test) and at p=4, 1 MiB reads 900 us against 99 us at 512 KiB (not used).")
        one_note = ("%s average latency [us] over p = MPI ranks x n = message size [bytes]: OSU 7.4, Open MPI 4.1.6, "
                    "coll_tuned_%s_algorithm=%d (%s in Open MPI 4.1's numbering), --map-by core, -x 100 -i 1000, on 2 "
                    "ORFEO EPYC nodes (2x 64-core AMD EPYC 7H12 each; p=128 fills both sockets of the first node, p=256 "
                    "spans both nodes) (%s). One run per point (OSU's average over its 1000 iterations). p = 2,4,...,256 "
                    "and n = 2 B ... 1 MiB in powers of 2. Train p in {2,4,8,16} x n<=8 KiB, test p=32,64,128 x n=1 KiB, "
                    "16 KiB, 64 KiB (p=256 and n>64 KiB not used). %s"
                    % (coll, coll.split("_")[1], alg, alg_name, script_note, jump))
        two(name, src(TD[0], TD[1], path), "us", one_note, d, [2, 4, 8, 16], ntrain, [32, 64, 128], [1024, 16384, 65536])
    path = "EX2/results/omp_strong_scaling.csv"
    d = defaultdict(list)
    for r in read_dicts(rp(TD[0], path)):
        assert r["width"] == r["height"] == "5000"
        d[int(r["threads"])].append(float(r["compute_time"]))
    one("td-epyc-mandelbrot-omp-strong-p", src(TD[0], TD[1], path), "p", "s",
        "Mandelbrot set (OpenMP), 5000x5000 image, strong scaling: compute_time [s] (io_time and total_time not used) "
        "over p = OpenMP threads on one ORFEO EPYC node (2x 64-core AMD EPYC 7H12; the job script sets OMP_PLACES=cores, "
        "OMP_PROC_BIND=close). One run per p. The source file has every p from 2 to 128 (it starts at 2, not 1); raw/ "
        "holds the lines used (CUT). Train p=2..16, test p=32,64,128.",
        d, upto(d, hi=16), [32, 64, 128])
    path = "EX2/results/mpi_strong_scaling.csv"
    d = defaultdict(list)
    for r in read_dicts(rp(TD[0], path)):
        assert r["Size"] == "10000"
        d[int(r["MPI_Processes"])].append(float(r["ComputeTime"]))
    one("td-epyc-mandelbrot-mpi-strong-p", src(TD[0], TD[1], path), "p", "s",
        "Mandelbrot set (MPI), Size 10000, strong scaling: ComputeTime [s] (TotalTime, which adds a noisy I/O part, "
        "not used) over p = MPI ranks 1..256 on ORFEO EPYC nodes (the file names neither the nodes nor the mapping). "
        "One run per p. Irregular at small p: 3, 5 and 7 ranks are slower than 2, 4 and 6 (load imbalance of an odd "
        "split, as measured). The source file has every p from 1 to 256; raw/ holds the lines used (CUT). "
        "Train p=1..16, test p=32,64,128.",
        d, upto(d, hi=16), [32, 64, 128])


# ---------------------------------------------------------------------------------------------
# g-lago8/SPM-project: matrix wavefront with FastFlow (SPM course, University of Pisa)
GL = "g-lago8/SPM-project"


def build_gl():
    commit, path = "175a9c1cef8d43ca6ebbc5de334da3dead1885e2", "results/strong_scaling_results2.txt"
    d = defaultdict(list)
    with open(rp(GL, path)) as f:
        for line in f.read().split("\n"):
            if line.strip():
                t, w, n = line.split()
                assert n == "2048"
                d[int(w)].append(float(t))
    one("gl-ff-wavefront-strong-2048-p", src(GL, commit, path), "p", "s",
        "Matrix wavefront (each superdiagonal element is a dot product of its row and column; README), FastFlow "
        "parallel version, N = 2048, strong scaling: time [s] over p = FastFlow workers 1..16. 10 repetitions per p, "
        "each its own row. The machine is not named (a cluster node of the Pisa SPM course). Train p=1,2,4,8, "
        "test p=12,16.",
        d, [1, 2, 4, 8], [12, 16])
    commit, path = "6aa111cd02945a8a3b31027887c5ef0474e7b438", "results/strong_scaling_results2_grouped_4096.txt"
    d = defaultdict(list)
    for r in read_dat(rp(GL, path)):
        assert float(r["N"]) == 4096
        d[int(r["nworkers"])].append(float(r["time"]))
    one("gl-ff-wavefront-strong-4096-p", src(GL, commit, path), "p", "s",
        "Matrix wavefront, FastFlow parallel version, N = 4096, strong scaling: time [s] over p = workers 1..20. "
        "Each value is the mean over the repetitions as published (the file's 'grouped' means; the raw repetitions "
        "are not used), so one row per p. The machine is not named. 16 and 20 workers take about the same time (1.87 and 1.90 s). "
        "Train p=1,2,4,8, test p=12,16,20.",
        d, [1, 2, 4, 8], [12, 16, 20])
    commit, path = "6aa111cd02945a8a3b31027887c5ef0474e7b438", "results/weak_scaling_par.txt"
    d, sizes = defaultdict(list), {}
    with open(rp(GL, path)) as f:
        for line in f.read().split("\n"):
            if line.strip():
                c = line.split()
                d[int(c[1])].append(float(c[0]))
                sizes[int(c[1])] = int(c[3])
    one("gl-ff-wavefront-weak-p", src(GL, commit, path), "p", "s",
        "Matrix wavefront, FastFlow parallel version, weak scaling: time [s] over p = workers 2..20 with matrix order "
        "N = 1024 * cbrt(p) (README; the file's 4th column: %s), so the O(N^3) work per worker stays constant. "
        "10 repetitions per p. Columns 3 and 5 (8 and 0 on every line) are not explained in the repository. The time "
        "is not flat: it rises from 0.16 s to 0.68 s, faster beyond 8 workers. The machine is not named. "
        "Train p=2..10, test p=12,16,20."
        % ", ".join("%d at p=%d" % (sizes[p], p) for p in sorted(sizes)),
        d, upto(d, hi=10), [12, 16, 20])


def read_dat(path):
    """whitespace-separated table with a header line; blank lines skipped"""
    with open(path) as f:
        lines = [l.split() for l in f.read().splitlines() if l.strip()]
    return [dict(zip(lines[0], r)) for r in lines[1:]]


# ---------------------------------------------------------------------------------------------
# erikalena/hpc_assignment2: parallel kd-tree build (FHPC course, Trieste), MPI ranks x OpenMP threads
ERK = "erikalena/hpc_assignment2", "369fe1e9518aa30665d47956d92826764afdf25d", "results/strong_scaling.csv"


def build_erk():
    d = defaultdict(list)
    for r in read_dicts(rp(ERK[0], ERK[2])):
        assert r["problem_size"] == "10000000"
        d[(int(r["n_procs"]), int(r["n_threads"]))].append(float(r["time_taken"]))
    two("erk-kdtree-hybrid-strong-pn", src(*ERK), "s",
        "Parallel kd-tree construction (MPI + OpenMP, FHPC course assignment 2), 1e7 points, strong scaling: time_taken [s] "
        "over p = MPI ranks (1,2,4,8,16) x n = OpenMP threads per rank (1,3,...,23); n is a second parallel dimension, "
        "not a problem size. One run per point. The repository's PBS script (kdtree_strong_cpu.sh, a later version "
        "that writes another file) asks for 1 node with 24 cores of the ORFEO 'dssc' queue, --map-by core, "
        "OMP_PLACES=sockets: most points run more threads than cores (p*n up to 368 on 24 cores), so the data are "
        "oversubscribed as measured. Regime change: at p=8 and 16 the time drops sharply from 11 to 13 threads "
        "(1.19 -> 0.74 s, 2.25 -> 1.06 s). Train p in {1,2,4,8} x n in {1,3,5,7,9,11}; test p=8,16 x n=11,15,19,23 "
        "minus the box, so three points (p=8) extrapolate in n only and one (p=16, n=11) in p only.",
        d, [1, 2, 4, 8], [1, 3, 5, 7, 9, 11], [8, 16], [11, 15, 19, 23])


# ---------------------------------------------------------------------------------------------
# Hemanth-G48/hpc-project: OpenMP kernels over threads, 5 repetitions
HG = "Hemanth-G48/hpc-project", "eb7447cb05e50fa65e1808c48179c4225d015545", "results/timings.csv"


def build_hg():
    rows = read_dicts(rp(HG[0], HG[2]))
    for kernel, param, what in [
            ("matmul", "n=2048", "dense matrix multiplication, n = 2048"),
            ("heat2d", "n=2048;iters=400", "2-D heat-equation stencil, 2048^2 grid, 400 iterations"),
            ("kmeans", "np=1000000;k=16;d=2", "k-means, 1e6 points, k = 16, 2 dimensions")]:
        d = defaultdict(list)
        for r in rows:
            if r["kernel"] == kernel and r["impl"] == "omp":
                assert r["param"] == param
                d[int(r["threads"])].append(float(r["seconds"]))
        one("hg-omp-%s-strong-p" % kernel, src(*HG), "p", "s",
            "OpenMP %s (the file's param: %s), strong scaling: seconds over p = OpenMP threads 1,2,4,8,12,16. "
            "5 repetitions per p, each its own row. The machine is not named in the repository's results. "
            "The source file holds 7 kernels, sequential and OpenMP; raw/ keeps the OpenMP lines of matmul, heat2d and "
            "kmeans (CUT). %sTrain p=1,2,4,8, test p=12,16."
            % (what, param, "The time stops falling at 4 threads (memory-bound), as measured. " if kernel == "heat2d" else ""),
            d, [1, 2, 4, 8], [12, 16])


# ---------------------------------------------------------------------------------------------
# KunkelAlexander/hybrid-scheme-for-fdm-plots: paper artifact (hybrid wave/fluid scheme for fuzzy dark matter in GAMER)
KA = "KunkelAlexander/hybrid-scheme-for-fdm-plots", "cc5a6b441a005ffe84c7a5b71cafb52476f363cc", "results/scaling.csv"


def build_ka():
    d = defaultdict(list)
    for r in read_dicts(rp(KA[0], KA[2])):
        if r["Scheme"] == "VortexPairLinear_Hybrid":
            assert r["NCell"] == "307000000.0"
            d[int(r["Rank"])].append(float(r["ElapsedTime"]))
    one("ka-gamer-fdm-hybrid-strong-p", src(*KA), "p", "s",
        "Paper artifact of the hybrid wave/fluid scheme for fuzzy dark matter (GAMER code), test VortexPairLinear_Hybrid, "
        "strong scaling with 3.07e8 cells: ElapsedTime per root-level step over p = the file's Rank column (MPI ranks: "
        "1..8 and 16). Each logged step is its own row (2 to 7 steps per p; the steps differ slightly in the cells "
        "updated). The unit is not written (GAMER's performance log; seconds assumed) and the machine is not named. "
        "The source file (83 KB) goes on with the pure-wave scheme; raw/ keeps the header and the first 39 lines, the hybrid runs (CUT). "
        "Train p=1..8, test p=16.",
        d, upto(d, hi=8), [16])


ERK2 = [("erk-kdtree-hybrid-cpu-new-pn", "07f53e80ea72ba1a138738e9ccaf834ba9a4def2", "results/strong_scaling_cpu_new.csv",
         "a later run, written by the repository's kdtree_strong_cpu.sh (1 node x 24 cores of the ORFEO 'dssc' PBS queue, "
         "Open MPI 4.1.1, --map-by core, OMP_PLACES=sockets, OMP_PROC_BIND=true); threads 1..24. The time grows again "
         "with threads at p=8 and 16 up to 12 threads and drops at 13 (0.79 -> 0.58 s, 1.00 -> 0.61 s)"),
        ("erk-kdtree-hybrid-gpunode-pn", "08f6afb4ee8c5f692b75345f4a32f53cedee5474", "results/strong_scaling_gpu_mpi.csv",
         "the file name says the runs were on a GPU node (the code runs on the CPU; the node type is not described in "
         "the file); threads 1..30. The MPI part (mpi_time, not used) grows with p: 0.22 s at p=2, 3.5 s at p=16, so "
         "the total time grows with p beyond 2 ranks")]


def build_erk2():
    for name, commit, path, what in ERK2:
        d = defaultdict(list)
        for r in read_dicts(rp(ERK[0], path)):
            assert r["problem_size"] == "10000000"
            d[(int(r["n_procs"]), int(r["n_threads"]))].append(float(r["time_taken"]))
        two(name, src(ERK[0], commit, path), "s",
            "Parallel kd-tree construction (MPI + OpenMP, FHPC course assignment 2), 1e7 points, strong scaling: "
            "time_taken [s] over p = MPI ranks (1,2,4,8,16) x n = OpenMP threads per rank; n is a second parallel "
            "dimension, not a problem size. One run per point. This file is %s. Most points run more threads than "
            "cores (oversubscribed, as measured). Train p in {1,2,4,8} x n in {1,...,6}; test p=8,16 x n=6,12,24 minus "
            "the box." % what,
            d, [1, 2, 4, 8], [1, 2, 3, 4, 5, 6], [8, 16], [6, 12, 24])


# ---------------------------------------------------------------------------------------------
# hpc-cofc/generic-benchmarks: College of Charleston HPC cluster acceptance benchmarks, OSU point-to-point (2019)
CO = "hpc-cofc/generic-benchmarks", "1f3347242dafcbce0db42cef290cf54eef16567f"


def read_osu(path):
    d = defaultdict(list)
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                n, v = line.split()
                d[int(n)].append(float(v))
    return d


def build_co():
    base = "network/infiniband/osu-mpi-benchmarks/initial/"
    path = base + "latency/compute001.log"
    d = read_osu(rp(CO[0], path))
    d.pop(0)
    one("cofc-ib-osu-latency-n", src(CO[0], CO[1], path), "n", "us",
        "osu_latency (OSU 5.3.2, MVAPICH2 2.2) latency [us] over n = message size [bytes] between the login node "
        "'openhpc' and compute001 of the College of Charleston cluster over InfiniBand, 1 rank per node (the "
        "repository's ib-pt2pt.sh). One run (OSU's average over its iterations). Size 0 is not used (x must be "
        "positive). Train n = 1 B .. 16 KiB, test n = 32, 64, 128 KiB: the test lies past the eager/rendezvous "
        "switch region.",
        d, upto(d, lo=1, hi=16384), [32768, 65536, 131072])
    path = base + "bibw/compute001.log"
    d = read_osu(rp(CO[0], path))
    one("cofc-ib-osu-bibw-n", src(CO[0], CO[1], path), "n", "MB/s",
        "osu_bibw (OSU 5.3.2, MVAPICH2 2.2) bidirectional bandwidth [MB/s] (a rate: higher is better) over n = message "
        "size [bytes] between 'openhpc' and compute001 over InfiniBand, 1 rank per node. One run. Irregular as "
        "measured: 1 B reads 0.41 MB/s against 6.6 at 2 B, 8 KiB is below 4 KiB, and the rate jumps 3.5x from 8 to "
        "16 KiB. Train n = 1 B .. 8 KiB, test n = 16, 32, 64 KiB (past 64 KiB the rate falls again; not used).",
        d, upto(d, hi=8192), [16384, 32768, 65536])


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_td, build_gl, build_erk, build_erk2, build_hg, build_ka, build_co]


if __name__ == "__main__":
    CORPUS.main(BUILDERS)
