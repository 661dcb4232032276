#!/usr/bin/env python3
"""corpus-zg (32 one-variable cases of mixed kinds from 12 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]

The cut rules, one per kind, were fixed from each file's design (how many x values it has), not from the values
beyond the cut; README.md says so per group.
"""
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_rows, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-zg")
rp, one = CORPUS.rp, CORPUS.one


def two_col_csv(path):
    """{x: [y]} from a CSV with a one-line header and two numeric columns"""
    rows = read_rows(path)
    return {int(r[0]): [float(r[1])] for r in rows[1:]}


# ---------------------------------------------------------------------------------------------
# rkronberg/chem-benchmarks: application benchmarks (LAMMPS, Quantum ESPRESSO, ...) on the Finnish CSC systems
# LUMI and Mahti, one run per point as published in results/*/*.csv. Files with 5 points only (the 4-point files
# cannot give 4 training values and a test value). Rule: train the first 4 counts, test the 5th (2x beyond).
RK = "rkronberg/chem-benchmarks"
RK_FILES = {
    "lmp": ("88cee6ae648cda9abbc754bb4f792119e190bff7", "results/lammps/20250722-lj-lumi-cpu.csv"),
    "lmpgpu": ("cd7253728f83137113e4cd46941b056f3f6a0f69", "results/lammps/20250722-lj-lumi-gpu-kokkos.csv"),
    "qelumi": ("88cee6ae648cda9abbc754bb4f792119e190bff7", "results/qe/7.4.1-grir443-lumi-cpu-elpa.csv"),
    "qemahti": ("88cee6ae648cda9abbc754bb4f792119e190bff7", "results/qe/7.4.1-grir443-mahti-cpu-scalapack.csv"),
}
RK_COMMON = ("From rkronberg/chem-benchmarks, a CSC (Finland) collection of chemistry-application benchmarks; one "
             "published value per point (a single run or the author's pick; repetitions are not in the file). ")


def build_rk():
    c, p = RK_FILES["lmp"]
    one("rk-lammps-lj-lumi-cpu-p", src(RK, c, p), "p", "Gatom-step/s",
        RK_COMMON + "LAMMPS 22Jul2025, the LJ (Lennard-Jones) benchmark, on LUMI-C CPU nodes (2 x 64-core AMD EPYC "
        "per node, so 128 cores = 1 node): p = CPU cores = MPI ranks (1 thread per rank, per results/lammps/README.md), "
        "128..2048. y is a THROUGHPUT (higher is faster), 'Performance (Gatom-step/s)' as in the file; the README's "
        "column calls it ns/day, the CSV header says Gatom-step/s. The problem size is not stated in the files read "
        "(a weak- or strong-scaling setup is not said; the near-doubling per doubling of cores fits either). Dated "
        "2026-02-18 in the README. Train p=128,256,512,1024, test p=2048.",
        two_col_csv(rp(RK, p)), [128, 256, 512, 1024], [2048])
    c, p = RK_FILES["lmpgpu"]
    one("rk-lammps-lj-lumi-gpu-kokkos-p", src(RK, c, p), "p", "Gatom-step/s",
        RK_COMMON + "LAMMPS 22Jul2025 LJ benchmark with the Kokkos GPU package (Kokkos 4.6.2, ROCm 6.3.4) on LUMI-G: "
        "p = GPUs (GCDs of MI250X, 8 per node, so 16 = 2 nodes), 1..16, one MPI rank per GPU with 7 threads per rank "
        "(4 at 4 GPUs, per the README). y is a THROUGHPUT (Gatom-step/s, higher is faster). Problem size not stated. "
        "Dated 2026-02-19. Train p=1,2,4,8, test p=16 (the first point across two nodes).",
        two_col_csv(rp(RK, p)), [1, 2, 4, 8], [16])
    c, p = RK_FILES["qelumi"]
    one("rk-qe-grir443-lumi-elpa-p", src(RK, c, p), "p", "s",
        RK_COMMON + "Quantum ESPRESSO 7.4.1, the GRIR443 benchmark (a graphene/iridium surface, pw.x), ELPA "
        "eigensolver, on LUMI-C: 'Time to solution (s)' over p = CPU cores 128..2048 (1..16 nodes of 128 cores). "
        "Strong scaling (one input). How the cores split into ranks, threads and QE pools is not in the CSV. "
        "Train p=128,256,512,1024, test p=2048.",
        two_col_csv(rp(RK, p)), [128, 256, 512, 1024], [2048])
    c, p = RK_FILES["qemahti"]
    one("rk-qe-grir443-mahti-scalapack-p", src(RK, c, p), "p", "s",
        RK_COMMON + "Quantum ESPRESSO 7.4.1 GRIR443 with ScaLAPACK, on Mahti (CSC; 2 x 64-core AMD EPYC 7H12 per node): "
        "'Time to solution (s)' over p = CPU cores 128..2048 (1..16 nodes). Strong scaling. The values are within "
        "about 2 % of the LUMI ones at every core count (both are 128-core AMD EPYC nodes), so the two cases are "
        "close to duplicates in shape. Train p=128,256,512,1024, test p=2048.",
        two_col_csv(rp(RK, p)), [128, 256, 512, 1024], [2048])


