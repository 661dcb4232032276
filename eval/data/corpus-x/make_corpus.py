#!/usr/bin/env python3
"""corpus-x (24 one-variable cases of mixed kinds from 6 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-x")
rp, one = CORPUS.rp, CORPUS.one


# ---------------------------------------------------------------------------------------------
# pentamorfico/ahpc: Applied HPC course, week 3 (OpenMP seismogram code), weak scaling over threads, 5 runs per point
AH = "pentamorfico/ahpc", "5524b6ff7197a9819f8561ced9d1aea12dcab559", "week3/results/data/detailed_weak_scaling.csv"


def build_ah():
    rows = read_dicts(rp(AH[0], AH[2]))
    common = ("OpenMP seismogram code (Applied HPC course, week 3: a frequency loop with FFTs, six OpenMP strategies), "
              "WEAK scaling: NFREQ = 65536 p frequencies on p = OpenMP threads 1..64, 5 repetitions per point "
              "(column Rep), each a training row; the test value is their median. y = Total_time [s] (the file also "
              "splits it into FFT_time and NonFFT_time; not used). The machine is not named in the file read (the job "
              "outputs weak_scaling_multi_13750.out and detailed_weak_scaling_13751.out are SLURM jobs, not read). "
              "As measured, the total grows from about 1.18 s at 1 thread to 3.5 s at 16 (the FFT part doubles per "
              "doubling of p, the non-FFT part stays at 1.06-1.24 s). The file is CUT to strategies 0-3 (the first four "
              "in its order). Train p=1,2,4,8,16, test p=32, 64. ")
    for s, name, extra in (("0", "Multiple_Regions", ""), ("1", "Fewer_Regions", ""), ("2", "Task_Based", ""),
                           ("3", "SIMD_Optimized", " One slow run at p=32 (6.529 s among 6.10-6.19 s; in the test "
                                                   "point's median, not in training).")):
        d = defaultdict(list)
        for r in rows:
            if r["Strategy"] == s:
                d[int(r["Threads"])].append(float(r["Total_time"]))
        assert all(len(v) == 5 for v in d.values()) and sorted(d) == [1, 2, 4, 8, 16, 32, 64]
        one("ah-seismogram-omp-weak-%s-p" % name.lower().replace("_", ""), src(*AH), "p", "s",
            common + "Strategy %s (%s)." % (s, name) + extra, d, [1, 2, 4, 8, 16], [32, 64])


# ---------------------------------------------------------------------------------------------
# TobiasRohner/MPI_Benchmark: an MPI_Alltoall / MPI_Sendrecv bandwidth benchmark on CSCS Piz Daint and Eiger
TR = "TobiasRohner/MPI_Benchmark"
TR_DAINT = "c76c522e32a4dfe477c40270b1a50b50fe30f5ac", "daint_mpich/slurm-mpi_2.43640920.out"
TR_EIGER = "45973d7ffbb152547400b256b65788865aaafba4", "eiger_mpich/slurm-mpi_2.1189083.out"
KB = 1024


def tr_runs(path):
    """{op: {message size in bytes: [GB/s]}} from the program's 'Message Size: ...' / '<op> Max Speed: ...GB/s' lines"""
    d = {"MPI_Alltoall": {}, "MPI_Sendrecv": {}}
    mult = {"KB": KB, "MB": KB * KB, "GB": KB * KB * KB}
    n = None
    with open(rp(TR, path)) as f:
        for line in f.read().splitlines():
            if line.startswith("Message Size: "):
                s = line.split()[2]
                n = int(s[:-2]) * mult[s[-2:]]
            elif " Max Speed: " in line:
                op, v = line.split(" Max Speed: ")
                d[op][n] = [float(v[:-len("GB/s")])]
    return d


