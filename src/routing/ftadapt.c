/* Multipath routings on fat-trees (seed 002): oblivious, fully adaptive, and
 * the restricted path selection of Algorithm 1 with its three restrictions.
 *
 * Names follow the paper: ADAP-<trigger>-<stages>-<ports>, case-insensitive,
 *   trigger  NoTH (always adaptive), TH (leave D-mod-K while its port's
 *            downstream VC has fewer free credits than LTTh), 2TH (as TH, but
 *            return to D-mod-K only once they reach HTTh: hysteresis);
 *   stages   S, *S or AS (every upward stage), 1S or FS, 2S or SS (one stage);
 *   ports    K (all up ports) or K/d (the K/d up ports p congruent, mod d, to
 *            this stage's D-mod-K port; routing.delta_ref = destination
 *            compares with D itself, Algorithm 1's ModuloResult read literally).
 * fully-adaptive is ADAP-NoTH-S-K. Downward hops have one port and the packet
 * keeps its VC (the queuing scheme's) throughout.
 *
 * Choices the paper leaves open (docs/FATTREE.md): the selection is
 * made once per hop, when the packet heads its queue (or arrives, in a VOQ
 * switch); candidates are scanned from the D-mod-K port upwards, so ties go to
 * D-mod-K and then to the next port; 2TH keeps its flag per switch output
 * port and VC, keyed on the D-mod-K port as in Algorithm 1. */
#include "../net/policy.h"
#include "../topo/fattree.h"
#include "../core/util.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OBLIVIOUS, NOTH, TH, TWOTH };

typedef struct ftad {
    int trig;
    uint32_t stages;       /* bit l: adaptive at (upward) stage l */
    uint32_t delta;        /* 1 = all K up ports */
    int32_t ltth, htth;    /* bytes of credit */
    int scan_port;         /* routing.scan = port: candidates in ascending port order */
    int delta_dmodk;       /* routing.delta_ref = dmodk: K/d candidates congruent to the D-mod-K port */
    uint8_t *congested;    /* 2TH: [global port * nvc + vc] */
    rng_t *rng;            /* oblivious: per switch */
    int log;               /* ICNSIM_FTADAPT_LOG set: count the decisions (ftlog) */
} ftad_t;

/* Decision log for the deviation analysis of the trigger rows (docs/
 * REPRODUCING.md): with ICNSIM_FTADAPT_LOG=<file>, every upward adaptive
 * decision of a TH/2TH routing is counted per 100 us bin and stage, and the
 * file gets one CSV row per bin and stage when the process exits. It says
 * whether the trigger fires at all, and when it fires whether an alternative
 * with more than LTTh free credits exists ("stuck": none has). A process runs
 * one simulation (icnsim run), so the counters are global. */
static inline int32_t up_credits(const sim_t *s, uint32_t w, uint32_t K, uint32_t u, const packet_t *p);

enum { FTLOG_BINS = 64, FTLOG_VCS = 8 };
#define FTLOG_BIN_PS 100000000ull
typedef struct ftlog_row {
    uint64_t decisions, fired, held, moved, stuck;
    double own_free, alt_free;            /* free-credit fractions: D-mod-K port (packet's VC); best alternative when fired */
    double occ[FTLOG_VCS];                /* occupancy of each VC of the D-mod-K port */
} ftlog_row;
static ftlog_row ftlog[FTLOG_BINS][3];
static const char *ftlog_path;
static uint32_t ftlog_nvc;

/* Written to a temporary file renamed over the log once complete, every
 * write checked: a failure exits 2 (from an atexit handler, with _exit). */