# ---------------------------------------------------------------------------------------------
# hman1148/high-performanc-group-proj: a course group project (k-means on ~1.2 M Spotify tracks) run on a node
# "notch293" (presumably CHPC Utah's Notchpeak). The strong-scaling table of ScalingStudy.md: threads/ranks
# 1..32, doubling. Rule: train 1..16 (5 values), test 32.
HM = "hman1148/high-performanc-group-proj", "23d42973f5896603ff5bbfe0b5f59d4ac2b3220d", "ScalingStudy.md"


def hm_strong():
    """{column name: {p: [seconds]}} from the strong-scaling markdown table"""
    with open(rp(HM[0], HM[2])) as f:
        lines = f.read().splitlines()
    start = lines.index("### Strong Scaling Study (Fixed Problem Size)")
    out = defaultdict(dict)
    for line in lines[start:]:
        if line.startswith("### Weak"):
            break
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(c) >= 4 and c[0].isdigit():
            out["omp"][int(c[0])] = [float(c[2])]
            out["mpi"][int(c[0])] = [float(c[3])]
    return out


def build_hm():
    d = hm_strong()
    common = ("k-means clustering (k = 8, tolerance 1e-4, the full data set of about 1.2 million points, per "
              "ScalingStudy.md) of a university course group project, strong scaling, run on a node named notch293 "
              "(presumably the University of Utah CHPC Notchpeak cluster; CPU and core count not stated). One value "
              "per point; whether it is a single run is not stated. The serial code took 53.223 s. ")
    one("hm-kmeans-omp-strong-p", src(*HM), "p", "s",
        common + "Shared-memory (OpenMP) version: time [s] over p = OpenMP threads 1..32. Train p=1,2,4,8,16, test p=32.",
        d["omp"], [1, 2, 4, 8, 16], [32])
    one("hm-kmeans-mpi-strong-p", src(*HM), "p", "s",
        common + "Distributed-memory (MPI) version: time [s] over p = MPI ranks 1..32 (the table does not say how "
        "many nodes; presumably the one node). Train p=1,2,4,8,16, test p=32.",
        d["mpi"], [1, 2, 4, 8, 16], [32])


# ---------------------------------------------------------------------------------------------
# nheavner/rnla_code: the author's timing tables for a GPU randomized UTV factorization (randUTV) and standard
# factorizations, as MATLAB arrays over the matrix order n = 2000..18000 (10 sizes). Rule: train the first 5 sizes
# (2000..6000), test the next 4 (8000, 10000, 12000, 15000; at most 4 test x, 2.5x beyond); 18000 is not used.
NH = "nheavner/rnla_code", "02edc04bdc808fcc8b430971221ae44fb5b8bdd0"
NH_TRAIN, NH_TEST = [2000, 3000, 4000, 5000, 6000], [8000, 10000, 12000, 15000]


def m_arrays(path):
    """{name: [[row], ...]} for every 'name = [ ... ];' MATLAB array in the file"""
    with open(path) as f:
        text = f.read()
    out = {}
    for m in re.finditer(r"(\w+)\s*=\s*\[(.*?)\]\s*;", text, re.S):
        rows = [r.split() for r in m.group(2).split(";")]
        out[m.group(1)] = [[float(x) for x in r] for r in rows if r]
    return out


