/* Bursty traffic (seed 003, Figure 17): the same nodes alternate a phase of
 * low load on traffic.pattern (uniform by default) with a burst of heavy load
 * on a permutation, cycle after cycle.
 *
 * bursty      every traffic.burst_period starts with period - burst_length
 *             of traffic.pattern at traffic.low_load (or traffic.low_rate),
 *             then burst_length of traffic.burst_pattern at the run's load
 *             (load or traffic.rate).
 * bursty-var  the same, but the bursts take the patterns of the list
 *             traffic.burst_pattern in turn (burst i of the run uses entry
 *             i mod m): the heavy pattern changes at every burst, and the
 *             sequence repeats, so a mechanism that learns a burst meets it
 *             again.
 * A node that a phase's pattern leaves without destination (a permutation's
 * fixed point) is idle during that phase. Loads change at phase boundaries
 * through scenario_ops.load, so generation stays a per-node stream with no
 * state beyond the next arrival. */
#include "../net/policy.h"
#include "../core/util.h"
#include <stdlib.h>
#include <string.h>

enum { MAX_BURST_PATTERNS = 16 };

typedef struct bursty {
    simtime_t period, low;                 /* cycle, and its low phase [0, low) */
    double low_load;
    uint32_t npat;
    const pattern_ops *pat[MAX_BURST_PATTERNS];
    uint32_t idle[];                       /* per node: bit 0 idle in the low phase, bit 1 + i in burst pattern i */
} bursty_t;

/* The burst patterns, by name, each set up (and checked) as traffic.pattern is. */
static uint32_t read_patterns(sim_t *s, cfg_t *c, const pattern_ops **pat)
{
    char *list = xstrdup(cfg_str(c, K_TR_BURST_PATTERN)), *save = NULL, bad[64];
    uint32_t n = 0;
    for (char *tok = strtok_r(list, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
        const pattern_ops *p = find_pattern(tok);
        if (!p || n == MAX_BURST_PATTERNS) {   /* free before failing: exit must leave nothing unreachable */
            snprintf(bad, sizeof bad, "%s", tok);
            free(list);
            if (p) cfg_fail(c, K_TR_BURST_PATTERN, "at most %d patterns", MAX_BURST_PATTERNS);
            cfg_fail(c, K_TR_BURST_PATTERN, "unknown pattern '%s' (run `icnsim --list` for the choices)", bad);
        }
        pat[n++] = p;
    }
    free(list);
    for (uint32_t i = 0; i < n; i++) pat[i]->setup(s, c, K_TR_BURST_PATTERN);
    return n;
}

static void setup_with(sim_t *s, cfg_t *c, int variable)
{
    const pattern_ops *pat[MAX_BURST_PATTERNS];
    uint32_t npat = read_patterns(s, c, pat);
    if (!variable && npat != 1)
        cfg_fail(c, K_TR_BURST_PATTERN, "bursty takes one pattern; scenario bursty-var cycles through several");
    if (variable && npat < 2)
        cfg_fail(c, K_TR_BURST_PATTERN, "bursty-var cycles through a list of patterns: give at least two");
    simtime_t period = cfg_u64(c, K_TR_BURST_PERIOD), len = cfg_u64(c, K_TR_BURST_LENGTH);
    if (len >= period) cfg_fail(c, K_TR_BURST_LENGTH, "must be shorter than traffic.burst_period, which also holds the low phase");
    bursty_t *b = xcalloc(1, sizeof *b + s->nnodes * sizeof *b->idle);
    s->scenario_data = b;
    b->period = period;
    b->low = period - len;
    b->low_load = traffic_load(s, c, K_TR_LOW_LOAD, K_TR_LOW_RATE);
    b->npat = npat;
    memcpy(b->pat, pat, npat * sizeof *pat);
    rng_t r;   /* permutations draw nothing; uniform never leaves a node idle */
    rng_seed(&r, s->seed, RNG_SETUP, 3);
    for (uint32_t n = 0; n < s->nnodes; n++) {
        b->idle[n] = s->pattern->dst(s, n, &r) == ICN_NIL;
        for (uint32_t i = 0; i < npat; i++) b->idle[n] |= (uint32_t)(pat[i]->dst(s, n, &r) == ICN_NIL) << (1 + i);
        if (b->idle[n] != (2u << npat) - 1) s->nic[n].hot = 0;   /* takes part; a node idle throughout stays silent */
    }
    for (uint32_t i = 0; i < npat && s->load > 0; i++) {   /* a burst no node sends: the load would change nothing */
        uint32_t n = 0;
        while (n < s->nnodes && b->idle[n] >> (1 + i) & 1) n++;
        if (n == s->nnodes)
            cfg_fail(c, !strcmp(pat[i]->name, "shift") ? K_TR_SHIFT : K_TR_BURST_PATTERN, "every node is a fixed point of "
                     "burst pattern %s on this %u-node network: its bursts would send nothing", pat[i]->name, s->nnodes);
    }
}

static void setup_bursty(sim_t *s, cfg_t *c) { setup_with(s, c, 0); }
static void setup_bursty_var(sim_t *s, cfg_t *c) { setup_with(s, c, 1); }

static double load_bursty(const sim_t *s, uint32_t n, simtime_t t, simtime_t *until)
{
    const bursty_t *b = s->scenario_data;
    simtime_t cycle = t / b->period, start = cycle * b->period;
    if (t - start < b->low) {
        *until = start + b->low;
        return b->idle[n] & 1 ? 0 : b->low_load;
    }
    *until = start + b->period;
    return b->idle[n] >> (1 + cycle % b->npat) & 1 ? 0 : s->load;
}

static uint32_t dst_bursty(const sim_t *s, uint32_t src, simtime_t t, rng_t *r)
{
    const bursty_t *b = s->scenario_data;
    simtime_t cycle = t / b->period;
    if (t - cycle * b->period < b->low) return ICN_NIL;   /* low phase: traffic.pattern */
    return b->pat[cycle % b->npat]->dst(s, src, r);
}

const scenario_ops scenario_bursty = { "bursty", "seed 003: cycles of traffic.pattern at traffic.low_load, then a burst of traffic.burst_pattern at the load",
                                       setup_bursty, dst_bursty, load_bursty, NULL };
const scenario_ops scenario_bursty_var = { "bursty-var", "seed 003: bursty, each burst taking the next pattern of the list traffic.burst_pattern",
                                           setup_bursty_var, dst_bursty, load_bursty, NULL };
