#!/usr/bin/env python3
"""corpus-v (one-variable cases of mixed kinds from 7 repositories): builds cases/*.json from the copies of the
source files in raw/, with eval/data/corpus_build.py (the format, the rules, --check).
Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-v")
rp, one = CORPUS.rp, CORPUS.one

# The message-size cut used for every size sweep below, fixed before the cases were built: train from the
# smallest positive size up to 64 KiB, test 128, 256 and 512 KiB (at most 8x beyond).
SIZE_TEST = [131072, 262144, 524288]


def pow2(lo, hi):
    out, x = [], lo
    while x <= hi:
        out.append(x)
        x *= 2
    return out


# ---------------------------------------------------------------------------------------------
# converged-computing/metrics-operator: OSU 5.8 runs of the Metrics Operator's network-osu-benchmark example,
# 5 runs each (run-metric-multiple.py --iter 5), saved by the example as pandas CSVs (index, Size, value)
MO = "converged-computing/metrics-operator"
MO_DIR = "examples/python/network-osu-benchmark/img/multiple/"
MO_COMMON = ("OSU Micro-Benchmarks 5.8 in the Metrics Operator's network-osu-benchmark example (two pods, a launcher "
             "and a worker, on a Kubernetes cluster with JobSet; the example's README creates it with 'kind create "
             "cluster', i.e. containers on one host, so the 'network' is probably local; the machine is not named in "
             "the files read), 2 MPI ranks (mpirun -np 2, Open MPI). The file holds 5 runs "
             "(run-metric-multiple.py --iter 5) concatenated in a pandas export (an index column, Size as a float, "
             "the value); each run is a training row, the test value is the median of the 5. ")
MO_CUT = " Train n = the smallest size .. 65536 B, test n = 131072, 262144, 524288 B (up to 8x)."


def mo(fname):
    d = defaultdict(list)
    for r in read_dicts(rp(MO, MO_DIR + fname)):
        n = int(float(r["Size"]))
        if n > 0:
            d[n].append(float(list(r.values())[2]))
    return d


def build_mo():
    c1 = "5a875539b52c03718c004287110c9fe64468897b"
    c2 = "61f2d192b858f73936e4e8f3927b6eaf1363b4d2"
    d = mo("OSU-MPI-Latency-Test-v5.8.csv")
    assert all(len(v) == 5 for v in d.values())
    one("mo-osu-latency-n", src(MO, c1, MO_DIR + "OSU-MPI-Latency-Test-v5.8.csv"), "n", "us",
        MO_COMMON + "osu_latency (ping-pong), 'Latency (us)' over n = message size in bytes; size 0 left out (not "
        "positive). The runs differ by up to 1.7x at small sizes (8.6-14.6 us at 2 B: runs 4 and 5 are mostly "
        "slower), and 16384 B is faster than 8192 B in 4 of the 5 runs (a dip inside the training range), as "
        "measured." + MO_CUT,
        d, pow2(1, 65536), SIZE_TEST)
    d = mo("OSU-MPI-Allreduce-Latency-Test-v5.8.csv")
    assert all(len(v) == 5 for v in d.values())
    one("mo-osu-allreduce-n", src(MO, c1, MO_DIR + "OSU-MPI-Allreduce-Latency-Test-v5.8.csv"), "n", "us",
        MO_COMMON + "osu_allreduce, 'Avg Latency(us)' over n = message size in bytes (4 B .. 1 MiB) at 2 ranks. The "
        "first size (4 B) is slower than 8 B in four of the five runs (up to 36 us against 14 us: presumably a "
        "warm-up effect), and run 5 is about 2x runs 1-3 throughout; kept as measured." + MO_CUT,
        d, pow2(4, 65536), SIZE_TEST)
    d = mo("OSU-MPI_Put-Latency-Test-v5.8.csv")
    assert all(len(v) == 5 for v in d.values())
    one("mo-osu-put-latency-n", src(MO, c2, MO_DIR + "OSU-MPI_Put-Latency-Test-v5.8.csv"), "n", "us",
        MO_COMMON + "osu_put_latency (one-sided MPI_Put, window MPI_Win_allocate, synchronization MPI_Win_flush in "
        "the single-run output in examples/tests/network-osu-benchmark/README.md, not copied), 'Latency (us)' over n = message size in bytes. The runs "
        "differ by up to 1.9x at small sizes (19-36 us at 1 B), as measured." + MO_CUT,
        d, pow2(1, 65536), SIZE_TEST)
    d = mo("OSU-MPI_Get-latency-Test-v5.8.csv")
    assert all(len(v) == 5 for v in d.values())
    one("mo-osu-get-latency-n", src(MO, c1, MO_DIR + "OSU-MPI_Get-latency-Test-v5.8.csv"), "n", "us",
        MO_COMMON + "osu_get_latency (one-sided MPI_Get), 'Latency (us)' over n = message size in bytes. About "
        "28-45 us up to 32 KiB in runs 1-3 but 40-74 us in runs 4 and 5 at small sizes (a 2x spread), as "
        "measured."
        + MO_CUT,
        d, pow2(1, 65536), SIZE_TEST)


# ---------------------------------------------------------------------------------------------
# lessizzmore/create-a3mega-ztan-fork: one nccl-tests all_reduce_perf run on 16 H100 GPUs of 2 nodes
NC = "lessizzmore/create-a3mega-ztan-fork", "02dd8f455c43ced1cf442ef29334bda97149264b", "ztan-NCCL-test-result"


def nc(col):
    d = {}
    with open(rp(NC[0], NC[2])) as f:
        for line in f.read().splitlines():
            c = line.split()
            if len(c) == 13 and c[0].isdigit():
                d[int(c[0])] = [float(c[col])]
    return d


def build_nc():
    common = ("nccl-tests all_reduce_perf (float sum, -b 8 -e 8G -f 2 -g 1: one GPU per process, 20 iterations after "
              "5 warm-up ones) on 16 NVIDIA H100 80GB HBM3 GPUs, 8 per node on 2 nodes (ztan-mig-235z and "
              "ztan-mig-gq73; the repository is a fork of a Google Cloud A3 Mega cluster setup, so presumably A3 Mega "
              "VMs, not stated in the file), mpirun -np 16 -npernode 8 with Open MPI's TCP BTL for the launch. Time "
              "[us] over n = message size in bytes; one run, the file's single value per size. ")
    cut = " Train n = 8 .. 65536 B (14 sizes), test n = 131072, 262144, 524288 B (up to 8x)."
    one("nc-nccl-allreduce-oop-n", src(*NC), "n", "us",
        common + "The out-of-place time column. Nearly flat at 123-167 us up to 256 KiB (the latency regime across "
        "2 nodes); a single slow value at 1 KiB (147 us against 126 us at 512 B and 2 KiB) inside the training "
        "range, as measured." + cut,
        nc(5), pow2(8, 65536), SIZE_TEST)
    one("nc-nccl-allreduce-inplace-n", src(*NC), "n", "us",
        common + "The in-place time column of the same run (the same sizes measured right after the out-of-place "
        "ones, so not an independent machine state). Nearly flat at 122-170 us up to 512 KiB, as measured." + cut,
        nc(9), pow2(8, 65536), SIZE_TEST)


# ---------------------------------------------------------------------------------------------
# eduardfrankford/uibk_parsys_20: University of Innsbruck Parallel Systems proseminar 2020, sheet 1 (OSU 5.6.2, LCC2)
EF = "eduardfrankford/uibk_parsys_20", "3e5dec73b70c2a91088d97726b4286683f96cc9b"
EF_DIR = "proseminar/01_solution/"


def ef(fname, which):
    """{size: [value]} from the osu_bw ('Bandwidth') or osu_latency ('Latency') block of an OSU output file"""
    d, cur = {}, None
    with open(rp(EF[0], EF_DIR + fname)) as f:
        for line in f.read().splitlines():
            if line.startswith("# OSU MPI Bandwidth Test"):
                cur = "Bandwidth"
            elif line.startswith("# OSU MPI Latency Test"):
                cur = "Latency"
            elif not line.startswith("#") and cur == which:
                c = line.split()
                if len(c) == 2 and int(c[0]) > 0:
                    d[int(c[0])] = [float(c[1])]
    return d


def build_ef():
    common = ("OSU Micro-Benchmarks 5.6.2, 2 MPI ranks, Open MPI 4.0.3 (the module line in the file), from a student "
              "of the University of Innsbruck Parallel Systems proseminar 2020 (sheet 1; the course cluster LCC2, "
              "named in other groups' files of the same course, not in this file). One run per size; the file holds "
              "an osu_bw block and then an osu_latency block. ")
    cut = " Train n = 1 .. 65536 B (17 sizes), test n = 131072, 262144, 524288 B (up to 8x)."
    same = EF_DIR + "latency2onSameSocket.dat"
    diff = EF_DIR + "latency2onDifferentSocket.dat"
    one("ef-osu-latency-samesocket-n", src(EF[0], EF[1], same), "n", "us",
        common + "osu_latency block, 'Latency (us)' over n = message size in bytes, placement 'same socket' (the file "
        "name). Size 0 left out. A step between 2048 B (1.33 us) and 4096 B (3.86 us) inside the training range "
        "(a protocol switch); the 2 MiB jump (1305 us) is past the test range." + cut,
        ef("latency2onSameSocket.dat", "Latency"), pow2(1, 65536), SIZE_TEST)
    one("ef-osu-latency-diffsocket-n", src(EF[0], EF[1], diff), "n", "us",
        common + "osu_latency block, 'Latency (us)' over n = message size in bytes, placement 'different socket' "
        "(the file name). Doubtful placement: 3.5 us at 1 B and about 0.67 us per KiB at large sizes look like an "
        "inter-node network rather than a second socket of one node (the same-socket file has 0.49 us). Size 0 left "
        "out." + cut,
        ef("latency2onDifferentSocket.dat", "Latency"), pow2(1, 65536), SIZE_TEST)
    one("ef-osu-bw-samesocket-n", src(EF[0], EF[1], same), "n", "MB/s",
        common + "osu_bw block, 'Bandwidth (MB/s)' over n = message size in bytes: a RATE, not a time. Placement "
        "'same socket'. The bandwidth drops from 4140 MB/s at 2 KiB to 1245 MB/s at 4 KiB (a protocol switch) inside "
        "the training range, then rises again." + cut,
        ef("latency2onSameSocket.dat", "Bandwidth"), pow2(1, 65536), SIZE_TEST)
    one("ef-osu-bw-diffsocket-n", src(EF[0], EF[1], diff), "n", "MB/s",
        common + "osu_bw block, 'Bandwidth (MB/s)' over n = message size in bytes: a RATE, not a time. Placement "
        "'different socket' by the file name (doubtful, see ef-osu-latency-diffsocket-n: it saturates near 1.5 "
        "GB/s like a network link)." + cut,
        ef("latency2onDifferentSocket.dat", "Bandwidth"), pow2(1, 65536), SIZE_TEST)


# ---------------------------------------------------------------------------------------------
# theoneone/uibk_parsys_19: Innsbruck Parallel Systems proseminar 2019, sheet 3: MPI 2-D heat stencil on LCC2
TO = "theoneone/uibk_parsys_19"
TO_C1 = "df476916cfaeb371cb7219a8f2a6cb6e034c624d"   # time_1, time_7, time_8 (and results.ods)
TO_C2 = "7ab15711130f5aa08bba4b2aa9bcea99817e4845"   # time_2 .. time_6


def to_data(n):
    d = {}
    for p in range(1, 9):
        with open(rp(TO, "assignment3_gol/time/time_%d.csv" % p)) as f:
            for line in f.read().splitlines():
                c = line.split(",")
                if int(c[0]) == n:
                    d[p] = [float(c[1])]
    return d


def build_to():
    common = ("MPI 2-D heat stencil (heat_stencil_2D_mpi.c, sheet 3 of the University of Innsbruck Parallel Systems "
              "proseminar 2019), time [s] over p = MPI ranks 1..8, at a fixed grid. The files time_<p>.csv each hold "
              "'N,time' for N = 64, 128, 256, 512; p as the number in the file name is an inference (the job script "
              "heat_stencil_2D_mpi.script asks '-pe openmpi-fillup 8' and runs 'mpiexec -n $NSLOTS', Open MPI 3.1.1 "
              "on the course's SGE cluster LCC2, 8 cores per node, so presumably one node). One run per point. "
              "time_1, 7, 8 read at commit %s, time_2..6 at %s (MANIFEST.tsv). " % (TO_C1[:12], TO_C2[:12]))
    cut = " Train p = 1..5, test p = 6, 7, 8 (the same cut for all four grids)."
    srcp = src(TO, TO_C1, "assignment3_gol/time/time_{1..8}.csv")
    one("to-heat2d-mpi-512-p", srcp, "p", "s",
        common + "Grid N = 512 (the largest). Not monotone: 89.7 s at p = 4 but 132.5 s at p = 5 (a non-square "
        "decomposition, presumably), as measured." + cut, to_data(512), [1, 2, 3, 4, 5], [6, 7, 8])
    one("to-heat2d-mpi-256-p", srcp, "p", "s",
        common + "Grid N = 256. Not monotone: 11.4 s at p = 4, 17.0 s at p = 5, as measured." + cut,
        to_data(256), [1, 2, 3, 4, 5], [6, 7, 8])
    one("to-heat2d-mpi-128-p", srcp, "p", "s",
        common + "Grid N = 128. Not monotone: 1.55 s at p = 4, 2.01 s at p = 5, as measured." + cut,
        to_data(128), [1, 2, 3, 4, 5], [6, 7, 8])
    one("to-heat2d-mpi-64-p", srcp, "p", "s",
        common + "Grid N = 64 (the smallest): flat at 0.33-0.37 s from p = 2 on (start-up dominated; values given "
        "to 0.01 s), as measured." + cut, to_data(64), [1, 2, 3, 4, 5], [6, 7, 8])


# ---------------------------------------------------------------------------------------------
# HenryCarr98/AWEgas: an OpenMP gas-dynamics code (gas.cpp) timed over threads, strong and weak
AW = "HenryCarr98/AWEgas"
AW_C1 = "50196187163d8509e3d4c98a436026c4b4d177d5"
AW_C2 = "549816981e0836c464d1f45c6aa20eea077afaec"


def aw(path, col):
    return {int(r["threads"]): [float(r[col])] for r in read_dicts(rp(AW, path))}


def build_aw():
    common = ("OpenMP program 'gas' (gas.cpp of the repository AWEgas; a cell-based gas simulation, the physics not "
              "read) timed over p = OMP_NUM_THREADS on one machine that is not named in the files read. One run per "
              "point. ")
    p1 = "var_thread/benchmark_threads_50000.csv"
    one("aw-gas-omp-strong-50k-p", src(AW, AW_C1, p1), "p", "s",
        common + "Strong scaling at 50000 cells, p = 1..14, wall time [s] by date +%s.%N around the run (the "
        "benchmark script of the same name). Flattens at about 16 s from p = 8 on, as measured. Train p = 1..7, "
        "test p = 8, 10, 12, 14.",
        aw(p1, "time_seconds"), [1, 2, 3, 4, 5, 6, 7], [8, 10, 12, 14])
    p2 = "var_thread/varthreads_100000_cells.csv"
    one("aw-gas-omp-strong-100k-p", src(AW, AW_C1, p2), "p", "s",
        common + "Strong scaling at 100000 cells, p = 1..32, 'execution_time_sec'. Falls from 176 s at 1 to about "
        "52-63 s from p = 7 on and stays there to 32 with single-run noise (51.4 s at 14, 60.2 s at 27), as "
        "measured. Train p = 1..16, test p = 20, 24, 28, 32.",
        aw(p2, "execution_time_sec"), list(range(1, 17)), [20, 24, 28, 32])
    p3 = "var_cells/weak_scaling_32threads_100000cells.csv"
    one("aw-gas-omp-weak-p", src(AW, AW_C2, p3), "p", "s",
        common + "Weak scaling: 3125 p cells on p threads, p = 1..32 (100000 cells at 32), 'execution_time_sec'. "
        "The time is far from flat: 0.17 s at 1, 16.6 s at 16, 58.6 s at 32 (the work per cell presumably grows "
        "with the number of cells, e.g. through the time-step count; not read), as measured. Train p = 1..16, test "
        "p = 20, 24, 28, 32.",
        aw(p3, "execution_time_sec"), list(range(1, 17)), [20, 24, 28, 32])


# ---------------------------------------------------------------------------------------------
# AnilKumt/matrix-access-analysis: multi-threaded matrix multiplication (course assignment, 'HPC Assignment Team 4')
AK = "AnilKumt/matrix-access-analysis"
AK_BL = "7307964a393103b515ec1832e439b25c681bdd2d", "reports/Q4_results/blocked.csv"
AK_IKJ = "3ffd9e0e5dd68745ea096b689c7c03a3f68d51ef", "reports/Q4_results/ikj_threads.csv"


def ak(path, n):
    return {int(r["threads"]): [float(r["time_seconds"])] for r in read_dicts(rp(AK, path))
            if int(r["matrix_size"]) == n}


def build_ak():
    common = ("Multi-threaded dense matrix multiplication of an HPC course assignment (question 4 of "
              "'HPC_Assignment-Team-4'; the threading library and the machine are not named in the files read), "
              "'time_seconds' over p = threads 1, 2, 4, 8, 16 at a fixed matrix order. One run per point. Only 4 "
              "training values (the minimum). ")
    cut = " Train p = 1, 2, 4, 8, test p = 16."
    one("ak-matmul-blocked-2048-p", src(AK, *AK_BL), "p", "s",
        common + "Blocked (tiled) loop order, N = 2048. Not monotone: 11.7 s at 4 threads, 14.5 s at 8, as "
        "measured." + cut, ak(AK_BL[1], 2048), [1, 2, 4, 8], [16])
    one("ak-matmul-blocked-1024-p", src(AK, *AK_BL), "p", "s",
        common + "Blocked loop order, N = 1024." + cut, ak(AK_BL[1], 1024), [1, 2, 4, 8], [16])
    one("ak-matmul-ikj-2048-p", src(AK, *AK_IKJ), "p", "s",
        common + "ikj loop order, N = 2048 (the file has CRLF line ends)." + cut, ak(AK_IKJ[1], 2048), [1, 2, 4, 8],
        [16])
    one("ak-matmul-ikj-1024-p", src(AK, *AK_IKJ), "p", "s",
        common + "ikj loop order, N = 1024 (the file has CRLF line ends)." + cut, ak(AK_IKJ[1], 1024), [1, 2, 4, 8],
        [16])


# ---------------------------------------------------------------------------------------------
# AlexZHazar/Parallel_Lab2: OpenMP matrix multiplication over the order N at 1, 2, 4, 8 threads
AZ = "AlexZHazar/Parallel_Lab2", "ced4187492b49102973b23eee06da82940a9d559", "timings_omp.csv"


def build_az():
    rows = read_dicts(rp(AZ[0], AZ[2]))
    for t in (1, 2, 4, 8):
        d = {int(r["N"]): [float(r["time_sec"])] for r in rows if int(r["threads"]) == t}
        one("az-matmul-omp-t%d-n" % t, src(*AZ), "n", "s",
            "OpenMP product of two N x N float matrices (a parallel-programming lab, Parallel_Lab2; the generating "
            "program writes timings_omp.csv with N = 200, 400, 800, 1200, 1600, 2000 and threads 1, 2, 4, 8), "
            "'time_sec' over n = the matrix order N at %d thread%s. One run per point; the machine is not named in "
            "the files read; the file has CRLF line ends. Train n = 200, 400, 800, 1200, test n = 1600, 2000."
            % (t, "" if t == 1 else "s"),
            d, [200, 400, 800, 1200], [1600, 2000])


BUILDERS = [build_mo, build_nc, build_ef, build_to, build_aw, build_ak, build_az]

if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