def build_nh():
    std = m_arrays(rp(NH[0], "gpu_rand_utv/times_std.m"))
    ns = [int(x) for x in std["n_std"][0]]
    common = ("Matrix factorization time [s] over n = the order of an n x n matrix, from nheavner/rnla_code (research "
              "code for randomized rank-revealing UTV factorizations; the repository's README is empty). One value per "
              "size. The machine (GPU and CPU models) is not stated in the files read. ")
    one("nh-svd-n", src(NH[0], NH[1], "gpu_rand_utv/times_std.m"), "n", "s",
        common + "Array t_svd of times_std.m (a standard SVD, timed by timing_standards.cu, so presumably a GPU library "
        "SVD such as MAGMA's; not stated). Train n=2000..6000 (5 sizes), test n=8000, 10000, 12000, 15000.",
        {n: [t] for n, t in zip(ns, std["t_svd"][0])}, NH_TRAIN, NH_TEST)
    one("nh-cpqr-n", src(NH[0], NH[1], "gpu_rand_utv/times_std.m"), "n", "s",
        common + "Array t_cpqr of times_std.m (column-pivoted QR, same timing program, presumably on the GPU). Train "
        "n=2000..6000 (5 sizes), test n=8000, 10000, 12000, 15000.",
        {n: [t] for n, t in zip(ns, std["t_cpqr"][0])}, NH_TRAIN, NH_TEST)
    ru = m_arrays(rp(NH[0], "gpu_rand_utv/times_rutv_gpu_OS_ON.m"))
    ns = [int(x) for x in ru["n_rutv_gpu"][0]]
    rows = ru["t_rutv_gpu_os"]
    for q in (0, 2):
        one("nh-randutv-gpu-q%d-n" % q, src(NH[0], NH[1], "gpu_rand_utv/times_rutv_gpu_OS_ON.m"), "n", "s",
            common + "randUTV on the GPU, array t_rutv_gpu_os of times_rutv_gpu_OS_ON.m, row q = %d (the file: rows are "
            "the power-iteration counts q in ascending order, block size 128; 'OS_ON' presumably oversampling on, "
            "not stated). Rows q = 0 and the largest, q = 2, are used (rule fixed before reading the values); q = 1 "
            "is not. Train n=2000..6000 (5 sizes), test n=8000, 10000, 12000, 15000." % q,
            {n: [t] for n, t in zip(ns, rows[q])}, NH_TRAIN, NH_TEST)


# ---------------------------------------------------------------------------------------------
# Howard-Pai/DSCI-560-Data-Science-practicum: a USC DSCI 560 lab (Lab 3), matrix multiplication on CPU and GPU,
# runtime over N = 128..2048 (doubling), one run per N. Rule: train N=128..1024, test 2048.
HP = "Howard-Pai/DSCI-560-Data-Science-practicum"
HP_FILES = [
    ("hp-matmul-cpu-n", "bdf0b7a683654a8f139f922358857887e662c66c", "Lab3/runtime_cpu.txt",
     "the naive CPU matrix product (matrix_cpu.c, run_cpu.sh). The time grows about 8-16x per doubling of N."),
    ("hp-matmul-cuda-naive-n", "bdf0b7a683654a8f139f922358857887e662c66c", "Lab3/runtime_gpu.txt",
     "a naive CUDA kernel (matrix_gpu.cu, run_gpu.sh). At N <= 512 the times are below 1.5 ms, so overheads dominate."),
    ("hp-matmul-cuda-tiled-n", "bdf0b7a683654a8f139f922358857887e662c66c", "Lab3/runtime_gpu_optimized.txt",
     "an 'optimized' (presumably shared-memory tiled) CUDA kernel (matrix_optimized_gpu.cu, run_gpu_optimized.sh). "
     "At N <= 512 the times are below 2.2 ms."),
    ("hp-matmul-cublas-n", "4f2ec911f189b88c6b89451d232475fbf05a836f", "Lab3/matrix_multiplication/runtime_cuBLAS.txt",
     "cuBLAS (matrix_cuBLAS.cu). ANOMALY, kept as measured: the first size, N = 128, takes 0.0203 s, more than any "
     "larger N up to 2048 (a first-call/initialization cost, presumably: each N is a new process); the times fall "
     "from 128 to 512 and rise after. run_cuBLAS.sh at bdf0b7a6 lists N = 512..8192, but this file holds 128..2048."),
]


