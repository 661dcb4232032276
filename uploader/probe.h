/* probe: low-overhead instrumentation of kernels in HPC programs.
 *
 * Mark a kernel with PROBE_BEGIN("name") ... PROBE_END("name"); count events
 * with PROBE_COUNT("name", n) and record sampled values with PROBE_VALUE("name", x).
 * Each thread records into its own table (no locks, no atomics on the hot
 * path); at exit, or when probe_write() is called, the tables of all threads
 * are merged and written as a run document fragment that `prophecy-upload exec`
 * folds into the run it submits:
 *
 *   {"kernels": [{"name": "multiply", "time": 11.2, "calls": 1}, ...],
 *    "metrics": {"flops": 2e9, "residual": 1e-6, ...}}
 *
 * The file goes to $PROBE_OUTPUT (nothing is written when it is unset and no
 * path is given). Define PROBE_DISABLE before including this header (or with
 * -DPROBE_DISABLE) and every macro compiles to ((void)0): no calls, no symbol
 * references, arguments not evaluated.
 *
 * Names: a NUL-terminated string whose contents never change while the program
 * runs; a string literal is ideal. The library identifies a name by its address
 * first (fast path) and copies it when first seen, so two literals with the same
 * text in different files are the same kernel.
 *
 * Intervals nest per thread: PROBE_END must close the innermost open
 * PROBE_BEGIN of the same name. A mismatched END closes the intervals above the
 * matching BEGIN (or is ignored when none is open); mismatches are counted,
 * reported on stderr and in the metric "probe.mismatches"; they never crash.
 * The time of a kernel is inclusive (nested kernels are counted in both).
 *
 * Under MPI (library probe_mpi, compiled with -DPROBE_MPI), call
 * probe_mpi_finalize() before MPI_Finalize(): it gathers every rank's totals
 * on rank 0, which writes kernel time = max over ranks (the critical path),
 * calls = max over ranks, and the metrics "<kernel>.time_mean",
 * "<kernel>.time_min", "<kernel>.time_max" and "<kernel>.ranks" (ranks that
 * ran the kernel; mean and min are over those ranks). Counters are summed over
 * ranks; values are averaged over all samples.
 *
 * This library is standalone: it depends on libc and (for probe_mpi) MPI only,
 * uses plain malloc, and never exits or aborts the program.
 */
#ifndef PROBE_H
#define PROBE_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef PROBE_DISABLE
#define PROBE_BEGIN(name) ((void)0)
#define PROBE_END(name) ((void)0)
#define PROBE_COUNT(name, n) ((void)0)
#define PROBE_VALUE(name, x) ((void)0)
#else
#define PROBE_BEGIN(name) probe_begin(name)
#define PROBE_END(name) probe_end(name)
#define PROBE_COUNT(name, n) probe_count((name), (long long)(n))
#define PROBE_VALUE(name, x) probe_value((name), (double)(x))
#endif

/* Opens an interval of kernel `name` in the calling thread. Thread-safe
 * (touches only the thread's own table). */
void probe_begin(const char *name);
/* Closes the innermost open interval of `name` in the calling thread and adds
 * its duration to the kernel's total and 1 to its call count. */
void probe_end(const char *name);
/* Adds n to the counter metric `name` (summed over threads and ranks). */
void probe_count(const char *name, long long n);
/* Records one sample x of the value metric `name`; the metric written is the
 * mean of all samples, with "<name>.min" and "<name>.max" when there are
 * several. Non-finite samples are ignored. */
void probe_value(const char *name, double x);

/* Merges the tables of all threads and writes the fragment to `path`, or to
 * $PROBE_OUTPUT when path is NULL (nothing when that is unset too). The file
 * is written to a temporary name and renamed into place. Returns 0, or -1 with
 * a message on stderr. Call it while no other thread is inside a PROBE_ macro
 * (e.g. after joining the workers): it reads their tables without locks. After
 * an explicit probe_write() with a NULL path, the exit handler writes nothing. */
int probe_write(const char *path);

/* Forgets all totals of all threads (same rule: no other thread recording).
 * For benchmarks and tests. */
void probe_reset(void);

/* Under probe_mpi: collective over MPI_COMM_WORLD; gathers the totals to rank
 * 0, which writes $PROBE_OUTPUT (other ranks write nothing). Must be called by
 * every rank before MPI_Finalize(). Returns 0 or -1. In the non-MPI library it
 * is probe_write(NULL). */
int probe_mpi_finalize(void);

#ifdef __cplusplus
}
#endif

#endif
