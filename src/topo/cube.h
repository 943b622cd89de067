/* k-ary n-cubes: tori (wrap-around links) and meshes, bidirectional links,
 * `c` end nodes per router.
 *
 * Router r has coordinates r_d = floor(r / k^d) mod k. Ports 0..c-1 attach its
 * nodes (node = r * c + i); port c + 2d leads to the + neighbour in dimension
 * d and port c + 2d + 1 to the - neighbour. A packet travelling + in dimension
 * d therefore arrives on port c + 2d + 1 (and vice versa). In a mesh the
 * outward ports of boundary routers are left unconnected. */
#ifndef ICN_CUBE_H
#define ICN_CUBE_H
#include <stdint.h>
#include "../net/model.h"

typedef struct cube {
    uint32_t k, n, c;            /* radix, dimensions, concentration */
    int torus;
    uint32_t routers;
    uint32_t kpow[9];
} cube_t;

/* The k-ary n-cube of this simulation, or NULL. */
const cube_t *cube_get(const sim_t *s);

static inline uint32_t cube_coord(const cube_t *q, uint32_t r, uint32_t d) { return r / q->kpow[d] % q->k; }
static inline uint32_t cube_port(const cube_t *q, uint32_t d, int minus) { return q->c + 2 * d + (uint32_t)minus; }
/* Input port on which a packet moving in (d, minus) arrives. */
static inline uint32_t cube_in_port(const cube_t *q, uint32_t d, int minus) { return q->c + 2 * d + (uint32_t)!minus; }

#endif