def build_hp():
    for name, commit, path, what in HP_FILES:
        d = {}
        with open(rp(HP, path)) as f:
            for line in f.read().splitlines():
                c = line.split()
                if len(c) == 2 and not line.startswith("#"):
                    d[int(c[0])] = [float(c[1])]
        one(name, src(HP, commit, path), "n", "s",
            "Matrix multiplication of N x N matrices, runtime [s] (the file's '# N runtime_seconds') over n = N "
            "128..2048, one run per N, from a student repository of USC's DSCI 560 course, Lab 3. The machine (CPU, "
            "GPU) is not stated in the files read. This file: " + what + " Train n=128,256,512,1024, test n=2048.",
            d, [128, 256, 512, 1024], [2048])


# ---------------------------------------------------------------------------------------------
# success310/Parallele: an OpenCL matrix-multiplication benchmark of a parallel-programming course (week 10):
# mat_mul_bench prints, for N = 500, 734, 1024, 1493, 2345, 4001, three timed runs with 'Duration' and 'GFLOPS'.
# y = the GFLOPS of each run (the Duration is printed to 1 ms only, so at small N it has one digit). Rule: train
# N=500..1493 (4 sizes), test 2345 and 4001 (2.7x beyond).
SU = "success310/Parallele"
SU_RUN = re.compile(r"^\tDuration: [0-9.]+s, GFLOPS: ([0-9.]+), Verification: OK$")


def su_runs(path, section=None):
    """{N: [GFLOPS of each timed run]}; section: the benchmark's name line to read from (to the next name line)"""
    with open(rp(SU, path)) as f:
        lines = f.read().splitlines()
    if section is not None:
        i = lines.index(section)
        j = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("mat_mul_bench")), len(lines))
        lines = lines[i:j]
    d = defaultdict(list)
    n = None
    for line in lines:
        if line.startswith("Setting up N="):
            n = int(line[len("Setting up N="):].split()[0])
        m = SU_RUN.match(line)
        if m:
            d[n].append(float(m.group(1)))
    return d


def build_su():
    train, test = [500, 734, 1024, 1493], [2345, 4001]
    common = ("OpenCL matrix multiplication (mat_mul.cl) of N x N matrices, benchmark of a parallel-programming course "
              "repository (week_10): GFLOPS of each timed run, over n = N (500, 734, 1024, 1493, 2345, 4001; "
              "about x1.5 steps). y is a THROUGHPUT (higher is faster); each run is a training row, the test value "
              "is the median. The 'CPU setup' lines (host-side setup) are not used. ")
    g = "week_10/result_GTX_960M.md"
    one("su-ocl-matmul-gtx960m-n", src(SU, "b7f175240e55d318e8ed43d5692fe00ea134838b", g), "n", "GFLOPS",
        common + "Section mat_mul_bench of result_GTX_960M.md (an NVIDIA GeForce GTX 960M, by the file name), 3 runs "
        "per N. The throughput is nearly flat (about 185-204 GFLOPS). Train n=500..1493, test n=2345, 4001.",
        su_runs(g, "mat_mul_bench"), train, test)
    one("su-ocl-matmul-fillcpu-gtx960m-n", src(SU, "b7f175240e55d318e8ed43d5692fe00ea134838b", g), "n", "GFLOPS",
        common + "Section mat_mul_bench_fill_cpu of the same file (the variant mat_mul_bench_fill_cpu.c; by its name "
        "the CPU also takes part of the product, not read), GTX 960M, 3 runs per N. Train n=500..1493, test n=2345, "
        "4001.",
        su_runs(g, "mat_mul_bench_fill_cpu"), train, test)
    for name, path, what in (
            ("su-ocl-matmul-rr15-n", "week_10/result_no_cpu_rr15.txt", "the plain benchmark ('no_cpu')"),
            ("su-ocl-matmul-fillcpu-rr15-n", "week_10/result_fill_cpu_rr15.txt", "the fill-CPU variant")):
        one(name, src(SU, "9ea817786396a59599e84b53aaeeb3c350d54661", path), "n", "GFLOPS",
            common + "File %s: %s on a machine named rr15 (device not stated; about 45-54 GFLOPS). The file holds "
            "three invocations of the benchmark, 3 runs per N each, so 9 runs per N, all kept as training rows; the "
            "test value is the median of the 9. Train n=500..1493, test n=2345, 4001." % (path.split("/")[-1], what),
            su_runs(path), train, test)


