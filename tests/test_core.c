/* Engine pieces: event order, random streams, histograms and statistics,
 * unit parsing. */
#include "test.h"
#include "../src/core/evq.h"
#include "../src/core/rng.h"
#include "../src/core/units.h"
#include "../src/core/util.h"
#include "../src/stats/hist.h"
#include "../src/stats/stats.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

TEST(core_event_queue_orders_by_time_then_insertion)
{
    evq_t q;
    evq_init(&q);
    rng_t r;
    rng_seed(&r, 1, 9, 0);
    for (uint32_t i = 0; i < 50000; i++) evq_push(&q, rng_below(&r, 500), 1, i, 0);
    event_t e, prev = { 0, 0, 0, 0 };
    int ok = 1;
    for (int i = 0; evq_pop(&q, &e); i++) {
        if (i && (e.time < prev.time || (e.time == prev.time && e.a < prev.a))) ok = 0;
        prev = e;
    }
    CHECK(ok, "events out of (time, insertion) order");
    evq_free(&q);
}

/* The reference order for the queue below: pending events, unsorted; the
 * least (time, push number) is found by a scan. */
typedef struct refq { simtime_t *t; uint32_t *id; uint32_t n; } refq_t;

static uint32_t ref_least(const refq_t *r)
{
    uint32_t b = 0;
    for (uint32_t i = 1; i < r->n; i++)
        if (r->t[i] < r->t[b] || (r->t[i] == r->t[b] && r->id[i] < r->id[b])) b = i;
    return b;
}

static void count_pending(const event_t *e, void *arg)
{
    uint64_t *c = arg;
    c[0]++;
    c[1] += e->a;
}

/* As a network model uses it: most events a few fixed delays after the time
 * last popped (the FIFOs), others at random delays (the wheel), a few at the
 * same instant, a few before it (the fallback heap, which also makes the time
 * last popped go back), pops in between; with more fixed delays than FIFOs,
 * so that they are lent and taken back. Every pop must be the reference's
 * least, the earliest time must be the reference's, and a walk must visit
 * exactly the pending events. */
TEST(core_event_queue_fifos_wheel_and_heap_keep_one_order)
{
    enum { OPS = 80000 };
    static const simtime_t fixed[] = { 6000, 333680, 327680, 12000, 339680, 671360, 1, 9, 17, 6001, 5 };
    evq_t q;
    evq_init(&q);
    refq_t r = { malloc(OPS * sizeof *r.t), malloc(OPS * sizeof *r.id), 0 };
    rng_t g;
    rng_seed(&g, 7, 3, 0);
    simtime_t now = 0;
    uint32_t pushed = 0, bad_pop = 0, bad_top = 0, bad_walk = 0, pops = 0;
    uint64_t idsum = 0;
    for (uint32_t op = 0; op < OPS; op++) {
        uint32_t x = rng_below(&g, 100);
        if (x < (op < 8000 ? 75 : 50) || !r.n) {   /* push: a few thousand pending, then as many pushes as pops */
            uint32_t k = rng_below(&g, 100);
            simtime_t t = k < 70 ? now + fixed[rng_below(&g, k < 50 ? 5 : (uint32_t)ICN_ARRAY_LEN(fixed))]
                        : k < 88 ? now + rng_below(&g, 1u << 20)
                        : k < 95 ? now
                        : now > 1000 ? now - 1 - rng_below(&g, 1000) : now;
            evq_push(&q, t, 1, pushed, 0);
            r.t[r.n] = t;
            r.id[r.n++] = pushed;
            idsum += pushed++;
        } else {
            event_t e;
            uint32_t b = ref_least(&r);
            if (!evq_pop(&q, &e) || e.time != r.t[b] || e.a != r.id[b]) bad_pop++;
            now = r.t[b];
            idsum -= r.id[b];
            r.t[b] = r.t[--r.n];
            r.id[b] = r.id[r.n];
            pops++;
        }
        if (evq_top_time(&q) != (r.n ? r.t[ref_least(&r)] : SIMTIME_MAX)) bad_top++;
        if (op % 997 == 0) {
            uint64_t c[2] = { 0, 0 };
            evq_foreach(&q, count_pending, c);
            if (c[0] != r.n || c[1] != idsum) bad_walk++;
        }
    }
    event_t e;
    while (r.n) {
        uint32_t b = ref_least(&r);
        if (!evq_pop(&q, &e) || e.time != r.t[b] || e.a != r.id[b]) bad_pop++;
        r.t[b] = r.t[--r.n];
        r.id[b] = r.id[r.n];
    }
    CHECK(!evq_pop(&q, &e) && evq_empty(&q), "the queue is not empty after its last event");
    CHECK(!bad_pop, "%u of %u pops out of (time, insertion) order", bad_pop, pops);
    CHECK(!bad_top, "the earliest time was wrong after %u operations", bad_top);
    CHECK(!bad_walk, "a walk missed or invented pending events %u times", bad_walk);
    free(r.t);
    free(r.id);
    evq_free(&q);
}

