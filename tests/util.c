#include "util.h"
#include "test.h"
#include "../src/net/policy.h"
#include "../src/topo/cube.h"
#include "../src/core/util.h"
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void tsim_setup(sim_t *s, cfg_t *c, const char *ini, const char *const *sets)
{
    cfg_init(c);
    cfg_load_string(c, ini, "(test)");
    for (int i = 0; sets && sets[i]; i++) cfg_set_arg(c, sets[i], "-s");
    sim_setup(s, c);
}

int tsim_run_checked(const char *ini, const char *const *sets, result_t *r)
{
    sim_t s;
    cfg_t c;
    tsim_setup(&s, &c, ini, sets);
    int rc = sim_run(&s);
    result_compute(&s, r);
    CHECK(sim_check_invariants(&s, 0) == 0, "invariants broken at the end of the run");
    if (rc == 0) {
        int d = sim_drain(&s, 5000000000ull);   /* up to 5 ms */
        CHECK(d == 0, "drain ended with status %d", d);
        CHECK(s.pkt_live == 0, "%u packets still in the network after draining", s.pkt_live);
        CHECK(s.st.inj_pkts == s.st.del_pkts, "injected %llu, delivered %llu",
              (unsigned long long)s.st.inj_pkts, (unsigned long long)s.st.del_pkts);
        CHECK(sim_check_invariants(&s, 1) == 0, "invariants broken after draining");
    }
    sim_free(&s);
    cfg_free(&c);
    return rc;
}

void expect_deadlock(const char *ini, const char *const *sets, int want_deadlock, double min_accepted, const char *label)
{
    if (want_deadlock) {
        sim_t s;
        cfg_t c;
        tsim_setup(&s, &c, ini, sets);
        int rc = sim_run(&s);
        CHECK(rc == 3, "%s: status %d, want a reported deadlock", label, rc);
        CHECK(sim_check_invariants(&s, 0) == 0, "%s: invariants in the deadlocked state", label);
        sim_free(&s);
        cfg_free(&c);
    } else {
        result_t r;
        int rc = tsim_run_checked(ini, sets, &r);
        CHECK(rc == 0, "%s: status %d, want no deadlock", label, rc);
        CHECK(r.accepted > min_accepted, "%s: accepted %.3f under saturation", label, r.accepted);
    }
}

int run_cmd(const char *cmd, char *buf, size_t n)
{
    char full[8192];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    if (!p) return -1;
    size_t len = 0;
    if (buf && n) {
        size_t r;
        while (len + 1 < n && (r = fread(buf + len, 1, n - 1 - len, p)) > 0) len += r;
        buf[len] = 0;
    }
    char sink[4096];
    while (fread(sink, 1, sizeof sink, p) > 0) {}
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

const char *test_tmpdir(char *buf, size_t n, const char *tag)
{
    if (!buf[0]) {
        snprintf(buf, n, "/tmp/icnsim-%s-%d", tag, (int)getpid());
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", buf, buf);
        if (system(cmd)) abort();
    }
    return buf;
}

const char *icnsim_bin(void)
{
    const char *b = getenv("ICNSIM");
    return b ? b : "./icnsim";
}

static unsigned long run_digest(const char *file, const char *const *sets, const char *const *more, int counts)
{
    static char tmp[256];
    char cmd[4096], out[256];
    test_tmpdir(tmp, sizeof tmp, "digest");
    int n = snprintf(cmd, sizeof cmd, "%s run %s -q -o %s/run -s output.plots=no", icnsim_bin(), file, tmp);
    for (size_t k = 0; sets && sets[k]; k++) n += snprintf(cmd + n, sizeof cmd - (size_t)n, " -s %s", sets[k]);
    for (size_t k = 0; more && more[k]; k++) n += snprintf(cmd + n, sizeof cmd - (size_t)n, " -s %s", more[k]);
    snprintf(cmd + n, sizeof cmd - (size_t)n, " && cd %s/run && { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "
             "\"status\") c = i } { o = $c; for (i = c + 1; i <= NF; i++) o = o \",\" $i; print o }' summary.csv; "
             "cat $(ls *.csv | grep -v -e '^perf.csv$' -e '^summary.csv$'); %s } | cksum", tmp,
             counts ? "cut -d, -f2,3 perf.csv;" : "");
    if (run_cmd(cmd, out, sizeof out)) return 0;
    return strtoul(out, NULL, 10);
}

unsigned long cli_results_digest(const char *file, const char *const *sets, const char *const *more)
{
    return run_digest(file, sets, more, 0);
}

unsigned long cli_counts_digest(const char *file, const char *const *sets, const char *const *more)
{
    return run_digest(file, sets, more, 1);
}

int cube_walk(sim_t *s, uint32_t a, uint32_t b, walk_pick_fn pick, void *arg)
{
    const cube_t *q = cube_get(s);
    packet_t p;
    memset(&p, 0, sizeof p);
    p.src = a;
    p.dst = b;
    uint32_t w = a / q->c, in = a % q->c;
    for (int hops = 0;; hops++) {
        cand_t c[MAX_CAND];
        int n = s->routing->route(s, w, in, &p, c);
        const cand_t *go = &c[pick ? pick(s, w, c, n, arg) : 0];
        if (go->out < q->c) return w * q->c + go->out == b ? hops : -1;
        uint32_t peer = s->port[sw_port(s, w, go->out)].peer;
        if (peer == ICN_NIL || hops == 64) return -1;
        p.out = go->out;
        p.vc = go->ovc;
        w = s->port[peer].dev;
        in = s->port[peer].local;
    }
}