static void ftlog_write(void)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", ftlog_path) >= (int)sizeof tmp) {
        fprintf(stderr, "icnsim: ICNSIM_FTADAPT_LOG: path too long\n");
        _exit(2);
    }
    FILE *f = fopen(tmp, "w");
    if (!f) { fprintf(stderr, "icnsim: ICNSIM_FTADAPT_LOG: cannot write %s: %s\n", tmp, strerror(errno)); _exit(2); }
    fprintf(f, "t_us,stage,decisions,fired,held,moved,stuck,dmodk_free,alt_free_when_fired");
    for (uint32_t v = 0; v < ftlog_nvc; v++) fprintf(f, ",dmodk_occ_vc%u", v);
    fputc('\n', f);
    for (int b = 0; b < FTLOG_BINS; b++)
        for (int l = 1; l < 3; l++) {
            const ftlog_row *r = &ftlog[b][l];
            if (!r->decisions) continue;
            double n = (double)r->decisions;
            fprintf(f, "%d,%d,%llu,%llu,%llu,%llu,%llu,%.4f,%.4f", b * 100, l, (unsigned long long)r->decisions,
                    (unsigned long long)r->fired, (unsigned long long)r->held, (unsigned long long)r->moved,
                    (unsigned long long)r->stuck, r->own_free / n, r->fired ? r->alt_free / (double)r->fired : 0.0);
            for (uint32_t v = 0; v < ftlog_nvc; v++) fprintf(f, ",%.4f", r->occ[v] / n);
            fputc('\n', f);
        }
    int bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, ftlog_path)) {
        fprintf(stderr, "icnsim: ICNSIM_FTADAPT_LOG: writing %s failed: %s\n", ftlog_path, strerror(errno ? errno : EIO));
        remove(tmp);
        _exit(2);
    }
}

/* Count one decision at switch w (stage l) for packet p: D-mod-K up port det,
 * its free credits cr in p's VC, the port u taken; fired: below LTTh; held:
 * 2TH's flag kept the packet adaptive above LTTh. */
static void ftlog_count(const sim_t *s, uint32_t w, uint32_t l, uint32_t K, uint32_t det, int32_t cr, uint32_t u,
                        int fired, int held, const packet_t *p, const ftad_t *a)
{
    uint64_t b = s->now / FTLOG_BIN_PS;
    if (b >= FTLOG_BINS || l > 2) return;
    ftlog_row *r = &ftlog[b][l];
    double cap = (double)s->vc_cap_sw;
    r->decisions++;
    r->fired += fired;
    r->held += held;
    r->moved += u != det;
    r->own_free += cr / cap;
    for (uint32_t v = 0; v < s->nvc && v < FTLOG_VCS; v++)
        r->occ[v] += 1.0 - *credit(s, s->sw[w].port0 + K + det, v) / cap;
    if (fired) {
        int32_t best = -1;
        uint32_t want = (a->delta_dmodk ? det : p->dst) % a->delta;
        for (uint32_t x = 0; x < K; x++) {
            if (x == det || (a->delta > 1 && x % a->delta != want)) continue;
            int32_t c = up_credits(s, w, K, x, p);
            if (c > best) best = c;
        }
        r->alt_free += best < 0 ? 0.0 : best / cap;
        r->stuck += best <= a->ltth;
    }
}


/* Parse ADAP-<trigger>-<stages>-<ports>; returns 0 if the name is not one.
 * stage 0 means all stages. */
static int parse(const char *name, int *trig, int *stage, uint32_t *delta)
{
    char buf[64], *f[4], *save = NULL;
    size_t n = strlen(name);
    if (n >= sizeof buf) return 0;
    for (size_t i = 0; i <= n; i++) buf[i] = (char)tolower((unsigned char)name[i]);
    if (!strcmp(buf, "fully-adaptive")) { *trig = NOTH; *stage = 0; *delta = 1; return 1; }
    int k = 0;
    for (char *t = strtok_r(buf, "-", &save); t; t = strtok_r(NULL, "-", &save)) {
        if (k == 4) return 0;
        f[k++] = t;
    }
    if (k != 4 || strcmp(f[0], "adap")) return 0;
    if (!strcmp(f[1], "noth")) *trig = NOTH;
    else if (!strcmp(f[1], "th")) *trig = TH;
    else if (!strcmp(f[1], "2th")) *trig = TWOTH;
    else return 0;
    if (!strcmp(f[2], "s") || !strcmp(f[2], "*s") || !strcmp(f[2], "as")) *stage = 0;
    else if (!strcmp(f[2], "fs")) *stage = 1;
    else if (!strcmp(f[2], "ss")) *stage = 2;
    else if (f[2][0] >= '1' && f[2][0] <= '9' && !strcmp(f[2] + 1, "s")) *stage = f[2][0] - '0';
    else return 0;
    if (!strcmp(f[3], "k")) *delta = 1;
    else if (f[3][0] == 'k' && f[3][1] == '/' && f[3][2] >= '1' && f[3][2] <= '9' && (!f[3][3] || (isdigit((unsigned char)f[3][3]) && !f[3][4])))
        *delta = (uint32_t)atoi(f[3] + 2);
    else return 0;
    return 1;
}

