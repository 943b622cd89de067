/* Event queue: a 4-ary min-heap ordered by (time, insertion sequence).
 *
 * Time is an integer count of picoseconds. Equal times pop in insertion order,
 * which is itself deterministic, so a run is reproducible bit for bit. The heap
 * stores events by value (24 bytes), so scheduling never allocates once the
 * array has grown to the run's working size. */
#ifndef ICN_EVQ_H
#define ICN_EVQ_H
#include <stdint.h>
#include <stddef.h>

typedef uint64_t simtime_t;
#define SIMTIME_MAX UINT64_MAX

typedef struct event {
    simtime_t time;
    uint64_t ord;      /* seq << 8 | type */
    uint32_t a, b;     /* payload, meaning set by the type */
} event_t;

typedef struct evq {
    event_t *h;
    size_t n, cap;
    uint64_t seq;
    uint64_t pushed;   /* total events ever scheduled (for statistics) */
} evq_t;

void evq_init(evq_t *q);
void evq_free(evq_t *q);
void evq_push(evq_t *q, simtime_t t, unsigned type, uint32_t a, uint32_t b);
/* Remove the earliest event into *e; returns 0 when empty. */
int evq_pop(evq_t *q, event_t *e);
static inline int evq_empty(const evq_t *q) { return q->n == 0; }
static inline simtime_t evq_top_time(const evq_t *q) { return q->n ? q->h[0].time : SIMTIME_MAX; }
static inline unsigned ev_type(const event_t *e) { return (unsigned)(e->ord & 0xff); }

#endif