/* SIMTIME_MAX is a time like any other: an event there in the wheel (every
 * FIFO busy when it came) pops before a later-pushed one there in a FIFO,
 * and alone once the FIFOs are empty. */
TEST(core_event_queue_keeps_order_at_the_last_time)
{
    evq_t q;
    evq_init(&q);
    for (uint32_t i = 0; i < EVQ_FIFOS; i++) evq_push(&q, i + 1, 1, i, 0);   /* one FIFO per delay */
    evq_push(&q, SIMTIME_MAX, 1, 100, 0);                                   /* no FIFO free: the wheel */
    event_t e;
    for (uint32_t i = 0; i < EVQ_FIFOS; i++) CHECK(evq_pop(&q, &e) && e.a == i, "pop %u gave event %u", i, e.a);
    evq_push(&q, SIMTIME_MAX, 1, 101, 0);                                   /* a free FIFO */
    CHECK(evq_top_time(&q) == SIMTIME_MAX, "earliest time %llu", (unsigned long long)evq_top_time(&q));
    uint32_t got[2] = { 0, 0 };
    for (int k = 0; k < 2; k++) got[k] = evq_pop(&q, &e) ? e.a : 0;
    CHECK(got[0] == 100 && got[1] == 101, "events at SIMTIME_MAX popped as %u, %u (want 100, 101)", got[0], got[1]);
    evq_push(&q, SIMTIME_MAX, 1, 102, 0);
    CHECK(evq_pop(&q, &e) && e.a == 102 && evq_empty(&q), "an event alone at SIMTIME_MAX did not pop");
    evq_free(&q);
}

TEST(core_rng_streams_are_independent_and_uniform)
{
    rng_t a, b, a2;
    rng_seed(&a, 42, RNG_DEST, 0);
    rng_seed(&b, 42, RNG_DEST, 1);
    rng_seed(&a2, 42, RNG_DEST, 0);
    int same = 0, repro = 1;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_next(&a), y = rng_next(&b);
        same += x == y;
        repro &= x == rng_next(&a2);
    }
    CHECK(same == 0 && repro, "streams collide or do not reproduce");
    uint32_t cnt[10] = { 0 };
    for (int i = 0; i < 100000; i++) cnt[rng_below(&a, 10)]++;
    for (int i = 0; i < 10; i++) CHECK_NEAR(cnt[i], 10000, 400, "rng_below frequency");
}

TEST(core_histogram_sums_are_exact_in_any_order)
{
    /* past 2^53 a double sum would lose the ones and depend on the order of
     * the additions; the picosecond sums must not (parts of a run add theirs
     * up in any order) */
    const uint64_t v[] = { 1ull << 53, 1, 1, 3, (1ull << 60) + 1, 7 };
    hist_t a, b;
    hist_init(&a);
    hist_init(&b);
    psum_t want = 0;
    for (int i = 0; i < 6; i++) { hist_add(&a, v[i]); hist_add(&b, v[5 - i]); want += v[i]; }
    CHECK(a.sum == want && b.sum == want, "sums %.17g and %.17g, want %.17g", (double)a.sum, (double)b.sum, (double)want);
    CHECK(a.sum - (1ull << 53) - ((1ull << 60) + 1) == 12, "the small values were lost");
    hist_free(&a);
    hist_free(&b);
}