static int match_adap(const char *name)
{
    int t, st;
    uint32_t d;
    return parse(name, &t, &st, &d);
}

static const fattree_t *need_fattree(sim_t *s, cfg_t *c)
{
    const fattree_t *ft = fattree_get(s);
    if (!ft) cfg_fail(c, K_ROUTING, "this routing works on fat-trees; topology.type is '%s'", s->topo->name);
    return ft;
}

static void setup_adap(sim_t *s, cfg_t *c)
{
    const fattree_t *ft = need_fattree(s, c);
    int trig, stage;
    uint32_t delta;
    /* the triggers read the packet model's credits (bytes per VC); the flit
     * model counts its own, in flits, which these routings do not read */
    if (s->flit_mode)
        cfg_fail(c, K_ROUTING, "adaptive fat-tree routing reads the packet model's credits: it runs with switch.model = packet, not flit");
    if (!parse(cfg_str(c, K_ROUTING), &trig, &stage, &delta))
        cfg_fail(c, K_ROUTING, "not a routing name");
    if (ft->T < 2) cfg_fail(c, K_ROUTING, "a single-switch fat-tree has no upward choice to adapt");
    if (stage >= (int)ft->T)
        cfg_fail(c, K_ROUTING, "stage %d has no upward ports in a %u-stage fat-tree (adaptive stages are 1..%u)", stage, ft->T, ft->T - 1);
    if (delta > ft->K || (delta > 1 && ft->K % delta))
        cfg_fail(c, K_ROUTING, "K/%u needs a divisor of K = %u (the candidate ports are those congruent mod %u to the D-mod-K port)",
                 delta, ft->K, delta);
    if (ft->K / (delta ? delta : 1) < 2)
        cfg_fail(c, K_ROUTING, "K/%u leaves one candidate port of K = %u: nothing to adapt (that is a deterministic routing)",
                 delta, ft->K);
    /* one block, freed with the simulation: the 2TH flags follow the struct */
    ftad_t *a = xcalloc(1, sizeof *a + (trig == TWOTH ? (size_t)s->nports * s->nvc : 0));
    s->routing_data = a;
    a->trig = trig;
    a->stages = stage ? 1u << stage : ((1u << ft->T) - 2);
    a->delta = delta;
    const char *scan = cfg_str(c, K_ROUTING_SCAN);
    if (!strcmp(scan, "port")) a->scan_port = 1;
    else if (strcmp(scan, "dmodk")) cfg_fail(c, K_ROUTING_SCAN, "must be dmodk or port");
    if (delta > 1) {   /* K (or K/1): every up port is a candidate, nothing to compare */
        const char *ref = cfg_str(c, K_ROUTING_DELTA_REF);
        if (!strcmp(ref, "dmodk")) a->delta_dmodk = 1;
        else if (strcmp(ref, "destination")) cfg_fail(c, K_ROUTING_DELTA_REF, "must be destination or dmodk");
    }
    if ((trig == TH || trig == TWOTH) && (ftlog_path = getenv("ICNSIM_FTADAPT_LOG")) && *ftlog_path) {
        a->log = 1;
        ftlog_nvc = s->nvc < FTLOG_VCS ? s->nvc : FTLOG_VCS;
        atexit(ftlog_write);
    }
    if (trig == TH || trig == TWOTH) {
        double lt = cfg_double(c, K_ROUTING_LTTH);
        a->ltth = (int32_t)(lt * s->vc_cap_sw + 0.5);
        if (trig == TWOTH) {
            double ht = cfg_double(c, K_ROUTING_HTTH);
            if (ht < lt) cfg_fail(c, K_ROUTING_HTTH, "the high threshold must not be below routing.ltth = %g", lt);
            a->htth = (int32_t)(ht * s->vc_cap_sw + 0.5);
            a->congested = (uint8_t *)(a + 1);
        }
    }
}

/* Free credits, at switch w, of up port u's downstream VC for packet p (the
 * VC the queuing scheme gives p on that port). */