# ---------------------------------------------------------------------------------------------
# oxford-arc/bench-openfoam: Oxford Advanced Research Computing's OpenFOAM benchmark (the Motorbike case), wall time
# over cores 1..48 on one ARC node, two builds in the README's results table. Rule (corpus-u's for an irregular
# ladder): train the five smallest counts (1, 2, 4, 6, 8), test the largest counts of the sweep not above 2x, 4x
# and 8x the fifth (16, 32, 48; there is no 64).
OX = "oxford-arc/bench-openfoam", "05bd7aa1f55f589b6688417116c1b5889c13b530", "README.md"


def build_ox():
    with open(rp(OX[0], OX[2])) as f:
        lines = f.read().splitlines()
    cont, nat = {}, {}
    for line in lines[lines.index("Cores   Container (v1912)   EB Native (v2006):"):]:
        c = line.split()
        if len(c) == 3 and c[0].isdigit():
            cont[int(c[0])] = [float(c[1])]
            nat[int(c[0])] = [float(c[2])]
    common = ("OpenFOAM, the Motorbike case 'modified for 10240 grids' (README), wall time [s] ('Values in seconds') "
              "over p = cores 1..48 of one node of Oxford's ARC cluster ('Result output from a current ARC node'; "
              "the CPU is not named in the file read). Strong scaling, one value per core count (whether a single run "
              "is not stated). Train p=1,2,4,6,8, test p=16, 32, 48 (the largest counts not above 2x, 4x, 8x). ")
    one("ox-openfoam-motorbike-container-p", src(*OX), "p", "s",
        common + "Column 'Container (v1912)': OpenFOAM v1912 in the repository's container. The time flattens at the "
        "top (213.9 s at 32, 192.3 s at 48 cores; seen while copying).",
        cont, [1, 2, 4, 6, 8], [16, 32, 48])
    one("ox-openfoam-motorbike-native-p", src(*OX), "p", "s",
        common + "Column 'EB Native (v2006)': OpenFOAM v2006 built natively with EasyBuild. Here 48 cores (206.8 s) are "
        "hardly faster than 32 (213.3 s; seen while copying).",
        nat, [1, 2, 4, 6, 8], [16, 32, 48])


# ---------------------------------------------------------------------------------------------
# kevlahan/wavetrisk_hydrostatic: WAVETRISK (a wavelet-adaptive dynamical core for climate and ocean models), the
# author's strong-scaling results as MATLAB arrays in post/scaling/speedup.m: the Held-Suarez test case at J8
# (10*4^8+2 columns, 32 layers), time ('cpu') over cores on SciNet's Niagara and on a machine 'bbserv'. Rule
# (corpus-u's for an irregular ladder): train the five smallest counts, test the largest counts of the sweep not
# above 2x, 4x and 8x the fifth. Only the measured arrays are used, never the 1-core value the file extrapolates.
WT = "kevlahan/wavetrisk_hydrostatic", "5dfab3c521bafcc95e151f7c67f9767974f1f5ad", "post/scaling/speedup.m"
WT_ARR = re.compile(r"^(\w+)\s*=\s*\[([0-9.eE+\s]*(?:\.\.\.\s*[0-9.eE+\s]*)*)\]'", re.M)


def wt_sections():
    """[{name: [numbers]}] for the two sections of the file (2560 domains, then 640 domains); only arrays written
    as literal numbers (the lines that extrapolate or normalize are not matched)"""
    with open(rp(WT[0], WT[2])) as f:
        text = f.read()
    first, rest = text.split("%% 640 domains", 1)
    rest = rest.split("%% Results from other codes", 1)[0]
    out = []
    for part in (first, rest):
        d = {}
        for m in WT_ARR.finditer(part):
            d[m.group(1)] = [float(x) for x in m.group(2).replace("...", " ").split()]
        out.append(d)
    return out


