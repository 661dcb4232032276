#!/usr/bin/env python3
"""corpus-n (21 one-variable cases from 10 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-n")
rp, one = CORPUS.rp, CORPUS.one


def osu_blocks(repo, path):
    """The OSU tables of a file, in order: a new table starts at every line beginning '# OSU'; its rows are the
    following lines whose first field is an integer size and whose second is a number. Size 0 is left out."""
    blocks = []
    with open(rp(repo, path)) as f:
        for line in f.read().splitlines():
            s = line.strip()
            if s.startswith("# OSU"):
                blocks.append({})
                continue
            c = s.split()
            if blocks and len(c) >= 2 and c[0].isdigit() and re.fullmatch(r"[0-9.]+", c[1]):
                if int(c[0]) > 0:
                    blocks[-1][int(c[0])] = [float(c[1])]
    return blocks


def pow2(lo, hi):
    return [2 ** k for k in range(lo, hi + 1)]


# ---------------------------------------------------------------------------------------------
# eth-cscs/cray-network-stack: OSU runs in the README of the OSU container with Open MPI 5 and CXI (Alps, Clariden)
CN = "eth-cscs/cray-network-stack", "527cde9f680176e206a55e04f03389f76c58bf72", "examples/container/osu-ompi/README.md"
CN_COMMON = ("OSU Micro-Benchmarks 7.5 in a container with Open MPI 5 and libfabric CXI (HPE Slingshot), run by CSCS staff "
             "on Clariden (a vCluster of Alps; GH200 nodes, presumably) with srun --mpi=pmix, printed in the README of the "
             "image (examples/container/osu-ompi). One run per size, the average latency [us] OSU prints over its "
             "iterations. ")


# ---------------------------------------------------------------------------------------------
# eth-cscs/cscs-docs: OSU runs on the page of the MPICH container image (Alps, with and without the CXI hook)
CD = "eth-cscs/cscs-docs", "5d74d5988d402d5b3676d45702835662cef3ac3b", \
    "docs/software/container-engine/guidelines-images/image-mpich.md"
CD_COMMON = ("OSU Micro-Benchmarks 7.5.1 in a container with MPICH 4.3.1 (libfabric 1.22, CUDA 12.8), run on Alps (GH200 "
             "nodes; the page says 'Alps GH200 nodes') through the CSCS Container Engine with srun --mpi=pmi2, printed "
             "on the CSCS documentation page of the image with --validation (every row 'Pass'). One run per size, "
             "OSU's average latency [us]. Another MPI and another page than the cn-* cases (same site, staff and "
             "machine family). ")


# ---------------------------------------------------------------------------------------------
# eth-cscs/sarus: the OSU cookbook page of the Sarus container engine (Piz Daint, Cray Aries, 2019-era)
SA = "eth-cscs/sarus", "3434a47e444f85126824cf95a3da562b56a756ce", "doc/cookbook/osu_mb/osu_mb.rst"
SA_COMMON = ("OSU Micro-Benchmarks 5.3.2 in a Sarus container with MPICH 3.1.4, replaced at run time by the host's Cray MPT "
             "through Sarus's native MPI hook, on Piz Daint (srun -C gpu -N2: two XC50 GPU nodes, Cray Aries network; "
             "the page names Piz Daint). One run per size as printed on the page (the page's plots, not used, average "
             "several). ")


# The two cuts of the OSU sweeps above: latency (train 1 B..512 KiB, test 1..4 MiB) and alltoall (train
# 1 B..128 KiB, test 256 KiB..1 MiB); each note ends with its cut.
LAT = " Train n=1..524288 B (20 sizes), test n=1, 2, 4 MiB (up to 8x).", pow2(0, 19), pow2(20, 22)
A2A = " Train n=1..131072 B (18 sizes), test n=256 KiB, 512 KiB, 1 MiB (up to 8x).", pow2(0, 17), pow2(18, 20)

# (site, its common note, [(case name, note, cut)] in the order of the site's OSU tables)
OSU_PAGES = [
    (CN, CN_COMMON, [
        ("cn-osu-latency-ompi-cxi-host-n",
         "osu_latency between 2 nodes (-N2), host buffers, over n = message size in bytes. A step at 128 B "
         "(3.35 to 4.33 us) and one at 8 KiB (5.1 to 10.9 us) lie inside the training range.", LAT),
        ("cn-osu-latency-ompi-cxi-gpu-n",
         "osu_latency D D between 2 nodes: both buffers in GPU memory (CUDA), over n = message size in "
         "bytes. Not monotone: about 19.5-20.7 us up to 128 B, then 11.7 us from 256 B (a protocol change), as "
         "measured; a step again at 8 KiB.", LAT),
        ("cn-osu-alltoall-ompi-cxi-host-n",
         "osu_alltoall with 8 ranks on 2 nodes (--ntasks-per-node=4), host buffers, over n = message size "
         "per rank pair in bytes (OSU's size). A step at 8 KiB inside the training range.", A2A),
        ("cn-osu-alltoall-ompi-cxi-gpu-n",
         "osu_alltoall -d cuda with 8 ranks on 2 nodes (--ntasks-per-node=4), GPU buffers, over n = message "
         "size in bytes. Flat at about 20 us up to 4 KiB, a step at 8 KiB.", A2A)]),
    (CD, CD_COMMON, [
        ("cd-osu-latency-mpich-cxi-n",
         "osu_latency between 2 nodes (-N2), host buffers, with the CXI hook (Slingshot), over n = message "
         "size in bytes. Steps at 128 B and 8 KiB inside the training range.", LAT),
        ("cd-osu-alltoall-mpich-cxi-n",
         "osu_alltoall with 8 ranks on 2 nodes (--ntasks-per-node=4), host buffers, with the CXI hook, over "
         "n = message size in bytes. A jump from 29 to 69 us between 8 and 16 KiB inside the training range.", A2A),
        ("cd-osu-latency-mpich-nocxi-n",
         "osu_latency between 2 nodes, host buffers, WITHOUT the CXI hook (EDF annotation "
         "com.hooks.cxi.enabled=false: the container's own libfabric, not Slingshot's fast path; the page shows it as the "
         "slow case). About 38 us at small sizes; not monotone: 59.6 us at 1 KiB, 48.8 us at 2 KiB, as measured.", LAT),
        ("cd-osu-alltoall-mpich-nocxi-n",
         "osu_alltoall with 8 ranks on 2 nodes, host buffers, WITHOUT the CXI hook. Not monotone: a doubling "
         "at 256 B (171 to 334 us), 704 us at 1 KiB and 449 us at 2 KiB, as measured.", A2A)]),
    (SA, SA_COMMON, [
        ("sa-osu-latency-daint-n",
         "osu_latency between 2 nodes, 'Latency (us)' over n = message size in bytes (size 0 left out).", LAT),
        ("sa-osu-alltoall-daint-n",
         "osu_alltoall on 2 nodes (the number of ranks is not stated: srun -N2 without -n, so presumably "
         "one rank per node), average latency over n = message size in bytes. A step at 128 B (5.2 to 11.4 us) inside "
         "the training range.", A2A)]),
]


def build_osu_pages():
    for site, common, cases in OSU_PAGES:
        b = osu_blocks(site[0], site[2])
        assert len(b) == len(cases)
        for block, (name, note, (cut, train, test)) in zip(b, cases):
            one(name, src(*site), "n", "us", common + note + cut, block, train, test)


# ---------------------------------------------------------------------------------------------
# oracle-japan/ocitutorials: the OSU how-to of the OCI HPC tutorials (BM.Optimized3.36, RoCEv2 cluster network)
OC = "oracle-japan/ocitutorials", "3d4273018c21f36719d788643cbfcd6d7b515d70", "tutorials/_hpc/benchmark/run-omb-hpc.md"
OC_COMMON = ("OSU Micro-Benchmarks 7.5.1 with Open MPI 5.0.8 (UCX) on Oracle Cloud BM.Optimized3.36 bare-metal nodes (36 "
             "cores, 3rd-generation Intel Xeon; 100 Gbps RoCEv2 'cluster network'), printed in the Japanese OCI HPC "
             "tutorial on running OSU (run-omb-hpc.md). One run per size, run with -x 10 -i 10 (10 warm-up and only 10 "
             "timed iterations), OSU's average latency [us]. ")


def build_oc():
    b = osu_blocks(OC[0], OC[2])
    assert len(b) == 2
    one("oc-osu-alltoall-36r-n", src(*OC), "n", "us",
        OC_COMMON + "osu_alltoall with 36 ranks on ONE node (all cores; mpirun -n 36), over n = message size in bytes, "
        "1 B to 64 MiB. Very irregular at small sizes, as measured: 114 us at 64 B, 88 us at 128 B, 584 us at 2 KiB "
        "then 58 us at 4 KiB (an algorithm switch); about 2x per doubling from 64 KiB on. Train n=1 B..8 MiB (24 "
        "sizes), test n=16, 32, 64 MiB (up to 8x).",
        b[0], pow2(0, 23), pow2(24, 26))
    one("oc-osu-allreduce-144r-n", src(*OC), "n", "us",
        OC_COMMON + "osu_allreduce (MPI_INT) with 144 ranks on 4 nodes (36 per node), over n = message size in bytes, "
        "4 B to 256 MiB. Very irregular in the middle, as measured: 3214 us at 32 KiB, 160 us at 64 KiB, 3675 us at "
        "128 KiB, 3577 us at 1 MiB after 5021 us at 512 KiB (10 timed iterations only); about 2x per doubling from "
        "8 MiB on. Train n=4 B..32 MiB (24 sizes), test n=64, 128, 256 MiB (up to 8x).",
        b[1], pow2(2, 25), pow2(26, 28))


# ---------------------------------------------------------------------------------------------
# ULHPC/tutorials: the Spack tutorial of the University of Luxembourg HPC (an osu_alltoall on 2 x 128 ranks)
UL = "ULHPC/tutorials", "326e15bede5b63ad0dd44818f8d2bfc99cc27ed7", "tools/spack/README.md"


def build_ul():
    b = osu_blocks(UL[0], UL[2])
    assert len(b) == 1
    one("ul-osu-alltoall-256r-n", src(*UL), "n", "us",
        "osu_alltoall (OSU Micro-Benchmarks 7.1-1, Open MPI 4.0.5 built by Spack with Slurm/PMIx support) with 256 "
        "ranks on 2 nodes (SBATCH --nodes=2 --ntasks-per-node=128, partition batch of the ULHPC cluster; 'zen' in "
        "the Spack arch: AMD EPYC, presumably the Aion cluster), over n = message size in bytes 1..256 (the output is "
        "shown only to 256 B; the page says 'You should see something like this' after '[...]'). One run. DOUBTFUL: "
        "478 us at 1 B and about 2x per doubling of a message of a few bytes is not the usual shape of an alltoall "
        "latency; it is kept as printed, flagged. Train n=1..32 B (6 sizes), test n=64, 128, 256 B (up to 8x).",
        b[0], pow2(0, 5), pow2(6, 8))


# ---------------------------------------------------------------------------------------------
# lanl/benchmarks: the documentation of the LANL ATS-5 benchmarks (CSV tables of strong-scaling figures of merit)
LA = "lanl/benchmarks"
LA_SPP1 = "66e05832d94bae4ab1b7d09486877dbc565cef40", "doc/sphinx/06_umt/spp1_strong_scaling_cts2.csv"
LA_SPP2 = "bace28a3ca947cdd30b00f7c5cca4091279ad3c3", "doc/sphinx/06_umt/spp2_strong_scaling_cts2.csv"
LA_AMG = "d27d77d2392e156ad43c146ef2ff8b467fdbeb20", "doc/sphinx/02_amg/cpu1_200.csv"
LA_MLMD = "026983a2d4884ab510fc0ac5379762c7986df656", "doc/sphinx/05_mlmd/cpu_4k.csv"
LA_NOTE = (" The value is a figure of merit, a RATE (higher is better), not a time. The 'Ideal' column of the file is "
           "computed by the authors and not used. One value per core count (whether a single run or a mean is not "
           "stated in the file).")


def la_col(path, xcol, ycol):
    return {int(r[xcol].strip()): [float(r[ycol].strip())] for r in read_dicts(rp(LA, path))}


def build_la():
    for name, (commit, path), sp in (("la-umt-spp1-cts2-strong-p", LA_SPP1, "1"), ("la-umt-spp2-cts2-strong-p", LA_SPP2, "2")):
        d = la_col(path, "Cores", "Actual")
        xs = sorted(d)
        one(name, src(LA, commit, path), "p", "unknowns/s",
            "UMT (LLNL's deterministic radiation-transport mini-app), LANL ATS-5 benchmark, single-node strong scaling of "
            "SPP %s (its standard problem %s) over p = cores 1..112 of one CTS-2 node (the file name; a 112-core "
            "Sapphire Rapids node, presumably), column 'Actual': figure of merit in unknowns/sec (the y label of the "
            "repository's gnuplot script for this plot)." % (sp, sp) + LA_NOTE +
            (" Measured cores: 1, 4, 8, 16, 32, 64, 96, 112; it flattens from 16 to 64 cores (227M, 258M, 252M) and "
             "rises again at 96." if sp == "1" else
             " Every core count 1..112 is measured; very noisy from core to core (for example 80.2M at 8, 68.7M at 9; "
             "244M at 80, 210M at 81), as measured.") +
            " Train p<=32 (%d values), test p=64, 96, 112 (up to 3.5x)." % len([x for x in xs if x <= 32]),
            d, [x for x in xs if x <= 32], [64, 96, 112])
    d = la_col(LA_AMG[1], "No. Cores", "Actual")
    one("la-amg2023-p1-200-strong-p", src(LA, *LA_AMG), "p", "FOM",
        "AMG2023 (hypre algebraic multigrid), LANL ATS-5 benchmark, strong scaling of problem 1 (27-point stencil, "
        "AMG-GMRES) on a 200 x 200 x 200 grid over p = cores 1..64 (the AMG page's table 'AMG2023 Strong Scaling for "
        "Problem 1 ... 200 x 200 x 200'), column 'Actual': AMG2023's figure of merit (its unit is not stated in the file; "
        "the machine is not stated in the lines read, presumably a LANL CPU node)." + LA_NOTE +
        " Nearly linear to 8 cores, 2.26e9 at 16. Train p=1..16 (5 values), test p=32, 64.",
        d, [1, 2, 4, 8, 16], [32, 64])
    d = la_col(LA_MLMD[1], "No. Cores", " Actual")
    one("la-mlmd-4k-crossroads-strong-p", src(LA, *LA_MLMD), "p", "Katom-step/s",
        "MLMD (LAMMPS molecular dynamics with a machine-learned potential), LANL ATS-5 benchmark, simulation+inference "
        "strong scaling of 4,544 atoms on Crossroads (the MLMD page: 'MLMD strong scaling on Crossroads: 4,544 atoms') "
        "over p = cores (processing elements) 8..112 (a Crossroads node has 112 cores, so one node, presumably), column 'Actual' in Katom-step/second (the y label of "
        "the repository's gnuplot script)." + LA_NOTE +
        " Saturates: 688 at 56, 770 at 88. Only 4 training values (the minimum). Train p=8, 32, 56, 88, test p=112.",
        d, [8, 32, 56, 88], [112])


# ---------------------------------------------------------------------------------------------
# Olin College 'aspirin' (Rust) course 2024, assignment 05-concurrency: four students' thread sweeps of a parallel merge
AS_COMMON = ("Olin College 'aspirin' Rust course, fall 2024, assignment 05-concurrency: a parallel merge (sort) of 10 "
             "million integers with the student's own thread pool, over p = threads (far past the cores). Each "
             "student's own machine, not named (a laptop, presumably); the four aspirin cases are four students' "
             "different programs. ")


def build_as():
    r, c, p = "AnmolRattanSingh/aspirin-2024-03", "2f9a14f4ccca9070dbcf4e6fc93ecf82480e3831", \
        "assignments/05-concurrency/benchmark.md"
    d = {}
    with open(rp(r, p)) as f:
        for line in f.read().splitlines():
            m = re.match(r"\|\s*(\d+)\s*\|\s*([0-9.]+)\s*\|", line)
            if m:
                d[int(m.group(1))] = [float(m.group(2))]
    one("as-anmol-mergek-threads-p", src(r, c, p), "p", "s",
        AS_COMMON + "merge_k_arrays_parallel: 10M elements in 100 sorted subarrays, 'Time (seconds)'; one value per "
        "thread count (how measured is not stated). Flat from 8 threads on (0.27 s). Train p=1..16 (5 values), "
        "test p=32, 64, 100 (up to 6.25x).",
        d, [1, 2, 4, 8, 16], [32, 64, 100])
    r, c = "cmot17/aspirin-2024-03", "6e8937c4aae374b0f749ae5bb4578519ca2a7785"
    d = {}
    with open(rp(r, p)) as f:
        for line in f.read().splitlines():
            m = re.match(r"\|\s*(\d+)\s*\|\s*([0-9.]+)(ms|s)\s*\|", line)
            if m:
                d[int(m.group(1))] = [round(float(m.group(2)) / (1000.0 if m.group(3) == "ms" else 1.0), 9)]
    one("as-cmot17-mergesort-threads-p", src(r, c, p), "p", "s",
        AS_COMMON + "Parallel merge sort of 10M elements, chunk size 10,000, 'Time Taken'; the file mixes units "
        "('1.59s', '878.88ms'): every value converted to seconds (ms / 1000, rounded to 9 decimals to drop float noise). One value per thread count. Flat at "
        "0.29-0.32 s from 8 threads on. Train p=1..32 (7 values), test p=48, 64, 96, 100 (up to 3.1x).",
        d, [1, 2, 4, 8, 16, 24, 32], [48, 64, 96, 100])
    r, c = "Rixhee/aspirin-2024-03", "ca89685f63463ca0a7ab2279d74653689b070471"
    with open(rp(r, p)) as f:
        text = f.read()
    d = {int(a): [float(b)] for a, b in re.findall(r"(\d+): (\d+)ms", text)}
    one("as-rixhee-mergesort-threads-p", src(r, c, p), "p", "ms",
        AS_COMMON + "Runtimes in ms written in one sentence ('[100: 6400ms, 64: 6089ms. 32: 5723ms, ...]'); no 1-thread "
        "value. Fastest at 8 threads (4997 ms), slower again beyond: 5361 at 16, 5723 at 32. One value per thread "
        "count. Train p=2..32 (5 values), test p=64, 100 (up to 3.1x).",
        d, [2, 4, 8, 16, 32], [64, 100])
    r, c = "Rshah2067/aspirin-2024-03", "d050ead33e17ea24e9c87401a554a2776109bf15"
    d = {}
    with open(rp(r, p)) as f:
        for line in f.read().splitlines()[1:]:
            c2 = line.split()
            d[int(c2[0])] = [float(v) for v in c2[1:] if re.fullmatch(r"[0-9.]+", v)]
    one("as-rshah-mergesort-threads-p", src(r, c, p), "p", "s",
        AS_COMMON + "Written as 'average times' of 'around 5 tests' timed with std::time ('very unscientifically', says "
        "the student), for 100, 75, 50, 25, 10, 2, 1 threads; at 1 thread two values are given (3.4957 and 3.529), "
        "both kept as training rows. Nearly flat (2.92-3.53 s); the text says about 2.977 s is the fastest, at 'around "
        "25', while the list gives 2.92 at 25 and 2.977 at 10. Train p=1, 2, 10, 25 (4 values), test p=50, 75, 100 "
        "(up to 4x).",
        d, [1, 2, 10, 25], [50, 75, 100])


BUILDERS = [build_osu_pages, build_oc, build_ul, build_la, build_as]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
