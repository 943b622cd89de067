/* Shared by the files of src/sim/ only. */
#ifndef ICN_SIM_INTERNAL_H
#define ICN_SIM_INTERNAL_H
#include "sim.h"

/* Print the cycle of full buffers that a deadlocked packet-level run is stuck in. */
void deadlock_report(sim_t *s);

#endif
