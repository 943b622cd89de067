/* A growing byte buffer to write, and a cursor to read it back: the
 * statistics and views a rank of a distributed run sends to rank 0, and the
 * events that cross ranks. Reading past the end is an internal error. */
#ifndef ICN_BYTEBUF_H
#define ICN_BYTEBUF_H
#include "util.h"
#include <stdint.h>
#include <string.h>

typedef struct bytebuf { uint8_t *p; uint64_t n, cap; } bytebuf_t;
typedef struct bytecur { const uint8_t *r, *end; } bytecur_t;

static inline void bb_put(bytebuf_t *b, const void *v, uint64_t n)
{
    if (b->n + n > b->cap) {
        b->cap = 2 * (b->n + n) + 4096;
        b->p = xrealloc(b->p, b->cap);
    }
    if (n) memcpy(b->p + b->n, v, n);
    b->n += n;
}

static inline void bc_get(bytecur_t *c, void *v, uint64_t n, const char *what)
{
    if ((uint64_t)(c->end - c->r) < n) die("%s: the bytes end early", what);
    if (n) memcpy(v, c->r, n);
    c->r += n;
}

#endif