def build_tr():
    train = [KB * 2 ** k for k in range(7)]          # 1 KiB .. 64 KiB
    test = [128 * KB, 256 * KB, 512 * KB]
    common = ("A student MPI benchmark (mpi_bandwidth.cpp @add6fe6ce293, not copied): for each message size n (bytes "
              "per destination rank, 1 KiB, 2 KiB, ... doubling) it times 100 MPI_Alltoall calls and 100 rounds of "
              "MPI_Sendrecv to every rank, each between two barriers, and prints the MAXIMUM of the 100 speeds, "
              "size*n bytes / 2^30 / time, as 'GB/s'. y = that best-of-100 speed [GB/s, as printed], a rate that "
              "rises with n. Two MPI ranks (job name mpi_2). "
              "One job, one printed value per size. The sweep starts at 1 KiB, not at a few bytes. The file is CUT to "
              "its 'Message Size' / 'Max Speed' lines (module-load errors and the job summary removed). Train n = 1 KiB "
              "..64 KiB (7 sizes), test n = 128, 256, 512 KiB (up to 8x). ")
    for tag, (commit, path), where in (
            ("daint", TR_DAINT, "CSCS Piz Daint: the job summary at the end of the original file (cut here) reports "
                                "job mpi_2 on 2 nodes, partition normal, 2022-12-20; the repository's daint_mpich/"
                                "submit_32.sh runs one task per node on the gpu constraint, so presumably one rank per "
                                "node here too (submit_2.sh not read). The directory name says MPICH (presumably Cray "
                                "MPICH, Aries network). "),
            ("eiger", TR_EIGER, "CSCS Eiger (directory eiger_mpich; its submit_2.sh was not read: the node count and "
                                "the placement of the 2 ranks are not known from the files read; one rank per node is "
                                "presumed from daint_mpich/submit_32.sh). ")):
        d = tr_runs(path)
        for op, short in (("MPI_Alltoall", "alltoall"), ("MPI_Sendrecv", "sendrecv")):
            one("tr-%s-%s-2ranks-n" % (tag, short), src(TR, commit, path), "n", "GB/s",
                common + where + "Here the %s speed." % op, d[op], train, test)


# ---------------------------------------------------------------------------------------------
# TheBoje/GIF-4104: Universite Laval GIF-4104 (parallel programming) TP3 (MPI) and TP4 (OpenACC), time over matrix order
TB = "TheBoje/GIF-4104"
TB_MPI = "06a4e2929a3765d527e2f8d553a30ed9e1b884fd", "TP3/results.csv"
TB_ACC = "4f602a42ea8c6a091786a5edb67a1156484b5060", "TP4/res_acc.csv"


def build_tb():
    rows = read_dicts(rp(TB, TB_MPI[1]))
    train = [4, 8, 16, 32, 64, 128, 256, 384, 512]
    test = [640, 768, 896, 1024]
    common = ("GIF-4104 TP3 (MPI, a matrix program run as 'mpirun -np p main N', README.md; presumably the course's "
              "matrix inversion, main.cpp not read): time [s] over n = matrix order N = 4..1024 (powers of two to 256, "
              "then steps of 128) at a fixed process count. One value per point (repetitions not stated). The machine "
              "is not named in the files read. Cut by a rule fixed for the size sweeps of this corpus: train up to "
              "half the largest measured size (n = 4..512, 9 sizes), test the rest (640, 768, 896, 1024; at most 2x). "
              "Times grow about 8x per doubling of N from 128 on (as an O(N^3) kernel would). ")
    for p, extra in ((1, " At n = 4 the time (5.0 ms) is 100x that at n = 8 (45 us): a start-up outlier inside "
                         "training, kept as measured."),
                     (2, ""),
                     (4, " The process count 3 of the file is not used (the rule takes p = 1, 2, 4).")):
        one("tb-matrix-mpi-%dp-n" % p, src(TB, *TB_MPI), "n", "s",
            common + "Here p = %d MPI process%s." % (p, "" if p == 1 else "es") + extra,
            {int(r["mat_size"]): [float(r["time"])] for r in rows if r["proc"] == str(p)}, train, test)
    acc = read_dicts(rp(TB, TB_ACC[1]))
    one("tb-matrix-openacc-n", src(TB, *TB_ACC), "n", "s",
        "GIF-4104 TP4, the OpenACC version (tp4-openacc/bench.sh @4f602a42: 'for size in 16 .. 4096: ./main size', one "
        "run each; the program is presumably the course's Gauss-Jordan matrix inversion, main.cpp not read; the GPU "
        "or host is not named in the files read): time [s] over n = matrix order 16..4096 (powers of two). Small "
        "sizes are dominated by fixed costs (3.4 ms at 16, 0.74 ms at 64); from 512 to 1024 the time jumps 17x "
        "(0.064 to 1.08 s), as measured. Train n = 16..2048 (8 sizes, up to half the largest), test n = 4096.",
        {int(r["mat_size"]): [float(r["time"])] for r in acc}, [16, 32, 64, 128, 256, 512, 1024, 2048], [4096])


