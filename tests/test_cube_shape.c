/* Meshes and tori with a radix per dimension (topology.shape): wiring,
 * minimal routes of every torus/mesh routing, deadlock freedom at
 * saturation, and the patterns that read coordinates. */
#include "test.h"
#include "util.h"
#include "../src/net/policy.h"
#include "../src/topo/cube.h"
#include "../src/core/util.h"
#include <string.h>

/* Seed 004's timing (as tests/test_cube.c) on a given shape. */
static void shape_ini(char *ini, size_t n, const char *type, const char *shape, const char *routing)
{
    snprintf(ini, n, "[link]\nbandwidth = 16b/5.25ns\ndelay = 0\n[switch]\nrouting_delay = 21ns\narbiter = rr\n"
             "[packet]\nmtu = 40B\n[traffic]\nmessage_size = 40B\n"
             "[topology]\ntype = %s\nshape = %s\n[routing]\nalgorithm = %s\n", type, shape, routing);
}

/* Router distance from coordinates alone: |dx| in a mesh dimension, the
 * shorter way round in a ring with wrap links. */
static uint32_t distance(const cube_t *q, uint32_t a, uint32_t b)
{
    uint32_t h = 0;
    for (uint32_t d = 0; d < q->n; d++) {
        uint32_t x = cube_coord(q, a, d), y = cube_coord(q, b, d), dx = x > y ? x - y : y - x;
        h += cube_wraps(q, d) && q->k[d] - dx < dx ? q->k[d] - dx : dx;
    }
    return h;
}

static int pick_last(sim_t *s, uint32_t w, const cand_t *c, int n, void *arg) { (void)s; (void)w; (void)c; (void)arg; return n - 1; }

/* Walk every route taking the first (or the last) candidate at each router;
 * count the routes that are not delivered or not minimal. */
static uint32_t bad_routes(sim_t *s, int last)
{
    const cube_t *q = cube_get(s);
    uint32_t bad = 0;
    for (uint32_t a = 0; a < s->nnodes; a++)
        for (uint32_t b = 0; b < s->nnodes; b++)
            if (a != b) bad += cube_walk(s, a, b, last ? pick_last : NULL, NULL) != (int)distance(q, a / q->c, b / q->c);
    return bad;
}

TEST(cube_shape_wiring_and_minimal_routes)
{
    static const struct { const char *type, *shape, *routing, *vcs; uint32_t routers, links; } cases[] = {
        { "mesh", "8x4", "dor", "1", 32, 2 * (7 * 4 + 3 * 8) },
        { "torus", "8x4", "dor", "1", 32, 2 * 2 * 32 },
        { "torus", "8x4", "dor-dateline", "2", 32, 2 * 2 * 32 },
        { "torus", "8x4", "dor-bubble", "1", 32, 2 * 2 * 32 },
        { "torus", "8x4", "duato", "3", 32, 2 * 2 * 32 },
        { "torus", "8x4", "bubble-adaptive", "2", 32, 2 * 2 * 32 },
        { "mesh", "4x8", "duato", "3", 32, 2 * (3 * 8 + 7 * 4) },
        { "torus", "2x5x3", "dor-dateline", "2", 30, 2 * (1 * 15 + 30 + 30) },   /* a 2-router ring has no wrap link */
        { "torus", "3x4x2", "bubble-adaptive", "2", 24, 2 * (24 + 24 + 12) },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char ini[1024], vcs[32];
        shape_ini(ini, sizeof ini, cases[i].type, cases[i].shape, cases[i].routing);
        snprintf(vcs, sizeof vcs, "switch.vcs=%s", cases[i].vcs);
        const char *sets[] = { vcs, "load=0", "switch.buffer=320B", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, sets);
        uint32_t links = 0;
        for (uint32_t g = 0; g < s.nports; g++)
            if (!(s.port[g].dev & NIC_BIT) && s.port[g].peer != ICN_NIL && !(s.port[s.port[g].peer].dev & NIC_BIT)) links++;
        CHECK(s.nswitches == cases[i].routers && links == cases[i].links, "%s %s: %u routers, %u router ports linked, want %u and %u",
              cases[i].type, cases[i].shape, s.nswitches, links, cases[i].routers, cases[i].links);
        for (int last = 0; last < 2; last++) {
            uint32_t bad = bad_routes(&s, last);
            CHECK(bad == 0, "%s %s %s (%s candidate): %u routes not minimal or not delivered", cases[i].type, cases[i].shape,
                  cases[i].routing, last ? "last" : "first", bad);
        }
        sim_free(&s);
        cfg_free(&c);
    }
}

