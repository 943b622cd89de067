#include "evq.h"
#include "util.h"
#include <stdlib.h>
#include <string.h>

/* See evq.h for the design. Invariants:
 *  - every wheel event e has e.time >= cur and sits on level
 *    L = highest differing digit of (e.time ^ cur) (0 if none), slot = digit
 *    L of e.time; so lower levels hold earlier times, and within a level the
 *    slot order is the time order;
 *  - every slot holds its events in insertion (sequence) order: pushes append
 *    the largest sequence number so far, and a cascade, which only happens
 *    when every lower level is empty, deals a slot's events out in order.
 *    A level-0 slot holds a single time, so its head is the (time, seq)
 *    minimum of that time, and no comparison is ever needed;
 *  - early-heap events were pushed before cur;
 *  - every FIFO holds its events in (time, ord) order: a push appends only an
 *    event no earlier than the FIFO's newest, and has the largest ord so far;
 *    fbest names the FIFO with the least head (ftop its time, -1 if every
 *    FIFO is empty), fnext the one with the next least; wtop is the wheel's
 *    least time exactly (a lower bound would not do: the pop compares it).
 *    SIMTIME_MAX in ftop or wtop also means "none": emptiness is read from
 *    fbest and nwheel, so events at SIMTIME_MAX keep their order too;
 *    pops merge the three sources by (time, ord). */

#define MASK          (EVQ_SLOTS - 1)
#define CHUNK_EVENTS  42
#define BLOCK_CHUNKS  64

typedef struct evq_chunk {
    struct evq_chunk *next;
    event_t ev[CHUNK_EVENTS];
} chunk_t;

typedef struct block {
    struct block *next;
    chunk_t c[BLOCK_CHUNKS];
} block_t;

typedef struct evq_ent {   /* early-heap entry */
    event_t e;
} ent_t;

static inline int before(const event_t *x, const event_t *y) { return evq_key(x) < evq_key(y); }

/* ---- chunk pool ---- */

static chunk_t *chunk_refill(evq_t *q)
{
    block_t *b = xmalloc(sizeof *b);
    b->next = q->blocks;
    q->blocks = b;
    for (size_t i = BLOCK_CHUNKS - 1; i > 0; i--) {
        b->c[i].next = q->free_chunks;
        q->free_chunks = &b->c[i];
    }
    return &b->c[0];
}

static inline chunk_t *chunk_get(evq_t *q)
{
    chunk_t *c = q->free_chunks;
    if (__builtin_expect(c != NULL, 1)) {
        q->free_chunks = c->next;
        return c;
    }
    return chunk_refill(q);
}

static inline void chunk_put(evq_t *q, chunk_t *c)
{
    c->next = q->free_chunks;
    q->free_chunks = c;
}

/* ---- wheel ---- */

static inline void slot_mark(evq_t *q, unsigned L, unsigned s)
{
    q->bits[L][s >> 6] |= 1ull << (s & 63);
    q->nslots[L]++;
    q->levmask |= 1u << L;
}

static inline void slot_unmark(evq_t *q, unsigned L, unsigned s)
{
    q->bits[L][s >> 6] &= ~(1ull << (s & 63));
    if (!--q->nslots[L]) q->levmask &= ~(1u << L);
}

static inline void slot_append(evq_t *q, unsigned L, unsigned s, const event_t *e)
{
    evq_slot_t *sl = &q->slot[L][s];
    chunk_t *c = sl->tail;
    if (!c) {
        c = chunk_get(q);
        c->next = NULL;
        sl->head = sl->tail = c;
        sl->rd = sl->wr = 0;
        sl->min = sl->max = e->time;
        slot_mark(q, L, s);
    } else {
        if (e->time < sl->min) sl->min = e->time;
        if (e->time > sl->max) sl->max = e->time;
        if (sl->wr == CHUNK_EVENTS) {
            chunk_t *nc = chunk_get(q);
            nc->next = NULL;
            c->next = nc;
            sl->tail = c = nc;
            sl->wr = 0;
        }
    }
    c->ev[sl->wr++] = *e;
}

