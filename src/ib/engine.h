/* Routing engines: each fills the LFTs (and, if it needs VLs, the SLs and
 * SL-to-VL tables) of a subnet whose LIDs are assigned. Names as OpenSM's. */
#ifndef ICN_IB_ENGINE_H
#define ICN_IB_ENGINE_H
#include "subnet.h"
#include "../cli/config.h"

typedef struct ib_engine {
    const char *name, *desc;
    void (*fill)(ib_subnet_t *ib, sim_t *s, cfg_t *c);
} ib_engine_t;

extern const ib_engine_t ib_engines[];   /* ended by a NULL name */
const ib_engine_t *ib_find_engine(const char *name);

/* Shared helpers (engine_util.c). */
/* Every CA's LIDs at its own switch: the port it hangs on. */
void ib_fill_local(ib_subnet_t *ib, const sim_t *s);
/* Switch-to-switch hop counts, [a * S + b], 0xFFFF if unreachable. */
uint16_t *ib_switch_dist(const sim_t *s);
/* Routes counted per global port, to balance choices (OpenSM's counters). */
typedef struct ib_load { uint32_t *n; } ib_load_t;
/* Among the local ports of w in mask, the least loaded; ties prefer ports
 * not in `avoid`, then the lowest. Counts the choice. */
uint32_t ib_pick(const sim_t *s, ib_load_t *ld, uint32_t w, uint64_t mask, uint64_t avoid);
/* Parse a list of switch indices (ib.root); returns the count. */
uint32_t ib_parse_switches(cfg_t *c, key_id k, const sim_t *s, uint32_t *out, uint32_t max);

#endif
