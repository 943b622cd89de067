/* time.parts = N: the network split into N parts (src/net/partition.c), each
 * with its own event queue, run window after window as a conservative
 * parallel run does, one part after another in this thread.
 *
 * A window starts at the earliest pending event T and lasts the lookahead,
 * the link delay: nothing one part does at time t reaches another before
 * t + link.delay (a head after the link and routing delays, a credit after
 * the link delay), so within [T, T + link.delay) the parts are independent
 * and each handles its own window alone. An event a part schedules for
 * another goes to that part's outbox, handed over once every part has
 * finished the window; it falls in a later window by the same argument (a
 * violation is an internal error, not a silent reordering). The samples,
 * which read the whole network, stay in the run's own queue and are handled
 * between windows, which end at them; the canonical order handles a sample
 * first at its instant, so the sequential run sees the same state.
 *
 * With time.ties = canonical (required) the result is the sequential run's,
 * byte for byte, for any N: tests/test_parts.c. Threads or MPI ranks can then
 * take the parts' windows in parallel; what that still needs is in
 * docs/DESIGN.md. */
#include "internal.h"
#include "../core/util.h"
#include "../net/partition.h"
#include <stdlib.h>

typedef struct outbox { event_t *e; uint32_t n, cap; } outbox_t;

struct parts {
    uint32_t n;               /* parts */
    uint32_t cur;             /* the part whose queue is in s->evq; n: the run's own (samples) */
    uint32_t *part_of;        /* [switch], then [nswitches + node] */
    evq_t *q;                 /* [n + 1]: each part's queue, then the run's own while a part runs */
    outbox_t *out;            /* [n]: events for part p from the others in this window */
    simtime_t window, limit;  /* the lookahead; the current window's end */
    uint64_t windows;
};

static inline uint32_t dev_part(const sim_t *s, const struct parts *P, uint32_t dev)
{
    return P->part_of[dev & NIC_BIT ? s->nswitches + (dev & ~NIC_BIT) : dev];
}

/* The part owning an event's target, or P->n for the whole network's. */
static uint32_t owner(const sim_t *s, const struct parts *P, unsigned type, uint32_t a, uint32_t b)
{
    switch (type) {
    case EV_ARRIVE: case EV_XDONE: return dev_part(s, P, s->port[a].dev);
    case EV_CREDIT: return dev_part(s, P, s->port[a / s->nvc].dev);
    case EV_DELIVER: return P->part_of[s->nswitches + b];
    case EV_NIC_WAKE: return P->part_of[s->nswitches + a];
    case EV_SAMPLE: return P->n;
    default: die("time.parts: event type %u has no owner", type);
    }
}

static void push(sim_t *s, simtime_t t, unsigned type, uint32_t a, uint32_t b)
{
    struct parts *P = s->parts;
    uint32_t q = owner(s, P, type, a, b);
    if (q == P->cur) { evq_push(&s->evq, t, type, a, b); return; }
    if (q == P->n || P->cur == P->n) { evq_push(&P->q[q], t, type, a, b); return; }
    if (t < P->limit)
        die("time.parts: part %u scheduled an event for part %u at t = %.6f us, inside the window that ends at %.6f us",
            P->cur, q, t / 1e6, P->limit / 1e6);
    outbox_t *o = &P->out[q];
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 256;
        o->e = xrealloc(o->e, o->cap * sizeof *o->e);
    }
    o->e[o->n++] = (event_t){ t, type, a, b };
}

/* Put part p's queue in s->evq (and the run's own aside), or back. */
static void enter(sim_t *s, struct parts *P, uint32_t p)
{
    evq_t own = s->evq;
    s->evq = P->q[p];
    P->q[P->n] = own;
    P->cur = p;
}

static void leave(sim_t *s, struct parts *P, uint32_t p)
{
    P->q[p] = s->evq;
    s->evq = P->q[P->n];
    P->cur = P->n;
}

void parts_setup(sim_t *s, uint32_t n)
{
    if (n < 2) return;
    struct parts *P = s->parts = xcalloc(1, sizeof *P);
    P->n = P->cur = n;
    P->part_of = net_partition(s, n);
    P->q = xcalloc((size_t)n + 1, sizeof *P->q);
    for (uint32_t p = 0; p < n; p++) evq_init(&P->q[p]);
    P->out = xcalloc(n, sizeof *P->out);
    P->window = s->link_delay;
    s->hooks.push = push;
    /* what set-up scheduled goes to its owners' queues */
    evq_t all = s->evq;
    evq_init(&s->evq);
    event_t e;
    while (evq_pop(&all, &e)) push(s, e.time, ev_type(&e), e.a, e.b);
    evq_free(&all);
}

void parts_free(sim_t *s)
{
    struct parts *P = s->parts;
    if (!P) return;
    for (uint32_t p = 0; p < P->n; p++) { evq_free(&P->q[p]); free(P->out[p].e); }
    free(P->q);
    free(P->out);
    free(P->part_of);
    free(P);
    s->parts = NULL;
}

int parts_loop(sim_t *s)
{
    struct parts *P = s->parts;
    for (;;) {
        simtime_t t = SIMTIME_MAX, g = evq_top_time(&s->evq);
        for (uint32_t p = 0; p < P->n; p++) {
            simtime_t x = evq_top_time(&P->q[p]);
            if (x < t) t = x;
        }
        if (g <= t) {   /* the run's own events (samples) first at their instant */
            if (g >= s->end) return EXIT_OK;
            int rc = sim_run_until(s, g + 1);
            if (rc != EXIT_OK) return rc;
            continue;
        }
        if (t >= s->end) return EXIT_OK;
        P->limit = t + P->window;
        if (P->limit > g) P->limit = g;
        if (P->limit > s->end) P->limit = s->end;
        for (uint32_t p = 0; p < P->n; p++) {
            enter(s, P, p);
            int rc = sim_run_until(s, P->limit);
            leave(s, P, p);
            if (rc != EXIT_OK) return rc;
        }
        for (uint32_t p = 0; p < P->n; p++) {
            outbox_t *o = &P->out[p];
            for (uint32_t i = 0; i < o->n; i++) evq_push(&P->q[p], o->e[i].time, ev_type(&o->e[i]), o->e[i].a, o->e[i].b);
            o->n = 0;
        }
        P->windows++;
    }
}
