/* Event queue ordered by (time, insertion sequence).
 *
 * Time is an integer count of picoseconds. Equal times pop in insertion order,
 * which is itself deterministic, so a run is reproducible bit for bit.
 *
 * Implementation: a radix wheel (a radix heap with 8-bit digits, or a
 * hierarchical timing wheel of 1 ps resolution), exploiting that a simulator
 * never schedules before the event it is handling. `cur` is a lower bound of
 * every queued time (the time last popped). An event at time t >= cur lives
 * on level L = the highest 8-bit digit in which t and cur differ (0 if none),
 * in slot = digit L of t. Every slot is a FIFO in insertion order, so a
 * level-0 slot holds events of one exact time in sequence order and its head
 * is the (time, seq) minimum. When level 0 is empty, the first non-empty slot
 * of the lowest non-empty level is redistributed ("cascaded") onto lower
 * levels relative to its minimum time; a slot holding a single time moves to
 * level 0 as a whole. An event is thus copied at most once per level it
 * descends (three or four for delays below 2^32 ps), by sequential appends,
 * with no sorting or sifting. Slots are chains of fixed-size chunks recycled
 * through a free list, so steady-state scheduling does not allocate. Events
 * pushed before `cur` (the simulator never does) go to a small fallback
 * binary heap.
 *
 * Walking the pending events (the invariant checker does): evq_foreach(). */
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

#define EVQ_DIGIT   8                                   /* bits per level */
#define EVQ_SLOTS   (1u << EVQ_DIGIT)
#define EVQ_LEVELS  ((64 + EVQ_DIGIT - 1) / EVQ_DIGIT)
#define EVQ_WORDS   (EVQ_SLOTS / 64)

struct evq_chunk;
struct evq_ent;
typedef struct evq_slot {
    struct evq_chunk *head, *tail;   /* NULL when empty */
    uint32_t rd, wr;                 /* read index in head, write index in tail */
    simtime_t min, max;              /* earliest and latest time in the slot */
} evq_slot_t;

typedef struct evq {
    size_t n;          /* number of queued events */
    uint64_t seq;
    uint64_t pushed;   /* total events ever scheduled (for statistics) */
    simtime_t top;     /* earliest queued time, valid when n > 0 */
    simtime_t cur;     /* wheel base: no wheel event is earlier */
    size_t nwheel;     /* events in the wheel (the others are in the early heap) */
    uint32_t levmask;  /* bit L set when level L has a non-empty slot */
    uint32_t nslots[EVQ_LEVELS];        /* non-empty slots per level */
    uint64_t (*bits)[EVQ_WORDS];        /* [EVQ_LEVELS] non-empty slot bitmaps */
    evq_slot_t (*slot)[EVQ_SLOTS];      /* [EVQ_LEVELS] */
    struct evq_chunk *free_chunks;
    void *blocks;                       /* chunk allocations, for evq_free */
    struct evq_ent *early;              /* fallback heap: events pushed before cur */
    size_t nearly, early_cap;
} evq_t;

void evq_init(evq_t *q);
void evq_free(evq_t *q);
void evq_push(evq_t *q, simtime_t t, unsigned type, uint32_t a, uint32_t b);
/* Remove the earliest event into *e; returns 0 when empty. */
int evq_pop(evq_t *q, event_t *e);
/* Call fn on every queued event, in no particular order. The queue must not
 * be modified during the walk. */
void evq_foreach(const evq_t *q, void (*fn)(const event_t *e, void *arg), void *arg);
static inline int evq_empty(const evq_t *q) { return q->n == 0; }
static inline simtime_t evq_top_time(const evq_t *q) { return q->n ? q->top : SIMTIME_MAX; }
static inline unsigned ev_type(const event_t *e) { return (unsigned)(e->ord & 0xff); }

#endif
