#!/usr/bin/env python3
"""corpus-j (17 one-variable cases from 5 repositories, every training x with 5 or more separate runs): builds
cases/*.json from the copies of the source files in raw/, with eval/data/corpus_build.py (the format, the rules,
--check). Run: python3 make_corpus.py [--check]

Every case here has at least 3 repetitions (separate runs) at every training x; each run is its own training row,
exactly as the source lists it (nothing dropped, cleaned or averaged). A test value is the median of the runs at
that x. No unit is converted.
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_build import Corpus, read_dicts, src  # noqa: E402

CORPUS = Corpus(os.path.dirname(os.path.abspath(__file__)), "corpus-j")
rp, one_reps = CORPUS.rp, CORPUS.one_reps


def csv_runs(path, xcol, ycol):
    """{x: [y, ...]} in file order from a CSV with a header line"""
    d = defaultdict(list)
    for r in read_dicts(path):
        d[int(r[xcol])].append(float(r[ycol]))
    return dict(d)


# ---------------------------------------------------------------------------------------------
# nicojmn/LINFO1252_multithread_project: UCLouvain LINFO1252 (operating systems) project 1, synchronization problems
NJ = "nicojmn/LINFO1252_multithread_project"
NJ_COMMON = ("UCLouvain LINFO1252 course project (synchronization with POSIX threads and the group's own spinlocks): "
             "'time' [s] = the elapsed time of the whole program as /usr/bin/time -f %e prints it (0.01 s resolution), "
             "over p = 'nThread', the file's thread count; 5 runs ('iteration' 1-5) per p, each a training row, the test "
             "value their median. The machine is not named in the files read. ")


def build_nj():
    c4 = "4a52bb22818cbe65597bcd3527d4b1f98bd77c8f"
    cts = "b1b7ec0ee005c957bb869841b468268eb1f66978"
    base = "time_results/csv/"
    f = base + "producers-consumers_posix.csv"
    one_reps("nj-prodcons-posix-p", src(NJ, c4, f), "p", "s",
             "Producers-consumers with POSIX mutex and semaphores, a fixed amount of work: " + NJ_COMMON +
             "(A version of the repository's benchmark_tests/perf_evals/producers_consumers_pe.sh, commit not checked, "
             "writes 2 x NTHREAD for NTHREAD producers and NTHREAD consumers.) The time is flat (0.29-0.39 s) up to 6 threads and rises from 8 on; the 5 runs at "
             "p = 8 split into 0.34-0.37 s and 0.53-0.55 s, as measured. Train p=2,4,6,8,10, test p=12.",
             csv_runs(rp(NJ, f), "nThread", "time"), [2, 4, 6, 8, 10], [12])
    f = base + "readers-writers_posix.csv"
    one_reps("nj-readwrite-posix-p", src(NJ, c4, f), "p", "s",
             "Readers-writers with POSIX mutex and semaphores: " + NJ_COMMON + "Anomaly kept as measured: p = 4 takes "
             "5.7-7.5 s, against 0.47-0.50 s at 2 and 2.1-2.8 s at 6; from 6 on the time grows slowly (3.6-3.7 s at 12). "
             "Train p=2,4,6,8,10, test p=12.",
             csv_runs(rp(NJ, f), "nThread", "time"), [2, 4, 6, 8, 10], [12])
    f = base + "ts.csv"
    one_reps("nj-tas-spinlock-p", src(NJ, cts, f), "p", "s",
             "The group's test-and-set spinlock (ts.csv; each thread takes and releases the lock a fixed total number "
             "of times, as the course asks; not checked in the code): " + NJ_COMMON + "The time is about 0.9-1.3 s up "
             "to 6 threads (single runs of 1.91 s at 5 and 2.43 s at 6) and jumps at 7 (2.6-7.7 s, a wide spread) and 8 (4.3-6.6 s), presumably when the threads "
             "exceed the machine's cores (not stated); the runs spread widely from there on, as measured. Train "
             "p=2..8, test p=9, 10, 11, 12.",
             csv_runs(rp(NJ, f), "nThread", "time"), [2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12])
    f = base + "philosophers_posix.csv"
    one_reps("nj-philo-posix-p", src(NJ, c4, f), "p", "s",
             "Dining philosophers with POSIX mutexes (p philosophers): " + NJ_COMMON + "The times are short (0.01-0.10 "
             "s), so the 0.01 s resolution of /usr/bin/time is a large part of them; single runs stand out (0.07 s at "
             "p = 5 among 0.04 s, 0.06 s at p = 12 among 0.08-0.10 s), as measured. Train p=2..8, test p=9, 10, 11, 12.",
             csv_runs(rp(NJ, f), "nThread", "time"), [2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12])


# ---------------------------------------------------------------------------------------------
# camillecaulier/6_1_pho_projets: the same kind of course project (synchronization problems with POSIX threads)
CC = "camillecaulier/6_1_pho_projets", "9a4ff48b4bb95f3bb17cd9f7e3d9929828af28d0"
CC_COMMON = ("A course project on synchronization with POSIX threads (projet_1; by its problems and tools apparently the "
             "same UCLouvain LINFO1252 exercise as nj-*, not confirmed): 'time' [s] = the elapsed time of the whole program "
             "(/usr/bin/time -f %e, 0.01 s resolution) over p = 'n_thread' 1..16; 5 runs per p (NSAMPLE=5 in the "
             "repository's shell scripts), each a training row, the test value their median. The machine is not named. ")


def build_cc():
    f = "projet_1/data_complete/producer_consumer.CSV"
    one_reps("cc-prodcons-p", src(CC[0], CC[1], f), "p", "s",
             "Producers-consumers (the shell script runs ./producer_consumer p p: p producers and p consumers): "
             + CC_COMMON + "The time falls from about 0.8-1.2 s at p = 1 to about 0.7-0.8 s from p = 3 on and stays "
             "flat, as measured. Train p=1..12, test p=13, 14, 15, 16.",
             csv_runs(rp(CC[0], f), "n_thread", "time"), list(range(1, 13)), [13, 14, 15, 16])
    f = "projet_1/data_complete/writer_reader.CSV"
    one_reps("cc-readwrite-p", src(CC[0], CC[1], f), "p", "s",
             "Readers-writers: " + CC_COMMON + "Anomalies kept as measured: 0.21-0.22 s at p = 1 but 3.3-5.3 s at 2, "
             "2.0-2.4 s at 3 and 4, then a steady rise (7.3 s at 6, 11.6 s at 8, 14.4 s at 12). Train p=1..12, test "
             "p=13, 14, 15, 16.",
             csv_runs(rp(CC[0], f), "n_thread", "time"), list(range(1, 13)), [13, 14, 15, 16])


# ---------------------------------------------------------------------------------------------
# Voltano0/Projet_Systeme_Informatique_1: the same kind of course project, runs on the course's student server
VO = "Voltano0/Projet_Systeme_Informatique_1", "5c2ea11ced944f000f3ea740d716560708b2a85a", \
    "Soumission_Studsrv/output.csv"
VO_COMMON = ("A course project on synchronization with POSIX threads and the group's own primitives (UCLouvain 'Projet "
             "Systeme Informatique 1', by its problems the LINFO1252 exercise of nj-* and cc-*), run on the course's "
             "student server (the folder is 'Soumission_Studsrv'; the README: 'the output of our code on the 32 core "
             "machine'): 'Temps' [s] = /usr/bin/time of the whole program, 0.01 s resolution, over p = 'Threads'. "
             "Which time is not certain: experiments.sh (commit 05fb40a308e0) prints the elapsed time (-f %e), but an "
             "earlier experiment.sh cut the first 4 characters of /usr/bin/time's default output, which would be the "
             "user CPU time summed over threads; which script wrote this file was not established; 5 runs ('Test' 1-5) per p, each a training row, "
             "the test value their median. The '_AC' programs use the group's own active-waiting (spinlock-based) "
             "locks and semaphores instead of the POSIX ones (by the file names; not checked in the code). ")


def vo_runs(prog):
    d = defaultdict(list)
    with open(rp(VO[0], VO[2])) as f:
        lines = f.read().splitlines()
    assert lines[0] == "Program;Threads;Test;Temps"
    for line in lines[1:]:
        c = line.split(";")
        if c[0] == prog:
            d[int(c[1])].append(float(c[3]))
    return dict(d)


def build_vo():
    s = src(*VO)
    one_reps("vo-philo-posix-p", s, "p", "s",
             "Dining philosophers with POSIX mutexes ('Philosof', p philosophers): " + VO_COMMON + "The time grows "
             "from 0.01-0.02 s at 1 to 0.43-0.51 s at 16 (0.79-0.84 s at 32, 1.47-1.50 s at 64). Train "
             "p=1,2,4,8,16, test p=32, 64.",
             vo_runs("Philosof"), [1, 2, 4, 8, 16], [32, 64])
    one_reps("vo-philo-ac-p", s, "p", "s",
             "Dining philosophers with the group's own locks ('Philosof_AC'): " + VO_COMMON + "The time grows from "
             "0.01 s at 1 to 1.21-1.57 s at 16 (3.7-4.1 s at 32, 7.2-8.2 s at 64). Train p=1,2,4,8,16, test p=32, 64.",
             vo_runs("Philosof_AC"), [1, 2, 4, 8, 16], [32, 64])
    one_reps("vo-prodcons-ac-p", s, "p", "s",
             "Producers-consumers with the group's own semaphores ('Producer_Consumer_AC'; the scripts run the POSIX "
             "Producer_Consumer with p producers and p consumers, presumably the same here): " + VO_COMMON + "The time falls from 0.45-0.56 s at 1 to 0.10-0.11 s at 8 and "
             "rises at 16 (0.16-0.24 s) and 32 (1.1-1.6 s), as measured. Train p=1,2,4,8,16, test p=32.",
             vo_runs("Producer_Consumer_AC"), [1, 2, 4, 8, 16], [32])
    one_reps("vo-readwrite-ac-p", s, "p", "s",
             "Readers-writers with the group's own semaphores ('WriterReader_AC'): " + VO_COMMON + "The time falls from "
             "0.27-0.37 s at 1 to 0.12-0.22 s at 4 and 8, and rises at 16 (0.17-0.25 s) and 32 (0.50-0.98 s), as "
             "measured. Train p=1,2,4,8,16, test p=32.",
             vo_runs("WriterReader_AC"), [1, 2, 4, 8, 16], [32])


# ---------------------------------------------------------------------------------------------
# acaramida/approxiPi_C-OpenMP: Monte Carlo estimate of pi with OpenMP (a course assignment of March 2020)
AC = "acaramida/approxiPi_C-OpenMP", "0fc299c667766500b0df84e33016d077ece3dd54", "output_file_omp.csv"


def ac_runs():
    d = defaultdict(lambda: defaultdict(list))
    with open(rp(AC[0], AC[2])) as f:
        for line in f.read().splitlines():
            n, t, y = line.split("\t")
            d[int(n)][int(t)].append(float(y))
    return d


def build_ac():
    d = ac_runs()
    common = ("Monte Carlo estimate of pi with OpenMP (random points in the unit square, rand_r per thread), a course "
              "assignment (the repository holds '2020-03-17 P3 Monte Carlo PI C+OpenMP.pdf'): the file has no header; "
              "its columns are read as the number of points, the OpenMP thread count and the run time, in seconds by "
              "its size (the repository's test.sh runs ./PI -p POINTS -t THREADS -b NRUNS times and tees the output "
              "into this file; that test.sh, of a later commit, lists other point counts, threads 1..20 and 10 runs, "
              "while the file holds threads 1, 2, 4, 6, 8 and 20 runs each). Here the time [s] over p = threads at %s "
              "points; 20 runs per p, each a training row, the test value their median. The machine is not named. "
              "The speed-up from 4 to 6 threads is small and from 6 to 8 larger again, as measured (perhaps a "
              "machine with fewer cores than 8 or with two kinds of cores; not stated). Train p=1,2,4,6, test p=8.")
    for n, tag, extra in [(1000000000, "n1e9", ""), (100000000, "n1e8", ""),
                          (10000000, "n1e7", " At this size the times are printed to 1 ms (0.016-0.093 s), so the "
                                            "resolution is a few per cent of the value.")]:
        one_reps("ac-mcpi-omp-%s-p" % tag, src(*AC), "p", "s", common % ("{:,}".format(n)) + extra,
                 dict(d[n]), [1, 2, 4, 6], [8])


# ---------------------------------------------------------------------------------------------
# Primo909/parallel_relativity: 1-D wave equation with MPI, IST 'Advanced Topics of Computational Physics' 2022/23
PR = "Primo909/parallel_relativity", "f8935669a18ba605b960a1e1b266191b6deadef2", "time_saved.csv"
PR_COMMON = ("1-D wave equation solved with 4th-order Runge-Kutta and a five-point second derivative, the grid of N "
             "points split over MPI ranks with a ghost-cell exchange (MPI_Isend/Irecv) per stage, an MPI_Barrier after "
             "each stage and an MPI_Gather of the field every time step, 20000 steps (dt = 1e-4 to t = 2; "
             "main/parallel_main.C, read at a later commit 2b4bd9b0ac90), IST course project 2022/23: 'time' [s] = "
             "MPI_Wtime on rank 0 around the time loop, as the program prints it on its 'control' line; 5 runs per "
             "point (a version of the repository's run.sh: mpiexec -np cores ... for i in {1..5}), each a training "
             "row, the test value their median. The machine is not named. ")


def pr_runs():
    d = defaultdict(lambda: defaultdict(list))
    for r in read_dicts(rp(PR[0], PR[2])):
        assert r["control"] == "control"
        d[int(r["N"])][int(r["size"])].append(float(r["time"]))
    return d


def build_pr():
    d = pr_runs()
    s = src(*PR)
    for n, extra in [(5000, "The time falls to 1.37-1.47 s at 5 ranks and rises from 6 on (1.53-2.39 s at 6, a wide "
                            "spread; 2.06-2.18 s at 7), as measured: more ranks than the machine's cores, presumably "
                            "(not stated)."),
                     (3000, "The time falls to 0.95-1.11 s at 5 ranks, is about the same at 6 (1.01-1.16 s) "
                            "and rises at 7 (1.41-1.52 s), as measured.")]:
        one_reps("pr-wave1d-mpi-n%d-p" % n, s, "p", "s",
                 PR_COMMON + "Here p = MPI ranks 1..8 at N = %d, strong scaling. %s Train p=1..6, test p=7, 8."
                 % (n, extra), dict(d[n]), [1, 2, 3, 4, 5, 6], [7, 8])
    for p in (1, 4):
        one_reps("pr-wave1d-mpi-%drank-n" % p, s, "n", "s",
                 PR_COMMON + "Here n = grid points N = 1000..5000 at %d MPI rank%s (a fixed number of time steps, so "
                 "the work grows as N). Train n=1000,2000,3000,4000, test n=5000." % (p, "" if p == 1 else "s"),
                 {n: d[n][p] for n in d}, [1000, 2000, 3000, 4000], [5000])


BUILDERS = [build_nj, build_cc, build_vo, build_ac, build_pr]

if __name__ == "__main__":
    CORPUS.main(BUILDERS, nvars=1, max_per_repo=4)
