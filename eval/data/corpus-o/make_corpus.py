#!/usr/bin/env python3
"""corpus-o (16 one-variable cases from 6 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import csv
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-o")
rp, one = CORPUS.rp, CORPUS.one


# ---------------------------------------------------------------------------------------------
# samadio/HPC_openMP_MPI_C: Trieste-style HPC course exercises (pi by midpoint rule / Monte Carlo), run on the
# course cluster (node names cn01-20, cn02-03 in the logs: Ulysses at SISSA, inferred, not named)
SA = "samadio/HPC_openMP_MPI_C"
SA_OMP = "a580c7bcd4238d111b9998e185f6558c8db80efc"
SA_STRONG = "7da2f293fd7f2f7cf7c74f58fda355bc3c637fe4"


def sa_omp(name):
    """{threads: [5 runs]} from a file of alternating lines 'threads' and 'run1,...,run5'"""
    with open(rp(SA, "Parallel_progr/Day2/ex1", name)) as f:
        lines = f.read().splitlines()
    return {int(lines[i]): [float(v) for v in lines[i + 1].split(",")] for i in range(0, len(lines), 2)}


def build_sa():
    common = ("OpenMP computation of pi (numerical integration, a course exercise of Parallel_progr/Day2/ex1), time [s] "
              "over p = OMP threads 1, 2, 4, 8, 16, 20 (script.sh: 5 tries per thread count; gnu/4.8.3 on the course "
              "cluster, 20 cores per node, not named in the files read). Strong scaling: the same work at every p. "
              "Each file holds per p one line of 5 runs; every run is a training row, the test value is their median. ")
    cut = " Train p=1,2,4,8, test p=16, 20."
    for key, what in (("red", "reduction clause"), ("crit", "critical section"), ("atom", "atomic update")):
        fn = "parallel_%s2.txt" % key
        one("sa-pi-omp-%s-strong-p" % key, src(SA, SA_OMP, "Parallel_progr/Day2/ex1/" + fn), "p", "s",
            common + "Variant: the partial sums are combined with a %s (%s). About 6.2 s at 1 thread, halving to about "
            "0.9 s at 8; the test points 16 and 20 flatten near 0.77 s, as measured." % (what, fn) + cut,
            sa_omp(fn), [1, 2, 4, 8], [16, 20])
    walls = []
    with open(rp(SA, "ex1/strongelaps")) as f:
        for line in f.read().splitlines():
            m = re.match(r"\s*# walltime on master processor : ([0-9.]+)", line)
            if m:
                walls.append(float(m.group(1)))
    procs = [1, 2, 4, 8, 16, 20]
    assert len(walls) == len(procs)
    one("sa-pi-mpi-strong-p", src(SA, SA_STRONG, "ex1/strongelaps"), "p", "s",
        "MPI Monte Carlo pi (ex1, parallel.x), 10^8 trials in total over p = MPI ranks, strong scaling: 'walltime on "
        "master processor' [s], one run per p. The p of each run is not printed: the runs are in the order of "
        "strong.sh's loop 'for procs in 1 2 4 8 16 20' (the version that appends to strongelaps), and the count of "
        "'Processor k sending results' lines of each run in the log agrees. Course cluster (node cn01-20; QLogic "
        "ipath warnings in the log). raw/ is CUT to the 12 '# of trials' and walltime lines. Nearly ideal halving from "
        "1.96 s at 1 to 0.149 s at 16 and 0.116 s at 20, as measured. Train p=1,2,4,8, test p=16, 20.",
        {p: [w] for p, w in zip(procs, walls)}, [1, 2, 4, 8], [16, 20])


# ---------------------------------------------------------------------------------------------
# aistabci/abci2.0benchmark: the ABCI 2.0 (AIST) acceptance-style allreduce benchmarks, OSU 5.7 and nccl-tests
AB = "aistabci/abci2.0benchmark", "8b20e1128f87234f7feff14a0b693dce998d9751"
AB_TRAIN = [2 ** k for k in range(2, 23)]          # 4 B .. 4 MiB
AB_TEST = [8388608, 16777216, 33554432]
AB_CUT = " Train n=4 B..4 MiB (21 sizes), test n=8, 16, 32 MiB (up to 8x)."


def ab_osu(path):
    d = {}
    with open(rp(AB[0], path)) as f:
        for line in f.read().splitlines():
            c = line.split()
            if c and not line.startswith("#"):
                d[int(c[0])] = [float(c[1])]
    return d


def ab_nccl(path):
    """out-of-place 'time' (us) of an nccl-tests all_reduce_perf table"""
    d = {}
    with open(rp(AB[0], path)) as f:
        for line in f.read().splitlines():
            c = line.split()
            if c and not line.startswith("#"):
                d[int(c[0])] = [float(c[4])]
    return d


def build_ab():
    a16 = ("16 ABCI 'A' nodes (rt_AF=16: 8 NVIDIA A100-SXM4-40GB per node, InfiniBand HDR), 128 MPI ranks (8 per node, "
           "4 per socket; job16.sh), Open MPI 4.0.5 with UCX 1.9.0, RHEL 8.2 (allreduce/README.md). ")
    one("ab-osu-allreduce-cpu-a16-n", src(AB[0], AB[1], "allreduce/inter_anode/job16.sh.7194312.mpi-cpu"), "n", "us",
        "OSU MPI Allreduce Latency Test v5.7 (osu_allreduce -m 33554432 -f -r cpu: host buffers), 'Avg Latency(us)' "
        "over n = message size in bytes, " + a16 + "One run per size (1000 iterations up to 32 KiB, 100 above). A "
        "jump from 33 us at 8 KiB to 188 us at 16 KiB (a protocol switch) lies inside the training range; above "
        "1 MiB the latency about doubles per doubling, as measured." + AB_CUT,
        ab_osu("allreduce/inter_anode/job16.sh.7194312.mpi-cpu"), AB_TRAIN, AB_TEST)
    one("ab-osu-allreduce-cuda-a16-n", src(AB[0], AB[1], "allreduce/inter_anode/job16.sh.7194312.mpi"), "n", "us",
        "OSU MPI-CUDA Allreduce Latency Test v5.7 (GPU device buffers, CUDA 11.2.2, GDRCopy 2.1), 'Avg Latency(us)' "
        "over n = message size in bytes, " + a16 + "Same job as ab-osu-allreduce-cpu-a16-n. One run per size. Odd "
        "point kept as measured: 64 B (70.7 us) is slower than 32 and 128 B (about 40 us); a jump 68 -> 229 us "
        "between 8 and 16 KiB; 4 MiB (7000 us) is 2.7x the 2 MiB value." + AB_CUT,
        ab_osu("allreduce/inter_anode/job16.sh.7194312.mpi"), AB_TRAIN, AB_TEST)
    one("ab-nccl-allreduce-a16-n", src(AB[0], AB[1], "allreduce/inter_anode/job16.sh.7194312.nccl"), "n", "us",
        "nccl-tests all_reduce_perf (NCCL 2.8.4-1, float sum, 1 GPU per rank, 5 warm-up and 100 timed iterations), "
        "out-of-place 'time' (us) over n = size in bytes, " + a16 + "Same job as the two OSU cases. One run per size. "
        "raw/ is CUT: the 128 '# Rank ... device' lines are dropped, the header and the table are verbatim. Flat "
        "near 62-88 us up to 32 KiB; an outlier at 128 KiB (203 us, above 256 KiB's 148 us; the in-place run has "
        "130 us) kept as measured." + AB_CUT,
        ab_nccl("allreduce/inter_anode/job16.sh.7194312.nccl"), AB_TRAIN, AB_TEST)
    one("ab-osu-allreduce-cpu-v32-n", src(AB[0], AB[1], "allreduce/inter_vnode/job32.sh.7194536.mpi-cpu"), "n", "us",
        "OSU MPI Allreduce Latency Test v5.7 (host buffers), 'Avg Latency(us)' over n = message size in bytes, on 32 "
        "ABCI 'V' nodes (rt_F=32: 4 NVIDIA V100 per node, InfiniBand EDR), 128 MPI ranks (4 per node, 2 per socket; "
        "job32.sh), Open MPI 4.0.5, UCX 1.7.0, CentOS 7.5. One run per size. A jump 45 -> 256 us between 8 and 16 KiB "
        "inside the training range; at the test points the latency grows faster than the size (16.8 ms at 8 MiB, "
        "60.7 ms at 16 MiB, 150 ms at 32 MiB), as measured." + AB_CUT,
        ab_osu("allreduce/inter_vnode/job32.sh.7194536.mpi-cpu"), AB_TRAIN, AB_TEST)


# ---------------------------------------------------------------------------------------------
# ryousei/meow-rest: AIST's MEOW optical-path network controller; its instructions show one osu_allreduce run
ME = "ryousei/meow-rest", "e40a6524d296020502a5f2d69f4feb83760d948e", "instruction.en.md"


def build_me():
    d = {}
    with open(rp(ME[0], ME[2])) as f:
        for line in f.read().splitlines():
            c = line.split()
            if len(c) == 2 and c[0].isdigit():
                d[int(c[0])] = [float(c[1])]
    one("me-osu-allreduce-ring4-n", src(*ME), "n", "us",
        "OSU MPI Allreduce Latency Test v5.7.1, 'Avg Latency(us)' over n = message size in bytes, 4 MPI ranks on 4 "
        "nodes (one per node) joined in a ring of optical paths set up by the MEOW controller, Open MPI's tuned "
        "allreduce forced to algorithm 4 (ring); the example run of the repository's instructions (the machine: AIST "
        "racks k0001..k0004, not described further). One run per size. raw/ is CUT to the command and its output "
        "block. Irregular, as measured: 4-8 B at 70-75 us, then a plateau at about 289 us from 16 B to 1 KiB, and at "
        "the test point 256 KiB the latency DROPS from 2549 us (128 KiB) to 1043 us (a change of segmenting, "
        "presumably). Train n=4..131072 (16 sizes), test n=262144, 524288, 1048576 (up to 8x).",
        d, [2 ** k for k in range(2, 18)], [262144, 524288, 1048576])


# ---------------------------------------------------------------------------------------------
# brunetto/evolve and Evegen55/bable_java: NBabel (nbabel.org) direct-summation n-body codes with their timings
BR = "brunetto/evolve", "6fb7ce64c1eba856fcc1d15512ae7b484772d775", "C/README.md"
EV = "Evegen55/bable_java", "3ae70db76758788215e457a44a824bc3dcae78f7", "README.md"


def build_br():
    d = {"-": {}, "O4": {}}
    with open(rp(BR[0], BR[2]), encoding="utf-8") as f:
        for line in f.read().splitlines():
            c = line.split()
            if len(c) == 4 and c[0].isdigit():
                d[c[1]][int(c[0])] = [float(c[2])]
    common = ("NBabel.cpp (Jeroen Bedorf, Dec 2010), the C++ version of the NBabel direct-summation n-body benchmark "
              "(O(N^2) forces, predictor-corrector leapfrog, dt = 1e-3, t = 0..1, Plummer initial conditions), CPU "
              "time tCPU [s] over n = number of particles N = 16..4096, on an Intel Core i7 M640 2.80 GHz laptop, "
              "gcc 4.4.5, one run per N, times given to 0.01 s. ")
    one("br-nbabel-cpp-n", src(*BR), "n", "s",
        common + "No optimisation flag ('-'). The time grows about 4x per doubling of N. Train n=16..512, test "
        "n=1024, 2048, 4096.", d["-"], [16, 32, 64, 128, 256, 512], [1024, 2048, 4096])
    one("br-nbabel-cpp-o4-n", src(*BR), "n", "s",
        common + "Compiled with -O4. N = 16 is left out: its time is printed as 0.0 (below the 0.01 s resolution; "
        "not positive); 32 (0.01 s) is at the resolution. Train n=32..512, test n=1024, 2048, 4096.",
        d["O4"], [32, 64, 128, 256, 512], [1024, 2048, 4096])


def build_ev():
    d = {}
    with open(rp(EV[0], EV[2]), encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = next(i for i, l in enumerate(lines) if "i5-6300U" in l)
    for line in lines[start + 1:]:
        m = re.match(r"\s+(\d+)(K?)\s+(?:(\d+) m )?([0-9.]+)", line)
        if m:
            n = int(m.group(1)) * (1024 if m.group(2) else 1)
            d[n] = [(int(m.group(3)) * 60 if m.group(3) else 0) + float(m.group(4))]
    one("ev-nbabel-java-i5-n", src(*EV), "n", "s",
        "NBabel.java (Philip Breen, 2010; this repository's copy), the Java version of the NBabel n-body benchmark "
        "(as br-nbabel-*: O(N^2), leapfrog, dt = 1e-3, t = 0..1), 'CPU time' [s] over n = particles N = 32..1K on an "
        "Intel Core i5-6300U (the README's second table; the first, on a Pentium 4, has only 3 sizes and is not used). "
        "One run per N. Unit conversions: '1K' is read as N = 1024, and '1 m 4.887 s' as 64.887 s; the 512 value "
        "'14.589' has no unit written (seconds assumed). Train n=32..256, test n=512, 1024.",
        d, [32, 64, 128, 256], [512, 1024])


# ---------------------------------------------------------------------------------------------
# paugier/nbabel: Pierre Augier's NBabel study (energy and time of languages), threaded runs on Grid'5000 'taurus'
PA = "paugier/nbabel"
PA_FILES = {
    "j16k-t11": ("d3e0f87a38ec4d5eb00ca3312a24df0cb66e4089",
                 "power/saved/parallel_julia_16k_taurus-11.lyon.grid5000.fr_2021-01-26_21-20-37.csv"),
    "j1k-t7": ("dbf69b4ec296be69bb3d54670b881c4f042da9e7",
               "power/saved/parallel_julia_1k_taurus-7.lyon.grid5000.fr_2021-01-25_21-36-49.csv"),
    "j16k-t15": ("5ef7eb321eed6b9b66a3a7d0afe50ee025bb533c",
                 "power/saved/parallel_julia_16k_taurus-15.lyon.grid5000.fr_2021-02-06_23-45-53.csv"),
    "py16k-t15": ("5ef7eb321eed6b9b66a3a7d0afe50ee025bb533c",
                  "power/saved/parallel_pythran_16k_taurus-15.lyon.grid5000.fr_2021-02-06_23-12-07.csv"),
}


def pa(key):
    """{threads: [elapsed_time, ...]} of the benchmark rows (the sleep rows between runs are not measurements)"""
    d = defaultdict(list)
    with open(rp(PA, PA_FILES[key][1])) as f:
        for r in csv.DictReader(f):
            if not r["implementation"].startswith("sleep"):
                d[int(r["nb_threads"])].append(float(r["elapsed_time"]))
    return d


def build_pa():
    common = ("NBabel n-body benchmark with threads, from Pierre Augier's study of languages' time and energy "
              "(repository paugier/nbabel, power/run_bench_parallel_*.py): 'elapsed_time' [s] of one simulation over "
              "p = threads, on one Grid'5000 Lyon 'taurus' node (2 x Intel Xeon E5-2630, 12 cores, 24 hardware "
              "threads; the node model is Grid'5000's, not stated in the files read). Strong scaling. Each thread "
              "count ran twice (the file's rows are in no order; the 4 s sleep rows between runs are skipped); both "
              "runs are training rows, the test value is their median. ")
    one("pa-nbabel-julia-16k-t11-p", src(PA, *PA_FILES["j16k-t11"]), "p", "s",
        common + "Julia (nbabel5_threads.jl), N = 16k particles, node taurus-11, Jan 2021. 101 s at 1 thread, 20.9 s "
        "at 8, 17.5 s at 12; at the test points 16 and 24 threads (hyperthreads) the time stays near 17-19 s (16 is "
        "slower than 12), as measured. Train p=1,2,4,6,8,12, test p=16, 24.",
        pa("j16k-t11"), [1, 2, 4, 6, 8, 12], [16, 24])
    one("pa-nbabel-julia-1k-t7-p", src(PA, *PA_FILES["j1k-t7"]), "p", "s",
        common + "Julia (nbabel5_threads.jl), N = 1k particles, node taurus-7, Jan 2021: a small problem; 19.9 s at 1 "
        "thread, flattening from 8 threads on (6.5-6.6 s at 8, 6.1 and 6.8 s at 12), test points 16 and 24 near "
        "6.3-6.9 s, as measured. Train p=1,2,4,6,8,12, test p=16, 24.",
        pa("j1k-t7"), [1, 2, 4, 6, 8, 12], [16, 24])
    one("pa-nbabel-julia-16k-t15-p", src(PA, *PA_FILES["j16k-t15"]), "p", "s",
        common + "Julia (nbabel5_threads.jl), N = 16k, node taurus-15, Feb 2021, threads 1..12 only. About 383 s at 1 "
        "thread: 3.8x the 101 s of pa-nbabel-julia-16k-t11-p on the same kind of node, presumably another version "
        "of the script (not checked). Train p=1,2,4,6, test p=8, 12.",
        pa("j16k-t15"), [1, 2, 4, 6], [8, 12])
    one("pa-nbabel-pythran-16k-t15-p", src(PA, *PA_FILES["py16k-t15"]), "p", "s",
        common + "Pythran (OpenMP) version, N = 16k, node taurus-15, Feb 2021, threads 1..12 (the file labels the "
        "implementation 'nbabel5_threads.jl' with language 'py': a label copied in the runner; the file name says "
        "pythran). 373 s at 1 thread, close to ideal halving per doubling. Train p=1,2,4,6, test p=8, 12.",
        pa("py16k-t15"), [1, 2, 4, 6], [8, 12])


BUILDERS = [build_sa, build_ab, build_me, build_br, build_ev, build_pa]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