static inline void wheel_insert(evq_t *q, const event_t *e)
{
    uint64_t x = e->time ^ q->cur;
    unsigned L = x ? (unsigned)(63 - __builtin_clzll(x)) / EVQ_DIGIT : 0;
    unsigned s = (unsigned)(e->time >> (L * EVQ_DIGIT)) & MASK;
    slot_append(q, L, s, e);
}

/* First non-empty slot >= from, on a level known to have one there. */
static inline unsigned first_set(const uint64_t *w, unsigned from)
{
    unsigned i = from >> 6;
    uint64_t m = w[i] & (~0ull << (from & 63));
    while (!m) m = w[++i];
    return i * 64 + (unsigned)__builtin_ctzll(m);
}

/* Deal the events of slot (L, s) out onto lower levels, with cur rebased on
 * their minimum. Only called when levels 0..L-1 are empty. */
static void cascade(evq_t *q, unsigned L, unsigned s)
{
    evq_slot_t *sl = &q->slot[L][s];
    chunk_t *c = sl->head, *tail = sl->tail;
    uint32_t rd = sl->rd, wr = sl->wr;
    sl->head = sl->tail = NULL;
    slot_unmark(q, L, s);
    q->cur = sl->min;
    if (sl->min == sl->max) {          /* a single time: the chain moves to level 0 whole */
        unsigned d = (unsigned)(q->cur & MASK);
        evq_slot_t *z = &q->slot[0][d];
        z->head = c;
        z->tail = tail;
        z->rd = rd;
        z->wr = wr;
        z->min = z->max = q->cur;
        slot_mark(q, 0, d);
        return;
    }
    for (chunk_t *p = c; p;) {
        uint32_t end = p == tail ? wr : CHUNK_EVENTS;
        for (uint32_t i = p == c ? rd : 0; i < end; i++) wheel_insert(q, &p->ev[i]);
        chunk_t *next = p->next;
        chunk_put(q, p);
        p = next;
    }
}

/* Earliest wheel time (wheel not empty), without moving anything. */
static inline simtime_t wheel_min(const evq_t *q)
{
    if (q->levmask & 1)
        return (q->cur & ~(uint64_t)MASK) | first_set(q->bits[0], (unsigned)(q->cur & MASK));
    unsigned L = (unsigned)__builtin_ctz(q->levmask);
    return q->slot[L][first_set(q->bits[L], 0)].min;
}

/* Move cur to the earliest wheel time (wheel not empty), cascading while
 * level 0 is empty, and return that time's level-0 slot. */
static inline evq_slot_t *wheel_front(evq_t *q)
{
    if (!(q->levmask & 1)) {
        unsigned L = (unsigned)__builtin_ctz(q->levmask);
        cascade(q, L, first_set(q->bits[L], 0));
    }
    unsigned s = first_set(q->bits[0], (unsigned)(q->cur & MASK));
    q->cur = (q->cur & ~(uint64_t)MASK) | s;
    return &q->slot[0][s];
}

/* ---- fallback binary heap for events scheduled before cur ---- */

static void early_push(evq_t *q, const event_t *e)
{
    if (q->nearly == q->early_cap) {
        q->early_cap = q->early_cap ? 2 * q->early_cap : 64;
        q->early = xrealloc(q->early, q->early_cap * sizeof *q->early);
    }
    ent_t *h = q->early;
    size_t i = q->nearly++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(e, &h[p].e)) break;
        h[i] = h[p];
        i = p;
    }
    h[i].e = *e;
    q->etop = h[0].e.time;
}

static void early_pop(evq_t *q, event_t *out)
{
    ent_t *h = q->early;
    *out = h[0].e;
    ent_t last = h[--q->nearly];
    size_t n = q->nearly, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && before(&h[c + 1].e, &h[c].e)) c++;
        if (!before(&h[c].e, &last.e)) break;
        h[i] = h[c];
        i = c;
    }
    if (n) h[i] = last;
    q->etop = n ? h[0].e.time : SIMTIME_MAX;
}

