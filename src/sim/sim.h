/* Driving a simulation: set-up from a configuration, the event loop, the
 * deadlock report and the invariant checks. Above the network model
 * (src/net/model.h), which it builds and runs. */
#ifndef ICN_SIM_H
#define ICN_SIM_H
#include "../net/model.h"

struct cfg;
struct comm;

/* Build a simulation from a configuration (errors exit with status 2). */
void sim_setup(sim_t *s, struct cfg *c);
/* Run to the end time; returns EXIT_OK or EXIT_DEADLOCK. */
int sim_run(sim_t *s);
/* Stop all sources (messages not yet taken are dropped) and run up to `extra`
 * longer so the network empties; for tests of the drained state. */
int sim_drain(sim_t *s, simtime_t extra);
void sim_free(sim_t *s);
/* The processes of an MPI job that share the next runs (src/core/comm.h):
 * a run with time.parts then deals its parts to them. NULL: one process. */
void sim_use_comm(const struct comm *c);

/* Invariant check: returns 0 if all hold, else prints what broke and returns -1. */
int sim_check_invariants(sim_t *s, int drained);
/* The same with the pending events of nq queues, the packets in flight and
 * the counts given (a partitioned run's, between windows: src/sim/parts.c). */
int sim_check_invariants_of(sim_t *s, int drained, const evq_t *queues, uint32_t nq, uint32_t live, const stats_t *st);

#endif
