#!/usr/bin/env python3
"""corpus-i (8 one-variable cases from 3 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-i")
rp, one = CORPUS.rp, CORPUS.one


def ws_table(path):
    """{x: [y]} from a whitespace-separated two-column table without a header"""
    d = {}
    with open(path) as f:
        for line in f.read().splitlines():
            c = line.split()
            if len(c) == 2:
                d[int(c[0])] = [float(c[1])]
    return d


# ---------------------------------------------------------------------------------------------
# freshp1995/uibk_parsys_19: University of Innsbruck, Parallel Systems proseminar 2019, exercise 2 (OSU osu_latency)
FR = "freshp1995/uibk_parsys_19", "1fc1568ee9cdb1fd7b3a60845e3093a35f4bf6af"
FR_DIR = "proseminar/01/python/"
FR_COMMON = ("OSU MPI Latency Test v5.6.2 (osu_latency, 2 MPI ranks, ping-pong), 'Latency(us)' over n = message size in "
             "bytes, from the University of Innsbruck Parallel Systems proseminar 2019 (exercise 2: runs submitted by SGE "
             "on the course's cluster, presumably LCC2; the machine is not named in the files read). Size 0 is left out "
             "(not positive). ")
FR_CUT = " Train n=1..262144 (19 sizes), test n=524288, 1048576, 2097152 (up to 8x)."


def fr(sub, runs):
    d = defaultdict(list)
    for r in runs:
        with open(rp(FR[0], FR_DIR + sub + "/latency%d.csv" % r)) as f:
            for line in f.read().splitlines()[2:]:
                c = line.split()
                if int(c[0]) > 0:
                    d[int(c[0])].append(float(c[1]))
    return d


def build_fr():
    train = [2 ** k for k in range(0, 19)]
    test = [524288, 1048576, 2097152]
    one("fr-osu-latency-samesocket-n", src(FR[0], FR[1], FR_DIR + "diff_core_same_socket/latency{1,2,3}.csv"), "n", "us",
        FR_COMMON + "Placement: two cores of the same socket (the directory diff_core_same_socket). Three runs "
        "(latency1, 2, 3.csv), each a training row; the test value is their median. A step between 2048 and 4096 B "
        "(1.3 to 3.9 us, a protocol switch) lies inside the training range; at the test point 2 MiB the latency jumps to "
        "about 1300 us (7x the 1 MiB value), as measured." + FR_CUT,
        fr("diff_core_same_socket", (1, 2, 3)), train, test)
    one("fr-osu-latency-diffsocket-n", src(FR[0], FR[1], FR_DIR + "diff_sockets_same_node/latency{1,2,3}.csv"), "n", "us",
        FR_COMMON + "Placement: two sockets of the same node (the directory diff_sockets_same_node). Three runs "
        "(latency1, 2, 3.csv), each a training row; the test value is their median. Here the latency about doubles "
        "from 1 MiB (about 182 us) to 2 MiB (about 370 us); the jump seen in the same-socket case comes only at 4 MiB "
        "(not used, 16x beyond)." + FR_CUT,
        fr("diff_sockets_same_node", (1, 2, 3)), train, test)
    one("fr-osu-latency-diffnodes-n", src(FR[0], FR[1], FR_DIR + "diff_nodes/latency1.csv"), "n", "us",
        FR_COMMON + "Placement asked: two different nodes (the directory diff_nodes), one run (latency1.csv; latency2 and 3 "
        "were not read). Doubtful placement: the values (0.46 us at 1 B) are those of the same-socket runs to within a "
        "few per cent, which is not plausible for a network, so the two ranks probably ran on one node. Kept as a "
        "single-run copy of that behaviour, jump at 2 MiB included." + FR_CUT,
        fr("diff_nodes", (1,)), train, test)


# ---------------------------------------------------------------------------------------------
# debarshibanerjee/Foundations_of_HPC_2021: a parallel kd-tree build, Trieste FHPC 2021 assignment 2 (ORFEO)
DB = "debarshibanerjee/Foundations_of_HPC_2021", "290fb40a35494d9b4763358bcccb67ebfa2944c4"
A = "Assignment2/2021Assignment02/"
DB_COMMON = ("Build of a kd-tree of N random points, University of Trieste Foundations of HPC 2021, assignment 2, on ORFEO "
             "(the OpenMP scaling.sh asks one node, ppn=48, queue dssc_gpu; the MPI plot title says '1 GPU Node - Orfeo "
             "Cluster'). Each value is the MEAN of 10 runs (scaling.sh averages them with awk; the spread is not in the "
             "files read), the program's time [s]. ")


def build_db():
    one("db-kdtree-mpi-weak-p", src(*DB, A + "MPI/weak_mpi_scaling.dat"), "p", "s",
        DB_COMMON + "MPI version, weak scaling: N = 10^7 p points over p = MPI ranks 1..32 (mpirun -np p --oversubscribe). "
        "The time is not flat: 9.1 s at 1, 19.1 s at 16, 31.9 s at 32 (the build is O(N log N) and part of it is not "
        "distributed), as measured. Train p=1,2,4,8,16, test p=32.",
        ws_table(rp(DB[0], A + "MPI/weak_mpi_scaling.dat")), [1, 2, 4, 8, 16], [32])
    one("db-kdtree-omp-weak-p", src(*DB, A + "plots/weak_omp_scaling.dat"), "p", "s",
        DB_COMMON + "OpenMP version, weak scaling: N = 10^7 p points over p = OpenMP threads 1..32 (OMP_NUM_THREADS=p). "
        "The file is the copy in plots/ (OpenMP/ itself holds no weak_omp_scaling.dat at this commit; presumably the "
        "main OpenMP code, quickselect for the median, not stated). The time grows from 3.1 s at 1 to 19.8 s at 32 "
        "threads, as measured. Train p=1,2,4,8,16, test p=32.",
        ws_table(rp(DB[0], A + "plots/weak_omp_scaling.dat")), [1, 2, 4, 8, 16], [32])
    one("db-kdtree-omp-qsort-weak-p", src(*DB, A + "OpenMP/quick_sort/weak_omp_scaling.dat"), "p", "s",
        DB_COMMON + "OpenMP version with a full quicksort for the median (the directory quick_sort), weak scaling: "
        "N = 10^7 p points over p = OpenMP threads 1..32. The time grows from 22.5 s at 1 to 165.3 s at 32 threads, "
        "as measured. Train p=1,2,4,8,16, test p=32.",
        ws_table(rp(DB[0], A + "OpenMP/quick_sort/weak_omp_scaling.dat")), [1, 2, 4, 8, 16], [32])
    one("db-kdtree-mpi-strong-p", src(*DB, A + "plots/strong_mpi_scaling.dat"), "p", "s",
        DB_COMMON + "MPI version, strong scaling: N = 10^8 points over p = MPI ranks 1..32 (--oversubscribe). The time "
        "falls from 94.4 s at 1 to 12.0 s at 16 and flattens (10.2 s at 32), as measured. The file is the copy in "
        "plots/. Train p=1,2,4,8,16, test p=32.",
        ws_table(rp(DB[0], A + "plots/strong_mpi_scaling.dat")), [1, 2, 4, 8, 16], [32])


# ---------------------------------------------------------------------------------------------
# uswick/scripts_misc: MPI_Allreduce micro-benchmark runs of an HPX collectives study (Indiana University, Cutter cluster)
US = "uswick/scripts_misc", "d5b467e8019e99e5f6ff4115e31f3b2a37b5c186", "micro_N_256_I_1000_mpi.res"


def build_us():
    d = defaultdict(list)
    p = None
    with open(rp(US[0], US[2])) as f:
        for line in f.read().splitlines():
            if line.startswith("Running \"mpirun -np "):
                p = int(line.split()[3])
            elif line.startswith("elapsed time = "):
                d[p].append(float(line.split()[3]))
    assert sorted(d) == list(range(16, 257, 16)) and all(len(v) == 5 for v in d.values())
    one("us-mpi-allreduce256-p", src(*US), "p", "s",
        "MPI allreduce micro-benchmark (a micro_allreduce program built inside osu-micro-benchmarks-5.1, of a study of "
        "HPX collectives): 'elapsed time' [s] of 1000 allreduce iterations of 256 elements, over p = MPI ranks 16..256 "
        "in steps of 16 (16 per node, so 1..16 nodes: microbench_Scale.sh at commit 00dade5dd9f6, SBATCH -N 16, "
        "cpn=16; Open MPI run with '-mca mtl ^psm', which excludes its PSM transport; the cluster is not "
        "named in the files read, the scripts' names say 'cutter'). A fixed message over more ranks: neither strong "
        "nor weak scaling. 5 runs per p, each a training row; the test value is their median. Outliers kept as "
        "measured: single runs 2-3x slower than the others of their p (15.8 s at 128, 13.8 and 12.7 s at 144, 14.1 s "
        "at 192, 18.4 s at 224, 9.4 s at 240, 21.3 s at 256). Not monotone: 96 ranks (about 3.03 s) is faster than 80 "
        "(about 3.48 s); the time doubles from 112 (3.54 s) to 128 (about 6.97 s median) and then stays at 6-7 s to "
        "240 before 256 (about 11.1 s). Train p=16..128 (8 values), test p=160, 192, 224, 256.",
        d, [16, 32, 48, 64, 80, 96, 112, 128], [160, 192, 224, 256])


BUILDERS = [build_fr, build_db, build_us]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
