/* Source multipath balancing (seeds 001 and 003): DRB, PR-DRB and DRB over
 * InfiniBand, on top of the flow transport.
 *
 *   DRB     Every source keeps, per destination, a metapath: up to
 *           drb.max_paths open multi-step paths S -> IN1 -> IN2 -> D (path 0,
 *           the original, is (S, D)); routers add every packet's queueing
 *           time to its header, the destination returns it in an ACK per
 *           message, and the source keeps a latency estimate per path. It
 *           opens one path when the metapath latency (sum of 1/L_i)^-1 is
 *           above drb.high times its zero-load value, closes one below
 *           drb.low times it, and sends each message on path i with
 *           probability proportional to 1/L_i (src/multipath/drb.c).
 *   PR-DRB  DRB plus, at the first router where a packet waits longer than
 *           prdrb.monitor, a record of the flows in that router's buffers,
 *           returned in the ACK; the source keeps the best metapath seen per
 *           contending set and re-applies it at once when a similar set
 *           recurs (src/multipath/prdrb.c).
 *   DRB-IB  Paths are the LIDs of an LMC; IBA FECN marking detects, a BECN
 *           (per path) opens one more path, traffic splits inversely to
 *           notification counts, and each CCTI_Timer period without a
 *           notification closes one (src/multipath/drbib.c). */
#ifndef ICN_MP_H
#define ICN_MP_H
#include "../net/model.h"
#include "../cli/config.h"
#include "../transport/transport.h"

enum { MP_OFF, MP_DRB, MP_PRDRB, MP_DRBIB };
#define MP_MAXP 16   /* paths of a metapath: a 16-bit mask of slots */
#define MP_CSET 8    /* contending flows a router records */

/* The header fields of a data packet (in the packet extension). */
typedef struct mphdr {
    simtime_t qlat;          /* queueing time accumulated over the routers crossed */
    uint32_t cset;           /* PR-DRB: contending flows recorded on the way, ICN_NIL none */
    uint8_t pred;            /* PR-DRB: a router has recorded them ("predictive") */
} mphdr_t;

/* A set of contending flows, (src << 32 | dst) sorted ascending. */
typedef struct cset { uint64_t f[MP_CSET]; uint32_t n, next; } cset_t;

/* An ACK's payload, kept by the layer while the ACK travels. */
typedef struct ackrec { simtime_t sent, qlat; uint32_t cset, next; uint8_t path; } ackrec_t;

typedef struct mpath {
    uint32_t in1, in2;       /* intermediate routers (path 0: the source's and destination's) */
    uint64_t key;            /* hash of its output ports: equal keys, same path */
    simtime_t l0;            /* zero-load latency of a packet.mtu packet */
    simtime_t since;         /* opened at: ACKs of packets sent before say nothing of it */
    double lat;              /* latency estimate (ps) */
    double notes;            /* DRB-IB: BECNs, halved at every timer expiry */
} mpath_t;

typedef struct pair {
    uint32_t node, dst;      /* node = ICN_NIL: free (next links the free list) */
    uint32_t next;
    uint16_t open;           /* slots in use; bit 0 (path 0) always */
    uint8_t episode;         /* the metapath went above drb.high and has not come back below drb.low */
    uint8_t consulted;       /* PR-DRB: the database was consulted in this episode (hit or miss) */
    uint8_t notified;        /* DRB-IB: a BECN arrived since the last timer expiry */
    uint8_t timer_on;
    uint32_t inflight;       /* messages sent and not yet acknowledged */
    simtime_t last_ack;      /* when the last ACK arrived */
    simtime_t reconf;        /* last change of the metapath */
    uint32_t cset;           /* PR-DRB: the episode's contending flows, ICN_NIL none */
    uint32_t db;             /* PR-DRB: the pair's first stored solution, ICN_NIL none */
    mpath_t p[];             /* [max_paths] */
} pair_t;

/* A stored PR-DRB solution: the metapath and its path latencies. */
typedef struct sol {
    uint32_t next, cset;
    float quality;           /* metapath latency over its zero-load value when stored: lower is better */
    uint8_t n;
    uint32_t in[MP_MAXP][2];
    float lat[MP_MAXP];
} sol_t;

typedef struct mplog { simtime_t t; uint32_t src, dst; float ratio; uint8_t width, action; } mplog_t;
enum { LOG_OPEN, LOG_CLOSE, LOG_APPLY, LOG_SAVE, LOG_RESET };

