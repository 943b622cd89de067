/* Event queue ordered by (time, insertion sequence).
 *
 * Time is an integer count of picoseconds. Equal times pop in insertion order,
 * which is itself deterministic, so a run is reproducible bit for bit.
 *
 * Implementation: FIFOs for the common delays, and a radix wheel for the rest.
 *
 * A network model schedules most events a fixed delay after the event it
 * handles (a head arrives a link delay after it leaves, a transfer ends a
 * packet time after it starts, a credit returns a link delay after its space
 * is freed). Events pushed with one delay d at a non-decreasing `now` are
 * already in (time, sequence) order, so each of up to EVQ_FIFOS delays gets a
 * FIFO ring: a push appends, and the earliest event is one of the FIFOs' heads.
 * A delay with no FIFO borrows an empty one (of those, the one least used
 * lately), which is its own while it holds events; an event whose delay finds
 * no FIFO, that would not be the newest of its FIFO, or that is earlier than
 * the time last popped (`now`) goes to the wheel, or before the wheel's base
 * to the fallback heap.
 *
 * The wheel: a radix wheel (a radix heap with 8-bit digits, or a
 * hierarchical timing wheel of 1 ps resolution), exploiting that a simulator
 * never schedules before the event it is handling. `cur` is a lower bound of
 * every queued wheel time. An event at time t >= cur lives
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
 * A pop takes the least (time, seq) of the best FIFO head (kept up to date),
 * the wheel's front and the heap's top; the order is the same whichever
 * structure holds an event.
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

#define EVQ_FIFOS   8                                   /* delays with a FIFO of their own */

struct evq_chunk;
struct evq_ent;

/* (time, ord) as one number: events compare by it */
typedef unsigned __int128 evkey_t;

typedef struct evq_fifo {
    evkey_t hk;              /* its head's key, while it holds events */
    event_t *ev;             /* ring of cap events (a power of two) */
    uint32_t head, n, cap;
    simtime_t delay;         /* the delay (from the time last popped) its events were pushed with */
    simtime_t last;          /* time of its newest event */
    uint64_t used;           /* ord of its newest event: of the empty FIFOs, the one least used lately is lent first */
} evq_fifo_t;

#define EVQ_DMAP 16                                     /* delay -> FIFO hint, direct-mapped */
typedef struct evq_slot {
    struct evq_chunk *head, *tail;   /* NULL when empty */
    uint32_t rd, wr;                 /* read index in head, write index in tail */
    simtime_t min, max;              /* earliest and latest time in the slot */
} evq_slot_t;

typedef struct evq {
    size_t n;          /* number of queued events */
    uint64_t seq;
    simtime_t now;     /* time last popped: a FIFO's delay counts from it */
    evq_fifo_t *fifo;  /* [EVQ_FIFOS] */
    uint32_t fmask;    /* bit i set when FIFO i holds events */
    uint8_t dmap[EVQ_DMAP];   /* by a hash of the delay: the FIFO that delay had last */
    int32_t fbest;     /* the FIFO whose head is the FIFOs' (time, seq) least (-1: all empty) */
    int32_t fnext;     /* the FIFO with the next least head (-1: none) */
    simtime_t ftop;    /* the time of fbest's head (SIMTIME_MAX when fbest < 0) */
    simtime_t wtop;    /* earliest wheel time (SIMTIME_MAX: empty wheel) */
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
    simtime_t etop;                     /* earliest time in the fallback heap (SIMTIME_MAX: empty) */
} evq_t;

void evq_init(evq_t *q);
void evq_free(evq_t *q);
/* The general cases of evq_push and evq_pop (below: the common ones,
 * inline); e of evq_push_slow carries its ord from evq_push. */
void evq_push_slow(evq_t *q, const event_t *e);
int evq_pop_slow(evq_t *q, event_t *e);

static inline unsigned evq_dslot(simtime_t d) { return (unsigned)((d * 0x9E3779B97F4A7C15ull) >> 60) & (EVQ_DMAP - 1); }
static inline evkey_t evq_key(const event_t *e) { return (evkey_t)e->time << 64 | e->ord; }

/* Schedule an event: appended to its delay's FIFO when that one holds events
 * and has room. */
static inline void evq_push(evq_t *q, simtime_t t, unsigned type, uint32_t a, uint32_t b)
{
    event_t e = { t, (q->seq++ << 8) | (type & 0xff), a, b };
    q->n++;
    if (__builtin_expect(t >= q->now, 1)) {
        evq_fifo_t *f = &q->fifo[q->dmap[evq_dslot(t - q->now)]];
        if (f->delay == t - q->now && f->n && f->n < f->cap && t >= f->last) {
            f->ev[(f->head + f->n++) & (f->cap - 1)] = e;
            f->last = t;
            f->used = e.ord;
            return;
        }
    }
    evq_push_slow(q, &e);
}

/* Remove the earliest event into *e; returns 0 when empty. Inline: the best
 * FIFO's head, when its next event stays ahead of the other FIFOs' heads. */
static inline int evq_pop(evq_t *q, event_t *e)
{
    if (__builtin_expect(q->ftop < q->wtop && !q->nearly, 1)) {
        evq_fifo_t *f = &q->fifo[q->fbest];
        if (f->n > 1) {
            uint32_t h = (f->head + 1) & (f->cap - 1);
            evkey_t k = evq_key(&f->ev[h]);
            if (q->fnext < 0 || k < q->fifo[q->fnext].hk) {
                *e = f->ev[f->head];
                f->head = h;
                f->n--;
                f->hk = k;
                q->n--;
                q->now = e->time;
                q->ftop = f->ev[h].time;
                return 1;
            }
        }
    }
    return evq_pop_slow(q, e);
}
/* Call fn on every queued event, in no particular order. The queue must not
 * be modified during the walk. */
void evq_foreach(const evq_t *q, void (*fn)(const event_t *e, void *arg), void *arg);
static inline int evq_empty(const evq_t *q) { return q->n == 0; }
/* The earliest queued time (SIMTIME_MAX: empty): the least of the three
 * structures' fronts, each kept exact. */
static inline simtime_t evq_top_time(const evq_t *q)
{
    simtime_t t = q->ftop < q->wtop ? q->ftop : q->wtop;
    return __builtin_expect(q->nearly != 0, 0) && q->etop < t ? q->etop : t;
}
static inline unsigned ev_type(const event_t *e) { return (unsigned)(e->ord & 0xff); }

#endif