/* ---- FIFOs of the common delays ---- */

/* The FIFO for an event d after the time last popped: the one that delay
 * has, else the empty one least used lately; NULL if none is free. */
static evq_fifo_t *fifo_for(evq_t *q, simtime_t d)
{
    unsigned h = evq_dslot(d);
    evq_fifo_t *f = &q->fifo[q->dmap[h]];
    if (f->delay == d) return f;
    evq_fifo_t *lent = NULL;
    for (unsigned i = 0; i < EVQ_FIFOS; i++) {
        evq_fifo_t *g = &q->fifo[i];
        if (g->delay == d) { q->dmap[h] = (uint8_t)i; return g; }
        if (!g->n && (!lent || g->used < lent->used)) lent = g;
    }
    if (lent) {
        lent->delay = d;
        q->dmap[h] = (uint8_t)(lent - q->fifo);
    }
    return lent;
}

/* Append e to a FIFO if one can keep it in order; 0 if none. */
static inline int fifo_push(evq_t *q, const event_t *e)
{
    evq_fifo_t *f = fifo_for(q, e->time - q->now);
    if (!f || (f->n && e->time < f->last)) return 0;
    if (f->n == f->cap) f->ev = ring_grow(f->ev, &f->head, &f->cap, sizeof *f->ev);   /* (doubles: cap stays a power of two) */
    f->ev[(f->head + f->n++) & (f->cap - 1)] = *e;
    f->last = e->time;
    f->used = e->ord;
    if (f->n > 1) return 1;   /* behind its head: the order of the heads is unchanged */
    int32_t i = (int32_t)(f - q->fifo);
    q->fmask |= 1u << i;
    f->hk = evq_key(e);
    if (q->fbest < 0 || f->hk < q->fifo[q->fbest].hk) {
        q->fnext = q->fbest;
        q->fbest = i;
        q->ftop = e->time;
    } else if (q->fnext < 0 || f->hk < q->fifo[q->fnext].hk) {
        q->fnext = i;
    }
    return 1;
}

static inline const event_t *fifo_head(const evq_t *q)
{
    const evq_fifo_t *f = &q->fifo[q->fbest];
    return &f->ev[f->head];
}

/* Find the two least of the FIFOs' heads. */
static void fifo_rank(evq_t *q)
{
    int32_t b = -1, n = -1;
    for (uint32_t m = q->fmask; m; m &= m - 1) {
        int32_t i = (int32_t)__builtin_ctz(m);
        if (b < 0 || q->fifo[i].hk < q->fifo[b].hk) {
            n = b;
            b = i;
        } else if (n < 0 || q->fifo[i].hk < q->fifo[n].hk) {
            n = i;
        }
    }
    q->fbest = b;
    q->fnext = n;
    q->ftop = b < 0 ? SIMTIME_MAX : (simtime_t)(q->fifo[b].hk >> 64);
}

static void fifo_take(evq_t *q, event_t *out)
{
    evq_fifo_t *f = &q->fifo[q->fbest];
    *out = f->ev[f->head];
    f->head = (f->head + 1) & (f->cap - 1);
    if (!--f->n) {
        q->fmask &= ~(1u << q->fbest);
        fifo_rank(q);
        return;
    }
    f->hk = evq_key(&f->ev[f->head]);
    if (q->fnext < 0 || f->hk < q->fifo[q->fnext].hk) q->ftop = f->ev[f->head].time;   /* still the least */
    else fifo_rank(q);
}

/* The wheel's earliest event (wheel not empty): cur moves to its time. */
static inline const event_t *wheel_head(evq_t *q)
{
    const evq_slot_t *sl = wheel_front(q);
    return &sl->head->ev[sl->rd];
}

