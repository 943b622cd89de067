#include "run.h"
#include "../sim/sim.h"
#include "../core/util.h"
#include "../multipath/mp.h"
#include "../workload/workload.h"
#include "../stats/plot.h"
#include "../stats/views.h"
#include "../stats/view_pdes.h"
#include "../stats/outfile.h"
#include "../cc/cc.h"
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

/* mkdir -p; returns 0 or the errno of the step that failed. */
static int mkdirs(const char *path)
{
    char *p = xstrdup(path);
    int err = 0;
    for (char *q = p + 1; *q && !err; q++) {
        if (*q != '/') continue;
        *q = 0;
        if (mkdir(p, 0777) && errno != EEXIST) err = errno;
        *q = '/';
    }
    if (!err && mkdir(p, 0777) && errno != EEXIST) err = errno;
    free(p);
    return err;
}

void make_dirs(const char *path)
{
    struct stat st;
    if (!path[0]) {
        fprintf(stderr, "icnsim: the results directory name is empty (-o or output.dir)\n");
        exit(EXIT_CONFIG);
    }
    int err = mkdirs(path);
    if (!err && stat(path, &st)) err = errno;
    if (!err && !S_ISDIR(st.st_mode)) err = ENOTDIR;
    if (!err && access(path, W_OK | X_OK)) err = errno;
    if (err) {   /* a name that cannot be a directory is a usage error; the rest is I/O */
        fprintf(stderr, "icnsim: results directory '%s': %s\n", path, strerror(err));
        exit(err == ENOTDIR || err == EEXIST || err == ENAMETOOLONG || err == ELOOP ? EXIT_CONFIG : EXIT_INTERNAL);
    }
}

static char *join(const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", dir, file);
    return p;
}

/* Digest of a whole file (0 if it cannot be read). */
static uint64_t file_digest(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    uint64_t h = ICN_HASH_INIT;
    char buf[8192];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) h = hash_bytes(buf, n, h);
    int bad = ferror(f);
    fclose(f);
    return bad ? 0 : h;
}

/* The keys that name an input file: a point's results depend on its
 * contents, which config.ini does not hold. */
static const key_id input_keys[] = { K_WL_TRACE, K_WL_MAP_FILE, K_CC_CCT_FILE, K_IB_NET_FILE, K_IB_LFT_FILE };

/* A line "input KEY DIGEST" for each input file c names (none: empty). */
static void input_digests(const cfg_t *c, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof input_keys / sizeof *input_keys; i++) {
        const cfgval_t *v = &c->val[input_keys[i]];
        if (!v->text[0] || len >= n) continue;
        len += (size_t)snprintf(buf + len, n - len, "input %s %016llx\n", icn_keys[input_keys[i]].name,
                                (unsigned long long)file_digest(v->text));
    }
}

static void marker_text(const char *dir, const char *inputs, char *buf, size_t n)
{
    char *c = join(dir, "config.ini"), *m = join(dir, "summary.csv");
    snprintf(buf, n, "icnsim point complete\nconfig.ini %016llx\nsummary.csv %016llx\n%s",
             (unsigned long long)file_digest(c), (unsigned long long)file_digest(m), inputs);
    free(c);
    free(m);
}

void point_marker_text(const char *dir, const cfg_t *cfg, char *buf, size_t n)
{
    char inputs[POINT_MARKER_MAX / 2];
    input_digests(cfg, inputs, sizeof inputs);
    marker_text(dir, inputs, buf, n);
}

int run_one(cfg_t *c, const char *dir, int flags, result_t *out)
{
    sim_t s;
    double t0 = wall_clock();
    int ts = (int)cfg_int(c, K_OUT_TIMESERIES);
    int plots = plot_wanted(c);
    if ((flags & RUN_POINT) && strcmp(c->val[K_OUT_PLOTS].text, "yes")) plots = 0;   /* scripts only */
    cfg_str(c, K_OUT_DIR);
    char inputs[POINT_MARKER_MAX / 2] = "";   /* the input files as this run reads them */
    if (flags & RUN_POINT) input_digests(c, inputs, sizeof inputs);
    sim_setup(&s, c);
    if (flags & RUN_NO_OUTPUT) {
        int rc = sim_run(&s);
        sim_free(&s);
        return rc;
    }
    make_dirs(dir);   /* before the run: a bad directory must not cost a simulation */
    if (!(flags & RUN_POINT)) {   /* a sweep's results are merged from its points: one run must not replace them */
        char *pts = join(dir, "points");
        struct stat st;
        if (!stat(pts, &st)) {
            fprintf(stderr, "icnsim: results directory '%s' holds a sweep (%s): give the run another -o, or resume "
                    "the sweep with icnsim sweep\n", dir, pts);
            exit(EXIT_CONFIG);
        }
        free(pts);
    }
    out_list_begin(dir);   /* what a run before left here goes */
    char *done = join(dir, POINT_MARKER);
    if (unlink(done) && errno != ENOENT) fail_io(done, errno);   /* the point is incomplete until rewritten */
    s.progress_tty = (flags & RUN_PROGRESS) != 0;
    int rc = sim_run(&s);
    if (rc == EXIT_INTERNAL) { sim_free(&s); free(done); return rc; }   /* reported; no results to trust */
    s.st.wall_seconds = wall_clock() - t0;
    s.st.peak_rss_kb = peak_rss_kb();
    result_t r;
    result_compute(&s, &r);
    outfile_t o;
    FILE *f = out_open(&o, dir, "config.ini");
    cfg_write(c, f);
    out_close(&o);
    char *p;
    if (ts) {
        p = join(dir, "timeseries.csv");
        write_timeseries(&s, p);
        free(p);
        plot_timeseries(dir, c->name, (double)s.warmup / 1e6, plots);
    }
    views_write(&s, dir, c->name, plots);
    pdes_view_write(&s, dir);
    cc_write(&s, dir);
    cc_view_write(&s, dir, c->name, plots);
    mp_write(&s, dir, plots);
    wl_write(&s, dir);
    p = join(dir, "nodes.csv"); write_nodes(&s, p); free(p);
    p = join(dir, "perf.csv"); write_perf(&s, p); free(p);
    f = out_open(&o, dir, "summary.csv");
    summary_header(f);
    summary_row(f, c, &r);
    out_close(&o);
    if (flags & RUN_POINT) {   /* written last: it vouches for the files above */
        char text[POINT_MARKER_MAX];
        out_sync_dir(dir);
        marker_text(dir, inputs, text, sizeof text);
        f = out_open(&o, done, NULL);
        fputs(text, f);
        out_close(&o);
    }
    free(done);
    if (flags & RUN_VERBOSE) {
        print_summary(stdout, &s, &r);
        printf("  results in %s/\n", dir);
    }
    if (out) *out = r;
    sim_free(&s);
    return rc;
}
