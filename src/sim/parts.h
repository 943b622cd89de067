/* The state of a partitioned run (time.parts), shared by its loops: parts
 * taking turns or on threads (parts.c) and parts over MPI ranks (ranks.c). */
#ifndef ICN_SIM_PARTS_H
#define ICN_SIM_PARTS_H
#include "internal.h"
#include "../core/comm.h"
#include "../core/bytebuf.h"
#include "../core/barrier.h"
#include <pthread.h>

typedef struct outbox { event_t *e; uint32_t n, cap; } outbox_t;
struct parts;
typedef struct worker { struct parts *P; uint32_t k; } worker_t;

struct parts {
    uint32_t n;               /* parts */
    uint32_t lo, hi;          /* this process's parts: [lo, hi) (all of them but over MPI ranks) */
    uint32_t cur;             /* the part whose queue is in s->evq; n: the run's own (samples) */
    uint32_t *part_of;        /* [switch], then [nswitches + node] */
    uint32_t *port_part;      /* [port]: the part of its device (an event's owner, without reading the port) */
    evq_t *q;                 /* [n + 1]: each part's queue, then the run's own while a part runs */
    outbox_t *out;            /* [from * n + to]: events from one part to another in this window */
    simtime_t window, limit;  /* the lookahead; the current window's end */
    uint64_t windows;
    uint64_t check_every, next_check;   /* check.invariants: between windows, every so many events of all parts */
    double busy;              /* threads, ranks: seconds this thread or rank ran its own parts */
    /* time.threads */
    uint32_t threads;
    sim_t *ctx;               /* [n] while a threaded loop runs: each part's context */
    uint32_t *need;           /* [n]: packet records a part may take in one window */
    int *rc;                  /* [n]: each part's status in the last window */
    uint32_t base_live;       /* the run's packets in flight when the contexts were made */
    int msgs;                 /* messages of several packets: their records are per part too */
    barrier_t start, done;    /* every window's start and end, on the threads (spinning: core/barrier.h) */
    int stop;
    pthread_t *tid;           /* [threads]: the workers (0: the main thread) */
    worker_t *workers;
    evq_t *queues;            /* [n]: scratch for handing events over */
    /* MPI ranks (ranks.c): this process runs the parts of its rank */
    const comm_t *comm;       /* NULL: one process */
    bytebuf_t *send;          /* [rank]: the window's events for each rank */
    /* messages of several packets over ranks: key -> this rank's record (open addressing) */
    uint64_t *mkey;
    uint32_t *mrec, mcap, mn;
};

/* The rank that runs part p: consecutive parts (so consecutive nodes) together. */
static inline int part_rank(const struct parts *P, uint32_t p)
{
    return P->comm ? (int)((uint64_t)p * (uint64_t)P->comm->size / P->n) : 0;
}

static inline int part_mine(const struct parts *P, uint32_t p)
{
    return !P->comm || part_rank(P, p) == P->comm->rank;
}

/* The part owning an event's target, or P->n for the whole network's. */
uint32_t parts_owner(const sim_t *s, const struct parts *P, unsigned type, uint32_t a, uint32_t b);
/* Put part p's queue in s->evq (and the run's own aside), or back. */
void parts_enter(sim_t *s, struct parts *P, uint32_t p);
void parts_leave(sim_t *s, struct parts *P, uint32_t p);
/* Hand every outbox over to its part's queue (queues[to]). */
void parts_flush(struct parts *P, evq_t *queues);
/* The drain (time.drain), between windows: the window's packets in so far
 * over the whole network (done) against the target, once the run has
 * reached `at`. What a sequential run in the canonical order does (src/sim/loop.c). */
static inline void parts_drain(sim_t *s, uint64_t done, simtime_t at)
{
    if (done >= s->drain_target && at < s->end) s->end = at;
}
/* When that check is due: after the own step at g that ended the
 * measurement window, and after every window past it. */
static inline int parts_drain_at_stop(const sim_t *s, simtime_t g) { return s->drain_max && g == s->stop; }
static inline int parts_drain_in_window(const sim_t *s, simtime_t limit) { return s->drain_max && limit > s->stop; }
/* The end of the window that starts at the parts' earliest event t: the
 * rule every loop forms its windows by (sim_window_limit, net/model.h: the
 * lookahead, cut by the next sample, the measurement window's end and the
 * run's end). g, the run's own next event (a sample, the window's end), is
 * one of those cuts; it bounds the window too, so that the run's own step
 * always comes at its instant. */
static inline simtime_t parts_window_end(const sim_t *s, simtime_t t, simtime_t g)
{
    simtime_t lim = sim_window_limit(s, t);
    return g < lim ? g : lim;
}
/* time.threads (parts.c), for this process's parts: contexts and workers
 * started and stopped (the contexts' statistics and records folded back into
 * the run's); the earliest event of the parts; one window [.., P->limit) on
 * the threads (returns the worst status); the outboxes handed over to the
 * parts' queues; the packets in flight and latest progress summed into the
 * run's context; the measurement window's packets in (time.drain). */
void parts_threads_start(sim_t *s, struct parts *P);
void parts_threads_stop(sim_t *s, struct parts *P);
simtime_t parts_threads_next(const struct parts *P);
int parts_threads_window(sim_t *s, struct parts *P);
void parts_threads_flush(struct parts *P);
void parts_threads_live(sim_t *s, struct parts *P);
/* The measurement window's packets in, in this process (its contexts' on threads). */
uint64_t parts_done_here(const sim_t *s, const struct parts *P);
/* The loop of a run over MPI ranks, its set-up for messages of several
 * packets (before the first packet), and its teardown. */
int ranks_loop(sim_t *s);
void ranks_messages_setup(sim_t *s, struct parts *P);
void ranks_free(struct parts *P);

#endif
