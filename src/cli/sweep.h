/* The points of a sweep, as the runners that compute them see them: local
 * worker processes (sweep.c) and, in an MPI build, the ranks of an MPI job
 * (src/mpi/sweep_mpi.c). A runner only computes points and reports each
 * one's status; choosing the points, resuming and merging stay in sweep.c. */
#ifndef ICN_SWEEP_H
#define ICN_SWEEP_H

typedef struct sweep sweep_t;

/* Compute point pt in this process, into its directory; returns the exit
 * status of run_one (0, or 3 for a deadlock; others mean it failed). */
int sweep_run_point(const sweep_t *sw, long pt);
/* Record that point pt ended with status rc (sig: the signal that killed
 * its worker, or 0). Returns 1 once the sweep must stop handing out points
 * because a point failed. */
int sweep_point_done(sweep_t *sw, long pt, int rc, int sig);

/* The number of processes of the MPI job that started this one, read from
 * its launcher's environment (Open MPI's OMPI_COMM_WORLD_SIZE, or PMI_SIZE
 * of MPICH and srun --mpi=pmi2); 1 when not started by an MPI launcher.
 * *var names the variable read. */
long mpi_job_size(const char **var);

#ifdef ICN_MPI
/* MPI_Init; returns this process's rank and sets *size. */
int mpi_begin(int *size);
/* Rank 0 hands out todo[0..n) to the other ranks, one point per request,
 * in that order, until every point is done or sweep_point_done asks to
 * stop; the other ranks compute the points they are given. With a single
 * rank, rank 0 computes them itself. Returns when this rank is done. */
void mpi_run_points(sweep_t *sw, const long *todo, long n);
void mpi_end(void);
#endif

#endif
