/* k-ary n-cubes: tori (wrap-around links) and meshes, bidirectional links,
 * `c` end nodes per router; each dimension d has its own radix k[d]
 * (topology.shape = 8x4), all equal with topology.k and topology.n.
 *
 * Router r has coordinates r_d = floor(r / kpow[d]) mod k[d], kpow[d] being
 * the product of the radices below d. Ports 0..c-1 attach its nodes (node =
 * r * c + i); port c + 2d leads to the + neighbour in dimension d and port
 * c + 2d + 1 to the - neighbour. A packet travelling + in dimension d
 * therefore arrives on port c + 2d + 1 (and vice versa). In a mesh the
 * outward ports of boundary routers are left unconnected. */
#ifndef ICN_CUBE_H
#define ICN_CUBE_H
#include <stdint.h>
#include "../net/model.h"

enum { CUBE_MAX_DIMS = 8 };

typedef struct cube {
    uint32_t n, c;                  /* dimensions, concentration */
    uint32_t k[CUBE_MAX_DIMS];      /* radix of each dimension */
    int torus;                      /* some dimension has wrap-around links */
    uint32_t routers;
    uint32_t kpow[CUBE_MAX_DIMS + 1];
} cube_t;

/* The k-ary n-cube of this simulation, or NULL. */
const cube_t *cube_get(const sim_t *s);

static inline uint32_t cube_coord(const cube_t *q, uint32_t r, uint32_t d) { return r / q->kpow[d] % q->k[d]; }
/* Whether dimension d's rings have wrap-around links: a torus's, unless the
 * ring has 2 routers (its wrap link would duplicate the other link). */
static inline int cube_wraps(const cube_t *q, uint32_t d) { return q->torus && q->k[d] > 2; }
static inline uint32_t cube_port(const cube_t *q, uint32_t d, int minus) { return q->c + 2 * d + (uint32_t)minus; }
/* Input port on which a packet moving in (d, minus) arrives. */
static inline uint32_t cube_in_port(const cube_t *q, uint32_t d, int minus) { return q->c + 2 * d + (uint32_t)!minus; }

#endif
