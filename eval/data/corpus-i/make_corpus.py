#!/usr/bin/env python3
"""corpus-i (20 one-variable cases from 6 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src  # noqa: E402

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


def us_runs(path):
    """{p: [elapsed time, ...]} from a .res log: the -np of each 'Running "mpirun -np P' line and the next 'elapsed time'"""
    d = defaultdict(list)
    p = None
    with open(rp(US[0], path)) as f:
        for line in f.read().splitlines():
            if line.startswith("Running \"mpirun -np "):
                p = int(line.split()[3])
            elif line.startswith("elapsed time = "):
                d[p].append(float(line.split()[3]))
    return d


def build_us():
    d = us_runs(US[2])
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
    h = us_runs("micro_N_256_I_1000_lco_pwc.res")
    assert sorted(h) == list(range(1, 17)) and all(len(v) == 5 for v in h.values())
    one("us-hpx-lco-allreduce256-pwc-p", src(US[0], US[1], "micro_N_256_I_1000_lco_pwc.res"), "p", "s",
        "The same study's HPX version of the allreduce: 'elapsed time' [s] of 1000 allreduces of 256 elements through an "
        "HPX LCO (the test _test_allreduce_join_async of hpx/tests/unit/lco_allreduce, HPX network 'pwc' over Photon on "
        "the qib0 device), over p = HPX processes 1..16, one per node with 16 HPX threads (mpirun -np p -map-by "
        "node:PE=16 --hpx-threads=16; microbench_Scale.sh, tst=lco_pwc). 5 runs per p, each a training row; the test "
        "value is their median. Same cluster as us-mpi-allreduce256-p (not named). The time grows from 0.84 s on one "
        "process to about 5 s on 2 (communication starts), about 9 s at 6, then jumps to about 19 s at 7 and 27-28 s "
        "at 8, as measured; medians of 42-58 s at the test points. Train p=1..8, test p=10, 12, 14, 16.",
        h, [1, 2, 3, 4, 5, 6, 7, 8], [10, 12, 14, 16])


# ---------------------------------------------------------------------------------------------
# Buchenherz/uibk_parsys_19: another group of the same Innsbruck proseminar 2019, exercise 2 (osu_latency)
BH = "Buchenherz/uibk_parsys_19", "0a1db4019bcfcb19019a342d44652cf0aa4f8f47"
BH_DIR = "proseminar/01/benchmark/"


def bh(sub):
    d = {}
    with open(rp(BH[0], BH_DIR + sub + "/osu_latency.out.csv")) as f:
        for line in f.read().splitlines()[1:]:
            c = line.split("\t")
            if int(c[1]) > 0:
                d[int(c[1])] = [float(c[2])]
    return d


def build_bh():
    common = ("osu_latency (OSU MPI Latency Test, 2 ranks, ping-pong), 'Latency(us)' over n = message size in bytes, from "
              "another group of the University of Innsbruck Parallel Systems proseminar 2019 (exercise 2, the course's SGE "
              "cluster; not named in the files read). The file is a pandas export (an index column, then Size and "
              "Latency). One run per size. Size 0 left out. ")
    cut = " Train n=1..262144 (19 sizes), test n=524288, 1048576, 2097152 (up to 8x)."
    one("bh-osu-latency-diffnodes-n", src(BH[0], BH[1], BH_DIR + "diff_nodes/osu_latency.out.csv"), "n", "us",
        common + "Placement: two nodes. Here the values are those of a network (3.5 us at 1 B, about 0.67 us per KiB at "
        "large sizes): the time nearly doubles per doubling from 64 KiB on, with no jump at 2 MiB." + cut,
        bh("diff_nodes"), [2 ** k for k in range(19)], [524288, 1048576, 2097152])
    one("bh-osu-latency-diffsocket-n", src(BH[0], BH[1], BH_DIR + "diff_socket_same_node/osu_latency.out.csv"), "n", "us",
        common + "Placement: two sockets of one node (the directory diff_socket_same_node; the values are close to the "
        "same-socket ones of both groups, so the placement may not have taken effect). A step at 4096 B inside the "
        "training range; at the test point 2 MiB the latency jumps to 1294 us (7x the 1 MiB value), as measured." + cut,
        bh("diff_socket_same_node"), [2 ** k for k in range(19)], [524288, 1048576, 2097152])
    one("bh-osu-latency-samesocket-n", src(BH[0], BH[1], BH_DIR + "diff_cores_same_socket/osu_latency.out.csv"), "n", "us",
        common + "Placement: two cores of one socket. A step at 4096 B inside the training range; at the test point "
        "2 MiB the latency jumps to 1295 us (7x the 1 MiB value), as measured." + cut,
        bh("diff_cores_same_socket"), [2 ** k for k in range(19)], [524288, 1048576, 2097152])


# ---------------------------------------------------------------------------------------------
# leogaube/uibk_parsys_19: a third group of the Innsbruck proseminar 2019: n-queens (OpenMP) and a 2-D n-body
LG = "leogaube/uibk_parsys_19"
LG_NQ = "d54b19429437168838764a9494f83239455d429d", "proseminar/09/data/mat_mult.csv"
LG_NB = "ba7a22e2b082840482cc54fc3f87f0ec667ec430", "proseminar/05/data/2D_n-body.csv"


def build_lg():
    rows = read_dicts(rp(LG, LG_NQ[1]))
    common = ("OpenMP n-queens solver (all solutions of the N-queens problem) of the University of Innsbruck Parallel "
              "Systems proseminar 2019, exercise sheet 9, time [s] over n = board size N = 8..14. The file is named "
              "mat_mult.csv but its header and its directory say n-queens (n_queens_omp_<k>-slots columns); the values "
              "are presumably means over the repetitions in outputs/*.dat (preprocess.py, not read). Run on the "
              "course's SGE cluster with k slots (not named in the files read). The time grows about 4-6x per unit of N, "
              "as the search does; at N = 8-9 the times are below 1.1 ms. ")
    for k in (1, 2, 4):
        one("lg-nqueens-omp-%dslot-n" % k, src(LG, *LG_NQ), "n", "s",
            common + "Column n_queens_omp_%d-slots (%d thread%s). Train n=8..12, test n=13, 14." % (k, k, "" if k == 1 else "s"),
            {int(r["size"]): [float(r["n_queens_omp_%d-slots" % k])] for r in rows}, [8, 9, 10, 11, 12], [13, 14])
    one("lg-nbody2d-seq-n", src(LG, *LG_NB), "n", "s",
        "Sequential 2-D n-body simulation of the same group (proseminar 2019, sheet 5): time [s] 'seq_2D' over n = "
        "'room_size' 32..1024 (the header's name; how the particle count and the steps follow from it is not stated in "
        "the file). One value per size. The time grows about 3-4x per doubling (0.046 s at 32, 7.47 s at 512). Train "
        "n=32..512, test n=1024.",
        {int(r["room_size"]): [float(r["seq_2D"])] for r in read_dicts(rp(LG, LG_NB[1]))}, [32, 64, 128, 256, 512], [1024])


# ---------------------------------------------------------------------------------------------
# alxshine/uibk_parsys_20: the Innsbruck proseminar 2020: an OpenMP 2-D heat stencil and a blocked OpenMP n-body
AX = "alxshine/uibk_parsys_20"
AX_ST = "fe21aa9b8aa55b30afaea402565ccc79a0e283a3", "proseminar/04/stencil/performance_full.csv"
AX_NB = "772f17d4cd5a3683043f27f9f9ef39009aeca0fb", "proseminar/06/timings/3900x.csv"


def build_ax():
    st = defaultdict(dict)
    with open(rp(AX, AX_ST[1])) as f:
        for line in f.read().splitlines():
            c = line.split(",")
            st[int(c[0])][int(c[1])] = [float(c[2])]
    common = ("OpenMP 2-D heat stencil (omp_stencil_2d.c, '#pragma omp parallel for collapse(2) schedule(static)') of the "
              "University of Innsbruck Parallel Systems proseminar 2020, sheet 4, run by omp.script under SGE (one node, "
              "8 slots; the cluster is not named in the files read) for problem sizes N = 100..4000 (an N x N grid) and "
              "1, 2, 4, 8 threads. The file has no header: the columns are read as threads, N, time, and a last column "
              "always 1 (not used); the time unit is not stated (seconds, presumably). One run per point. ")
    one("ax-stencil2d-omp-1t-n", src(AX, *AX_ST), "n", "s",
        common + "Here n = N at 1 thread: 0.0083 at 100 to 3.08 at 1500, about 4x per doubling of N. Train "
        "n=100,200,500,750,1000,1500, test n=2000, 4000.",
        {n: v for n, v in st[1].items()}, [100, 200, 500, 750, 1000, 1500], [2000, 4000])
    one("ax-stencil2d-omp-8t-n", src(AX, *AX_ST), "n", "s",
        common + "Here n = N at 8 threads. Irregular, as measured: 100 (0.0068) is slower than 200 per cell, and at the "
        "test point 2000 the 8-thread time (1.86) is above the 4-thread one (1.63) and the step from 1500 (0.63) is "
        "3x. Train n=100,200,500,750,1000,1500, test n=2000, 4000.",
        {n: v for n, v in st[8].items()}, [100, 200, 500, 750, 1000, 1500], [2000, 4000])
    nb = {}
    with open(rp(AX, AX_NB[1])) as f:
        lines = f.read().splitlines()
    threads = [int(x) for x in lines[0].split(",")[1:]]
    for line in lines[1:]:
        c = line.split(",")
        nb[int(c[0])] = {t: [float(v)] for t, v in zip(threads, c[1:])}
    common = ("Blocked OpenMP n-body simulation (the area split in 64 blocks, particles interacting within their block "
              "and with the other blocks' centres of mass; answer.md of sheet 6) of the same repository, timed on the "
              "author's own 'local machine with 12 cores and hyperthreading' (the file is named 3900x: an AMD Ryzen 9 "
              "3900X, inferred). Rows: number of particles 10..10000; columns: threads 1..24. The time unit is not "
              "stated; one value per point. ")
    one("ax-nbody-omp-1t-n", src(AX, *AX_NB), "n", "s",
        common + "Here n = particles at 1 thread: 0.135 at 10 to 92.8 at 2000 and 882 at 10000. Train "
        "n=10,50,100,200,500,750,1000,2000, test n=5000, 7500, 10000.",
        {n: nb[n][1] for n in nb}, [10, 50, 100, 200, 500, 750, 1000, 2000], [5000, 7500, 10000])
    one("ax-nbody-omp-n10000-strong-p", src(AX, *AX_NB), "p", "s",
        common + "Here p = threads at 10000 particles, strong scaling on 12 cores with SMT: 882 at 1, 129 at 8, and 151 "
        "at 12 threads (slower than 8: the 64 blocks do not divide evenly, says answer.md); the test points 16 "
        "(108.7) and 24 threads (87.0, hyperthreads) are faster again, as measured. Train p=1,2,4,8,12, test p=16, 24.",
        {t: nb[10000][t] for t in threads}, [1, 2, 4, 8, 12], [16, 24])


BUILDERS = [build_fr, build_db, build_us, build_bh, build_lg, build_ax]


if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
