/* Injection processes. A "slot" is the time one message takes on a link, so
 * load 1.0 means back-to-back messages; the load is that of every node that
 * injects (a permutation's fixed points do not). */
#include "../net/policy.h"
#include <math.h>
#include <stdio.h>

/* A gap this long (in ps, above the longest run: time keys stop at 1e18)
 * means no further message; it also keeps the cast below in range. */
#define GAP_NEVER 4e18

/* Bernoulli: one trial per slot with success probability `load`; the gap is a
 * geometric number of slots (at least one). */
static simtime_t gap_bernoulli(rng_t *r, simtime_t slot, simtime_t cycle, double load)
{
    (void)cycle;
    if (load <= 0) return SIMTIME_MAX;
    if (load >= 1) return slot;
    double k = floor(log(rng_u01_open(r)) / log1p(-load));
    if ((1.0 + k) * (double)slot >= GAP_NEVER) return SIMTIME_MAX;   /* beyond any run */
    return slot * (simtime_t)(1.0 + k);
}

/* Poisson: exponential gaps with mean slot / load. */
static simtime_t gap_poisson(rng_t *r, simtime_t slot, simtime_t cycle, double load)
{
    (void)cycle;
    if (load <= 0) return SIMTIME_MAX;
    double g = -log(rng_u01_open(r)) * (double)slot / load;
    if (g >= GAP_NEVER) return SIMTIME_MAX;
    return g < 1 ? 1 : (simtime_t)(g + 0.5);
}

/* Bernoulli per router cycle (flit model), the usual process of flit-level
 * studies: each cycle a message with probability load x cycle / slot, so
 * messages appear on cycle boundaries (Poisson arrivals fall between them and
 * wait half a cycle on average for the next). The gap is a geometric number
 * of cycles. */
static simtime_t gap_bernoulli_cycle(rng_t *r, simtime_t slot, simtime_t cycle, double load)
{
    double p = load * (double)cycle / (double)slot;
    if (p <= 0) return SIMTIME_MAX;
    if (p >= 1) return cycle;
    double k = floor(log(rng_u01_open(r)) / log1p(-p));
    if ((1.0 + k) * (double)cycle >= GAP_NEVER) return SIMTIME_MAX;
    return cycle * (simtime_t)(1.0 + k);
}

double traffic_load(sim_t *s, cfg_t *c, key_id load, key_id rate)
{
    if (!cfg_is_set(c, rate)) return cfg_double(c, load);
    if (cfg_is_set(c, load)) cfg_fail(c, rate, "gives the load in bits/us; set either it or %s", icn_keys[load].name);
    double mbps = cfg_double(c, rate), link = s->link_bps / 1e6;
    if (mbps > link) cfg_fail(c, rate, "%g bits/us is more than a link carries (%g bits/us)", mbps, link);
    /* the fraction, as the load key's value (still unset): summary.csv shows it */
    char text[32];
    snprintf(text, sizeof text, "%.9g", mbps / link);
    cfg_set(c, load, text, NULL, 0);
    return cfg_double(c, load);
}

/* At load 1 every trial makes a message. (bernoulli-cycle runs only in the
 * flit model, which has no flow transport to ask.) */
static simtime_t fixed_bernoulli(simtime_t slot, simtime_t cycle, double load)
{
    (void)cycle;
    return load >= 1 ? slot : 0;
}

const process_ops process_bernoulli = { "bernoulli", "Bernoulli trials once per message slot (geometric gaps)", gap_bernoulli, PROC_SLOTS,
                                        fixed_bernoulli };
const process_ops process_poisson = { "poisson", "Poisson arrivals (exponential gaps, mean slot/load)", gap_poisson, PROC_ANY_TIME, NULL };
const process_ops process_bernoulli_cycle = { "bernoulli-cycle",
                                              "flit model: Bernoulli trials once per router cycle, a message with probability "
                                              "load x cycle / slot (arrivals on cycle boundaries)", gap_bernoulli_cycle, PROC_CYCLES, NULL };
