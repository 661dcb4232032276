#!/usr/bin/env python3
"""corpus-f (20 one-variable cases from 7 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import glob
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src, upto  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-f")
rp, one = CORPUS.rp, CORPUS.one


# ---------------------------------------------------------------------------------------------
# meagmeag/CS-351: a course project (Project 2), a threaded program timed over thread counts 1..80
MM = "meagmeag/CS-351", "4df643630afd837ee06b80e81873baee7f9cbfa2", "Project-2/README.md"


def md_rows(path):
    """rows of the markdown tables in a file: lists of stripped cells, separator rows skipped"""
    out = []
    with open(path) as f:
        for line in f.read().splitlines():
            if line.startswith("|") and not set(line) <= set("|:- "):
                out.append([c.strip() for c in line.strip().strip("|").split("|")])
    return out


def build_mm():
    d = {}
    for r in md_rows(rp(MM[0], MM[2])):
        if r[0].isdigit():
            d[int(r[0])] = [float(r[1])]
    one("mm-cs351-threads-wallclock-p", src(*MM), "p", "s",
        "A threaded program of a course project (CS-351 Project 2; the README does not say what it computes): "
        "'Wall Clock Time' [s, as in a time(1) report] over p = thread count 1..80. One run per p; the machine is not named. "
        "The speed-up flattens at about 8.3-9.1 from 16 threads on (2.02 s at 16, 1.85-1.95 s from 24 to 80) while the system "
        "time keeps growing, as measured. The user/system time and speed-up "
        "columns are not used. Train p=1..8, test p=16, 24, 32, 64.",
        d, [1, 2, 3, 4, 5, 6, 7, 8], [16, 24, 32, 64])


# ---------------------------------------------------------------------------------------------
# dceuinton/openmp_heat_distribution: OpenMP heat distribution (Jacobi-type) on an Intel Core 2 Quad Q9400
DC = "dceuinton/openmp_heat_distribution", "fd8dfe44987abff5c92062606f23a3eeb0978eff", "results.md"


def build_dc():
    d = defaultdict(dict)
    size = None
    with open(rp(DC[0], DC[2])) as f:
        for line in f.read().splitlines():
            if line.startswith("Problem size:"):
                size = line.split(":")[1].strip()
            elif line.startswith("#"):
                size = None
            elif size and line[:1].isdigit():
                c = [x.strip() for x in line.split(",")]
                d[size][int(c[0])] = [float(c[1])]
    for size, iters in (("100x100", 3802), ("200x200", 13609)):
        one("dc-q9400-omp-heat-%s-p" % size.split("x")[0], src(*DC), "p", "s",
            "OpenMP heat-distribution solver (iterated stencil until convergence) on a %s grid, %d iterations: 'Total Time' "
            "[s] over p = 'Number of processors' (OpenMP threads) 1..8, on an Intel Core 2 Quad Q9400 (4 cores, no SMT; "
            "the file's CPU info, of which raw/ keeps the first processor). One run per p. Every test point oversubscribes "
            "the 4 cores: the time jumps about 2.4-4x from 4 to 5 threads (%s) and stays there, a regime the training range "
            "cannot show. The init/parallel/finish columns are not used. Train p=1..4, test p=5..8."
            % (size, iters, "0.120 -> 0.478 s" if size == "100x100" else "1.277 -> 3.117 s"),
            d[size], [1, 2, 3, 4], [5, 6, 7, 8])


# ---------------------------------------------------------------------------------------------
# wang-zixuan/CSE6220-HPC: Georgia Tech CSE 6220 programming assignments (MPI)
WZ = "wang-zixuan/CSE6220-HPC"
WZ1 = "51f1b231ffc9874dbbf2f0c291668bb8a848caf7", "pa1/report.md"
WZ2 = "0af59370ea3a871b8a04be0a7b42b81850bc471e", "pa2/report.md"


def build_wz():
    d = {}
    for r in md_rows(rp(WZ, WZ1[1])):
        if r[0].isdigit():
            d[int(r[0])] = [float(r[1])]
    one("wz-cse6220-pa1-mpi-strong-p", src(WZ, *WZ1), "p", "s",
        "MPI program of programming assignment 1 of Georgia Tech's CSE 6220 (the report gives no problem size; the "
        "assignment's main.cpp is not read): 'Run-time (s)' over p = number of processors 1..32, one value per p as "
        "reported; the cluster is not named in the report. The speed-up flattens (7.79 at 16, 8.32 at 32), as measured. "
        "Train p=1,2,4,8, test p=16, 32.",
        d, [1, 2, 4, 8], [16, 32])
    t = defaultdict(dict)
    p = None
    with open(rp(WZ, WZ2[1])) as f:
        for line in f.read().splitlines():
            if line.startswith("### $p = "):
                p = int(line[9:].strip("$ "))
            elif line.startswith("|") and p:
                c = [x.strip() for x in line.strip().strip("|").split("|")]
                if c[0].isdigit():
                    t[(p, c[1])][int(c[0])] = [float(c[2])]
    for alg, what in (("a", "arbitrary all-to-all of their own (each rank sends to every other)"),
                      ("h", "hypercubic all-to-all of their own"),
                      ("m", "MPI_Alltoall")):
        one("wz-cse6220-transpose-%s-p8-n" % alg, src(WZ, *WZ2), "n", "s",
            "Parallel matrix transpose with p = 8 MPI ranks (programming assignment 2 of Georgia Tech's CSE 6220), "
            "communication by %s (algorithm '%s' in the report's table): 'Time' (unit not stated; seconds assumed, as the "
            "course code prints MPI_Wtime differences) over n = matrix order 160..5120 (n x n matrix, so the data grows as "
            "n^2). One value per n as reported; the cluster is not named. raw/ keeps the report's two result tables (CUT); the "
            "p = 16 table is not used. Train n=160..1280, test n=2560, 5120." % (what, alg),
            t[(8, alg)], [160, 320, 640, 1280], [2560, 5120])


# ---------------------------------------------------------------------------------------------
# leschwe1/hpc_esc_401_solutions: ESC 401 exercise session 8, CUDA pi by numerical integration
LS = "leschwe1/hpc_esc_401_solutions", "aa15c8da1b3539df10b71071deb5e1ad6007c896", "exercise_session_08/cuda/task3.md"


def build_ls():
    d = {}
    key = None
    with open(rp(LS[0], LS[2])) as f:
        for line in f.read().splitlines():
            s = line.strip()
            if s.startswith("NUM_BLOCK="):
                a, b = s.split()
                key = (int(a.split("=")[1]), int(b.split("=")[1]))
            elif s.startswith("PI =") and key:
                d[key] = [float(s.split("computed in")[1].split()[0])]
                key = None
    common = ("CUDA kernel computing pi by numerical integration (exercise session 8 of the ESC 401 HPC course; "
              "the same total work at every configuration), the time the program prints ('computed in ... seconds'). "
              "One run per configuration; the GPU is not named in the file. raw/ keeps the header and the result lines used "
              "(CUT; the thread sweeps at 240-600 blocks except their 16-thread lines, and the authors' comments, dropped). ")
    for nb in (60, 120, 180):
        one("ls-cuda-pi-blocks%d-threads-p" % nb, src(*LS), "p", "s",
            common + "Here p = CUDA threads per block 16..160 at NUM_BLOCK=%d blocks, so the number of GPU threads is "
            "%d*p. The time falls about as 1/p at first; the authors' comments note a floor near 0.003 s at larger "
            "grids (hardware saturation), which these sweeps approach only at the top (0.0041 s at 180 blocks x 160 threads). Train p=16..80, test p=112, 128, "
            "144, 160." % (nb, nb),
            {k[1]: v for k, v in d.items() if k[0] == nb}, [16, 32, 48, 64, 80], [112, 128, 144, 160])
    one("ls-cuda-pi-threads16-blocks-p", src(*LS), "p", "s",
        common + "Here p = number of blocks NUM_BLOCK 60..600 at 16 threads per block (p*16 GPU threads). Train "
        "p=60..300, test p=360, 420, 600.",
        {k[0]: v for k, v in d.items() if k[1] == 16}, [60, 120, 180, 240, 300], [360, 420, 600])


# ---------------------------------------------------------------------------------------------
# gadoti03/mpi-openmp-project: image binarization with MPI and with OpenMP (course project, CINECA Galileo100)
GD = "gadoti03/mpi-openmp-project", "13adabc5fbf202255948ef7d34e43672d63ad09c"


def build_gd():
    for path, name, what, train, test in [
            ("results/strong_mpi.csv", "gd-g100-binarize-mpi-strong-p", "MPI ranks (srun -n P)",
             [1, 2, 4, 8], [12, 16, 20, 24]),
            ("results/strong_openmp.csv", "gd-g100-binarize-omp-strong-p", "OpenMP threads",
             [1, 2, 4, 8], [12, 16, 24])]:
        d = defaultdict(list)
        for r in read_dicts(rp(GD[0], path)):
            assert r["N"] == "10000"
            d[int(r["P"])].append(float(r["Time"]))
        odd = ("" if "mpi" in path else
               " The file's lines are interleaved (apparently several jobs appending at once) and hold 9-10 values per P, "
               "not the 3 runs the Run column suggests; every value is kept. A few are slow outliers (e.g. 0.40 and 0.36 s "
               "at 24 threads against about 0.235 s), as measured.")
        one(name, src(GD[0], GD[1], path), "p", "s",
            "Binarization of an N x N image, N = 10000 (course project; the repository's mpi_strong_benchmark.sh targets "
            "CINECA Galileo100, partition g100_usr_prod, 48 cores on 2 nodes): 'Time' [s, as printed by the program] over "
            "p = %s, strong scaling. Repetitions kept as separate rows (3 runs per p for MPI).%s A later commit of the "
            "repository holds a smaller N = 5000 run with P <= 8 only, not used. Train p=%s, test p=%s."
            % (what, odd, ",".join(map(str, train)), ",".join(map(str, test))),
            d, train, test)

# ---------------------------------------------------------------------------------------------
# argonne-lcf/alcf-osu-benchmarks: OSU collectives on ALCF Polaris, 16 nodes x 4 A100 GPUs = 64 ranks
AL = "argonne-lcf/alcf-osu-benchmarks", "c025c3926282bc1d212a8f5b19c6834f028353b5", "results_polaris/n16.g4/2024-04-30-01-38-57/"


def read_osu(path):
    """{size: [value]} from the data lines of an OSU output"""
    d = {}
    with open(path) as f:
        for line in f.read().splitlines():
            c = line.split()
            if len(c) >= 2 and c[0].isdigit():
                d[int(c[0])] = [float(c[1])]
    return d


def build_al():
    for fn, name, what, extra in [
            ("all_reduce_output.dat.0", "alcf-polaris-64r-allreduce-host-n", "osu_allreduce (OMB v5.3), host buffers", ""),
            ("all_reduce_output.dat.1", "alcf-polaris-64r-allreduce-cuda-n", "osu_allreduce (OMB v5.3, 'MPI-CUDA' test), "
             "GPU device buffers",
             " The latency jumps about 6.9x from 64 KiB (127 us) to 128 KiB (872 us), a protocol or algorithm switch that the "
             "training range does not show, and is not monotone above (1.35 ms at 1 MiB, 1.01 ms at 2 MiB), as measured."),
            ("alltoall_output.dat.0", "alcf-polaris-64r-alltoall-host-n", "osu_alltoall (OMB v5.3), host buffers", ""),
            ("all_gather_output.dat.0", "alcf-polaris-64r-allgather-host-n", "osu_allgather (OMB v5.3), host buffers", "")]:
        d = read_osu(rp(AL[0], AL[2] + fn))
        one(name, src(AL[0], AL[1], AL[2] + fn), "n", "us",
            "%s on ALCF Polaris (HPE Apollo, 4 NVIDIA A100 per node, Slingshot): 64 MPI ranks on 16 nodes, one rank per GPU "
            "(the run's directory n16.g4 and its 'I am k of 64' lines), 30 April 2024: 'Avg Latency(us)' over n = message "
            "size [bytes]. One OSU run (each value OSU's average over its iterations). raw/ keeps the OSU header and data "
            "lines; the ~100 lines of rank placement and CUDA_VISIBLE_DEVICES before them are dropped (CUT).%s "
            "Train n=4 B .. 64 KiB, test n=128, 256, 512 KiB." % (what, extra),
            d, upto(d, hi=65536), [131072, 262144, 524288])

# ---------------------------------------------------------------------------------------------
# hlocon1309/lammps_bench: LAMMPS Lennard-Jones benchmark over the number of atoms on the HSE cHARISMa cluster
HL = "hlocon1309/lammps_bench", "5419a32b67ea39c9dbd6b4208b7be43e30004d8b", "stage3/lj/"


def build_hl():
    common = ("LAMMPS (23 Jun 2022, update 1) Lennard-Jones melt benchmark (in.lj, 1000 steps) on one node of the cHARISMa "
              "cluster (the repository's stage3 readme) with 16 MPI ranks x 1 OpenMP thread: 'Loop time' [s] over n = number "
              "of atoms 1000 ... 16,384,000 (doubling; the readme's 1K ... 16M). One run per size. raw/ keeps only the "
              "'Loop time' and 'CPU use' lines of each 4.9-6.5 KB Slurm output (CUT), and the job scripts of 1160N and 1161N. ")
    for sub, name, what in [
            ("1160N", "hl-charisma-lammps-lj-cpu-atoms-n",
             "No GPU (directory 1160N; bench2.sh: 16 tasks on node type_a). Below about 16,000 atoms the time grows less "
             "than linearly (communication dominates: 67 % of the loop at 1000 atoms); from there on it is close to linear, "
             "as measured."),
            ("1161N", "hl-charisma-lammps-lj-1gpu-atoms-n",
             "With the GPU package on one Tesla V100-SXM2-32GB shared by the 16 ranks (directory 1161N, '1 GPU' in the "
             "readme; the output of the 1000-atom job shows 'Device 0' only and '16 proc(s) per device', kept in raw/). The "
             "bench2.sh in that directory requests 2 GPUs ('-pk gpu 2'), apparently edited for the next series: the run "
             "outputs are taken as the evidence. The time is nearly flat at 1.6-2.3 s up to 128,000 atoms (a fixed device "
             "overhead of about 1.5 s per the outputs' device timers) and grows about linearly from 1e6 atoms on, where "
             "host-device data transfer dominates, as measured."),
            ("1164N", "hl-charisma-lammps-lj-4gpu-atoms-n",
             "With the GPU package on four Tesla V100-SXM2-32GB, 4 ranks per device (directory 1164N, '4 GPUs' in the "
             "readme; the 1000-atom job's device lines are kept in raw/; its bench2.sh was not read). The time is nearly "
             "flat at 0.51-0.67 s up to 32,000 atoms (a device overhead of about 0.44 s) and about doubles per doubling from "
             "512,000 atoms on, where host-device data transfer dominates; at 16M atoms it is no faster than with one GPU "
             "(117 s vs 113 s), as measured.")]:
        d = {}
        for path in sorted(glob.glob(rp(HL[0], HL[2] + sub, "slurm-*.out"))):
            with open(path) as f:
                for line in f.read().splitlines():
                    if line.startswith("Loop time of "):
                        c = line.split()
                        assert c[4:6] == ["on", "16"] and c[8] == "1000"
                        d[int(c[11])] = [float(c[3])]
        assert len(d) == 15
        one(name, src(HL[0], HL[1], HL[2] + sub + "/slurm-*.out (15 jobs)"), "n", "s",
            common + what + " Train n=1000 .. 2,048,000, test n=4,096,000, 8,192,000, 16,384,000.",
            d, upto(d, hi=2048000), [4096000, 8192000, 16384000])


BUILDERS = [build_mm, build_dc, build_wz, build_ls, build_gd, build_al, build_hl]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
