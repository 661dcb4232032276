#!/usr/bin/env python3
"""corpus-z (one-variable size sweeps): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]

Cut rules, fixed per kind before the cases were written:
  message-size sweeps: train every size from the smallest positive one (1-8 B) up to 64 KiB,
                       test 128, 256, 512 KiB (at most 8x beyond);
  problem-size sweeps: train the first 8 measured sizes, test the next 4.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-z")
rp, one = CORPUS.rp, CORPUS.one

MSG_TRAIN_MAX = 65536
MSG_TEST = [131072, 262144, 524288]


def msg_train(d):
    return [x for x in sorted(d) if x <= MSG_TRAIN_MAX]


def osu_blocks(path):
    """[(header line, {size: [value]})] for every '# OSU ...' block of a text file: the numeric
    'size value' lines that follow the header (other '#' lines skipped), up to the first other line."""
    blocks = []
    cur = None
    with open(path) as f:
        for line in f.read().splitlines():
            s = line.strip()
            if s.startswith("# OSU "):
                cur = (s, {})
                blocks.append(cur)
                continue
            if cur is None:
                continue
            if s.startswith("#"):
                continue
            c = s.split()
            if len(c) == 2 and c[0].isdigit():
                if int(c[0]) > 0:
                    cur[1][int(c[0])] = [float(c[1])]
            else:
                cur = None
    return blocks


# ---------------------------------------------------------------------------------------------
# EESSI/docs: two blog posts of the EESSI project on an HPE Cray EX system with Slingshot 11 (Olivia, Sigma2)
EE = "EESSI/docs"
EE_P1 = "0fa9422d406086da669e17b85ef0238c56205eb2", "docs/blog/posts/2025/09/eessi-cray-slingshot11.md"
EE_P2 = "2eb7040fac195c0e9c8c3862afb522a3c4a6bbc9", "docs/blog/posts/2026/05/eessi-cray-slingshot11-part2.md"
EE_CUT = " Train n = 1 B .. 64 KiB (17 sizes), test n = 128, 256, 512 KiB. One run per size (one value per size)."


def build_ee():
    b2 = osu_blocks(rp(EE, EE_P2[1]))
    assert [h for h, _ in b2] == ["# OSU MPI-CUDA Latency Test v7.5"] * 2, [h for h, _ in b2]
    common2 = ("OSU osu_latency D D (OSU 7.5, GPU device buffers on both sides), 'Avg Latency(us)' over n = message size "
               "in bytes, 2 MPI ranks on two nodes (one rank and one GPU per node) of the accel partition of Olivia "
               "(Sigma2, Norway; HPE Cray EX, NVIDIA Grace CPUs with Hopper GPUs, Slingshot 11), from the EESSI blog "
               "post 'MPI at Warp Speed: EESSI Meets Slingshot-11 (part2)' (dated 2026-05-08). ")
    d = b2[0][1]
    one("ee-olivia-gh-osu-cuda-latency-eessi-n", src(EE, *EE_P2), "n", "us",
        common2 + "First block: OSU-Micro-Benchmarks/7.5-gompi-2024a-CUDA-12.6.0 from EESSI 2025.06 (Open MPI 5.0.3, "
        "UCX 1.16, libfabric CXI through host_injections). A step from 4.85 us at 4 KiB to 8.40 us at 8 KiB, and 32 KiB "
        "(15.94 us) is slower than 64 KiB (12.02 us), both inside training, as printed." + EE_CUT,
        d, msg_train(d), MSG_TEST)
    d = b2[1][1]
    one("ee-olivia-gh-osu-cuda-latency-cray-n", src(EE, *EE_P2), "n", "us",
        common2 + "Second block: OSU 7.5 compiled with PrgEnv-cray (cray-mpich 8.1.32, cce 19.0.0, "
        "cudatoolkit 24.11_12.6), the vendor stack the post compares against. A step from 4.66 us at 4 KiB to 7.59 us "
        "at 8 KiB inside training." + EE_CUT,
        d, msg_train(d), MSG_TEST)
    b1 = osu_blocks(rp(EE, EE_P1[1]))
    assert [h for h, _ in b1] == ["# OSU MPI Bi-Directional Bandwidth Test v7.1",
                                  "# OSU MPI-CUDA Bi-Directional Bandwidth Test v7.5"], [h for h, _ in b1]
    common1 = ("from the EESSI blog post 'EESSI on Cray system with Slingshot 11' (dated 2025-09-10; the same system as "
               "part 2, Olivia of Sigma2, HPE Cray EX with Slingshot 11, not named in this post): OSU osu_bibw, "
               "'Bandwidth (MB/s)' (a bandwidth, not a time: it rises with the size) over n = message size in bytes, "
               "2 MPI ranks on 2 nodes (the host names of both nodes are printed). ")
    d = b1[0][1]
    one("ee-olivia-x86-osu-bibw-n", src(EE, *EE_P1), "n", "MB/s",
        "Test 1 " + common1 + "x86_64 partition (AMD EPYC 9745 128-core), EESSI 2023.06 OSU-Micro-Benchmarks/"
        "7.1-1-gompi-2023a (module OpenMPI/4.1.5; the post builds a Slingshot-aware Open MPI 5 and injects it "
        "through host_injections, whether this run used it is not stated in the lines kept). Bandwidth doubles per doubling up to 8 KiB (23097 MB/s) and saturates "
        "near 40 GB/s from 64 KiB on." + EE_CUT,
        d, msg_train(d), MSG_TEST)
    d = b1[1][1]
    one("ee-olivia-gh-osu-cuda-bibw-n", src(EE, *EE_P1), "n", "MB/s",
        "Test 2 " + common1 + "Grace/Hopper partition, GPU device buffers (OSU MPI-CUDA Bi-Directional Bandwidth "
        "Test v7.5, OSU-Micro-Benchmarks/7.5-gompi-2023b-CUDA-12.4.0 from EESSI 2023.06, Open MPI 4.1.6). A jump from "
        "1020 MB/s at 4 KiB to 16478 MB/s at 8 KiB (a protocol switch) inside training; near saturation at the test "
        "sizes (43-44 GB/s), as printed." + EE_CUT,
        d, msg_train(d), MSG_TEST)


# ---------------------------------------------------------------------------------------------
# thm4859/uibk_ipcpa_19: a group of a University of Innsbruck 2019 course (parallel computing / OpenCL), week 4:
# a matrix product timed over the matrix order N on the group's laptop (Intel Core i5-3320M) and its integrated GPU
TH = "thm4859/uibk_ipcpa_19", "c36a342826ecf9eb3b806dbc38d0ad1e5613361d"
TH_DIR = "week4/for_csv/"
TH_TRAIN = [100, 200, 300, 400, 500, 600, 700, 800]
TH_TEST = [900, 1000, 1100, 1200]


def th_table(path):
    d = {}
    with open(rp(TH[0], TH_DIR + path)) as f:
        lines = f.read().splitlines()
    assert lines[0].startswith("N, time, valid,")
    for line in lines[1:]:
        c = [x.strip() for x in line.split(",")]
        d[int(c[0])] = (float(c[1]), int(c[2]))
    return d


def build_th():
    common = ("Dense matrix product C = A x B of N x N matrices over n = N = 100..2500 (steps of 100; here only "
              "100..1200 used), one line per N as the program printed it ('N, time, valid, ...'; the file's commit "
              "holds one run per N; the collect_samples.sh of a later commit runs 5 per N on other machines, so "
              "these files' generation is not fully documented). Time in ms as printed (unit not stated; ms inferred "
              "from the MFLOPs column to within a constant factor). Machine: the file name's Intel Core i5-3320M "
              "(2 cores, 4 threads, 3 MB L3; laptop) and its integrated HD Graphics 4000 GPU. University of Innsbruck, "
              "course repository 'uibk_ipcpa_19', week 4. The file was read in full before the cut (first 8 sizes "
              "train, next 4 test) was applied; the cut is the rule for all problem-size sweeps of this corpus. ")
    cut = " Train N = 100..800 (8 sizes), test N = 900, 1000, 1100, 1200."
    d = th_table("stats_i5-3320M_mat_mul_seq.csv")
    assert all(d[n][1] == 1 for n in TH_TRAIN + TH_TEST)
    one("th-matmul-seq-i5-3320m-n", src(TH[0], TH[1], TH_DIR + "stats_i5-3320M_mat_mul_seq.csv"), "n", "ms",
        common + "Sequential version (mat_mul_seq). A cache cliff inside training: 418 ms at N = 700, 2671 ms at "
        "N = 800 (6.4x for 1.49x the work), the MFLOPs column dropping from about 6500 to 1500 and staying there, "
        "as printed." + cut,
        {n: [v[0]] for n, v in d.items()}, TH_TRAIN, TH_TEST)
    d = th_table("stats_i5-3320M_mat_mul_omp.csv")
    assert all(d[n][1] == 1 for n in TH_TRAIN + TH_TEST)
    one("th-matmul-omp-i5-3320m-n", src(TH[0], TH[1], TH_DIR + "stats_i5-3320M_mat_mul_omp.csv"), "n", "ms",
        common + "OpenMP version (mat_mul_omp, the 'cores' column says 2). Irregular at small N (0.46 ms at 100, "
        "7.8 ms at 200); a cliff inside training from 54.8 ms at N = 500 to 495.6 ms at N = 600 (9x), as printed."
        + cut,
        {n: [v[0]] for n, v in d.items()}, TH_TRAIN, TH_TEST)
    d = th_table("stats_i5-3320M-GPU_mat_mul_ocl.csv")
    assert all(d[n][1] == 1 for n in TH_TRAIN + TH_TEST)
    one("th-matmul-ocl-hd4000-n", src(TH[0], TH[1], TH_DIR + "stats_i5-3320M-GPU_mat_mul_ocl.csv"), "n", "ms",
        common + "OpenCL version on the integrated GPU (mat_mul_ocl, 16 compute units), the time as printed "
        "(presumably including set-up and transfers: 144 ms at N = 100). Not monotone (700 is faster than 600); "
        "rows 2200, 2400, 2500 are marked invalid (valid = 0) in the file but are not used." + cut,
        {n: [v[0]] for n, v in d.items()}, TH_TRAIN, TH_TEST)


# ---------------------------------------------------------------------------------------------
# hisohara/ai-scripts: an AMD engineer's notes on RCCL smoke tests (rccl-tests all_reduce_perf) on AMD Accelerator
# Cloud clusters: MI300X (AAC8, 1 node x 8 GPUs; AAC10, 2 nodes x 8 GPUs) and MI355X (AAC14, 2 nodes x 8 GPUs)
HO = "hisohara/ai-scripts", "0780bb3c957ba1dd4254b3147c2027a44304db34", "training/01_rccl-smoketest/README.md"


def nccl_tables(path):
    """[{size: (out-of-place time, in-place time)}] for each nccl-tests/rccl-tests result table of a file, in order:
    a table is the run of 13-column lines whose first field is an integer size."""
    tables, cur = [], None
    with open(path) as f:
        for line in f.read().splitlines():
            c = line.split()
            if len(c) == 13 and c[0].isdigit():
                if cur is None:
                    cur = {}
                    tables.append(cur)
                cur[int(c[0])] = (float(c[5]), float(c[9]))
            elif not line.startswith("# Testing"):
                cur = None
    return tables


def build_ho():
    t = nccl_tables(rp(HO[0], HO[2]))
    assert len(t) == 3 and min(t[0]) == 8 and all(min(x) == 8 for x in t), [sorted(x)[:2] for x in t]
    common = ("rccl-tests all_reduce_perf (float sum, -b 8 -f 2 -g 1: one GPU per MPI rank, sizes doubling from 8 B), "
              "the 'time' column [us] over n = message size in bytes, from the README of hisohara/ai-scripts "
              "(training/01_rccl-smoketest: RCCL smoke tests on AMD Accelerator Cloud clusters). One run per size "
              "(rccl-tests' default 20 iterations averaged inside the program). ")
    cut = " Train n = 8 B .. 64 KiB (14 sizes), test n = 128, 256, 512 KiB."
    one("ho-aac8-mi300x-8gpu-allreduce-oop-n", src(*HO), "n", "us",
        common + "AAC8 (Kubernetes): 8 AMD Instinct MI300X GPUs of one node, mpirun -np 8 --mca pml ob1 --mca btl "
        "self,vader, rccl-tests develop:a7809b3; out-of-place column. Not monotone: 23 us at 128-512 B, then 13.7 us "
        "from 1 KiB (a change of algorithm or protocol inside training); 15.5 us at 16 KiB against 13.9 at 32 KiB, "
        "as printed." + cut,
        {n: [v[0]] for n, v in t[0].items()}, msg_train(t[0]), MSG_TEST)
    one("ho-aac8-mi300x-8gpu-allreduce-inplace-n", src(*HO), "n", "us",
        common + "The same run as ho-aac8-mi300x-8gpu-allreduce-oop-n (AAC8, 8 MI300X in one node), in-place column: "
        "not independent of it. The same drop from about 23 us to 13-15 us at 1 KiB inside training." + cut,
        {n: [v[1]] for n, v in t[0].items()}, msg_train(t[0]), MSG_TEST)
    one("ho-aac10-mi300x-16gpu-allreduce-oop-n", src(*HO), "n", "us",
        common + "AAC10 (Slurm): 16 MI300X GPUs on 2 nodes (gpu-53, gpu-56; 8 Mellanox mlx5 NICs each, UCX, Open MPI "
        "5.0.3 module, RCCL 2.22.3, ROCm 6.4.2), out-of-place column. Flat at about 219-241 us (8 B is 256.5 us, a "
        "first-size warm-up effect, as printed) up to the test sizes; 305.6 us at 512 KiB." + cut,
        {n: [v[0]] for n, v in t[1].items()}, msg_train(t[1]), MSG_TEST)
    one("ho-aac14-mi355x-16gpu-allreduce-oop-n", src(*HO), "n", "us",
        common + "AAC14 (Slurm): 16 AMD Instinct MI355X GPUs on 2 nodes (mi355-gpu-23, -24) with AMD Pollara 400 AI "
        "NICs through the ANP network plugin, RCCL 2.26.6, ROCm 7.0.1, -n 20 -N 2 (the README shows the table after "
        "'# Testing 1 cycle.'), out-of-place column. Rises slowly from about 40 us to 59 us at 64 KiB." + cut,
        {n: [v[0]] for n, v in t[2].items()}, msg_train(t[2]), MSG_TEST)


# ---------------------------------------------------------------------------------------------
# christophernhill/rocky8-nodes-testing: MIT (cnhlab) Rocky 8 node acceptance test: spack-built MVAPICH2 2.3.7 and
# OSU 7.0.1, osu_latency / osu_bw / osu_bibw between nodes node2101 and node2103, in two sample outputs (two runs)
CN = "christophernhill/rocky8-nodes-testing"
CN_RUNS = (("c6a9ae4a03f3231f3b132d97610a1126cb6dda88", "osu-bw-test-using-spack/sample-output-for-already-installed.txt"),
           ("612f0d0d42250bb296c00a10dd42b2a46d0687a3", "osu-bw-test-using-spack/sample-output-for-build-from-clean.txt"))


def build_cn():
    runs = [osu_blocks(rp(CN, path)) for _, path in CN_RUNS]
    heads = ["# OSU MPI Latency Test v7.0", "# OSU MPI Bandwidth Test v7.0", "# OSU MPI Bi-Directional Bandwidth Test v7.0"]
    assert all([h for h, _ in r] == heads for r in runs), [[h for h, _ in r] for r in runs]
    source = "github %s @%s %s; @%s %s" % (CN, CN_RUNS[0][0], CN_RUNS[0][1], CN_RUNS[1][0], CN_RUNS[1][1])
    common = ("OSU 7.0(.1) built by spack with MVAPICH2 2.3.7 and gcc 12.2.0 (target zen3: AMD EPYC, inferred from the "
              "spack arch linux-rocky8-zen3), 2 MPI ranks on two nodes (node2101, node2103; Rocky 8 nodes of an MIT "
              "cluster being tested; InfiniBand inferred from MVAPICH2's RDMA messages), one rank per node. Two runs: the "
              "repository's two sample outputs (sample-output-for-already-installed.txt, sample-output-for-build-from-"
              "clean.txt; the same job script test.slurm.sh, same two nodes), each a training row; the test value is the "
              "median of the two (their mean). ")
    cut = " Train n = 1 B .. 64 KiB (17 sizes), test n = 128, 256, 512 KiB."

    def merged(i):
        d = {}
        for r in runs:
            for n, v in r[i][1].items():
                d.setdefault(n, []).extend(v)
        return d
    d = merged(0)
    one("cn-mit-osu-latency-2nodes-n", source, "n", "us",
        common + "osu_latency, 'Latency (us)'; size 0 left out (not positive). A protocol switch at the test sizes: "
        "about 118.5 us at 256 KiB but about 63.1 us at 512 KiB in both runs (MVAPICH2 changes its large-message "
        "protocol), as printed; a step from about 2.0 us at 128 B to 2.8-3.0 us at 256 B inside training." + cut,
        d, msg_train(d), MSG_TEST)
    d = merged(1)
    one("cn-mit-osu-bw-2nodes-n", source, "n", "MB/s",
        common + "osu_bw, 'Bandwidth (MB/s)' (a bandwidth, rising with the size): about 4 MB/s at 1 B, a jump from "
        "about 1980 MB/s at 4 KiB to 4880-5350 MB/s at 8 KiB, saturating near 10.4-10.6 GB/s from 32 KiB on." + cut,
        d, msg_train(d), MSG_TEST)
    d = merged(2)
    one("cn-mit-osu-bibw-2nodes-n", source, "n", "MB/s",
        common + "osu_bibw, bidirectional 'Bandwidth (MB/s)': jumps at 4 KiB (2.3 to 8.2 GB/s) and 32 KiB (about 11 "
        "to 20.5 GB/s) inside training, about 24-24.5 GB/s at the test sizes." + cut,
        d, msg_train(d), MSG_TEST)


# ---------------------------------------------------------------------------------------------
# ROCm/gpu-cluster-networking: AMD's cluster networking guide, an example ib_write_bw output (GPU device memory)
RO = "ROCm/gpu-cluster-networking", "00efecb18657289dac3c334a91bed29be8999555", "docs/how-to/multi-node-config.rst"


def build_ro():
    d = {}
    seen = False
    with open(rp(RO[0], RO[2])) as f:
        for line in f.read().splitlines():
            c = line.split()
            if c[:2] == ["#bytes", "#iterations"]:
                seen = True
            elif seen and len(c) == 5 and c[0].isdigit():
                d[int(c[0])] = [float(c[3])]
    assert min(d) == 2 and max(d) == 8388608 and len(d) == 23
    one("ro-rocm-ib-write-bw-bidir-d2d-n", src(*RO), "n", "Gb/s",
        "linux-rdma perftest ib_write_bw -b -a (bidirectional RDMA write, all sizes 2 B .. 8 MiB, 5000 iterations "
        "each) with --use_rocm=0 on both sides (GPU device memory, D2D), 'BW average[Gb/sec]' over n = message size "
        "in bytes, the example output in AMD's ROCm cluster networking guide (section 'Run D2D RDMA benchmark'; the "
        "client calls the server through localhost between two RDMA NICs of one node, link type Ethernet (RoCE), "
        "MTU 4096; the NIC and GPU models are not named). A bandwidth, not a time: it rises about 2x per doubling "
        "up to 2 KiB and saturates near 204 Gb/s from 32 KiB on; the 2 B row's average (0.012) is far below its "
        "peak (0.14), as printed. One run per size. Train n = 2 B .. 64 KiB (16 sizes), test n = 128, 256, 512 KiB.",
        d, msg_train(d), MSG_TEST)


# ---------------------------------------------------------------------------------------------
# alces-software/flight-appliance-docs: Alces Flight Compute documentation (SLURM page), an IMB-MPI1 job on AWS
AL = "alces-software/flight-appliance-docs", "1e1d13791d05bd41394123d90c3f1e430fdc39dc", "docs/source/slurm/slurm.rst"


def imb_pingpong(path):
    """{size: [t[usec]]} from an IMB PingPong table (lines after the '#bytes #repetitions' header); size 0 left out"""
    d = {}
    seen = False
    with open(path) as f:
        for line in f.read().splitlines():
            c = line.split()
            if c[:2] == ["#bytes", "#repetitions"]:
                seen = True
            elif seen and len(c) == 4 and c[0].isdigit():
                if int(c[0]) > 0:
                    d[int(c[0])] = [float(c[2])]
            elif seen and c:
                seen = False
    return d


def build_al():
    d = imb_pingpong(rp(AL[0], AL[2]))
    assert min(d) == 1 and max(d) == 4194304
    one("al-aws-imb-pingpong-n", src(*AL), "n", "us",
        "Intel MPI Benchmarks 4.0 IMB-MPI1 PingPong, 't[usec]' (half round trip) over n = message size in bytes, "
        "from the Alces Flight Compute documentation's SLURM page: job 1162 with 64 ranks on 8 AWS nodes "
        "(ip-10-75-1-*, an Alces Flight Compute cluster on EC2; instance type not stated), OpenMPI (apps/imb module), "
        "dated Tue Aug 30 2016 in the output. PingPong runs between 2 of the 64 ranks ('62 additional processes "
        "waiting in MPI_Barrier'; presumably two ranks on one node with the default by-slot placement, not stated). "
        "Repetitions 1000 per size (fewer from 64 KiB on: 640, 320, 160, 80), averaged by IMB; one run. Size 0 left "
        "out. A step from 3.75 us at 2 KiB to 10.09 us at 4 KiB (a protocol switch) inside training. Train n = 1 B .. "
        "64 KiB (17 sizes), test n = 128, 256, 512 KiB.",
        d, msg_train(d), MSG_TEST)


# ---------------------------------------------------------------------------------------------
# thibaut-neoledge/azure-docs.fr-fr: a copy of the French Azure documentation, 'Set up a Linux RDMA cluster to run MPI
# applications' (Microsoft), with its example IMB PingPong output between two A9 VMs over the Azure RDMA network
AZ = "thibaut-neoledge/azure-docs.fr-fr", "03ed60ac705629a445255e2ff2d61d5ad199ea70", "articles/virtual-machines/linux/classic/rdma-cluster.md"


def build_az():
    d = imb_pingpong(rp(AZ[0], AZ[2]))
    assert min(d) == 1 and max(d) == 4194304
    one("az-azure-a9-rdma-imb-pingpong-n", src(*AZ), "n", "us",
        "Intel MPI Benchmarks 4.0 Update 1 IMB-MPI1 pingpong, 't[usec]' over n = message size in bytes, between two "
        "Azure compute nodes (mpirun -hosts <host1>,<host2> -ppn 1 -n 2, Intel MPI 5 over DAPL (ofa-v2-ib0) on the "
        "Azure RDMA InfiniBand network; the article's cluster is of size A9 VMs on SLES 12 HPC, kernel 3.12.39-44), "
        "dated Fri Jul 17 2015 in the output; the example output of Microsoft's article 'Set up a Linux RDMA cluster "
        "to run MPI applications' (ms.date 03/14/2017), here in a French copy of the azure-docs repository (the "
        "output block is untranslated; other language copies hold the same table). One run; IMB repetitions 1000 per "
        "size (640, 320, 160, 80 from 64 KiB on). Size 0 left out. A small irregularity inside training (32 B: 2.57 us, "
        "64 B: 2.36 us), as printed. Train n = 1 B .. 64 KiB (17 sizes), test n = 128, 256, 512 KiB.",
        d, msg_train(d), MSG_TEST)


# ---------------------------------------------------------------------------------------------
# Azure/AI-benchmarking-guide: Microsoft Azure's published results of its AI benchmarking guide, one file per VM type;
# each has a table of NCCL AllReduce bus bandwidth over message sizes 1K .. 8G (one 8-GPU VM)
AB = "Azure/AI-benchmarking-guide"
AB_FILES = (("ab-azure-nda100v4-nccl-allreduce-busbw-n", "3bb66cacc25632d8ece36bc1d5128c5ea886a60b",
             "Azure_Results/ND_A100_v4_results.md",
             "ND A100 v4 (8 NVIDIA A100-SXM4-80GB, AMD EPYC 7V12, NCCL 2.18.5, CUDA 12.5; the text says 'NVLS "
             "algorithm', which A100 does not have: presumably copied from the H100 page, not verified)"),
            ("ab-azure-ndh100v5-nccl-allreduce-busbw-n", "f350e7e65b82cfcb9220b32b582bc34342d9c1a6",
             "Azure Results/ND_H100_v5_results.md",
             "ND H100 v5 (8 NVIDIA H100 80GB HBM3, Xeon Platinum 8480C, NCCL 2.18.5, CUDA 12.6, NVLS algorithm)"),
            ("ab-azure-ndh200v5-nccl-allreduce-busbw-n", "7f20e5fa3b2f9a46d8404af1f6fb14b049d6d5cc",
             "Azure_Results/ND_H200_v5_results.md",
             "ND H200 v5 (8 NVIDIA H200 141GB, Xeon Platinum 8480C, NCCL 2.20.5, CUDA 12.6, NVLS algorithm)"),
            ("ab-azure-ndgb200v6-nccl-allreduce-busbw-n", "2a370be6de9586d365feed77e014a73f25198f4d",
             "Azure_Results/ND_GB200_v6_results.md",
             "ND GB200 v6 (NVIDIA GB200 185GB, ARM Neoverse-V2 CPU, NCCL 2.25.1, CUDA 12.8, Ring algorithm; the "
             "number of GPUs in the run is not stated, presumably the VM's 4)"))
AB_LABELS = ["1K", "2K", "4K", "8K", "16K", "32K", "65K", "132K", "256K", "524K", "1M", "2M", "4M", "8M", "16M", "33M",
             "67M", "134M", "268M", "536M", "1G", "2G", "4G", "8G"]


def ab_table(path):
    """{bytes: [GB/s]} from the 'Message Size (Bytes)' table; the i-th label (1K, 2K, ..., 65K, 132K, ...) is read as
    1024 * 2**i bytes (the labels are rounded powers of two; checked against the expected list)"""
    labels, vals = [], []
    seen = False
    with open(rp(AB, path)) as f:
        for line in f.read().splitlines():
            c = [x.strip() for x in line.strip().strip("|").split("|")]
            if c and c[0] == "Message Size (Bytes)":
                seen = True
            elif seen and len(c) == 2 and c[0][:1].isdigit():
                labels.append(c[0])
                vals.append(float(c[1]))
    assert labels == AB_LABELS, labels
    return {1024 * 2 ** i: [v] for i, v in enumerate(vals)}


def build_ab():
    for name, commit, path, what in AB_FILES:
        d = ab_table(path)
        one(name, src(AB, commit, path), "n", "GB/s",
            "NCCL AllReduce (nccl-tests, presumably all_reduce_perf) in-place BUS BANDWIDTH [GB/s] (a bandwidth, "
            "rising with the size) over n = message size in bytes, on one Azure " + what + ", from Microsoft's "
            "published results of the Azure AI benchmarking guide. One value per size as published; the table labels "
            "sizes 1K, 2K, ..., 65K, 132K, 256K, 524K, 1M, ... and they are read as 1024 * 2^i bytes (the only unit "
            "conversion here). NOT from a few bytes: the sweep starts at 1 KiB. Train n = 1 KiB .. 64 KiB (7 sizes), "
            "test n = 128, 256, 512 KiB.",
            d, msg_train(d), MSG_TEST)


BUILDERS = [build_ee, build_ho, build_cn, build_ro, build_al, build_az, build_ab, build_th]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
