#include "run.h"
#include "../core/sim.h"
#include "../core/util.h"
#include "../stats/plot.h"
#include "../stats/views.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char default_ini[] =
    "# Embedded default: seed 002's HS10-1 scenario on a 432-node RLFT\n"
    "# (3 stages of 12-port switches), D-mod-K routing, one VC.\n"
    "load = 1.0\n"
    "[time]\nwarmup = 100us\nmeasure = 200us\ninterval = 10us\n"
    "[topology]\ntype = rlft\nk = 6\nstages = 3\n"
    "[link]\nbandwidth = 100Gbps\ndelay = 6ns\n"
    "[switch]\nbuffer = 192KB\nvcs = 1\narbiter = islip\n"
    "[routing]\nalgorithm = dmodk\n"
    "[queuing]\nscheme = 1q\n"
    "[traffic]\npattern = uniform\nscenario = hs10-1\n";

void make_dirs(const char *path)
{
    char *p = xstrdup(path);
    for (char *q = p + 1; *q; q++) {
        if (*q != '/') continue;
        *q = 0;
        if (mkdir(p, 0777) && errno != EEXIST) { perror(p); exit(EXIT_INTERNAL); }
        *q = '/';
    }
    if (mkdir(p, 0777) && errno != EEXIST) { perror(p); exit(EXIT_INTERNAL); }
    free(p);
}

static char *join(const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", dir, file);
    return p;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int run_one(cfg_t *c, const char *dir, int flags, result_t *out)
{
    sim_t s;
    double t0 = wall_now();
    int ts = (int)cfg_int(c, K_OUT_TIMESERIES);
    int plots = plot_wanted(c);
    if ((flags & RUN_POINT) && strcmp(c->val[K_OUT_PLOTS].text, "yes")) plots = 0;   /* scripts only */
    cfg_str(c, K_OUT_DIR);
    sim_setup(&s, c);
    s.progress_tty = (flags & RUN_PROGRESS) != 0;
    int rc = sim_run(&s);
    s.st.wall_seconds = wall_now() - t0;
    s.st.peak_rss_kb = peak_rss_kb();
    result_t r;
    result_compute(&s, &r);
    make_dirs(dir);
    char *p = join(dir, "config.ini");
    FILE *f = fopen(p, "w");
    if (!f) { perror(p); exit(EXIT_INTERNAL); }
    cfg_write(c, f);
    fclose(f);
    free(p);
    if (ts) {
        p = join(dir, "timeseries.csv");
        write_timeseries(&s, p);
        free(p);
        plot_timeseries(dir, c->name, (double)s.warmup / 1e6, plots);
    }
    views_write(&s, dir, c->name, plots);
    p = join(dir, "nodes.csv"); write_nodes(&s, p); free(p);
    p = join(dir, "perf.csv"); write_perf(&s, p); free(p);
    p = join(dir, "summary.csv");
    f = fopen(p, "w");
    if (!f) { perror(p); exit(EXIT_INTERNAL); }
    summary_header(f);
    summary_row(f, c, &r);
    fclose(f);
    free(p);
    if (flags & RUN_VERBOSE) {
        print_summary(stdout, &s, &r);
        printf("  results in %s/\n", dir);
    }
    if (out) *out = r;
    sim_free(&s);
    return rc;
}