typedef struct mp {
    int scheme;
    double high, low, alpha, match;
    uint32_t radius, max_paths, db_size;
    simtime_t monitor;       /* PR-DRB: a wait longer than this at a router records the contending flows */
    simtime_t timer;         /* DRB-IB: the CCA timer period */
    simtime_t idle;          /* drb, pr-drb: a pair with nothing in flight and no ACK for this long returns to path 0 */

    unsigned char *pairs;    /* pool of pair_t with max_paths slots, `stride` bytes each */
    size_t stride;
    uint32_t npair_cap, pair_free, pairs_live, pairs_peak;
    uint64_t *hkey;          /* (node << 32 | dst) -> pair, open addressing; hval ICN_NIL: empty */
    uint32_t *hval, hcap;

    cset_t *cs; uint32_t ncs, cs_free;
    ackrec_t *ack; uint32_t nack, ack_free;
    sol_t *sol; uint32_t nsol, sol_free;
    rng_t *rng;              /* [nnodes]: path selection */
    void (*prev_forward)(struct sim *s, uint32_t go, uint32_t id, int waited);
    tp_mp_t ops;
    tp_cc_t ib_ops;

    uint64_t acks, stale, opens, closes, hits, misses, saves, records, becns, expiries;
    uint32_t alt_open;       /* open paths beyond path 0, over all pairs */
    uint32_t nbins, nsampled;
    uint32_t *ts_alt, *ts_wide, *ts_maxw;
    uint64_t *ts_opens, *ts_closes, *ts_hits, *ts_acks;
    mplog_t *log; uint32_t nlog, log_cap, log_limit;
    uint64_t log_dropped;
} mp_t;

/* Set-up: reads multipath.scheme and its keys; needs s->tp. */
int mp_wanted(cfg_t *c);
void mp_setup(sim_t *s, cfg_t *c);
void mp_free(sim_t *s);
void mp_on_sample(sim_t *s, uint32_t k);
void mp_timer(sim_t *s, uint32_t n, uint32_t pair);
void mp_write(const sim_t *s, const char *dir, int render);

/* Internal, shared by the files of the layer (and tests). */
pair_t *mp_pair(const mp_t *m, uint32_t i);
uint32_t mp_pair_get(sim_t *s, uint32_t n, uint32_t dst);      /* created if absent */
void mp_pair_maybe_free(sim_t *s, uint32_t i);
uint32_t mp_cset_alloc(mp_t *m);
void mp_cset_free(mp_t *m, uint32_t c);
void mp_log(sim_t *s, const pair_t *pr, int action, double ratio);
static inline uint32_t mp_width(const pair_t *pr) { return (uint32_t)__builtin_popcount(pr->open); }
static inline mphdr_t *mp_hdr(const sim_t *s, uint32_t id) { return (mphdr_t *)(s->pext + (size_t)id * s->pext_size); }

/* drb.c */
void drb_init_pair(sim_t *s, pair_t *pr);
uint8_t drb_pick(sim_t *s, pair_t *pr, rng_t *r);
double drb_ratio(const pair_t *pr, uint32_t maxp);
void drb_feedback(sim_t *s, pair_t *pr, uint8_t slot, simtime_t sent, simtime_t qlat, uint32_t cset);
void drb_idle(sim_t *s, pair_t *pr);
int drb_open(sim_t *s, pair_t *pr);
int drb_close(sim_t *s, pair_t *pr);
void drb_set_path(sim_t *s, pair_t *pr, uint32_t slot, uint32_t in1, uint32_t in2);
simtime_t drb_zero_load(const sim_t *s, uint32_t hops);
/* the routers within r hops of router a, nearest first then by id, at most cap (dist: their distances) */
uint32_t drb_supernode(const sim_t *s, uint32_t a, uint32_t r, uint32_t *out, uint32_t *dist, uint32_t cap);

/* prdrb.c */
/* the contending flows packet id meets at switch w, or ICN_NIL if none */
uint32_t prdrb_record(sim_t *s, uint32_t w, uint32_t id);
double prdrb_similarity(const cset_t *a, const cset_t *b);
uint32_t prdrb_lookup(const mp_t *m, const pair_t *pr, uint32_t cset);
int prdrb_apply(sim_t *s, pair_t *pr, uint32_t sol);
void prdrb_save(sim_t *s, pair_t *pr, double ratio);

/* drbib.c */
void drbib_setup(sim_t *s, cfg_t *c);

#endif