/* Statistics filled with draws: counters, sums past 2^64, histograms, series. */
static void stats_fill(stats_t *st, rng_t *r)
{
    stats_init(st, 1000, 8000);
    stats_latency_series(st);
    st->inj_pkts = rng_next(r) >> 8; st->del_pkts = rng_below(r, 1000); st->events = rng_next(r) >> 4;
    st->w_src_drops = rng_below(r, 7); st->src_drops = rng_below(r, 9); st->gen_pkts = rng_below(r, 99);
    st->w_gen_tsum2 = (psum_t)rng_next(r) << 40;
    st->w_done_tsum = (psum_t)rng_next(r) * 3;
    for (int i = 0; i < 500; i++) { hist_add(&st->lat, rng_next(r) >> 20); hist_add(&st->msg, rng_below(r, 1u << 30)); }
    for (uint32_t b = 0; b < st->nbins; b++) {
        st->ts_del_bytes[b] = rng_below(r, 1u << 20); st->ts_innet[b] = rng_below(r, 50);
        st->ts_lat_sum[b] = (psum_t)rng_next(r) << 30; st->ts_lat_max[b] = rng_next(r);
    }
}

static int hist_same(const hist_t *x, const hist_t *y)
{
    return x->n == y->n && x->max == y->max && x->min == y->min && x->sum == y->sum
        && !memcmp(x->cnt, y->cnt, HIST_BUCKETS * sizeof *x->cnt);
}

/* Field by field, apart from the packing's own list of fields. */
static int stats_same(const stats_t *x, const stats_t *y)
{
    size_t n = x->nbins * sizeof(uint64_t), np = x->nbins * sizeof(psum_t);
    return !memcmp(x, y, offsetof(stats_t, lat)) && hist_same(&x->lat, &y->lat) && hist_same(&x->net, &y->net)
        && hist_same(&x->msg, &y->msg) && x->gen_pkts == y->gen_pkts && x->src_drops == y->src_drops
        && !memcmp(x->ts_del_bytes, y->ts_del_bytes, n) && !memcmp(x->ts_del_pkts, y->ts_del_pkts, n)
        && !memcmp(x->ts_inj_pkts, y->ts_inj_pkts, n) && !memcmp(x->ts_gen_pkts, y->ts_gen_pkts, n)
        && !memcmp(x->ts_gen_bytes, y->ts_gen_bytes, n) && !memcmp(x->ts_innet, y->ts_innet, n)
        && !memcmp(x->ts_lat_sum, y->ts_lat_sum, np) && !memcmp(x->ts_net_sum, y->ts_net_sum, np)
        && !memcmp(x->ts_lat_max, y->ts_lat_max, n) && !memcmp(x->ts_net_max, y->ts_net_max, n);
}

TEST(core_statistics_travel_as_bytes_and_add_up_exactly)
{
    /* the ranks of a run over MPI send their statistics to rank 0 as bytes:
     * adding them from bytes must equal adding them directly */
    rng_t r;
    rng_seed(&r, 7, RNG_DEST, 0);
    stats_t a, b, direct, packed;
    stats_fill(&a, &r);
    stats_fill(&b, &r);
    stats_init(&direct, 1000, 8000); stats_latency_series(&direct);
    stats_init(&packed, 1000, 8000); stats_latency_series(&packed);
    stats_add(&direct, &a);
    stats_add(&direct, &b);
    bytebuf_t buf = { 0 };
    stats_pack(&a, &buf);
    stats_pack(&b, &buf);
    bytecur_t cur = { buf.p, buf.p + buf.n };
    stats_add_packed(&packed, &cur);
    stats_add_packed(&packed, &cur);
    CHECK(cur.r == cur.end, "the packed statistics were not read to their end");
    CHECK(stats_same(&direct, &packed), "statistics added from bytes differ from those added directly");
    CHECK(packed.lat.n == 1000 && packed.w_gen_tsum2 == a.w_gen_tsum2 + b.w_gen_tsum2, "counts or sums lost on the way");
    free(buf.p);
    stats_free(&a); stats_free(&b); stats_free(&direct); stats_free(&packed);
}

