/* Fat-tree structure and D-mod-K routes, checked by walking the wiring. */
#include "test.h"
#include "util.h"
#include "../src/topo/fattree.h"
#include "../src/core/util.h"
#include "../src/transport/transport.h"
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>

static const char *base = "load = 0\n[topology]\ntype = rlft\n";

static void build(sim_t *s, cfg_t *c, const char *type, int k, int t)
{
    char kk[32], tt[32], ty[64];
    snprintf(kk, sizeof kk, "topology.k=%d", k);
    snprintf(tt, sizeof tt, "topology.stages=%d", t);
    snprintf(ty, sizeof ty, "topology.type=%s", type);
    const char *sets[] = { ty, kk, tt, NULL };
    tsim_setup(s, c, base, sets);
}

static uint64_t ipow(uint64_t b, int e) { uint64_t r = 1; while (e-- > 0) r *= b; return r; }

TEST(topology_counts)
{
    static const struct { const char *type; int k, t; } cases[] = {
        { "rlft", 2, 1 }, { "rlft", 8, 1 }, { "rlft", 4, 2 }, { "rlft", 4, 3 }, { "rlft", 6, 3 },
        { "rlft", 18, 3 }, { "rlft", 3, 4 }, { "kary-ntree", 4, 3 }, { "kary-ntree", 8, 2 }, { "kary-ntree", 2, 5 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_t s;
        cfg_t c;
        int k = cases[i].k, t = cases[i].t, rlft = !strcmp(cases[i].type, "rlft");
        build(&s, &c, cases[i].type, k, t);
        uint64_t N = rlft ? 2 * ipow(k, t) : ipow(k, t);
        uint64_t S = rlft ? N * (2 * t - 1) / (2 * k) : (uint64_t)t * ipow(k, t - 1);
        CHECK(s.nnodes == N, "%s K=%d T=%d: %u nodes, want %llu", cases[i].type, k, t, s.nnodes, (unsigned long long)N);
        CHECK(s.nswitches == S, "%s K=%d T=%d: %u switches, want %llu", cases[i].type, k, t, s.nswitches, (unsigned long long)S);
        /* links are symmetric and every switch has P = 2K ports (K at an n-tree top) */
        int sym = 1;
        for (uint32_t g = 0; g < s.nports; g++) if (s.port[s.port[g].peer].peer != g) sym = 0;
        CHECK(sym, "asymmetric wiring");
        const fattree_t *ft = fattree_get(&s);
        for (uint32_t w = 0; w < s.nswitches; w++) {
            uint32_t want = ft->stage[w] < ft->T ? 2u * k : (rlft ? 2u * k : (uint32_t)k);
            if (s.sw[w].nports != want) { CHECK(0, "switch %u has %u ports, want %u", w, s.sw[w].nports, want); break; }
        }
        sim_free(&s);
        cfg_free(&c);
    }
}

/* Walk the D-mod-K route src -> dst; returns switches crossed or -1. Marks
 * each output port used in `seen` (per port, a bitmap over destinations). */
static int walk(sim_t *s, uint32_t src, uint32_t dst, uint8_t *portdst)
{
    const fattree_t *ft = fattree_get(s);
    uint32_t g = s->port[s->nic[src].port].peer;
    for (int hops = 1; hops <= 64; hops++) {
        uint32_t w = s->port[g].dev;
        uint32_t out = fattree_dmodk_port(ft, w, dst), go = sw_port(s, w, out);
        if (portdst) portdst[(size_t)go * s->nnodes + dst] = 1;
        uint32_t nxt = s->port[go].peer;
        if (s->port[nxt].dev & NIC_BIT) return (s->port[nxt].dev & ~NIC_BIT) == dst ? hops : -1;
        g = nxt;
    }
    return -1;
}

TEST(topology_dmodk_reaches_all_pairs_minimally)
{
    static const struct { const char *type; int k, t; } cases[] = {
        { "rlft", 4, 3 }, { "rlft", 6, 3 }, { "rlft", 3, 4 }, { "kary-ntree", 4, 3 }, { "rlft", 4, 2 }, { "rlft", 8, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_t s;
        cfg_t c;
        build(&s, &c, cases[i].type, cases[i].k, cases[i].t);
        const fattree_t *ft = fattree_get(&s);
        int bad = 0, worst = 0;
        for (uint32_t a = 0; a < s.nnodes && !bad; a++)
            for (uint32_t b = 0; b < s.nnodes; b++) {
                int h = walk(&s, a, b, NULL);
                /* minimal: up to the lowest common stage and back down */
                uint32_t l = 1;
                while (l < ft->T && a / ft->kpow[l] != b / ft->kpow[l]) l++;
                if (h != (int)(2 * l - 1)) { bad = 1; CHECK(0, "%s K=%d T=%d: %u->%u crosses %d switches, want %u", cases[i].type, cases[i].k, cases[i].t, a, b, h, 2 * l - 1); break; }
                if (h > worst) worst = h;
            }
        CHECK(worst <= 2 * cases[i].t - 1, "longest route %d switches > 2T-1", worst);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* Seed 002 Table 1, D-mod-K row, for a 3-stage RLFT: destinations routed
 * through one output port: S1U (N-K)/K, S2U (N-K^2)/K^2, every down port 1. */
TEST(topology_table1_dmodk_destinations_per_port)
{
    for (int k = 4; k <= 6; k += 2) {
        sim_t s;
        cfg_t c;
        build(&s, &c, "rlft", k, 3);
        const fattree_t *ft = fattree_get(&s);
        uint32_t N = s.nnodes;
        uint8_t *pd = xcalloc((size_t)s.nports * N, 1);
        for (uint32_t a = 0; a < N; a++)
            for (uint32_t b = 0; b < N; b++) walk(&s, a, b, pd);
        int ok = 1;
        for (uint32_t w = 0; w < s.nswitches && ok; w++)
            for (uint32_t p = 0; p < s.sw[w].nports; p++) {
                uint32_t go = sw_port(&s, w, p), cnt = 0;
                for (uint32_t d = 0; d < N; d++) cnt += pd[(size_t)go * N + d];
                uint32_t want;
                if (!fattree_is_up(ft, w, p)) want = 1;
                else if (ft->stage[w] == 1) want = (N - k) / k;
                else want = (N - k * k) / (k * k);
                if (cnt != want) { ok = 0; CHECK(0, "K=%d switch %u (stage %u) port %u carries %u destinations, want %u", k, w, ft->stage[w], p, cnt, want); break; }
            }
        free(pd);
        sim_free(&s);
        cfg_free(&c);
    }
}

/* Whether every record of an array of n, `size` bytes apart from `first`,
 * lies within one cache line. */
static int one_line_each(const void *first, size_t n, size_t size)
{
    for (size_t i = 0; i < n; i++) {
        uintptr_t a = (uintptr_t)first + i * size;
        if (a / 64 != (a + size - 1) / 64) return 0;
    }
    return 1;
}

/* The records the packet model reads on every hop start on a cache line, so
 * that each costs one line (a plain calloc put every other port across two).
 * Large blocks are mapped, and a mapped calloc starts 16 bytes into a line:
 * a child process maps every block of a page or more (glibc's mallopt), so
 * that an unaligned array shows whatever its size, and the change of the
 * allocator's threshold ends with the child. Under ASan, whose allocator
 * ignores mallopt, the checks hold but prove less. The child's exit status
 * has bit k set when array k (below) fails its check. */
static int hot_records_misaligned(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 4096);
#endif
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, "load = 0.5\n[topology]\ntype = rlft\nk = 12\nstages = 3\n[time]\nwarmup = 1us\nmeasure = 1us\n",
               (const char *[]){ "cc.mode=iba", NULL });
    if (sim_run(&s) != 0) return 0x80;
    const void *arrays[] = { s.pkt, s.port, s.sw, s.vq, s.nic, s.tp ? (void *)s.tp->node : NULL };
    int bad = 0;
    for (int k = 0; k < 6; k++) bad |= (!arrays[k] || (uintptr_t)arrays[k] % 64 != 0) << k;
    bad |= !one_line_each(s.pkt, s.npkt_cap, sizeof *s.pkt) << 0;
    bad |= !one_line_each(s.port, s.nports, sizeof *s.port) << 1;
    bad |= !one_line_each(s.sw, s.nswitches, sizeof *s.sw) << 2;
    sim_free(&s);
    cfg_free(&c);
    return bad;
}

TEST(topology_hot_records_each_take_one_cache_line)
{
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) _exit(hot_records_misaligned());
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "the child did not finish");
    int bad = WEXITSTATUS(st);
    static const char *names[] = { "packets", "ports", "switches", "VC queues", "NICs", "transport nodes" };
    CHECK(!(bad & 0x80), "the run failed");
    for (int k = 0; k < 6; k++) CHECK(!(bad >> k & 1), "the %s do not start on a cache line (or one crosses two)", names[k]);
}
