/* Parts of a network for a partitioned run (and for views.pdes, which
 * measures one): every leaf switch keeps its end nodes, consecutive nodes
 * fall in the same part, the other switches are dealt round-robin. */
#ifndef ICN_PARTITION_H
#define ICN_PARTITION_H
#include "model.h"

/* part_of[switch], then part_of[nswitches + node], in [0, parts); the caller frees it. */
uint32_t *net_partition(const sim_t *s, uint32_t parts);

#endif