def ladder_cut(xs):
    """the five smallest x train; test: the largest x not above 2x, 4x, 8x the fifth (distinct, in order)"""
    xs = sorted(xs)
    train, top = xs[:5], xs[4]
    test = []
    for k in (2, 4, 8):
        c = max(x for x in xs if x <= k * top)
        if c > top and c not in test:
            test.append(c)
    return train, test


def build_wt():
    s2560, s640 = wt_sections()
    common = ("WAVETRISK (kevlahan/wavetrisk_hydrostatic), the Held-Suarez (1994) climate test case at 0.25 degree "
              "(J8: 10*4^8+2 = 655362 columns), no I/O, no topography; strong scaling over p = cores. y is the array "
              "'cpu' of post/scaling/speedup.m, presumably wall-clock seconds for the run's time steps (the unit is not "
              "written; the file normalizes it by the step count to 'ms/dt/cell'). One value per count. ")
    cases = [
        ("wt-heldsuarez-2560dom-niagara-p", s2560, "cores_nia", "cpu_nia",
         "Section '2560 domains', Niagara (SciNet, Toronto; 40-core nodes), 10 time steps, 32 layers. From 1 to 2 "
         "cores the time falls only 1.3x (2452 -> 1865), as measured."),
        ("wt-heldsuarez-640dom-niagara-p", s640, "cores_nia", "cpu_nia",
         "Section '640 domains' (fewer, larger domains), Niagara, 10 time steps, 32 layers."),
        ("wt-heldsuarez-2560dom-bbserv-p", s2560, "cores_bb", "cpu_bb",
         "Section '2560 domains', machine 'bbserv' (not otherwise identified), 25 time steps, 32 layers; the sweep "
         "starts at 2 cores (the file's extrapolated 1-core value is not used). Not monotone inside the sweep "
         "(65.0 at 120, 67.7 at 128 cores), as measured."),
        ("wt-heldsuarez-2560dom-niagara2018-p", s2560, "cores_nia_old", "cpu_nia_old",
         "The '2018 runs (non-adaptive)' of the same section on Niagara, 30 layers, 10 time steps, 1..2560 cores."),
    ]
    for name, sec, xk, yk, what in cases:
        xs = [int(x) for x in sec[xk]]
        ys = sec[yk]
        assert len(xs) == len(ys), name
        train, test = ladder_cut(xs)
        one(name, src(*WT), "p", "s",
            common + what + " Train p=%s, test p=%s (the largest counts not above 2x, 4x, 8x the fifth)."
            % (",".join(map(str, train)), ", ".join(map(str, test))),
            {x: [y] for x, y in zip(xs, ys)}, train, test)


# ---------------------------------------------------------------------------------------------
# KTH DD2356 (Methods in High Performance Computing) student repositories: the course's MPI ping-pong exercise on
# PDC's Beskow (Cray XC40, Haswell; the 2020-2021 course years) and on Dardel (later years), OpenMP exercises.
# Message-size rule (corpus-v's for sweeps from a few bytes): train up to 64 KiB, test the next three doublings
# (128, 256, 512 KiB, 8x); for a sweep that stops at 4 KiB, the same shape: train up to 512 B, test 1, 2, 4 KiB.
PP_TRAIN = [2 ** k for k in range(3, 17)]          # 8 B .. 64 KiB
PP_TEST = [131072, 262144, 524288]


def ws_pairs(path, start=None, stop=None):
    """{first column: [second column]} from whitespace-separated 'x y' lines (between two marker lines if given)"""
    with open(path) as f:
        lines = f.read().splitlines()
    if start is not None:
        lines = lines[lines.index(start) + 1:]
    if stop is not None:
        lines = lines[:lines.index(stop)]
    d = {}
    for line in lines:
        c = line.split()
        if len(c) == 2 and c[0].isdigit():
            d[int(c[0])] = [float(c[1])]
    return d