# ---------------------------------------------------------------------------------------------
# uccl-project/uccl: RDMA all-to-all throughput tables of its expert-parallelism benchmarks
UC = "uccl-project/uccl", "3c693f06ea0bfd80afda5ad8c2fffd2a8970e6be", "ep/bench/rdma_alltoall_results.md"


def uc_tables():
    """two tables {nodes: {message size in KB: [Gb/s]}}: the plain one, then the rail-optimized one"""
    tables = []
    with open(rp(UC[0], UC[2])) as f:
        for line in f.read().splitlines():
            c = [x.strip() for x in line.strip().strip("|").split("|")]
            if c[0] == "Message Size (KB)":
                cols = [int(x.split()[0]) for x in c[1:]]
                tables.append({k: {} for k in cols})
            elif tables and len(c) == 4 and c[0].isdigit():
                for k, v in zip(cols, c[1:]):
                    tables[-1][k][int(c[0])] = [float(v)]
    return tables


def build_uc():
    plain, rail = uc_tables()
    train = [8, 16, 32, 64, 128, 256, 512]
    test = [1024, 2048, 4096]
    common = ("UCCL (uccl-project/uccl) expert-parallelism benchmark results: RDMA all-to-all throughput [Gb/s] over "
              "n = message size in KB (the file's unit; 8 KB .. 4096 KB, doubling), one value per point (the file "
              "does not say whether it is one run or a mean). The hardware (GPUs, NICs) is not stated in the file "
              "read. The sweep starts at 8 KB, not at a few bytes. A rate that rises with n and saturates: the file's "
              "own notes say 2 nodes reach about 41 Gb/s near 2 MB and 4 nodes saturate near 128 KB at about 25 Gb/s. "
              "Cases taken by a fixed rule: 2 and 4 nodes of both tables (3 nodes left out). Train n = 8..512 KB "
              "(7 sizes), test n = 1024, 2048, 4096 KB (up to 8x). ")
    for tag, tab, what in (("plain", plain, "First table (plain RDMA all-to-all). "),
                           ("rail", rail, "Second table: 'rail-optimized (no cross-rail traffic)' all-to-all. ")):
        for nodes in (2, 4):
            one("uc-rdma-alltoall-%s-%dnodes-n" % (tag, nodes), src(*UC), "n", "Gb/s",
                common + what + "Column '%d Nodes'." % nodes, tab[nodes], train, test)


# ---------------------------------------------------------------------------------------------
# tinecolman/ramses-benchmarks-prototype2: RAMSES (astrophysics AMR code) Sedov blast, 1024^3, strong scaling on MeluXina
RM = ("tinecolman/ramses-benchmarks-prototype2", "11da56bf8149f1e4e2ffbfa80ac65453bf887fda",
      "results/results_sedov_meluxina.md")


def rm_table():
    """{version: {nodes: [time]}} from the table 'Evolution of execution time with code version'"""
    d = {}
    with open(rp(RM[0], RM[2]), encoding="utf-8") as f:
        lines = f.read().splitlines()
    i = lines.index("## Evolution of execution time with code version")
    hdr = None
    for line in lines[i:]:
        if line.startswith("## Strong scaling evolution"):
            break
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if c[0] == "Nodes":
            hdr = c
            d = {v: {} for v in hdr[1:5]}
        elif hdr and c[0].isdigit():
            for v, x in zip(hdr[1:5], c[1:5]):
                d[v][int(c[0])] = [float(x)]
    return d


