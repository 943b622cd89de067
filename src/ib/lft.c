/* routing.algorithm = lft: table-driven routing. At set-up the LIDs are
 * assigned, the engine (ib.engine) fills the LFTs, every switch with CAs must
 * reach every CA LID, and the credit-loop check runs. Per hop, route() looks
 * up DLID = base(dst) + packet.path in the switch's LFT; the VC downstream is
 * the queuing scheme's (hop_vc, as the direct routings do), or, when the
 * engine assigns SLs, the SL-to-VL table's VL for the path's SL (the
 * routing then owns the VCs: setup() switches to routing_lft_vl). */
#include "subnet.h"
#include "engine.h"
#include "cdg.h"
#include "files.h"
#include "report.h"
#include "../net/policy.h"
#include "../topo/ibnet.h"
#include "../core/util.h"
#include "../stats/outfile.h"
#include <stdlib.h>
#include <string.h>

extern const routing_ops routing_lft, routing_lft_vl;

ib_subnet_t *ib_get(const sim_t *s)
{
    return s->routing == &routing_lft || s->routing == &routing_lft_vl ? s->routing_data : NULL;
}

static void write_file(cfg_t *c, key_id k, const ib_subnet_t *ib, const sim_t *s, void (*wr)(const ib_subnet_t *, const sim_t *, FILE *))
{
    const char *path = cfg_str(c, k);
    if (!*path) return;
    outfile_t o;   /* atomic, every write checked: a failure exits 1 naming the path */
    wr(ib, s, out_open(&o, path, NULL));
    out_close(&o);
}

static void setup(sim_t *s, cfg_t *c)
{
    const ib_engine_t *e = ib_find_engine(cfg_str(c, K_IB_ENGINE));
    if (!e) cfg_fail(c, K_IB_ENGINE, "unknown engine (run `icnsim --list` for the choices)");
    ib_subnet_t *ib = xcalloc(1, sizeof *ib);
    s->routing_data = ib;
    uint32_t lmc = (uint32_t)cfg_int(c, K_IB_LMC), bad = 0;
    const uint32_t *given = ibnet_lids(s);
    if (given) {   /* the fabric file's LIDs and LMC */
        int flmc = ibnet_lmc(s);
        if (cfg_is_set(c, K_IB_LMC) && flmc >= 0 && (uint32_t)flmc != lmc)
            cfg_fail(c, K_IB_LMC, "the fabric file assigns LIDs with LMC %d", flmc);
        if (flmc >= 0) lmc = (uint32_t)flmc;
    }
    if (ib_assign_lids(ib, s, lmc, given, &bad))
        cfg_fail(c, given ? K_IB_NET_FILE : K_IB_LMC, "node %u's %u LIDs (base %u, LMC %u) do not fit: a base must be aligned to 2^LMC, "
                 "the LIDs unique and within the unicast range 0x0001-0xBFFF (%u CAs x %u LIDs)",
                 bad, 1u << lmc, given ? given[bad] : (bad + 1) << lmc, lmc, s->nnodes, 1u << lmc);
    ib_alloc_tables(ib, s);
    e->fill(ib, s, c);
    char *msg = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&msg, &len);
    if (ib_check_reach(ib, s, m)) {
        fclose(m);
        msg[strcspn(msg, "\n")] = 0;
        cfg_fail(c, strcmp(e->name, "file") ? K_IB_ENGINE : K_IB_LFT_FILE, "%s", msg);
    }
    fclose(m);
    free(msg);
    if (ib->sl2vl) {
        if (ib->nvl > s->nvc) cfg_fail(c, K_SW_VCS, "engine %s uses %u VLs; set switch.vcs = %u", e->name, ib->nvl, ib->nvl);
        s->routing = &routing_lft_vl;
    }
    if (cfg_int(c, K_IB_REPORT)) ib_report(ib, s, e->name, stdout);
    write_file(c, K_IB_WRITE_NET, ib, s, ib_write_net);
    write_file(c, K_IB_WRITE_LFTS, ib, s, ib_write_lfts);
    if (ib_credit_loops(ib, s, stderr)) {
        if (!cfg_int(c, K_IB_ALLOW_LOOPS))
            cfg_fail(c, K_IB_ENGINE, "engine %s's routes have a credit loop (printed above) and can deadlock; "
                     "set ib.allow_credit_loops = true to run anyway", e->name);
        fprintf(stderr, "icnsim: running with a credit loop (ib.allow_credit_loops); the deadlock watchdog reports a deadlock if it forms\n");
    } else {
        cfg_int(c, K_IB_ALLOW_LOOPS);
    }
}

static void cleanup(sim_t *s) { ib_free(s->routing_data); }

static int route(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    (void)in;
    const ib_subnet_t *ib = s->routing_data;
    uint32_t port = ib_lft(ib, w, ib_dlid(ib, p->dst, p->path));
    c[0] = (cand_t){ (uint8_t)port, hop_vc(s, w, port, p), FC_VCT, 0 };
    return 1;
}

static int route_vl(sim_t *s, uint32_t w, uint32_t in, const packet_t *p, cand_t *c)
{
    (void)in;
    const ib_subnet_t *ib = s->routing_data;
    uint32_t lid = ib_dlid(ib, p->dst, p->path), port = ib_lft(ib, w, lid);
    uint32_t sl = ib_sl(ib, ib->leaf[p->src], lid, p->sl);
    c[0] = (cand_t){ (uint8_t)port, (uint8_t)ib_vl(ib, s->sw[w].port0 + port, sl), FC_VCT, 0 };
    return 1;
}

const routing_ops routing_lft = { .name = "lft", .desc = "InfiniBand linear forwarding tables filled by ib.engine (minhop, updn, ftree, dor, dfs-disjoint, dmodk, file)",
                                  .setup = setup, .route = route, .hop_vcs = 1, .deterministic = 1, .cleanup = cleanup };
/* The same tables with SL-to-VL: the routing chooses every VL. */
const routing_ops routing_lft_vl = { .name = "lft", .desc = "(lft with SL-to-VL tables)", .setup = setup, .route = route_vl,
                                     .owns_vcs = 1, .deterministic = 1, .cleanup = cleanup };
