/* Event-queue microbenchmark and cross-check (not part of icnsim).
 *
 *   make bench-evq            build and run build/evq_bench
 *   build/evq_bench [OPS]     OPS hold operations per size (default 2000000)
 *   build/evq_bench OPS N old|new [near]   one timed run only (for profilers)
 *
 * "Hold" model: pre-fill N events, then OPS times pop the earliest event and
 * push one at pop_time + delta, with delta drawn (fixed seed) from a mix shaped
 * like icnsim's traffic: 40% +327680 ps (packet serialization), 30% +6000 ps
 * (link delay), 20% +333680 ps (both), 10% uniform in [1, 1e9] ps (message
 * generation, far ahead). A second profile ("near") drops the far events so
 * almost every pending event lies within ~330 ns, the case of a loaded network.
 * Reports million hold operations (one pop + one push) per second for the
 * original 4-ary heap (kept below, renamed) and the current src/core/evq.c,
 * and checks that both pop exactly the same (time, ord, a, b) sequence: a
 * lockstep comparison of every event plus adversarial cases (ties, pushes
 * before the current minimum, huge times, empty/refill). Exits 1 on mismatch. */
#include "../src/core/evq.h"
#include "../src/core/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the original implementation (4-ary heap of 24-byte events) ---- */

typedef struct oldq {
    event_t *h;
    size_t n, cap;
    uint64_t seq;
    uint64_t pushed;
} oldq_t;

static inline int old_before(const event_t *x, const event_t *y)
{
    return x->time < y->time || (x->time == y->time && x->ord < y->ord);
}

static void oldq_init(oldq_t *q)
{
    q->cap = 1024;
    q->n = 0;
    q->seq = 0;
    q->pushed = 0;
    q->h = xmalloc(q->cap * sizeof *q->h);
}

static void oldq_free(oldq_t *q) { free(q->h); q->h = NULL; q->n = q->cap = 0; }

static void oldq_push(oldq_t *q, simtime_t t, unsigned type, uint32_t a, uint32_t b)
{
    if (q->n == q->cap) {
        q->cap *= 2;
        q->h = xrealloc(q->h, q->cap * sizeof *q->h);
    }
    event_t e = { t, (q->seq++ << 8) | (type & 0xff), a, b };
    q->pushed++;
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) >> 2;
        if (!old_before(&e, &q->h[p])) break;
        q->h[i] = q->h[p];
        i = p;
    }
    q->h[i] = e;
}

static int oldq_pop(oldq_t *q, event_t *out)
{
    if (!q->n) return 0;
    *out = q->h[0];
    event_t last = q->h[--q->n];
    size_t n = q->n, i = 0;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= n) break;
        size_t best = c, end = c + 4 < n ? c + 4 : n;
        for (size_t k = c + 1; k < end; k++)
            if (old_before(&q->h[k], &q->h[best])) best = k;
        if (!old_before(&q->h[best], &last)) break;
        q->h[i] = q->h[best];
        i = best;
    }
    if (n) q->h[i] = last;
    return 1;
}

static inline simtime_t oldq_top_time(const oldq_t *q) { return q->n ? q->h[0].time : SIMTIME_MAX; }

/* ---- workload ---- */

typedef struct { uint64_t s; } prng_t;

static inline uint64_t prng_next(prng_t *r)   /* splitmix64 */
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

enum { PROF_HOLD, PROF_NEAR };

static inline uint64_t draw_delta(prng_t *r, int prof)
{
    uint64_t x = prng_next(r);
    unsigned pct = (unsigned)(x % 100);
    if (prof == PROF_NEAR) pct = pct * 9 / 10;   /* same mix without the far 10% */
    if (pct < 40) return 327680;
    if (pct < 70) return 6000;
    if (pct < 90) return 333680;
    return 1 + (x >> 8) % 1000000000ull;
}