TEST(core_histogram_quantiles_within_two_percent)
{
    hist_t h;
    hist_init(&h);
    for (uint64_t v = 1; v <= 100000; v++) hist_add(&h, v * 1000);
    CHECK_NEAR(hist_quantile(&h, 0.5) / 5e7, 1.0, 0.02, "p50");
    CHECK_NEAR(hist_quantile(&h, 0.99) / 9.9e7, 1.0, 0.02, "p99");
    CHECK(h.max == 100000000 && h.min == 1000, "min/max exact");
    CHECK_NEAR(hist_mean(&h), 50000500.0, 1e-3, "mean exact");
    hist_free(&h);
}

TEST(core_units_parse)
{
    uint64_t u;
    double d;
    const char *why;
    CHECK(parse_time_ps("6ns", &u, &why) == 0 && u == 6000, "6ns");
    CHECK(parse_time_ps("1.5 us", &u, &why) == 0 && u == 1500000, "1.5 us");
    CHECK(parse_time_ps("1ms", &u, &why) == 0 && u == 1000000000ull, "1ms");
    CHECK(parse_time_ps("0.5ps", &u, &why) != 0, "half a picosecond accepted");
    CHECK(parse_bytes("4KB", &u, &why) == 0 && u == 4096, "4KB");
    CHECK(parse_bytes("192KiB", &u, &why) == 0 && u == 196608, "192KiB");
    CHECK(parse_bytes("4kb", &u, &why) != 0, "lower-case kb accepted (ambiguous)");
    CHECK(parse_bandwidth("100Gbps", &d, &why) == 0 && d == 100e9, "100Gbps");
    CHECK(parse_bandwidth("12.5GB/s", &d, &why) == 0 && d == 100e9, "12.5GB/s");
    CHECK(parse_bandwidth("16b/5.25ns", &d, &why) == 0 && fabs(d - 16 / 5.25e-9) < 1, "16b/5.25ns = %g", d);
    CHECK(parse_bandwidth("2B/1ns", &d, &why) == 0 && fabs(d - 16e9) < 1e-3, "2B/1ns");
    CHECK(parse_bandwidth("16x/5ns", &d, &why) != 0, "16x/5ns accepted");
    /* half a picosecond is refused at any size; decimal text inexact in binary is not */
    CHECK(parse_time_ps("1000000.5ps", &u, &why) != 0, "1000000.5ps accepted as %llu", (unsigned long long)u);
    CHECK(parse_time_ps("6.0000004ns", &u, &why) != 0, "6.0000004ns accepted as %llu", (unsigned long long)u);
    CHECK(parse_time_ps("8.3us", &u, &why) == 0 && u == 8300000, "8.3us");
    CHECK(parse_time_ps("0.1us", &u, &why) == 0 && u == 100000, "0.1us");
    CHECK(parse_time_ps("1.024us", &u, &why) == 0 && u == 1024000, "1.024us");
    /* decimal only: strtod would read hexadecimal */
    CHECK(parse_time_ps("0x10ns", &u, &why) != 0, "0x10ns accepted");
    CHECK(parse_bytes("0x1p12", &u, &why) != 0, "0x1p12 accepted");
    CHECK(parse_bandwidth("0x10Gbps", &d, &why) != 0, "0x10Gbps accepted");
    CHECK(parse_double("0x10", &d, &why) != 0 && parse_double("-2.5e-3", &d, &why) == 0 && d == -2.5e-3, "parse_double");
}
