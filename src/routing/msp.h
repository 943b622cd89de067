/* Multi-step paths on k-ary n-cubes (routing.algorithm = dor-msp). */
#ifndef ICN_MSP_H
#define ICN_MSP_H
#include "../net/model.h"

/* Hops of the dimension-order route from router `from` to router `to`; the
 * first `max` output ports (global ids) are stored in ports, if not NULL. */
uint32_t msp_walk(const sim_t *s, uint32_t from, uint32_t to, uint32_t *ports, uint32_t max);
/* Minimal hop distance between two routers (mesh: Manhattan; torus: wraps). */
uint32_t msp_distance(const sim_t *s, uint32_t a, uint32_t b);

#endif
