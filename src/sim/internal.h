/* Shared by the files of src/sim/ only. */
#ifndef ICN_SIM_INTERNAL_H
#define ICN_SIM_INTERNAL_H
#include "sim.h"

/* Print the cycle of full buffers that a deadlocked packet-level run is stuck in. */
void deadlock_report(sim_t *s);
/* Print the deadlock report of the run's model. */
void sim_report_deadlock(sim_t *s);
/* Handle the events before `limit` and the services they call for; EXIT_OK
 * once the next event is at or after it (or a failure's status). */
int sim_run_until(sim_t *s, simtime_t limit);
/* time.parts: set-up (0 or 1 part: none; threads > 1: the parts' windows on
 * that many threads), the windowed loop to s->end, teardown. */
void parts_setup(sim_t *s, uint32_t parts, uint32_t threads);
int parts_loop(sim_t *s);
void parts_free(sim_t *s);
/* The communicator of a run over several MPI ranks (sim_use_comm), or NULL. */
const struct comm *parts_comm(void);
/* A run over MPI ranks: print that a deadlock was found (rank 0) and return 1;
 * 0 for any other run, whose deadlock report reads the whole network. */
int parts_report_deadlock(sim_t *s);
/* The views' sample at the end of the time series, when it falls on an
 * interval (loop.c; a run over MPI ranks takes it on every rank). */
void sim_views_end_sample(sim_t *s);

#endif
