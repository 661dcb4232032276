#!/usr/bin/env python3
"""corpus-p (20 one-variable cases from 6 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-p")
rp, one = CORPUS.rp, CORPUS.one

SIZES_TO_4M = [2 ** k for k in range(0, 23)]      # 1 B .. 4 MiB
TRAIN_TO_512K, TEST_TO_4M = SIZES_TO_4M[:20], SIZES_TO_4M[20:]
SIZE_CUT = " Train n=1..524288 (20 sizes), test n=1048576, 2097152, 4194304 (up to 8x)."


def md_rows(path):
    """the cells of every markdown table row whose first cell is an integer"""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.startswith("|"):
                c = [x.strip() for x in line.strip().strip("|").split("|")]
                if c and c[0].isdigit():
                    out.append(c)
    return out


def osu_blocks(path):
    """[{size: value}] for each '# OSU ...' block of a plain OSU output (two columns), in file order"""
    blocks = []
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.startswith("# OSU"):
                blocks.append({})
            elif blocks and line.strip() and line.split()[0].isdigit() and len(line.split()) == 2:
                blocks[-1][int(line.split()[0])] = float(line.split()[1])
    return blocks


# ---------------------------------------------------------------------------------------------
# DeiC-HPC/BitBulldozersLab: OSU 7.5 osu_latency between 2 LUMI-G nodes from a "pure" container (MPICH 3.1.4, libfabric 1.15.2)
DE = "DeiC-HPC/BitBulldozersLab", "08704797b13efb41d158b3219271724e385a5a9c", "docker_builds/README.md"


def build_de():
    rows = md_rows(rp(DE[0], DE[2]))
    assert [int(r[0]) for r in rows] == SIZES_TO_4M
    common = ("OSU Micro-Benchmarks 7.5 osu_latency (2 ranks, ping-pong), 'Avg Latency(us)' over n = message size in bytes, "
              "from the results of the 'pure container' approach of a DeiC study of MPI containers on LUMI (AMD MI250X "
              "GPU nodes, Slingshot-11): the image base_image_mpich314_libfabric1152.sif with its own MPICH and libfabric, "
              "nothing bind-mounted, so the README says communication runs over TCP/IP sockets rather than the CXI "
              "provider. The run scripts ask 2 nodes, one task per node (run_opensource.sh of the same repository; the "
              "pure-container script was not read). One run per size (a column of a markdown table in README.md). ")
    for col, tag, what in ((1, "hh", "host buffers on both sides (Host to Host)"),
                           (2, "hd", "host to device buffers (Host to Device, GPU memory on the receiving rank)"),
                           (3, "dh", "device to host buffers (Device to Host)"),
                           (4, "dd", "GPU buffers on both sides (Device to Device)")):
        d = {int(r[0]): [float(r[col])] for r in rows}
        one("de-osu-latency-container-%s-n" % tag, src(*DE), "n", "us",
            common + "Buffers: " + what + ". Flat at about 12 us up to 128 B, steps at 256 B and 1 KiB, then growing "
            "with n (as measured; the RCCL column of the same table is not used)." + SIZE_CUT,
            d, TRAIN_TO_512K, TEST_TO_4M)


# ---------------------------------------------------------------------------------------------
# converged-computing/usernetes-azure: OSU 5.8 osu_allreduce with 96 ranks per node on Azure nodes, bare metal and Usernetes
UA = "converged-computing/usernetes-azure", "4d50f188005b2056344b97261d1f753db27f2d0e", "experiments/first_results/osu.txt"
UA_TRAIN = [2 ** k for k in range(2, 18)]          # 4 .. 131072
UA_TEST = [262144, 524288, 1048576]
UA_CUT = " Train n=4..131072 (16 sizes), test n=262144, 524288, 1048576 (up to 8x)."


def build_ua():
    b = osu_blocks(rp(UA[0], UA[2]))
    assert len(b) == 6 and all(sorted(x) == UA_TRAIN + UA_TEST for x in b)
    common = ("OSU Micro-Benchmarks 5.8 osu_allreduce, 'Avg Latency(us)' over n = message size in bytes (4 B .. 1 MiB), "
              "96 MPI ranks per node (flux run --tasks-per-node=96 -o cpu-affinity=per-task), Open MPI, on Azure VMs of "
              "a study of Usernetes (rootless Kubernetes) against bare metal (the first results file; the VM type is not "
              "named in the file read, 96 cores per node suggests HB-series with InfiniBand, not verified). In every run "
              "of the file the time drops between 131072 and 262144 B (an algorithm switch of the MPI library), so all "
              "three test points lie past that drop: a regime change exactly at the cut, as measured. ")
    one("ua-osu-allreduce-bare-1node-n", src(*UA), "n", "us",
        common + "Bare metal, 1 node (96 ranks). One run." + UA_CUT,
        {k: [v] for k, v in b[0].items()}, UA_TRAIN, UA_TEST)
    one("ua-osu-allreduce-bare-2nodes-n", src(*UA), "n", "us",
        common + "Bare metal, 2 nodes (192 ranks). One run. Not monotone inside the training range: 8192 B (308 us) is "
        "slower than 16384 B (101 us), 32768 B (409 us) slower than 65536 B (157 us), as measured." + UA_CUT,
        {k: [v] for k, v in b[1].items()}, UA_TRAIN, UA_TEST)
    one("ua-osu-allreduce-usernetes-1node-n", src(*UA), "n", "us",
        common + "Inside Usernetes, 1 node (96 ranks). One run." + UA_CUT,
        {k: [v] for k, v in b[2].items()}, UA_TRAIN, UA_TEST)
    d = defaultdict(list)
    for blk in b[3:6]:
        for k, v in blk.items():
            d[k].append(v)
    one("ua-osu-allreduce-usernetes-2nodes-n", src(*UA), "n", "us",
        common + "Inside Usernetes, 2 nodes (192 ranks). Three runs (the three blocks after the 2-node Usernetes command), "
        "each a training row; the test value is their median. The same non-monotone pattern as on bare metal at "
        "8192-65536 B." + UA_CUT,
        d, UA_TRAIN, UA_TEST)


# ---------------------------------------------------------------------------------------------
# Lumi-supercomputer/lumi-userguide: OSU 5.3.2 osu_bw between 2 LUMI nodes from a container, host MPI vs container MPI
LU = "Lumi-supercomputer/lumi-userguide", "0ff8fc9229a2fc864e3cb2817b312d6527d48eca", "docs/runjobs/scheduled-jobs/container-jobs.md"


def build_lu():
    b = osu_blocks(rp(LU[0], LU[2]))
    assert len(b) == 2 and all(sorted(x) == SIZES_TO_4M for x in b)
    common = ("OSU Micro-Benchmarks 5.3.2 osu_bw, 'Bandwidth (MB/s)' over n = message size in bytes, 2 nodes of LUMI "
              "(srun --nodes=2), from the LUMI user guide's page on container jobs (an example output shown 'along the "
              "lines of' what a user gets; a real run, but the date, partition and node type are not stated). A RATE "
              "that rises and saturates, not a time. One run per size. ")
    one("lu-osu-bw-hostmpi-n", src(*LU), "n", "MB/s",
        common + "The container's MPICH replaced by the host Cray MPICH (singularity-bindings module). Saturates near "
        "12.2 GB/s from about 256 KiB on." + SIZE_CUT,
        {k: [v] for k, v in b[0].items()}, TRAIN_TO_512K, TEST_TO_4M)
    one("lu-osu-bw-containermpi-n", src(*LU), "n", "MB/s",
        common + "The MPI stack inside the container (srun --mpi=pmi2), which the page says gives lower bandwidth. "
        "Irregular: a jump at 128 KiB (1452 to 2373 MB/s) and a dip at 256 KiB, and the 4 MiB value (2381) is below "
        "the 2 MiB one (2482), as measured." + SIZE_CUT,
        {k: [v] for k, v in b[1].items()}, TRAIN_TO_512K, TEST_TO_4M)


# ---------------------------------------------------------------------------------------------
# 1-oz/distributedIsoRank: a distributed IsoRank (network alignment) over 1-16 ranks, one per node
IR = "1-oz/distributedIsoRank", "990dd2f60d6ee8e8b47280a5280fe904fbdeb183", "results.md"


def build_ir():
    rows = md_rows(rp(IR[0], IR[2]))   # none: the first cell is 'Serial' or 'k nodes', so the second cell is read
    tables, cur = [], None
    with open(rp(IR[0], IR[2]), encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.startswith("### "):
                cur = {}
                tables.append((line[4:], cur))
            elif line.startswith("|") and cur is not None:
                c = [x.strip() for x in line.strip().strip("|").split("|")]
                if c[1].isdigit():
                    cur[int(c[1])] = [float(c[2].split()[0])]
    assert not rows and [sorted(t) for _, t in tables] == [[1, 2, 4, 8, 16]] * 3
    common = ("Distributed IsoRank (network alignment of two protein-interaction graphs), 'Runtime (s)' over p = MPI ranks "
              "1..16, one rank per node ('Serial' = 1 rank; '2 nodes' = 2 ranks, ...), strong scaling of a fixed problem. "
              "The cluster is not named in the file read. One run per p (a table of results.md; no repetitions "
              "stated). Train p=1,2,4,8 (only 4 values), test p=16. ")
    for (title, d), tag, what in zip(tables, ("s2k", "m5k", "l10k"),
                                     ("S2k benchmark (graphs of about 2k nodes): 4.04 s serial, 1.5-1.9 s from 2 ranks on",
                                      "M5k benchmark (about 5k nodes): 48.5 s serial, 21.3 s at 2 ranks, 15.2 s at 8",
                                      "L10k benchmark (about 10k nodes): 288 s serial, 108 s at 2 ranks, 92 s at 8")):
        assert title.startswith(tag.upper()[:2]) or tag in title.lower()
        one("ir-isorank-%s-p" % tag, src(*IR), "p", "s",
            common + what + ": the time flattens early, as measured.", d, [1, 2, 4, 8], [16])


# ---------------------------------------------------------------------------------------------
# TechSnail7/UCS645: Thapar UCS645 lab 1 (OpenMP) on an Intel Core i5-1240P laptop CPU, 1-16 threads
TS = "TechSnail7/UCS645", "40a33aa50bbca1a1a5369cbd71911766c25e37ba"
TS_CUT = " Train p=1,2,4,6,8, test p=10,12,14,16 (up to 2x)."
TS_COMMON = ("OpenMP exercise of the UCS645 Parallel and Distributed Computing course (Thapar Institute), lab 1, one "
             "student; 'Time (sec)' over p = OpenMP threads 1..16 (num_threads) on an Intel Core i5-1240P (4 P-cores "
             "with 2 hardware threads each and 8 E-cores: 12 cores, 16 threads), as the README states. One value per p, "
             "rounded to 1 ms (whether a single run or a mean is not stated). ")


def ts_table(path, which=0):
    """the which-th table of (threads, time) rows of a TechSnail7 README"""
    tables, prev = [], None
    for c in md_rows(rp(TS[0], path)):
        p = int(c[0])
        if prev is None or p <= prev:
            tables.append({})
        tables[-1][p] = [float(c[1])]
        prev = p
    assert all(sorted(t) == [1, 2, 4, 6, 8, 10, 12, 14, 16] for t in tables)
    return tables[which]


def build_ts():
    tr, te = [1, 2, 4, 6, 8], [10, 12, 14, 16]
    q1, q2, q3 = "Lab1/Question_1/README.md", "Lab1/Question_2/README.md", "Lab1/Question_3/README.md"
    one("ts-omp-daxpy-p", src(TS[0], TS[1], q1), "p", "s",
        TS_COMMON + "DAXPY X = aX + Y on 65,536 doubles, 10,000 iterations, built -O0: memory-bound; fastest at 4 "
        "threads (0.773 s) and slower beyond (0.98 s at 8, 1.12 s at 16), as measured." + TS_CUT,
        ts_table(q1), tr, te)
    one("ts-omp-matmul-1d-p", src(TS[0], TS[1], q2), "p", "s",
        TS_COMMON + "Integer matrix multiplication 1000 x 1000, outer loop parallel (1-D), built -O0: 3.66 s at 1 thread, "
        "0.49 s at 8." + TS_CUT, ts_table(q2, 0), tr, te)
    one("ts-omp-matmul-2d-p", src(TS[0], TS[1], q2), "p", "s",
        TS_COMMON + "The same matrix multiplication with collapse(2) (2-D), built -O0: 3.56 s at 1 thread, 0.54 s at 8." +
        TS_CUT, ts_table(q2, 1), tr, te)
    one("ts-omp-pi-p", src(TS[0], TS[1], q3), "p", "s",
        TS_COMMON + "Pi by the midpoint rule with 500 million steps and a reduction, built -O2: 0.758 s at 1 thread, "
        "0.145 s at 8; not monotone beyond (0.118 s at 10, 0.125 s at 12), as measured." + TS_CUT,
        ts_table(q3), tr, te)


# ---------------------------------------------------------------------------------------------
# mannya02/UCS645_102316067: another student of the same course, lab 1, 2-12 threads on an unnamed machine
MA = "mannya02/UCS645_102316067"
MA_Q2 = "13674547dbec912616923381e32f854be4564890", "LAB1/Q2_Matrix_Multiplication/README.md"
MA_Q3 = "4e524a7b4fd37b6544600a0d894ab0017ce1b984", "LAB1/Q3_PI_Calculation/README.md"
MA_CUT = " Train p=2..8 (7 values), test p=9, 10, 11, 12 (up to 1.5x)."
MA_COMMON = ("OpenMP exercise of the UCS645 course (Thapar Institute), lab 1, another student; 'Execution Time (seconds)' "
             "over p = OpenMP threads 2..12 (no 1-thread row in the table). The machine is not named (presumably a "
             "laptop with 12 hardware threads or fewer, not stated). One value per p (not said whether one run). ")


def ma_tables(path):
    tables, prev = [], None
    for c in md_rows(rp(MA, path)):
        p = int(c[0])
        if prev is None or p <= prev:
            tables.append({})
        tables[-1][p] = [float(c[1])]
        prev = p
    assert all(sorted(t) == list(range(2, 13)) for t in tables)
    return tables


def build_ma():
    tr, te = list(range(2, 9)), [9, 10, 11, 12]
    t2 = ma_tables(MA_Q2[1])
    one("ma-omp-matmul-1d-p", src(MA, *MA_Q2), "p", "s",
        MA_COMMON + "Matrix multiplication (1000 x 1000 in the course's statement), outer loop parallel: 0.92 s at 2 "
        "threads, 0.50 s at 7, then slower again (0.72 s at 12), as measured." + MA_CUT, t2[0], tr, te)
    one("ma-omp-matmul-2d-p", src(MA, *MA_Q2), "p", "s",
        MA_COMMON + "The same with collapse(2): 0.91 s at 2 threads, 0.45 s at 7, noisy (0.58 s at 8, 0.48 s at 9, "
        "0.65 s at 12), as measured." + MA_CUT, t2[1], tr, te)
    one("ma-omp-pi-p", src(MA, *MA_Q3), "p", "s",
        MA_COMMON + "Pi by numerical integration with a reduction: 0.108 s at 2 threads, 0.054 s at 8, about 0.06 s "
        "beyond, as measured." + MA_CUT, ma_tables(MA_Q3[1])[0], tr, te)


BUILDERS = [build_de, build_ua, build_lu, build_ir, build_ts, build_ma]

if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
