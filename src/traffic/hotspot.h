/* What the hot-spot scenarios share (src/traffic/hotspot.c, region.c): the
 * window in which roles apply, and the choice of source nodes. */
#ifndef ICN_HOTSPOT_H
#define ICN_HOTSPOT_H
#include "../net/policy.h"

typedef struct hs_window { simtime_t start, end; } hs_window_t;   /* end = SIMTIME_MAX: never */

/* traffic.hs_start and traffic.hs_end. */
hs_window_t hs_window(cfg_t *c);
static inline int hs_active(const hs_window_t *w, simtime_t t) { return t >= w->start && t < w->end; }
/* Mark in `taken` the nodes that cannot take a role applying in window w
 * only: those traffic.pattern leaves idle (outside w they have no destination). */
void hs_exclude_idle(sim_t *s, const hs_window_t *w, uint8_t *taken);
/* Pick `count` distinct random nodes not marked in `taken`; give them roles
 * 0..nroles-1 in turn. Returns how many it picked (fewer if fewer are free). */
uint32_t hs_pick_sources(sim_t *s, uint32_t count, const uint8_t *taken, uint32_t nroles);

#endif