AX = "axelminn/DD2356_HPC", "f18f91829fc3b0639a18bc94085966540678020d", "assignment3/exercise3/README.md"
NR = "Neroro64/DD2356-High-performance-computing", "1d92a1cf11bc927f9228d188702bb8c24da4aaa3"
PP_COMMON = ("KTH DD2356 MPI ping-pong exercise (the course's ping_pong.c: two ranks bounce a message with MPI_Send/"
             "MPI_Recv and print N and the average ping-pong time), time [s] over n = N, the message size, "
             "presumably in bytes (8 B .. 1 GiB, doubling; the unit of N and whether the time is one-way or a round "
             "trip are not stated in the files read). One value per size (the program's average over its "
             "repetitions). On Beskow (PDC, Cray XC40, Aries network, Haswell nodes). Train n=8..65536 (14 sizes), "
             "test n=131072, 262144, 524288 (8x). ")


def build_dd_pp():
    one("ax-beskow-pingpong-intra-n", src(*AX), "n", "s",
        PP_COMMON + "From axelminn/DD2356_HPC, assignment 3 exercise 3 README ('Intra' table: salloc --nodes=1, "
        "srun -n 2, -C Haswell, account edu20.dd2356, so the 2020 course). Not monotone at small sizes (256 B is "
        "faster than 128 B, 2 KiB faster than 1 KiB), and a step between 4 KiB and 8 KiB (1.7 -> 3.7 us, a protocol "
        "switch presumably), as measured.",
        ws_pairs(rp(AX[0], AX[2]), "Intra", "Inter"), PP_TRAIN, PP_TEST)
    one("ax-beskow-pingpong-inter-n", src(*AX), "n", "s",
        PP_COMMON + "Same README, 'Inter' table (salloc --nodes=2, srun -n 2 --ntasks-per-node=1: two nodes). The "
        "time is flat at about 1.3 us up to 256 B.",
        ws_pairs(rp(AX[0], AX[2]), "Inter"), PP_TRAIN, PP_TEST)
    one("nr-beskow-pingpong-output1-n", src(NR[0], NR[1], "Assignment3/output.csv"), "n", "s",
        PP_COMMON + "From Neroro64/DD2356-High-performance-computing, Assignment3/output.csv (tab-separated, no "
        "header; the repository holds a file named after a beskow.pdc.kth.se login). Which placement this run used is "
        "not stated; its small-message times (0.67 us at 8 B) are close to axelminn's intra-node table, so presumably "
        "one node. A step between 4 KiB and 8 KiB (1.7 -> 4.1 us), as measured.",
        ws_pairs(rp(NR[0], "Assignment3/output.csv")), PP_TRAIN, PP_TEST)
    one("nr-beskow-pingpong-output2-n", src(NR[0], NR[1], "Assignment3/output2.csv"), "n", "s",
        PP_COMMON + "Neroro64's Assignment3/output2.csv, the second run; placement not stated; its small-message "
        "times (1.3 us at 8 B) are close to axelminn's inter-node table, so presumably two nodes.",
        ws_pairs(rp(NR[0], "Assignment3/output2.csv")), PP_TRAIN, PP_TEST)


HJ = "hjalmarhoglund/DD2356-Assignments", "ae91f77f0b758a789c3075144a096abfe77ec018", "Assignment2/Exercise5/raw.txt"
HJ_LINE = re.compile(r"^Size: (\d+) Bytes, RTT: ([0-9.]+) microseconds$")


def build_hj():
    d = defaultdict(list)
    with open(rp(HJ[0], HJ[2])) as f:
        for line in f.read().splitlines():
            m = HJ_LINE.match(line)
            d[int(m.group(1))].append(float(m.group(2)))
    assert all(len(v) == 11 for v in d.values())
    one("hj-pingpong-rtt-n", src(*HJ), "n", "us",
        "KTH DD2356 (a 2025 student repository, so presumably PDC's Dardel, HPE Cray EX with Slingshot), assignment 2 "
        "exercise 5: an MPI ping-pong printing 'Size: <n> Bytes, RTT: <t> microseconds' for n = 4 B .. 4 KiB "
        "(doubling); the file raw.txt holds 11 such sweeps, every one kept as a training row; the test value is "
        "the median of the 11. Placement (one node or two) not stated in the file read. OUTLIERS kept as measured: "
        "the first sweep starts with 6627 us at 4 B (a first-call cost) and has 2720 and 2780 us at 2 and 4 KiB "
        "(the other sweeps: about 7.4 and 8.0 us); 19.0 us at 256 B and 9.9 us at 4 B in single sweeps. A step "
        "between 64 and 128 B (4.9 -> 6.1 us). Train n=4..512 (8 sizes), test n=1024, 2048, 4096 (8x).",
        d, [4, 8, 16, 32, 64, 128, 256, 512], [1024, 2048, 4096])


