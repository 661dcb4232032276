#!/usr/bin/env python3
"""corpus-h (23 one-variable cases from 7 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, read_rows, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-h")
rp, one = CORPUS.rp, CORPUS.one


def csv_xy(path, xcol, ycol):
    """{x: [y]} from a CSV with a header line"""
    d = {}
    for r in read_dicts(path):
        d[int(r[xcol])] = [float(r[ycol])]
    return d


# ---------------------------------------------------------------------------------------------
# Assane134/Project_HPC: a 1-D dam-break shallow-water solver (Rusanov flux), sequential, OpenMP and MPI versions
AS = "Assane134/Project_HPC", "151c4f31997076cd169365d50887470d21ae6a37"
AS_MACHINE = ("on a Slurm cluster whose account is of UM6P (the repository's bench_mpi.sh and bench_openmp.sh: "
              "one node, 32 cores requested; the cluster is not named). One run per point; the time is the program's "
              "'Total runtime' line, as the bench scripts extract it. ")


def build_as():
    one("as-dambreak-mpi-strong-p", src(*AS, "strong_scaling_mpi.csv"), "p", "s",
        "1-D dam-break problem, shallow-water equations with a Rusanov finite-volume scheme, MPI version "
        "(dam_break_rusanov_mpi.c), fixed problem: 'time' [s] over p = MPI ranks (mpirun -np p) 1..32, strong scaling, "
        + AS_MACHINE + "Anomaly kept as measured: p = 2 is slower than p = 1 (214.2 s against 180.8 s); from p = 2 on "
        "the time about halves per doubling. Train p=1,2,4,8,16, test p=24, 32.",
        csv_xy(rp(AS[0], "strong_scaling_mpi.csv"), "procs", "time"), [1, 2, 4, 8, 16], [24, 32])
    one("as-dambreak-omp-strong-p", src(*AS, "openmp_timings.csv"), "p", "s",
        "The same 1-D dam-break solver, fixed problem: 'time' [s] over p = OpenMP threads 1..32, strong scaling; p = 1 "
        "is the sequential program (dam_break_rusanov.c), p >= 2 the OpenMP one with OMP_NUM_THREADS=p (bench_openmp.sh), "
        + AS_MACHINE + "The time halves per doubling up to 16 threads and flattens at the test points "
        "(10.35 s at 24, 10.59 s at 32), as measured. Train p=1,2,4,8,16, test p=24, 32.",
        csv_xy(rp(AS[0], "openmp_timings.csv"), "threads", "time"), [1, 2, 4, 8, 16], [24, 32])
    d = {}
    for r in read_dicts(rp(AS[0], "weak_scaling_mpi.csv")):
        assert int(r["NX"]) == 50000 * int(r["procs"]) + 1
        d[int(r["procs"])] = [float(r["time"])]
    one("as-dambreak-mpi-weak-p", src(*AS, "weak_scaling_mpi.csv"), "p", "s",
        "The same 1-D dam-break solver, MPI version, 'weak scaling' as the authors call it: 'time' [s] over p = MPI "
        "ranks 1..24 with NX = 50000 p + 1 cells (50000 per rank), " + AS_MACHINE + "The time is not flat: it about "
        "doubles per doubling of p from p = 2 on (214 s at 2, 1744 s at 16), presumably because the number of time steps "
        "grows with NX at a fixed CFL number (not checked in the code); p = 1 (45.3 s) is 4.7x below p = 2, an anomaly kept "
        "as measured. Train p=1,2,4,8, test p=16, 24.",
        d, [1, 2, 4, 8], [16, 24])


# ---------------------------------------------------------------------------------------------
# Ibrahimaa19/Karman_vortex_street_Optimisation: a lattice-Boltzmann (LBM) Karman vortex street code with MPI
IB = "Ibrahimaa19/Karman_vortex_street_Optimisation", "4290256f3d9bcd14af16d8d8917e4653fa8b23f9"
IB_COMMON = ("mpirun -np p --bind-to core with OMP_NUM_THREADS=1 on the input config_test.txt (the repository's "
             "strong_scaling.sh): 'Time(s)' = the shell's 'real' time of the whole run (start-up included) over p = MPI ranks "
             "1..12. One run per p; the machine is not named (the repository's perf reports date from April 2026). The "
             "script loops to 16 ranks, the CSV holds rows up to 12. The FOM column is not used. ")


def build_ib():
    one("ib-lbm-karman-mpi-strong-p", src(*IB, "strong_scaling.csv"), "p", "s",
        "Lattice-Boltzmann simulation of a Karman vortex street, the optimized version of a course project, strong "
        "scaling: " + IB_COMMON + "A short run (2.46 s on one rank). Train p=1,2,4,6,8, test p=10, 12.",
        csv_xy(rp(IB[0], "strong_scaling.csv"), "MPI", "Time(s)"), [1, 2, 4, 6, 8], [10, 12])
    one("ib-lbm-karman-basic-mpi-p", src(*IB, "strong_scaling_basic.csv"), "p", "s",
        "The same lattice-Boltzmann Karman vortex street code in its basic (not optimized) version, run the same way: "
        + IB_COMMON + "The time does not fall with p: it stays at 142.7-146.8 s from 1 to 12 ranks (the basic version "
        "apparently does not divide the work, or is bound by something the ranks share), as measured. Train "
        "p=1,2,4,6,8, test p=10, 12.",
        csv_xy(rp(IB[0], "strong_scaling_basic.csv"), "MPI", "Time(s)"), [1, 2, 4, 6, 8], [10, 12])


# ---------------------------------------------------------------------------------------------
# RuasGAR/COC472-OpenMP: an OpenMP Jacobi solver (course COC472), thread sweeps at several matrix orders
RU = "RuasGAR/COC472-OpenMP", "1aa860ed7ef934904f6ee57eedfdd2a3161d809b"
RU_COMMON = ("OpenMP Jacobi iteration for a dense, diagonally dominant N x N system (jacobi_omp_*_scaling.c: until the "
             "update norm < 1e-4 or 20000 iterations), 'Time -- elapsed' [s, omp_get_wtime] of the whole run, which includes "
             "filling the matrix with rand() inside a parallel loop and a serial O(N^2) residual check. One run per point; "
             "the machine is not named. ")


def ru_blocks():
    """{N: {threads: [time]}} from weak_scaling.txt (blocks of 'N_Dimension', 'N_Threads', 'Time -- elapsed' lines)"""
    d = defaultdict(dict)
    n = t = None
    with open(rp(RU[0], "weak_scaling.txt")) as f:
        for line in f.read().splitlines():
            if line.startswith("N_Dimension:"):
                n = int(line.split(":")[1])
            elif line.startswith("N_Threads:"):
                t = int(line.split(":")[1])
            elif line.startswith("Time -- elapsed:") and n:
                d[n][t] = [float(line.split(":")[1])]
    return d


def build_ru():
    d = {}
    t = None
    with open(rp(RU[0], "strong_scaling.txt")) as f:
        for line in f.read().splitlines():
            if line.startswith("N_Threads:"):
                t = int(line.split(":")[1])
            elif line.startswith("Time -- elapsed:"):
                d[t] = [float(line.split(":")[1])]
    one("ru-jacobi-omp-strong-p", src(*RU, "strong_scaling.txt"), "p", "s",
        RU_COMMON + "Here p = OpenMP threads 1..64 at a fixed N that the file does not record (the code's default is "
        "1000; the 1-thread time, 232 s, matches the N = 3000 sweep of weak_scaling.txt, 228 s, so probably N = 3000). "
        "The time falls to 4 threads (122.6 s) and then rises slowly (132.1 s at 64), as measured. Train p=1,2,4,8,16, "
        "test p=32, 64.",
        d, [1, 2, 4, 8, 16], [32, 64])
    b = ru_blocks()
    for n in (4000, 2000):
        one("ru-jacobi-omp-n%d-p" % n, src(*RU, "weak_scaling.txt"), "p", "s",
            RU_COMMON + "Here p = OpenMP threads 1..64 at N = %d, one block of the file weak_scaling.txt, which despite "
            "its name holds thread sweeps at N = 500, 1000, 2000, 3000, 4000 (and two blocks with N_Dimension 0, not "
            "used). The speed-up stops at about 2 from 4 threads on, as measured. Train p=1,2,4,8,16, test p=32, 64." % n,
            b[n], [1, 2, 4, 8, 16], [32, 64])
    one("ru-jacobi-omp-1t-n", src(*RU, "weak_scaling.txt"), "n", "s",
        RU_COMMON + "Here n = matrix order N = 500 .. 4000 at 1 thread (the 1-thread line of each block of "
        "weak_scaling.txt). The number of Jacobi iterations to convergence is not printed and may vary with N. Train "
        "n=500,1000,2000,3000, test n=4000.",
        {n: b[n][1] for n in (500, 1000, 2000, 3000, 4000)}, [500, 1000, 2000, 3000], [4000])


# ---------------------------------------------------------------------------------------------
# fywu85-archive/cs267-project: a Python/Numba flocking (boids) simulation, UC Berkeley CS 267 project, May 2019
FY = "fywu85-archive/cs267-project", "f552888bbd081ec19dff86c64f6389399b76ce3e", "strong_scaling.txt"


def build_fy():
    d = defaultdict(lambda: defaultdict(list))
    key = None
    with open(rp(FY[0], FY[2])) as f:
        for line in f.read().splitlines():
            c = line.split()
            if len(c) == 3 and c[2] == "2592":
                key = (c[0], int(c[1]))
            elif line.startswith("Total execution time:"):
                d[key[0]][key[1]].append(float(c[3]))
    common = ("Python flocking (boids) simulation with Numba, 2592 particles, a UC Berkeley CS 267 course project (the "
              "repository's test_scaling.sh runs p = 1, 4, 9, 18, 36, 72 'processors' per variant; log of 8 May 2019): "
              "'Total execution time' [s] of each of 5 trials per p, every trial a training row (the test value is their "
              "median). Trial 0 is systematically slower (by about 0.5-3 s: it includes the Numba JIT compilation and "
              "warm-up), kept as measured. The machine is not named. raw/ keeps the variant/p header lines and the "
              "'Total execution time' lines of the 4 variants used (CUT; Ray's start-up log lines, per-trial banners, "
              "averages and the predator_numba_parallel and predator_numba_joblib variants dropped). ")
    for var, name, what in [
            ("flock_numba_parallel", "fy-flock-numba-parallel-p",
             "Variant flock_numba_parallel (Numba parallel loops). The median falls from 25.5 s at 1 to 1.18 s at 36."),
            ("flock_numba_joblib", "fy-flock-numba-joblib-p",
             "Variant flock_numba_joblib (joblib workers). The time is least at p = 9 (about 4.6 s) and rises from there "
             "(7.7 s at 36; the test point 72 is about 15 s), as measured."),
            ("flock_numba_ray", "fy-flock-numba-ray-p",
             "Variant flock_numba_ray (Ray workers on one machine). The time is least at p = 18-36 (about 2.1-2.4 s) and "
             "rises at 72 (about 3.0 s), as measured."),
            ("predator_numba_ray", "fy-predator-numba-ray-p",
             "Variant predator_numba_ray (the flock with a predator, Ray workers). The time is least at p = 9 (about 0.61 s) "
             "and rises from 18 on (about 2.1 s at 72), as measured.")]:
        assert all(len(v) == 5 for v in d[var].values()) and sorted(d[var]) == [1, 4, 9, 18, 36, 72]
        one(name, src(*FY), "p", "s", common + what + " Train p=1,4,9,18,36, test p=72.",
            d[var], [1, 4, 9, 18, 36], [72])


# ---------------------------------------------------------------------------------------------
# federicobetti99/Conjugate-Gradient: an MPI conjugate-gradient solver, EPFL MATH-454 (Parallel and HPC) project
FB = "federicobetti99/Conjugate-Gradient"
FB_S = "009b6efcc10bb0bb75585049cb8b1eae6c6c2ae8", "results/strong_scaling.txt"
FB_W = "098bf4ca011afc7234daf92ba2309316d43446f3", "results/weak_scaling.txt"
FB_COMMON = ("MPI conjugate-gradient solver of the EPFL MATH-454 course project (README: 'Results for weak and strong "
             "scaling in MPI'; runs by srun with mvapich2 per code_MPI/cg.run, on an EPFL cluster that the files read do not "
             "name). The files have no header: the columns are read as matrix order N, MPI ranks p and time [s] (the run "
             "script's 'srun -n p ./cgsolver <matrix> N'; the unit is assumed to be seconds). One run per point. ")


def build_fb():
    d = defaultdict(dict)
    for r in read_rows(rp(FB, FB_S[1])):
        d[int(r[0])][int(r[1])] = [float(r[2])]
    for n, extra in [(8192, " The time halves per doubling up to 16 ranks, then flattens (1.04 s at 32, 1.11 s at 64)."),
                     (4096, " The time falls to 0.219 s at 32 ranks and rises at 64 (0.335 s)."),
                     (2048, " The time falls to 0.077 s at 32 ranks and rises at 64 (0.121 s).")]:
        one("fb-cg-mpi-strong-n%d-p" % n, src(FB, *FB_S), "p", "s",
            FB_COMMON + "Strong scaling at N = %d: time over p = 1..64 ranks.%s As measured. The N = 1024 sweep of the "
            "same file (no speed-up at all) is not used. Train p=1,2,4,8,16, test p=32, 64." % (n, extra),
            d[n], [1, 2, 4, 8, 16], [32, 64])
    w = {}
    for r in read_rows(rp(FB, FB_W[1])):
        w[int(r[1])] = [float(r[2])]
    one("fb-cg-mpi-weak-p", src(FB, *FB_W), "p", "s",
        FB_COMMON + "Weak scaling: time over p = 1..32 ranks with N = 1767, 2500, 3535, 5000, 7071, 10000 (N grows as "
        "sqrt(2) per doubling of p, so N^2/p, the dense matrix's share per rank, stays about constant). The time still "
        "grows, from 0.32 s at 1 to 1.40 s at 16 ranks, as measured. Train p=1,2,4,8,16, test p=32.",
        w, [1, 2, 4, 8, 16], [32])


# ---------------------------------------------------------------------------------------------
# Xhether/cs5220-project: distributed BFS (1-D and 2-D partitioning) with MPI, Cornell CS 5220 project
XH = "Xhether/cs5220-project"
XH_COMMON = ("Distributed breadth-first search with MPI, a Cornell CS 5220 course project: 'avg_total_time' [s] over "
             "p = MPI ranks (srun -n p inside one allocation; the cluster is not named in the files read), strong scaling "
             "on a fixed graph. Each value is the average of NUM_RUNS = 2 BFS runs from random sources of the graph's "
             "largest connected component (scripts/strong_scaling.sh at commit 43db37a2b5dc; its comment says 5), so it is not a single run but "
             "its spread is unknown. The comm/compute/TEPS columns are not used. ")


def xh(path):
    d = defaultdict(dict)
    for r in read_dicts(rp(XH, path)):
        d[r["algorithm"]][int(r["num_processes"])] = [float(r["avg_total_time"])]
    return d


def build_xh():
    c0 = "0b31b1b501dfffb41a692871b4527a68542fb339"
    clj = "1d152d53d2d6eae66c769b37b46321acacf1917e"
    a = xh("strong_scaling_results.csv")
    one("xh-bfs1d-unnamedgraph-p", src(XH, c0, "strong_scaling_results.csv"), "p", "s",
        XH_COMMON + "1-D partitioned BFS on the graph of strong_scaling_results.csv, which the file does not name (the "
        "repository also holds LiveJournal, roadNet-CA, ca-GrQc and generated graphs). The time is least at 64 ranks "
        "(0.220 s) and rises at 128 and 256, as measured. Train p=1..32, test p=64, 128, 256.",
        a["bfs1d"], [1, 2, 4, 8, 16, 32], [64, 128, 256])
    lj = xh("strong_scaling_results_liveJournal.csv")
    one("xh-bfs1d-livejournal-p", src(XH, clj, "strong_scaling_results_liveJournal.csv"), "p", "s",
        XH_COMMON + "1-D partitioned BFS on the LiveJournal graph (largest connected component). The time is least at 32 "
        "ranks (0.130 s) and rises to 0.646 s at 256, as communication takes over, as measured. Train p=1..32, test "
        "p=64, 128, 256.",
        lj["bfs1d"], [1, 2, 4, 8, 16, 32], [64, 128, 256])
    one("xh-bfs2d-livejournal-p", src(XH, clj, "strong_scaling_results_liveJournal.csv"), "p", "s",
        XH_COMMON + "2-D partitioned BFS on the LiveJournal graph, square rank counts p = 1, 4, 16, 64, 256. The time keeps "
        "falling to 256 ranks (0.077 s). Train p=1,4,16,64, test p=256.",
        lj["bfs2d"], [1, 4, 16, 64], [256])
    rn = xh("strong_scaling_results_roadnet.csv")
    one("xh-bfs1d-roadnet-p", src(XH, c0, "strong_scaling_results_roadnet.csv"), "p", "s",
        XH_COMMON + "1-D partitioned BFS on the roadNet-CA road graph (largest connected component; high diameter, many "
        "BFS levels). The time is least at 16 ranks (0.061 s) and rises from 32 on (0.116 s at 256), as measured. Train "
        "p=1..32, test p=64, 128, 256.",
        rn["bfs1d"], [1, 2, 4, 8, 16, 32], [64, 128, 256])


# ---------------------------------------------------------------------------------------------
# sithhell/nbody_demo: an N-body demo code at up to 655,360 MPI ranks (the repository's juqueen/ job scripts: JUQUEEN)
SH = "sithhell/nbody_demo"
SH_S = "d9284523a310ad1c4e5b0ade73ae3915e90c91d0", "strong_scaling.txt"
SH_W = "313abc493d9056e639740be758bf4db039031f5a", "weak_scaling.txt"
SH_COMMON = ("N-body demo code (sithhell/nbody_demo) at 2048 .. 655,360 ranks with 4 ranks per core (the file's cores "
             "column); the machine is inferred, not stated in the file: the repository's juqueen/ directory of job scripts "
             "points to JUQUEEN (IBM Blue Gene/Q, FZ Juelich). 'time' as hh:mm:ss.ffffff, converted to seconds "
             "(h*3600 + m*60 + s; the only computed value). One run per point. ")


def sh_rows(path):
    out = []
    for line in open(rp(SH, path)).read().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        c = [x.strip() for x in line.split(";")]
        h, m, s = c[6].split(":")
        out.append((int(c[0]), int(c[5]), int(h) * 3600 + int(m) * 60 + float(s)))
    return out


def build_sh():
    d = {r: [t] for r, steps, t in sh_rows(SH_S[1]) if steps == 198}
    one("sh-nbody-strong-ranks-p", src(SH, *SH_S), "p", "s",
        SH_COMMON + "Strong scaling: a 90 x 90 x 90 grid (dim_x, dim_y, dim_z), 198 time steps, time over p = MPI ranks. "
        "Only the runs with the full 198 steps are used (65,536 .. 655,360 ranks): the runs at 2048 .. 32,768 ranks did "
        "14 .. 194 steps in about 9 minutes each, apparently cut by a time limit, and are left out. The time falls from "
        "357.6 s at 65,536 to 78.9 s at 524,288 ranks; the test point, 655,360 ranks, is only 1.25x beyond. Train "
        "p=65536,131072,262144,524288, test p=655360.",
        d, [65536, 131072, 262144, 524288], [655360])
    w = {r: [t] for r, steps, t in sh_rows(SH_W[1])}
    one("sh-nbody-weak-ranks-p", src(SH, *SH_W), "p", "s",
        SH_COMMON + "Weak scaling: one time step on a cubic grid that grows with the ranks (dim = 190, 239, 302, 380, 479, "
        "604, 761, 959 per side, about 3,350 cells per rank), time over p = MPI ranks 2048 .. 262,144. The time "
        "stays at 330-378 s without a trend, as measured. Train p=2048..32768, test p=65536, 131072, 262144.",
        w, [2048, 4096, 8192, 16384, 32768], [65536, 131072, 262144])


BUILDERS = [build_as, build_ib, build_ru, build_fy, build_fb, build_xh, build_sh]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
