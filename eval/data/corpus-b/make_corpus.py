#!/usr/bin/env python3
"""corpus-b (34 cases from 11 repositories): builds cases/*.json from the copies of the source files in raw/,
with eval/data/corpus_build.py (the format, the rules, --check). Run: python3 make_corpus.py [--check]
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, read_rows, src, upto  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-b")
rp, one, two = CORPUS.rp, CORPUS.one, CORPUS.two


# ---------------------------------------------------------------------------------------------
# SDavenia/FHPC_Assignment: Game of Life (FHPC course 2022/23, Trieste) on ORFEO EPYC nodes
SD = "SDavenia/FHPC_Assignment"
SD_MPI = "b6d4b956caf0e51fbbb6bea7b0022ac194c5dfe3", "Exercise1/results/evolve_static/strong_MPI_numa_new.csv"
SD_OMP = "0b5d1cd42f1297e64c27999b66f82d2175cf4443", "Exercise1/results/evolve_static/openMP.csv"
SD_WEAK = "1f200fa79f59e2063dd0c70a9d4a646d90a26ed8", "Exercise1/results/evolve_static/weak_MPI.csv"


def build_sdav():
    for commit, path, col, kind, tmax, test in [
            (SD_MPI[0], SD_MPI[1], "processes", "mpi", 8, [10, 12, 14, 16]),
            (SD_OMP[0], SD_OMP[1], "threads", "omp", 16, [32, 48, 64])]:
        rows = read_dicts(rp(SD, path))
        for size in (10000, 20000):
            d = defaultdict(list)
            for r in rows:
                if int(r["size"]) == size:
                    d[int(r[col])].append(float(r["time"]))
            what = ("MPI processes (file name: strong_MPI_numa, i.e. ranks placed by NUMA domain; one EPYC node)"
                    if kind == "mpi" else "OpenMP threads on one EPYC node")
            one("sdav-epyc-gol-%s-strong-%dk-p" % (kind, size // 1000), src(SD, commit, path), "p", "s",
                "Conway's Game of Life, static evolution, %dx%d grid, strong scaling: run time [s] over p = %s "
                "(ORFEO cluster, FHPC course 2022/23; most likely the EPYC partition, 2x 64-core AMD EPYC 7H12: the OpenMP runs "
                "reach 64 threads, but the file does not name the partition). "
                "5 repetitions per p, each its own row. The number of evolution steps is not in the file. "
                "Train p<=%d, test p=%s." % (size, size, what, tmax, ",".join(map(str, test))),
                d, upto(d, hi=tmax), test)
    commit, path = SD_WEAK
    d, sizes = defaultdict(list), {}
    for r in read_dicts(rp(SD, path)):
        d[int(r["processes"])].append(float(r["time"]))
        sizes[int(r["processes"])] = int(r["size"])
    one("sdav-epyc-gol-mpi-weak-p", src(SD, commit, path), "p", "s",
        "Conway's Game of Life, static evolution, weak scaling: run time [s] over p = MPI processes 1..6 with a "
        "grid of side 10000*sqrt(p) (%s), so the cells per process stay constant (ORFEO, most likely EPYC, FHPC course "
        "2022/23; the threads per process are not in the file). 5 repetitions per p. Nearly flat (4.90-5.06 s). "
        "Train p<=4, test p=5,6." % ", ".join("%d at p=%d" % (sizes[p], p) for p in sorted(sizes)),
        d, upto(d, hi=4), [5, 6])


# ---------------------------------------------------------------------------------------------
# eruoppolo/HPC_2023: osu_bcast / osu_scatter over ranks x size on 2 ORFEO EPYC nodes; Mandelbrot OpenMP
ER = "eruoppolo/HPC_2023"
ER_OSU = "31822e8ab5d34cf57d510c32f8b00f98f598ab74"
ER_MB = "ad128000a88585acac437eff8e35c2fc407b4169", "ex2/results/strong_scaling_OMP_EPYC.csv"


def build_eru():
    for name, path, coll, alg in [
            ("eru-epyc-bcast-alg1-core-pn", "ex1/results/bcast/var_size/bcast1_core_mapping_epyc.csv", "osu_bcast", 1),
            ("eru-epyc-bcast-alg3-core-pn", "ex1/results/bcast/var_size/bcast3_core_mapping_epyc.csv", "osu_bcast", 3),
            ("eru-epyc-scatter-alg1-core-pn", "ex1/results/scatter/var_size/scatter1_core_mapping_epyc.csv", "osu_scatter", 1),
            ("eru-epyc-scatter-alg2-core-pn", "ex1/results/scatter/var_size/scatter2_core_mapping_epyc.csv", "osu_scatter", 2)]:
        d = defaultdict(list)
        for r in read_dicts(rp(ER, path)):
            d[(int(r["Processes"]), int(r["Size"]))].append(float(r["Latency"]))
        ntrain = sorted({n for (_, n) in d if n <= 8192})
        alg_name = {("osu_bcast", 1): "basic linear", ("osu_bcast", 3): "pipeline",
                    ("osu_scatter", 1): "basic linear", ("osu_scatter", 2): "binomial"}[(coll, alg)]
        two(name, src(ER, ER_OSU, path), "us",
            "%s average latency [us] over p = MPI ranks x n = message size [bytes], Open MPI (4.1.6 by the repository's job scripts, not copied) with "
            "coll_tuned_%s_algorithm=%d (%s in Open MPI 4.1's numbering), --map-by core on 2 ORFEO EPYC nodes "
            "(128 cores each; p=256 spans both nodes). One run per point (OSU's average over its iterations). "
            "p = 2,4,...,256 and n = 2 B ... 256 KiB in powers of 2. Train p in {2,4,8,16} x n<=8 KiB, "
            "test p=32,64,128 x n=1 KiB, 16 KiB, 64 KiB: the test crosses the socket boundary (64 ranks), and 16 and 64 KiB "
            "lie past a protocol or algorithm switch between 8 and 16 KiB that the file shows (outside the training box)."
            % (coll, coll.split("_")[1], alg, alg_name),
            d, [2, 4, 8, 16], ntrain, [32, 64, 128], [1024, 16384, 65536])
    d = defaultdict(list)
    for r in read_dicts(rp(ER, ER_MB[1])):
        d[int(r["Workers"])].append(float(r["ComputeTime"]))
    one("eru-epyc-mandelbrot-omp-strong-p", src(ER, ER_MB[0], ER_MB[1]), "p", "s",
        "Mandelbrot set (OpenMP), strong scaling, Size column 10000: ComputeTime [s] (IOTime and TotalTime not used) "
        "over p = OpenMP threads on one ORFEO EPYC node (2x 64 cores). One run per p. The time stops falling at "
        "64 threads and stays flat to 128 (the threads do not reach the second socket or share cores; the file does "
        "not say which). Train p<=16, test p=32,64,128.",
        d, upto(d, hi=16), [32, 64, 128])


# ---------------------------------------------------------------------------------------------
# ceciliazagni/hpc_exam: Game of Life, OpenMP threads
CZ = "ceciliazagni/hpc_exam", "9c5a51290d4e7d51324a8b5003d6d67f71d1e4ed", "timings/omp41756.csv"


def build_cz():
    d = defaultdict(list)
    for r in read_dicts(rp(CZ[0], CZ[2]), skip=2):
        d[int(r["threads"])].append(float(r["time_run"]))
    one("cz-gol-omp-strong-p", src(*CZ), "p", "s",
        "Game of Life (FHPC course exercise), strong scaling: time_run [s] (time_init, flat at 0.8 s, not used) over "
        "p = OpenMP threads 1..64, OMP_PLACES=sockets, OMP_PROC_BIND=close (the file's header). One run per p. "
        "Grid size and machine are not in the file (the repository's scripts target the ORFEO cluster). "
        "62 and 64 threads are slower than 61 and 63. Train p<=8, test p=16,32,64.",
        d, upto(d, hi=8), [16, 32, 64])


# ---------------------------------------------------------------------------------------------
# dzuba29/Dirichlet-problem: OpenMP Dirichlet-problem solver, threads x grid dimension, on a cluster node
DZ = "dzuba29/Dirichlet-problem", "91b06a62a7badaddfd4047ec91625cfb931973a3", "legacy/graphics/benchs/benchmark_cluster.csv"


def build_dz():
    d = defaultdict(list)
    for r in read_dicts(rp(DZ[0], DZ[2])):
        d[(int(r["Threads"]), int(r["Dimension"]))].append(float(r["RunTime"]))
    two("dz-cluster-dirichlet-omp-pn", src(*DZ), "s",
        "OpenMP solver of a Dirichlet problem (the repository's C++ code): RunTime [s] (MultTime, a part of it, not used) "
        "over p = OpenMP threads x n = grid dimension (500, 1000, 1500, 2000) on a cluster node (the file name says "
        "cluster; the machine is not named; the run script asks for up to 20 cores). 5 repetitions per point. "
        "Only 4 sizes exist, so all 4 are in the training box and the test extrapolates in p only: "
        "train p in {1,2,4,6,8} x all n, test p=12,16,20 x all n.",
        d, [1, 2, 4, 6, 8], [500, 1000, 1500, 2000], [12, 16, 20], [500, 1000, 1500, 2000])


# ---------------------------------------------------------------------------------------------
# Gabriele-Codega/FHPC-assignment: dgemm over matrix size on an ORFEO EPYC node, MKL and BLIS
GC = "Gabriele-Codega/FHPC-assignment", "5f7ea6011581d1c0628e515aa7ef4509eea65a70"


def build_gc():
    for lib in ("mkl", "blis"):
        path = "Exercise2/data/epyc/size/double/%s_benchmark_double_cores_close.csv" % lib
        d = defaultdict(list)
        for r in read_rows(rp(GC[0], path)):
            m, n, k, t = int(r[0]), int(r[1]), int(r[2]), float(r[3])
            assert m == n == k
            d[n].append(t)
        one("gc-epyc-dgemm-%s-n" % lib, src(GC[0], GC[1], path), "n", "s",
            "Double-precision gemm (C = A B, m = n = k) with %s on an ORFEO EPYC node (AMD EPYC 7H12), threads placed on "
            "cores, close binding (file header and name); the thread count is not in the file. Time [s] over n = matrix "
            "order 2000..20000; the gflops column is not used. 5 repetitions per n. The rate is not constant: it jumps "
            "at some sizes (e.g. %s). Train n<=10000, test n=14000,16000,18000,20000."
            % (lib.upper(), "11000-17000 noisy, some repetitions about 30 % faster than the others" if lib == "mkl" else "a dip at 11000, a rise from 16000"),
            d, upto(d, hi=10000), [14000, 16000, 18000, 20000])
    path = "Exercise1/data/mpi_weak.csv"
    d = defaultdict(list)
    for r in read_rows(rp(GC[0], path)):
        assert int(r[1]) == 64
        d[int(r[0])].append(float(r[2]))
    one("gc-epyc-gol-hybrid-weak-p", src(GC[0], "ad5c50c6e4bc735322b015d610abaad4c4626afc", path), "p", "s",
        "Game of Life (FHPC course 2022/23), hybrid MPI+OpenMP weak scaling on ORFEO (64 threads per process, so most likely EPYC nodes): total time [s] over p = MPI "
        "processes 1..8, 64 OpenMP threads each (the file's nthreads); the grid grows with p (the size per process is not "
        "in the file). One run per p. The grid update time stays flat (1.14-1.24 s, column 'grid', not used) while the "
        "write time grows from 0.02 to 3.7 s, so the total grows about linearly from p=3. Train p<=5, test p=6,7,8.",
        d, upto(d, hi=5), [6, 7, 8])


# ---------------------------------------------------------------------------------------------
# emmadariol/HPC_exam: direct-summation N-body code (MPI), strong and weak scaling over ranks
EM = "emmadariol/HPC_exam", "2a9482af9ee42cdc3c3b32d691f47255203a6eea", "Nbody_serial/results_final/scaling_64.csv"


def build_em():
    rows = read_dicts(rp(EM[0], EM[2]))
    for kind, col, name, what in [
            ("strong", "total", "em-nbody-mpi-strong-total-p", "total run time [s]"),
            ("strong", "energy", "em-nbody-mpi-strong-energy-p", "time [s] of the energy computation (the file's 'energy' column)"),
            ("weak", "total", "em-nbody-mpi-weak-total-p", "total run time [s]")]:
        d = defaultdict(list)
        for r in rows:
            assert r["status"] == "OK"
            if r["kind"] == kind and int(r["threads"]) == 1:
                d[int(r["ranks"])].append(float(r[col]))
        size = ("N = 20000 bodies for every p" if kind == "strong" else "N = 2000 bodies per rank (N = 2000 p)")
        one(name, src(*EM), "p", "s",
            "Direct-summation N-body code (kick-drift-kick, double precision, 20 steps, communication overlapped), %s "
            "scaling, %s: %s over p = MPI ranks (1 thread each) 1..64. 5 repetitions per p, each its own row. "
            "The machine is not named in the file. Train p<=8, test p=16,32,64."
            % (kind, size, what), d, upto(d, hi=8), [16, 32, 64])


# ---------------------------------------------------------------------------------------------
# EMachad0/OPRP-Mandelbrot: Mandelbrot with threads (C++ and Rust) on an Apple M1 Pro, hyperfine means
EMA = "EMachad0/OPRP-Mandelbrot", "5c31da33d6e52e57d82bae1eb542b76b9157e0a4"


def build_ema():
    for lang, path in [("cpp", "resultados/log_cpp.md"), ("rust", "resultados/log_rust.md")]:
        d = defaultdict(list)
        with open(rp(EMA[0], path), encoding="utf-8") as f:
            for line in f:
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if not cells[0].startswith("`"):
                    continue
                threads = int(cells[0].strip("`").split()[1])
                d[threads].append(float(cells[1].split()[0]))
        one("ema-m1pro-mandelbrot-%s-threads-p" % lang, src(EMA[0], EMA[1], path), "p", "s",
            "Mandelbrot set, %s program parallelized with threads (%s), same input for every p: run time [s] over "
            "p = threads 1..16 on an Apple M1 Pro (8 cores: 6 performance + 2 efficiency; the repository's README). "
            "Each value is hyperfine's mean over 10 runs as published (min/max in the file not used), so one row per p. "
            "No gain beyond about 8 threads. Train p<=5, test p=8,12,16."
            % ("C++" if lang == "cpp" else "Rust", "std threads" if lang == "cpp" else "a high-level parallel library"),
            d, upto(d, hi=5), [8, 12, 16])


# ---------------------------------------------------------------------------------------------
# Sunnout/ParallelPatternsC: OpenMP parallel-pattern library (course project CP 2019-20), threads sweeps
SU = "Sunnout/ParallelPatternsC"


def build_su():
    for commit, path, test, name, train_hi, what in [
            ("388571792a5b43e3aee5aa3a7e5df9229625013f", "code/output/output_t1_par.csv", "testGatherMediumFilter",
             "su-omp-gather-p", 16, "gather pattern, 2e8 elements"),
            ("388571792a5b43e3aee5aa3a7e5df9229625013f", "code/output/output_t1_par.csv", "testScatterMediumFilter",
             "su-omp-scatter-p", 16, "scatter pattern, 2e8 elements"),
            ("a2637fb3fd2c8ce5fa410276f3434ce645744574", "code/output/output_t2_par.csv",
             "testPipelineLightWorkersLargeNumberOfStations", "su-omp-pipeline-large-p", 16,
             "pipeline pattern with light workers and a large number of stations, 50000 elements")]:
        d = defaultdict(list)
        for r in read_rows(rp(SU, path))[1:]:
            if r[2] == test:
                d[int(r[0])].append(float(r[3]))
        one(name, src(SU, commit, path), "p", "s",
            "OpenMP implementation of the %s (test %s of the project's main): time [s] over p = OMP_NUM_THREADS "
            "(%s..128, powers of 2). One run per p. The machine is not named (course project, NOVA Lisbon, 2019-20). %s"
            "Train p<=%d, test p=32,64,128."
            % (what, test, min(d), "The time rises again from 16 threads and jumps 17x at 128 (oversubscription "
               "or thread start-up cost); " if "pipeline" in name else "", train_hi),
            d, upto(d, hi=train_hi), [32, 64, 128])


# ---------------------------------------------------------------------------------------------
# LeonardoDeFaveri/HPC-Project: Fish School Search with MPI, ranks x fish count (course project)
LD = "LeonardoDeFaveri/HPC-Project"


def build_ld():
    for commit, path, ver, what in [
            ("c582e94efc5de798cd71c902c0c2db1e57f19bf8", "time_results_allreduce.csv", "allreduce",
             "versions/main_allreduce.c: several MPI_Allreduce for global sums and maxima"),
            ("7e250507ed28084059b44dc5152b857f0c7c7d28", "time_results_new_a.csv", "allgather3",
             "versions/main_a.c: 3 MPI_Allgather before the collective instinctive move"),
            ("02b96c864790cc75a5659b20276e703047ed21e6", "time_results_new_b.csv", "allgather1",
             "versions/main_b.c: 1 MPI_Allgather before the collective instinctive move")]:
        d = defaultdict(list)
        for r in read_dicts(rp(LD, path)):
            d[(int(r["WORLD_SIZE"]), int(r["FISHES_COUNT"]))].append(float(r["ELAPSED_TIME"]))
        two("ld-mpi-fishschool-%s-pn" % ver, src(LD, commit, path), "s",
            "Fish School Search optimisation with MPI (%s; the repository's README): ELAPSED_TIME [s] over p = MPI ranks "
            "(WORLD_SIZE 1..64) x n = FISHES_COUNT (1..64; the file does not say whether it counts fish or thousands of "
            "fish). One run per point. The machine is not named (a university course project; runs up to 64 ranks). "
            "Train p in {1,2,4,8} x n in {1,2,4,8,16}; test p=8,16,32,64 x n=16,32,64 minus the box, so two points "
            "(p=8, n=32 and 64) extrapolate in n only." % what,
            d, [1, 2, 4, 8], [1, 2, 4, 8, 16], [8, 16, 32, 64], [16, 32, 64])


# ---------------------------------------------------------------------------------------------
# oahull0112/ESIFHPC4 (a fork of NREL's ESIF-HPC-4 procurement benchmarks): OSU example results over message size
OH = "oahull0112/ESIFHPC4"


def build_oh():
    for commit, path, name, what in [
            ("b50f252bcfc49a8f59a5afdf44fb43957645c299", "OSU/example-results/osu_allreduce_example_results.txt",
             "oh-osu-allreduce-n", "osu_allreduce average latency"),
            ("37eb482daf746f3b6cd79f3a6d703b75e4cff5b5", "OSU/example-results/osu_latency_example_results.txt",
             "oh-osu-latency-n", "osu_latency (ping-pong) latency"),
            ("37eb482daf746f3b6cd79f3a6d703b75e4cff5b5", "OSU/example-results/osu_alltoall_example_results.txt",
             "oh-osu-alltoall-n", "osu_alltoall average latency")]:
        d = defaultdict(list)
        for r in read_rows(rp(OH, path)):
            size, lat = r[0].split()
            d[int(size)].append(float(lat))
        one(name, src(OH, commit, path), "n", "us",
            "%s [us] over n = message size [bytes] 1..8192, OSU 7.4, MPI_CHAR: the 'example results' shipped with the "
            "ESIF-HPC-4 OSU benchmark instructions. One run. The file states neither the machine nor the number of nodes "
            "and ranks (the instructions ask for latency on 2 nodes x 1 rank, allreduce on all nodes with >=80%% of the "
            "cores, alltoall with 1 rank per NIC; NREL's systems are the likely source). Train n<=1024, test n=2048,4096,8192."
            % what, d, upto(d, hi=1024), [2048, 4096, 8192])


# ---------------------------------------------------------------------------------------------
# fmihpc/vlasiator: Vlasiator (hybrid-Vlasov space plasma code) scaling on LUMI-C and Mahti, 2025
VL = "fmihpc/vlasiator"


def read_dat(path):
    """whitespace-separated table with a header line; blank lines skipped"""
    with open(path) as f:
        lines = [l.split() for l in f.read().splitlines() if l.strip()]
    return [dict(zip(lines[0], r)) for r in lines[1:]]


def build_vl():
    for commit, path, col, name, train_hi, test, what in [
            ("98d157c126360d78c3e7b8d6b6a9e7de80962528", "scaling/202507_EuroHPC_LUMI-C/strong/timings_light.dat", "Total",
             "vlas-lumic-strong-light-total-p", 32, [64, 128, 256],
             "strong scaling, the 'light' problem, total run time; 512 nodes (16x) is not used"),
            ("98d157c126360d78c3e7b8d6b6a9e7de80962528", "scaling/202507_EuroHPC_LUMI-C/strong/timings_light.dat",
             "Velocity-space", "vlas-lumic-strong-light-velocity-p", 32, [64, 128, 256],
             "strong scaling, the 'light' problem, Phiprof's Velocity-space timer; 512 nodes (16x) is not used"),
            ("98d157c126360d78c3e7b8d6b6a9e7de80962528", "scaling/202507_EuroHPC_LUMI-C/strong/timings_medium.dat", "Total",
             "vlas-lumic-strong-medium-total-p", 128, [256, 512],
             "strong scaling, the 'medium' problem, total run time"),
            ("4828579c8ed8e41e5b245f47611acb4a3a72e303", "scaling/202507_EuroHPC_LUMI-C/weak/along_y.dat", "Total",
             "vlas-lumic-weak-y-total-p", 64, [128, 256, 512],
             "weak scaling, the 1-node domain extended n-fold along y, total run time"),
            ("98d157c126360d78c3e7b8d6b6a9e7de80962528", "scaling/202506_CSC_Mahti/weak/along_y.dat", "Total",
             "vlas-mahti-weak-y-total-p", 32, [64, 128, 200],
             "weak scaling, the 1-node domain extended n-fold along y, total run time")]:
        d = defaultdict(list)
        for r in read_dat(rp(VL, path)):
            d[int(r["Nodes"])].append(float(r[col]))
        machine = ("EuroHPC LUMI-C CPU nodes, July 2025" if "LUMI" in path else "CSC Mahti CPU nodes, June 2025")
        one(name, src(VL, commit, path), "p", "s",
            "Vlasiator (hybrid-Vlasov space plasma code), 3D IPshock setup, %s: %s over p = nodes, 16 MPI tasks per node x "
            "16 threads per task (the folder's README). The README calls the columns the logfile's 'Total run time' and "
            "Phiprof timers; the unit is not written, seconds assumed. One run per node count. Train p<=%d, test p=%s."
            % (machine, what, train_hi, ",".join(map(str, test))), d, upto(d, hi=train_hi), test)


# ---------------------------------------------------------------------------------------------


BUILDERS = [build_sdav, build_eru, build_cz, build_dz, build_gc, build_em, build_ema, build_su, build_ld, build_oh, build_vl]


if __name__ == "__main__":
    CORPUS.main(BUILDERS)