static inline int32_t up_credits(const sim_t *s, uint32_t w, uint32_t K, uint32_t u, const packet_t *p)
{
    return *credit(s, s->sw[w].port0 + K + u, hop_vc(s, w, K + u, p));
}

/* The up port with the most free credits among the candidates (the K/d filter
 * keeps ports congruent to det, or to D, mod d),
 * scanned from `from` (det, or 0 with routing.scan = port); strictly more
 * than `floor` is needed to leave det. */
static uint32_t most_credits(const sim_t *s, uint32_t w, uint32_t K, uint32_t det, uint32_t from, const packet_t *p,
                             const ftad_t *a, int32_t floor)
{
    uint32_t delta = a->delta, best = det, want = (a->delta_dmodk ? det : p->dst) % delta;
    int32_t full = (int32_t)s->vc_cap_sw;
    for (uint32_t k = 0, u = from; k < K; k++, u = u + 1 == K ? 0 : u + 1) {
        if (delta > 1 && u % delta != want) continue;
        int32_t cr = up_credits(s, w, K, u, p);
        if (cr > floor) {
            floor = cr;
            best = u;
            if (cr == full) break;
        }
    }
    return best;
}

static int route_adap(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    (void)in;
    const fattree_t *ft = s->topo_data;
    ftad_t *a = s->routing_data;
    uint32_t port = fattree_dmodk_port(ft, w, p->dst), l = ft->stage[w], K = ft->K;
    if (fattree_is_up(ft, w, port) && (a->stages >> l & 1)) {
        uint32_t det = port - K, u = det, from = a->scan_port ? 0 : det;
        int32_t cr = up_credits(s, w, K, det, p);
        int held = 0;
        switch (a->trig) {
        case NOTH:
            u = most_credits(s, w, K, det, from, p, a, 0);
            break;
        case TH:
            if (cr < a->ltth) u = most_credits(s, w, K, det, from, p, a, a->ltth);
            break;
        default: {   /* TWOTH: the flag of the D-mod-K port's downstream VC */
            uint8_t *flag = &a->congested[(s->sw[w].port0 + port) * s->nvc + hop_vc(s, w, port, p)];
            if (cr < a->ltth || *flag) {
                if (cr < a->htth) {
                    held = cr >= a->ltth;
                    *flag = 1;
                    u = most_credits(s, w, K, det, from, p, a, a->ltth);
                } else {
                    *flag = 0;
                }
            }
        }
        }
        if (a->log) ftlog_count(s, w, l, K, det, cr, u, cr < a->ltth, held, p, a);
        port = K + u;
    }
    c[0] = (cand_t){ (uint8_t)port, hop_vc(s, w, port, p), FC_VCT, 0 };
    return 1;
}

static void setup_oblivious(sim_t *s, cfg_t *c)
{
    need_fattree(s, c);
    ftad_t *a = xcalloc(1, sizeof *a + s->nswitches * sizeof(rng_t));
    s->routing_data = a;
    a->trig = OBLIVIOUS;
    a->rng = (rng_t *)(a + 1);
    rng_seed_array(a->rng, s->nswitches, s->seed, RNG_ROUTE);
}

static int route_oblivious(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    (void)in;
    const fattree_t *ft = s->topo_data;
    ftad_t *a = s->routing_data;
    uint32_t port = fattree_dmodk_port(ft, w, p->dst);
    if (fattree_is_up(ft, w, port)) port = ft->K + rng_below(&a->rng[w], ft->K);
    c[0] = (cand_t){ (uint8_t)port, hop_vc(s, w, port, p), FC_VCT, 0 };
    return 1;
}

const routing_ops routing_oblivious = { .name = "oblivious", .desc = "fat-trees: a uniformly random up port at every upward hop",
                                        .setup = setup_oblivious, .route = route_oblivious, .hop_vcs = 1 };
const routing_ops routing_adap = {
    .name = "ADAP-<th>-<st>-<pt>",
    .desc = "fat-trees, seed 002's restricted adaptive routing: th = NoTH|TH|2TH, st = S|1S|2S (also *S/AS, FS, SS), "
            "pt = K|K/d; e.g. ADAP-2TH-S-K/3. fully-adaptive = ADAP-NoTH-S-K (most credits)",
    .setup = setup_adap, .route = route_adap, .match = match_adap, .hop_vcs = 1, .adaptive = 1 };