def build_rm():
    d = rm_table()
    common = ("RAMSES (adaptive-mesh astrophysics code) benchmark 'sedov' at resolution 1024 (the evolution figure's "
              "name says sedov_1024), strong scaling on the EuroHPC MeluXina cluster: execution time over p = nodes "
              "1..64, MPI only on full nodes (the page's words). Each value is 'an average of multiple runs' (the count "
              "is not stated); the unit is not stated (seconds, presumably: 168 at 1 node). The page's time table "
              "gives one column per code release; the 'openmp' column (mixed MPI/OpenMP layouts) is not used. Near-"
              "ideal scaling to 32 nodes; the page's efficiency at 64 nodes is 0.74-0.82. Train p = 1, 2, 4, 8, 16, "
              "test p = 32, 64 (the first 5 of 7 counts). ")
    for v in ("2024-10", "2025-05", "2025-10", "2026-05"):
        one("rm-ramses-sedov1024-strong-%s-p" % v.replace("-", ""), src(*RM), "p", "s",
            common + "Code release %s." % v, d[v], [1, 2, 4, 8, 16], [32, 64])


# ---------------------------------------------------------------------------------------------
# odissei-benchmarks/nccl-tests: nccl-tests all_reduce_perf logs on H100 nodes (the repository: "NCCL Tests for OSSC and Snellius")
NC = "odissei-benchmarks/nccl-tests", "db955d0c9465ecc06a63f4d34a8bfc435e6ff97a"


def nc_table(path):
    """{'oop': {size in bytes: [time us]}, 'ip': {...}} from the data rows of an all_reduce_perf log"""
    d = {"oop": {}, "ip": {}}
    with open(rp(NC[0], path)) as f:
        for line in f.read().splitlines():
            c = line.split()
            if len(c) == 13 and c[0].isdigit() and c[3] == "sum":
                d["oop"][int(c[0])] = [float(c[5])]
                d["ip"][int(c[0])] = [float(c[9])]
    return d


def build_nc():
    common = ("nccl-tests all_reduce_perf (float sum, NCCL 2.22.3, 5 warm-up and 20 timed iterations per size, the "
              "log's header) on NVIDIA H100 GPUs: time [us] over n = message size in bytes, one run, the column "
              "'time' of %s. The repository says its tests are for the Snellius and OSSC clusters; which one ran "
              "this log is not stated in it (nodes named gcn*, presumably Snellius). The file is CUT to its "
              "nccl-tests header and result lines (the NCCL INFO lines removed). Cut fixed in advance, as in earlier "
              "corpora: train n up to 64 KiB, test n = 128, 256, 512 KiB (up to 8x). ")
    one1 = ("runs/1node/all_reduce.log", "1 node, 4 GPUs driven by one process (nGpus 4), sizes 4 B .. 128 MiB. Nearly "
            "flat at 16.5-17.9 us up to 128 KiB in both columns, 19.3-19.5 us at 256 KiB, 20.3-20.5 us at 512 KiB, as measured. Train n = 4 B .. "
            "64 KiB (15 sizes).")
    two = ("runs/2nodes/all_reduce.log", "2 nodes x 4 GPUs, 8 MPI ranks (all_reduce_perf_mpi, InfiniBand with GPU "
           "Direct RDMA per the log), sizes 8 B .. 8 GiB; the copy keeps the rows to 1 MiB (the 2 MiB row is broken "
           "by interleaved INFO lines in the original). Train n = 8 B .. 64 KiB (14 sizes).")
    for tag, (path, what) in (("1node4gpu", one1), ("2node8gpu", two)):
        d = nc_table(path)
        for col, name, extra in (("oop", "out-of-place", ""), ("ip", "in-place", "")):
            note = (common % ("the %s half" % name)) + what
            if tag == "2node8gpu" and col == "oop":
                note += (" One outlier inside training: 90.85 us at 16 KiB (22.6 us in place, 22.8 and 24.0 us "
                         "at 8 and 32 KiB), kept as measured.")
            if tag == "2node8gpu" and col == "ip":
                note += " The first size, 8 B, is 17.42 us in place against 20.09 us out of place."
            lo = 4 if tag == "1node4gpu" else 8
            train = [x for x in sorted(d[col]) if lo <= x <= 65536]
            one("nc-nccl-allreduce-%s-%s-n" % (tag, "oop" if col == "oop" else "inplace"), src(NC[0], NC[1], path),
                "n", "us", note, d[col], train, [131072, 262144, 524288])


BUILDERS = [build_ah, build_tr, build_tb, build_uc, build_rm, build_nc]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