/* Saturated 8x4 networks with 2-packet buffers: DOR on the mesh and
 * datelines on the torus (both router models) never deadlock; plain DOR on
 * the torus does, and is reported. */
TEST(cube_shape_8x4_deadlock_free_at_saturation)
{
    static const char *flit = "[packet]\nmtu = 40B\n[traffic]\nmessage_size = 40B\n[topology]\ntype = torus\nshape = 8x4\n"
                              "[switch]\nmodel = flit\nbuffer = 160B\nvcs = 2\n[link]\nphit = 2B\n[router]\ncycle = 5.25ns\n"
                              "[routing]\nalgorithm = dor-dateline\n";
    static const struct { const char *type, *routing, *buffer; int want; } cases[] = {
        { "mesh", "dor", "switch.buffer=80B", 0 },
        { "torus", "dor-dateline", "switch.buffer=160B", 0 },
        { "torus", "dor-bubble", "switch.buffer=80B", 0 },
        { NULL, "dor-dateline", "switch.buffer=160B", 0 },   /* flit level, wormhole */
        { "torus", "dor", "switch.buffer=80B", 3 },
    };
    static const char *pats[] = { "traffic.pattern=uniform", "traffic.pattern=tornado", "traffic.pattern=bitrev" };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int k = 0; k < 3; k++) {
            if (cases[i].want && k) continue;   /* one deadlock suffices */
            char ini[1024], label[160], vcs[32];
            if (cases[i].type) shape_ini(ini, sizeof ini, cases[i].type, "8x4", cases[i].routing);
            else snprintf(ini, sizeof ini, "%s", flit);
            snprintf(vcs, sizeof vcs, "switch.vcs=%d", strcmp(cases[i].routing, "dor-dateline") ? 1 : 2);
            const char *sets[] = { vcs, cases[i].buffer, pats[k], "load=1.0", "time.warmup=0", "time.measure=1ms",
                                   "time.deadlock=20us", cases[i].type ? "nic.buffer=80B" : NULL, NULL };
            snprintf(label, sizeof label, "8x4 %s %s %s", cases[i].type ? cases[i].type : "torus (flit)", cases[i].routing, pats[k] + 16);
            expect_deadlock(ini, sets, cases[i].want, 0.05, label);
        }
}

/* Tornado and neighbor move each coordinate by its own radix; node ids
 * follow the router numbering x + 8 y, so bit-reversal on 32 nodes is the
 * plain 5-bit reversal. */
TEST(cube_shape_patterns_use_each_radix)
{
    static const char *pats[] = { "traffic.pattern=tornado", "traffic.pattern=neighbor", "traffic.pattern=bitrev" };
    for (int i = 0; i < 3; i++) {
        char ini[1024];
        shape_ini(ini, sizeof ini, "torus", "8x4", "dor-dateline");
        const char *sets[] = { pats[i], "switch.vcs=2", "switch.buffer=320B", "load=0", NULL };
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, sets);
        uint32_t bad = 0;
        for (uint32_t n = 0; n < 32; n++) {
            uint32_t x = n % 8, y = n / 8, want;
            if (i == 0) want = (x + 3) % 8 + 8 * ((y + 1) % 4);          /* ceil(8/2) - 1 = 3, ceil(4/2) - 1 = 1 */
            else if (i == 1) want = (x + 1) % 8 + 8 * ((y + 1) % 4);
            else {
                want = 0;
                for (int b = 0; b < 5; b++) want |= ((n >> b) & 1u) << (4 - b);
                if (want == n) want = ICN_NIL;
            }
            bad += s.pattern->dst(&s, n, NULL) != want;
        }
        CHECK(bad == 0, "%s on the 8x4 torus: %u nodes sent elsewhere", pats[i] + 16, bad);
        sim_free(&s);
        cfg_free(&c);
    }
}