static void wheel_take(evq_t *q, event_t *out)
{
    evq_slot_t *sl = wheel_front(q);
    chunk_t *c = sl->head;
    *out = c->ev[sl->rd++];
    q->nwheel--;
    if (c == sl->tail) {
        if (sl->rd == sl->wr) {
            chunk_put(q, c);
            sl->head = sl->tail = NULL;
            slot_unmark(q, 0, (unsigned)(q->cur & MASK));
        }
    } else if (sl->rd == CHUNK_EVENTS) {
        sl->head = c->next;
        sl->rd = 0;
        chunk_put(q, c);
    }
    q->wtop = !q->nwheel ? SIMTIME_MAX : sl->head ? q->cur : wheel_min(q);
}

/* ---- interface ---- */

void evq_init(evq_t *q)
{
    memset(q, 0, sizeof *q);
    q->bits = xcalloc(EVQ_LEVELS, sizeof *q->bits);
    q->slot = xcalloc(EVQ_LEVELS, sizeof *q->slot);
    q->fifo = xcalloc(EVQ_FIFOS, sizeof *q->fifo);
    for (unsigned i = 0; i < EVQ_FIFOS; i++) q->fifo[i].delay = SIMTIME_MAX;
    q->fbest = q->fnext = -1;
    q->ftop = q->wtop = q->etop = SIMTIME_MAX;
}

void evq_free(evq_t *q)
{
    for (block_t *b = q->blocks, *nb; b; b = nb) {
        nb = b->next;
        free(b);
    }
    for (unsigned i = 0; q->fifo && i < EVQ_FIFOS; i++) free(q->fifo[i].ev);
    free(q->fifo);
    free(q->bits);
    free(q->slot);
    free(q->early);
    memset(q, 0, sizeof *q);
}

void evq_push_slow(evq_t *q, const event_t *e)
{
    simtime_t t = e->time;
    if (__builtin_expect(t >= q->now, 1) && fifo_push(q, e)) return;
    if (__builtin_expect(t < q->cur, 0)) {
        if (q->nwheel) {           /* earlier than the wheel's base */
            early_push(q, e);
            return;
        }
        q->cur = t;                /* empty wheel: rebase it */
    }
    wheel_insert(q, e);
    q->nwheel++;
    if (t < q->wtop) q->wtop = t;
}

int evq_pop_slow(evq_t *q, event_t *out)
{
    if (!q->n) return 0;
    q->n--;
    /* the FIFOs' head or the wheel's front, whichever is earlier: the wheel's
     * is read only when their times are equal */
    int wheel = q->nwheel && (q->fbest < 0 || q->wtop < q->ftop ||
                              (q->wtop == q->ftop && wheel_head(q)->ord < fifo_head(q)->ord));
    if (__builtin_expect(q->nearly != 0, 0)) {
        const event_t *x = wheel ? wheel_head(q) : q->fbest >= 0 ? fifo_head(q) : NULL;
        if (!x || before(&q->early[0].e, x)) {
            early_pop(q, out);
            goto done;
        }
    }
    if (wheel) wheel_take(q, out);
    else fifo_take(q, out);
done:
    q->now = out->time;
    return 1;
}

void evq_foreach(const evq_t *q, void (*fn)(const event_t *e, void *arg), void *arg)
{
    for (size_t i = 0; i < q->nearly; i++) fn(&q->early[i].e, arg);
    for (uint32_t m = q->fmask; m; m &= m - 1) {
        const evq_fifo_t *f = &q->fifo[__builtin_ctz(m)];
        for (uint32_t i = 0; i < f->n; i++) fn(&f->ev[(f->head + i) & (f->cap - 1)], arg);
    }
    for (unsigned L = 0; L < EVQ_LEVELS; L++) {
        if (!(q->levmask & (1u << L))) continue;
        for (unsigned s = 0; s < EVQ_SLOTS; s++) {
            const evq_slot_t *sl = &q->slot[L][s];
            for (const chunk_t *p = sl->head; p; p = p->next) {
                uint32_t end = p == sl->tail ? sl->wr : CHUNK_EVENTS;
                for (uint32_t i = p == sl->head ? sl->rd : 0; i < end; i++) fn(&p->ev[i], arg);
            }
        }
    }
}