static inline uint64_t mix(uint64_t h, const event_t *e)
{
    h ^= e->time + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= e->ord + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= ((uint64_t)e->a << 32 | e->b) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct { double mops; uint64_t hash; } result_t;

/* One timed hold run; the macro stamps out identical code for both queues. */
#define DEFINE_HOLD(NAME, QT, INIT, PUSH, POP, FREE)                               \
    static result_t NAME(uint32_t n, uint64_t ops, int prof)                       \
    {                                                                              \
        QT q;                                                                      \
        INIT(&q);                                                                  \
        prng_t r = { 12345 };                                                      \
        for (uint32_t i = 0; i < n; i++)                                           \
            PUSH(&q, draw_delta(&r, prof), i & 7, i, (uint32_t)prng_next(&r));    \
        uint64_t h = 0;                                                            \
        event_t e;                                                                 \
        double t0 = now_s();                                                       \
        for (uint64_t k = 0; k < ops; k++) {                                       \
            POP(&q, &e);                                                           \
            h = mix(h, &e);                                                        \
            PUSH(&q, e.time + draw_delta(&r, prof), (unsigned)k & 7, (uint32_t)k,  \
                 e.a);                                                             \
        }                                                                          \
        double dt = now_s() - t0;                                                  \
        while (POP(&q, &e)) h = mix(h, &e);                                        \
        FREE(&q);                                                                  \
        return (result_t){ (double)ops / dt / 1e6, h };                            \
    }

DEFINE_HOLD(hold_old, oldq_t, oldq_init, oldq_push, oldq_pop, oldq_free)
DEFINE_HOLD(hold_new, evq_t, evq_init, evq_push, evq_pop, evq_free)

/* ---- exact cross-check ---- */

static int failures;

static void fail(const char *what, uint64_t step, const event_t *x, const event_t *y)
{
    fprintf(stderr, "MISMATCH (%s) at step %llu: old (t=%llu ord=%llu a=%u b=%u) new (t=%llu ord=%llu a=%u b=%u)\n",
            what, (unsigned long long)step,
            (unsigned long long)x->time, (unsigned long long)x->ord, x->a, x->b,
            (unsigned long long)y->time, (unsigned long long)y->ord, y->a, y->b);
    failures++;
}

static void count_cb(const event_t *e, void *arg)
{
    uint64_t *acc = arg;
    acc[0]++;
    acc[1] += e->time ^ e->ord;
}

/* Compare every observable of the two queues after each operation. */
static int same_state(const char *what, uint64_t step, const oldq_t *o, const evq_t *q)
{
    if (o->n != q->n || oldq_top_time(o) != evq_top_time(q) || (o->n == 0) != evq_empty(q)
        || o->pushed != q->seq) {
        fprintf(stderr, "MISMATCH (%s) at step %llu: n %zu/%zu top %llu/%llu pushed %llu/%llu\n", what,
                (unsigned long long)step, o->n, q->n, (unsigned long long)oldq_top_time(o),
                (unsigned long long)evq_top_time(q), (unsigned long long)o->pushed,
                (unsigned long long)q->seq);
        failures++;
        return 0;
    }
    return 1;
}

static int same_contents(const char *what, const oldq_t *o, const evq_t *q)
{
    uint64_t want[2] = { 0, 0 }, got[2] = { 0, 0 };
    for (size_t i = 0; i < o->n; i++) count_cb(&o->h[i], want);
    evq_foreach(q, count_cb, got);
    if (want[0] != got[0] || want[1] != got[1]) {
        fprintf(stderr, "MISMATCH (%s): evq_foreach walks %llu events, expected %llu\n", what,
                (unsigned long long)got[0], (unsigned long long)want[0]);
        failures++;
        return 0;
    }
    return 1;
}

static int pop_both(const char *what, uint64_t step, oldq_t *o, evq_t *q, event_t *out)
{
    event_t x, y;
    int ro = oldq_pop(o, &x), rn = evq_pop(q, &y);
    if (ro != rn || (ro && (x.time != y.time || x.ord != y.ord || x.a != y.a || x.b != y.b))) {
        if (!ro) memset(&x, 0, sizeof x);
        if (!rn) memset(&y, 0, sizeof y);
        fail(what, step, &x, &y);
        return -1;
    }
    *out = x;
    return ro;
}

static void push_both(oldq_t *o, evq_t *q, simtime_t t, unsigned type, uint32_t a, uint32_t b)
{
    oldq_push(o, t, type, a, b);
    evq_push(q, t, type, a, b);
}

/* Lockstep hold run: every popped event compared. */
static void check_hold(uint32_t n, uint64_t ops, int prof)
{
    oldq_t o;
    evq_t q;
    oldq_init(&o);
    evq_init(&q);
    prng_t r = { 777 + n };
    for (uint32_t i = 0; i < n; i++) push_both(&o, &q, draw_delta(&r, prof), i & 7, i, 0);
    event_t e;
    for (uint64_t k = 0; k < ops && !failures; k++) {
        if (pop_both("hold", k, &o, &q, &e) != 1) break;
        push_both(&o, &q, e.time + draw_delta(&r, prof), (unsigned)k & 7, (uint32_t)k, e.a);
        if ((k & 0xffff) == 0 && !same_state("hold", k, &o, &q)) break;
    }
    if (!failures) same_contents("hold", &o, &q);
    for (uint64_t k = 0; !failures; k++) {
        int rc = pop_both("hold drain", k, &o, &q, &e);
        if (rc != 1) break;
    }
    oldq_free(&o);
    evq_free(&q);
}

/* Random mixes of pushes and pops: heavy ties, pushes before the current
 * minimum, bursts that empty the queue, times near 2^64. */
static void check_adversarial(uint64_t seed, uint64_t steps)
{
    oldq_t o;
    evq_t q;
    oldq_init(&o);
    evq_init(&q);
    prng_t r = { seed };
    simtime_t now = 0;
    event_t e;
    for (uint64_t k = 0; k < steps && !failures; k++) {
        uint64_t x = prng_next(&r);
        unsigned mode = (unsigned)((k >> 12) % 6);   /* phases of different character */
        simtime_t t;
        switch (mode) {
        case 0: t = now + (x >> 8) % 4; break;                                   /* ties */
        case 1: t = now + (x >> 8) % 70000; break;                               /* near */
        case 2: t = (x >> 8) % 2 ? now - (now ? (x >> 20) % now : 0) : now + 5; break;   /* past */
        case 3: t = UINT64_MAX - (x >> 8) % 1000000; break;                      /* huge */
        case 4: t = now + ((x >> 8) % 3) * 327680 + (x >> 40) % 2 * 6000; break; /* sim-like */
        default: t = (x >> 8) & 0xffffffffull; break;                            /* anywhere */
        }
        push_both(&o, &q, t, (unsigned)(x & 0xff), (uint32_t)k, (uint32_t)(x >> 32));
        unsigned pops = (unsigned)((x >> 4) % 3);            /* 0..2 pops per push: drifts around */
        if (o.n > 5000) pops = 3;
        if ((k & 0x3ff) == 0x3ff) pops = 100000;             /* sometimes drain completely */
        for (unsigned p = 0; p < pops && !failures; p++) {
            int rc = pop_both("adversarial", k, &o, &q, &e);
            if (rc != 1) break;
            now = e.time;
        }
        if (!failures) same_state("adversarial", k, &o, &q);
        if ((k & 0xfff) == 0 && !failures) same_contents("adversarial", &o, &q);
    }
    while (!failures && pop_both("adversarial drain", 0, &o, &q, &e) == 1) {}
    if (!failures) same_state("adversarial end", 0, &o, &q);
    oldq_free(&o);
    evq_free(&q);
}

int main(int argc, char **argv)
{
    uint64_t ops = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
    static const uint32_t sizes[] = { 10000, 100000, 1000000 };
    static const char *const pname[] = { "hold", "near" };
    if (argc > 3) {   /* profiling aid: evq_bench OPS N old|new [near] */
        uint32_t n = (uint32_t)strtoul(argv[2], NULL, 10);
        int prof = argc > 4 && !strcmp(argv[4], "near") ? PROF_NEAR : PROF_HOLD;
        result_t rr = strcmp(argv[3], "old") ? hold_new(n, ops, prof) : hold_old(n, ops, prof);
        printf("%s %s N=%u: %.2f Mops/s hash %016llx\n", argv[3], pname[prof], n, rr.mops,
               (unsigned long long)rr.hash);
        return 0;
    }

    printf("new queue: src/core/evq.c (FIFOs of the common delays, radix wheel)\n");
    printf("correctness: lockstep old vs new ... ");
    fflush(stdout);
    for (int prof = 0; prof < 2; prof++)
        for (int i = 0; i < 3; i++) check_hold(sizes[i], 500000, prof);
    for (uint64_t s = 1; s <= 4; s++) check_adversarial(s, 60000);
    if (failures) {
        printf("FAILED\n");
        return 1;
    }
    printf("ok\n");

    printf("%-5s %8s %12s %12s %8s  %s\n", "prof", "N", "old Mops/s", "new Mops/s", "speedup", "same sequence");
    for (int prof = 0; prof < 2; prof++) {
        for (int i = 0; i < 3; i++) {
            result_t ro = hold_old(sizes[i], ops, prof);
            result_t rn = hold_new(sizes[i], ops, prof);
            int same = ro.hash == rn.hash;
            printf("%-5s %8u %12.2f %12.2f %7.2fx  %s\n", pname[prof], sizes[i], ro.mops, rn.mops,
                   rn.mops / ro.mops, same ? "yes" : "NO");
            fflush(stdout);
            if (!same) failures++;
        }
    }
    if (failures) {
        fprintf(stderr, "evq_bench: old and new queues disagree\n");
        return 1;
    }
    return 0;
}
