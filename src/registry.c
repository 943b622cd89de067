/* The registry: every pluggable policy, by name. Add a line here when you add
 * a policy file. */
#include "net/policy.h"
#include "cc/cc.h"
#include "ib/engine.h"
#include "workload/workload.h"
#include <string.h>

extern const topo_ops topo_rlft, topo_ntree, topo_torus, topo_mesh, topo_ibnet;
extern const routing_ops routing_dmodk, routing_dor, routing_dor_dateline, routing_dor_bubble, routing_bubble_adaptive, routing_duato,
    routing_oblivious, routing_adap, routing_afi, routing_lft, routing_dor_msp;
extern const queuing_ops queuing_1q, queuing_dbbm, queuing_vftree, queuing_flow2sl, queuing_voqsw, queuing_vftree_hop, queuing_vftree_pod, queuing_voqnet,
    queuing_vftree_sd, queuing_flow2sl_sd;
extern const arbiter_ops arbiter_islip, arbiter_rr;
extern const vc_allocator_ops vc_alloc_input_first, vc_alloc_output_first;
extern const pattern_ops pattern_uniform, pattern_bitrev, pattern_bitcomp, pattern_transpose,
    pattern_shuffle, pattern_butterfly, pattern_tornado, pattern_neighbor, pattern_shift;
extern const scenario_ops scenario_none, scenario_hotspot, scenario_hs10_1, scenario_hs25_1,
    scenario_hs10_4, scenario_hs25_4, scenario_ihs, scenario_hs_region, scenario_bursty, scenario_bursty_var;
extern const process_ops process_bernoulli, process_poisson, process_bernoulli_cycle;

static const topo_ops *const topos[] = { &topo_rlft, &topo_ntree, &topo_torus, &topo_mesh, &topo_ibnet, NULL };
static const routing_ops *const routings[] = { &routing_dmodk, &routing_oblivious, &routing_adap, &routing_afi, &routing_dor, &routing_dor_dateline, &routing_dor_bubble, &routing_bubble_adaptive, &routing_duato, &routing_dor_msp, &routing_lft, NULL };
static const queuing_ops *const queuings[] = { &queuing_1q, &queuing_dbbm, &queuing_vftree, &queuing_flow2sl, &queuing_voqsw, &queuing_vftree_hop, &queuing_vftree_pod, &queuing_vftree_sd, &queuing_flow2sl_sd, &queuing_voqnet, NULL };
static const arbiter_ops *const arbiters[] = { &arbiter_islip, &arbiter_rr, NULL };
static const vc_allocator_ops *const vc_allocators[] = { &vc_alloc_input_first, &vc_alloc_output_first, NULL };
static const pattern_ops *const patterns[] = {
    &pattern_uniform, &pattern_bitrev, &pattern_bitcomp, &pattern_transpose,
    &pattern_shuffle, &pattern_butterfly, &pattern_tornado, &pattern_neighbor, &pattern_shift, NULL };
static const scenario_ops *const scenarios[] = {
    &scenario_none, &scenario_hotspot, &scenario_hs10_1, &scenario_hs25_1,
    &scenario_hs10_4, &scenario_hs25_4, &scenario_ihs, &scenario_hs_region, &scenario_bursty, &scenario_bursty_var, NULL };
static const process_ops *const processes[] = { &process_bernoulli, &process_poisson, &process_bernoulli_cycle, NULL };

/* Every ops table starts with name and desc, so one lookup serves all. */
typedef struct named { const char *name, *desc; } named;

static const void *find(const void *const *tab, const char *name)
{
    for (; *tab; tab++)
        if (!strcmp(((const named *)*tab)->name, name)) return *tab;
    return NULL;
}

const topo_ops *find_topo(const char *n) { return find((const void *const *)topos, n); }
const routing_ops *find_routing(const char *n)
{
    const routing_ops *r = find((const void *const *)routings, n);
    for (const routing_ops *const *t = routings; !r && *t; t++)
        if ((*t)->match && (*t)->match(n)) r = *t;
    return r;
}
const queuing_ops *find_queuing(const char *n) { return find((const void *const *)queuings, n); }
const arbiter_ops *find_arbiter(const char *n) { return find((const void *const *)arbiters, n); }
const vc_allocator_ops *find_vc_allocator(const char *n) { return find((const void *const *)vc_allocators, n); }
const pattern_ops *find_pattern(const char *n) { return find((const void *const *)patterns, n); }
const scenario_ops *find_scenario(const char *n) { return find((const void *const *)scenarios, n); }
const process_ops *find_process(const char *n) { return find((const void *const *)processes, n); }

static void list(FILE *f, const char *title, const char *key, const void *const *tab)
{
    fprintf(f, "%s (%s):\n", title, key);
    for (; *tab; tab++) fprintf(f, "  %-12s %s\n", ((const named *)*tab)->name, ((const named *)*tab)->desc);
}

void registry_list(FILE *f)
{
    list(f, "topologies", "topology.type", (const void *const *)topos);
    list(f, "routing algorithms", "routing.algorithm", (const void *const *)routings);
    list(f, "queuing schemes", "queuing.scheme", (const void *const *)queuings);
    list(f, "crossbar allocators", "switch.arbiter", (const void *const *)arbiters);
    list(f, "VC allocators (flit model)", "router.vc_allocator", (const void *const *)vc_allocators);
    list(f, "injection processes", "traffic.process", (const void *const *)processes);
    list(f, "traffic patterns", "traffic.pattern", (const void *const *)patterns);
    list(f, "scenarios: hot-spots and bursts", "traffic.scenario", (const void *const *)scenarios);
    fprintf(f, "InfiniBand routing engines (ib.engine, with routing.algorithm = lft):\n");
    for (const ib_engine_t *e = ib_engines; e->name; e++) fprintf(f, "  %-12s %s\n", e->name, e->desc);
    cc_list(f);
    wl_list(f);
    fprintf(f, "multipath schemes (multipath.scheme; docs/DRB.md):\n"
               "  off          every message takes path 0\n"
               "  drb          DRB (seeds 001, 003): metapaths of multi-step paths S->IN1->IN2->D opened and closed from ACKed queueing latency (routing.algorithm = dor-msp)\n"
               "  pr-drb       PR-DRB (seed 003): DRB plus routers' contending-flow records and a per-pair database of solutions re-applied when a pattern recurs\n"
               "  drb-ib       DRB over InfiniBand (seed 001): LMC LID paths opened by IBA CC's BECNs, split by notification counts, closed per CCTI_Timer; no throttling\n"
               "views (views.* keys): latency.csv and latency-pairs.csv (latency over time, overall and per pair), latency-peaks.csv, router-wait.csv (latency map per router), link-load-hist.csv, link-load-summary.csv and link-map.csv (link-load distribution and map), port-counters.csv (InfiniBand PortXmitData/Pkts/Wait)\n"
               "multipath outputs: drb.csv, drb-timeseries.csv (paths open, openings, closings, database hits per interval), drb-pairs.csv, drb-log.csv (metapath width per pair over time), drb.gp\n");
}