WS = "wertysas/DD2356-methods-in-hpc"


def csv_reps(path):
    """{x: [y, ...]} from lines 'x, y1, y2, ...'; the literal two characters backslash-n written after the header
    in stream_omp.txt are read as a line break (the header and the first data row share a line there)"""
    with open(path) as f:
        text = f.read().replace("\\n", "\n")
    d = {}
    for line in text.splitlines():
        c = [x.strip() for x in line.split(",")]
        if c[0].isdigit():
            d[int(c[0])] = [float(x) for x in c[1:]]
    return d


def build_ws():
    common = ("KTH DD2356 student repository (wertysas), assignment 2 (OpenMP); the thread counts 1..32 fit a "
              "32-core Beskow Haswell node (2 x 16 cores), presumably; the machine is not named in the files read. ")
    d = csv_reps(rp(WS, "assignment2/dft/dft_omp.txt"))
    assert all(len(v) == 10 for v in d.values())
    one("ws-dft-omp-strong-p", src(WS, "e58bf6d4f3707752d554a694cee5825dbecdf9d9", "assignment2/dft/dft_omp.txt"),
        "p", "s",
        common + "The course's DFTW (a naive discrete Fourier transform, O(N^2)) parallelized with OpenMP: time over "
        "p = OpenMP threads 1, 2, 4, 8, 12, 16, ..., 32 (no header; the unit is presumably seconds), 10 runs per "
        "count, each a training row; the test value is the median. Strong scaling: 2.9 s at 1 thread, 0.26 s at "
        "12; not monotone beyond: 16 threads are slower than 12, and 32 (about 0.25 s) slower than 28 (0.19 s), as "
        "measured. Train p=1,2,4,8,12, test p=24, 32 (corpus-u's ladder rule: the largest counts not above 2x, 4x, "
        "8x the fifth).",
        d, [1, 2, 4, 8, 12], [24, 32])
    d = csv_reps(rp(WS, "assignment2/stream/stream_omp.txt"))
    assert all(len(v) == 5 for v in d.values())
    one("ws-stream-omp-bw-p", src(WS, "3a7fa6ca68520d5aab7acf78f863e958bbffc955", "assignment2/stream/stream_omp.txt"),
        "p", "MB/s",
        common + "STREAM (the course's OpenMP version; which kernel's rate is reported is not stated, presumably Copy "
        "or the best rate) 'Bandwidth(MB/s)' over p = OpenMP threads 1..32, 5 runs per count, each a training row; "
        "the test value is the median. A BANDWIDTH (higher is faster) that hardly changes with threads (18.3-19.8 "
        "GB/s), which is odd for STREAM on a multi-core node (array size not stated). Train p=1,2,4,8,12, test p=24, 32 (the same "
        "ladder rule).",
        d, [1, 2, 4, 8, 12], [24, 32])


JM = "jackma-00/dd2356-vt24-methpc-assignments", "d43e07ba14d7d1d1f128d99523677e3318319db3", \
    "assignments/hw3/exer4/execution_times.txt"


def build_jm():
    one("jm-pi-mpi-strong-p", src(*JM), "p", "s",
        "KTH DD2356 VT24 (the 2024 course, so PDC's Dardel, 2 x 64-core AMD EPYC per node), assignment 3 exercise 4: "
        "an MPI computation of pi (pi_parallel.c, not read), execution time over p = MPI ranks 8..128 (doubling; "
        "whitespace-separated, no header; seconds presumably). One value per count. Strong scaling presumably (the "
        "time roughly halves per doubling, with an irregular step from 16 to 32: 0.0234 -> 0.0182 s). The times are "
        "tens of milliseconds, so start-up and noise matter. Train p=8,16,32,64, test p=128 (5 values: the first 4 "
        "train).",
        ws_pairs(rp(JM[0], JM[2])), [8, 16, 32, 64], [128])


BUILDERS = [build_rk, build_hm, build_nh, build_hp, build_su, build_ox, build_wt, build_dd_pp, build_hj,
            build_ws, build_jm]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
