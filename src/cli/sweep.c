/* Sweeps: the cartesian product of swept -s values, run on local worker
 * processes or, in an MPI build started by mpirun, on the ranks of the MPI
 * job (src/mpi/). Each point writes into <out>/points/NNNN/; a point whose
 * directory already holds results for the same effective configuration is
 * skipped, so an interrupted sweep resumes where it stopped. The merged
 * summary.csv lists points in sweep order, whatever ran them. */
#include "run.h"
#include "sweep.h"
#include "../core/util.h"
#include "../stats/plot.h"
#include "../stats/outfile.h"
#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct dim { int key; char **vals; int n; } dim_t;

static int range_parts(const char *v, double x[3], char suffix[3][16])
{
    const char *p = v;
    for (int i = 0; i < 3; i++) {
        char *end;
        x[i] = strtod(p, &end);
        if (end == p || !isfinite(x[i])) return 0;
        size_t n = strcspn(end, ":");
        if (n >= 16) return 0;
        memcpy(suffix[i], end, n);
        suffix[i][n] = 0;
        p = end + n;
        if (i < 2) { if (*p != ':') return 0; p++; }
    }
    return *p == 0;
}

int is_sweep_value(const char *key, const char *value)
{
    int k = key_lookup(key);
    if (k < 0 || icn_keys[k].type == KT_LIST || icn_keys[k].type == KT_STR) return 0;
    double x[3];
    char sfx[3][16];
    return strchr(value, ',') != NULL || range_parts(value, x, sfx);
}

static _Noreturn void bad_sweep(const char *arg, const char *why)
{
    fprintf(stderr, "icnsim: -s %s: %s\n", arg, why);
    exit(EXIT_CONFIG);
}

static void expand(const char *arg, dim_t *d)
{
    const char *eq = strchr(arg, '=');
    if (!eq) bad_sweep(arg, "expected key=value");
    char key[256], val[4096];
    snprintf(key, sizeof key, "%.*s", (int)(eq - arg), arg);
    d->key = key_lookup(cfg_trim(key));   /* blanks around the key and value, as icnsim run allows them */
    if (d->key < 0) bad_sweep(arg, "unknown key (see docs/CONFIG.md or `icnsim keys`)");
    if (strlen(eq + 1) >= sizeof val) bad_sweep(arg, "value too long");
    snprintf(val, sizeof val, "%s", eq + 1);
    const char *v = cfg_trim(val);
    d->n = 0;
    d->vals = NULL;
    double x[3];
    char sfx[3][16];
    if (is_sweep_value(icn_keys[d->key].name, v) && !strchr(v, ',')) {
        range_parts(v, x, sfx);
        if (strcmp(sfx[0], sfx[1]) || strcmp(sfx[0], sfx[2])) bad_sweep(arg, "start, step and end of a range need the same unit");
        if (!(x[1] > 0)) bad_sweep(arg, "the step of a range must be positive");
        if (x[2] < x[0]) bad_sweep(arg, "the end of a range must not be below its start");
        double cnt = floor((x[2] - x[0]) / x[1] + 1e-9) + 1;
        if (cnt > 100000) bad_sweep(arg, "range has more than 100000 values");
        d->vals = xmalloc((size_t)cnt * sizeof *d->vals);
        for (int i = 0; i < (int)cnt; i++) {
            /* an integer in full (a seed, a time in ps: exact to 2^53), anything
             * else to 15 digits, without binary noise (0.1 + 2 x 0.1 is 0.3) */
            char buf[64];
            double xv = x[0] + i * x[1];
            if (xv == floor(xv) && fabs(xv) < 9007199254740992.0) snprintf(buf, sizeof buf, "%.0f%s", xv, sfx[0]);
            else snprintf(buf, sizeof buf, "%.15g%s", xv, sfx[0]);
            d->vals[d->n++] = xstrdup(buf);
        }
        return;
    }
    char *dup = xstrdup(v);
    int commas = 0;
    for (const char *p = v; *p; p++) commas += *p == ',';
    int multi = is_sweep_value(icn_keys[d->key].name, v);
    d->vals = xmalloc((size_t)(commas + 1) * sizeof *d->vals);
    if (!multi) d->vals[d->n++] = xstrdup(v);
    else
        for (char *t = dup, *next; t; t = next) {
            next = strchr(t, ',');
            if (next) *next++ = 0;
            t = cfg_trim(t);
            if (!*t) bad_sweep(arg, "an empty value in the list");   /* "0.1,,0.2" or "0.1,": a typo, not a point */
            for (int i = 0; i < d->n; i++)   /* the same point twice: a typo, and two runs of one result */
                if (!strcmp(d->vals[i], t)) bad_sweep(arg, "a value given twice in the list");
            d->vals[d->n++] = xstrdup(t);
        }
    free(dup);
}

/* Split one CSV line into fields (quotes handled); returns the field count. */
static int csv_split(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        if (*p == '"') {
            char *w = ++p;
            f[n++] = w;
            for (; *p; p++) {
                if (*p == '"' && p[1] == '"') { *w++ = '"'; p++; }
                else if (*p == '"') { p++; break; }
                else *w++ = *p;
            }
            *w = 0;
            if (*p == ',') p++;
            else break;
        } else {
            f[n++] = p;
            p += strcspn(p, ",\n");
            if (*p == ',') *p++ = 0;
            else { *p = 0; break; }
        }
    }
    return n;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *b = xmalloc(cap);
    for (size_t r; (r = fread(b + n, 1, cap - n - 1, f)) > 0;) { n += r; if (cap - n < 2) b = xrealloc(b, cap *= 2); }
    fclose(f);
    b[n] = 0;
    return b;
}

static void csv_put(FILE *f, const char *v)
{
    if (!strpbrk(v, ",\"\n")) { fputs(v, f); return; }
    fputc('"', f);
    for (; *v; v++) {
        if (*v == '"') fputc('"', f);
        fputc(*v, f);
    }
    fputc('"', f);
}

/* A point's summary row in the columns of `cur` (this version's header):
 * a point computed by an earlier version may lack a key added since; it ran
 * with that key's default. Returns a malloc'd line ending in a newline. */
static char *realign_row(char *txt, char **cur, int ncur)
{
    char *nl = strchr(txt, '\n'), *row = nl + 1;
    *nl = 0;
    if (nl > txt && nl[-1] == '\r') nl[-1] = 0;
    row[strcspn(row, "\r\n")] = 0;
    char *names[K__COUNT + 80], *vals[K__COUNT + 80];
    int nn = csv_split(txt, names, K__COUNT + 80), nv = csv_split(row, vals, K__COUNT + 80);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    for (int j = 0; j < ncur; j++) {
        int i = 0;
        while (i < nn && strcmp(names[i], cur[j])) i++;
        if (j) fputc(',', f);
        if (i < nn && i < nv) csv_put(f, vals[i]);
        else if (j >= 1 && j <= K__COUNT) csv_put(f, icn_keys[j - 1].def);
    }
    fputc('\n', f);
    fclose(f);
    return buf;
}

/* Keys that say where results go and whether images are drawn, not what is
 * simulated: a sweep moved, or resumed with another output.plots, is the same. */
static int output_only(key_id k) { return k == K_OUT_DIR || k == K_OUT_PLOTS; }

/* Whether a point computed earlier (its config.ini, `old`) ran the same
 * configuration as c. Keys are compared one by one, so that a key added by a
 * later version of icnsim, absent from old and left at its default (which by
 * convention keeps the old behaviour), does not force a recomputation; a key
 * old has and this version does not know does. The first difference goes
 * into why (n bytes). */
static int same_config(const char *old, const cfg_t *c, char *why, size_t n)
{
    /* The configuration's name (the file, or the embedded default) is a
     * result (summary.csv's run column), and it tells an ini file's points
     * from the embedded default's, whose keys left unset below are exempt. */
    const char *q = strstr(old, "effective configuration of run '");
    if (q) {
        q += strlen("effective configuration of run '");
        size_t len = strcspn(q, "'");
        if (len != strlen(c->name) || strncmp(q, c->name, len)) {
            snprintf(why, n, "configuration '%.*s' there, '%s' in this sweep", (int)(len < 100 ? len : 100), q, c->name);
            return 0;
        }
    }
    int seen[K__COUNT] = { 0 }, same = 1;
    char sect[64] = "", *line = NULL;
    for (const char *p = old; same && *p;) {
        size_t len = strcspn(p, "\n");
        free(line);
        line = xmalloc(len + 1);   /* a value has no length limit (views.pairs can be long) */
        memcpy(line, p, len);
        line[len] = 0;
        p += len + (p[len] == '\n');
        if (!line[0] || line[0] == '#') continue;
        if (line[0] == '[') {
            snprintf(sect, sizeof sect, "%.*s", (int)strcspn(line + 1, "]"), line + 1);
            continue;
        }
        char *eq = strstr(line, " = ");
        if (!eq) { snprintf(why, n, "a line this icnsim does not write: '%.80s'", line); same = 0; break; }
        *eq = 0;
        char name[200];
        snprintf(name, sizeof name, "%s%s%s", sect, sect[0] ? "." : "", line);
        int k = 0;
        while (k < K__COUNT && strcmp(icn_keys[k].name, name)) k++;
        if (k == K__COUNT) { snprintf(why, n, "%s, a key this icnsim does not know", name); same = 0; break; }
        seen[k] = 1;
        if (output_only((key_id)k)) continue;
        if (strcmp(c->val[k].text, eq + 3)) {
            snprintf(why, n, "%s = %.100s there, %.100s in this sweep", name, eq + 3, c->val[k].text);
            same = 0;
            break;
        }
    }
    free(line);
    if (!same) return 0;
    /* unset there: at its default, or an embedded default's value that set-up
     * left unset (cfg_from_embedded), which the other keys decide */
    for (int k = 0; k < K__COUNT; k++)
        if (!seen[k] && !output_only((key_id)k) && strcmp(c->val[k].text, icn_keys[k].def) && !cfg_from_embedded(c, (key_id)k)) {
            snprintf(why, n, "%s = %.100s (its default) there, %.100s in this sweep", icn_keys[k].name, icn_keys[k].def, c->val[k].text);
            return 0;
        }
    return 1;
}

/* A point is complete (POINT_DONE) when its marker, written last, holds the
 * digests of the config.ini and summary.csv now on disk, and of the input
 * files that its configuration c names; POINT_RAN when it holds those of its
 * own two files only (it finished, with other input files or other contents
 * of them). Anything else (a cut, damaged or older file, a crash between two
 * writes) is POINT_CUT: the point runs again. */
enum { POINT_CUT, POINT_RAN, POINT_DONE };
static int point_state(const char *dir, const cfg_t *c)
{
    char path[4200], want[POINT_MARKER_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, POINT_MARKER);
    char *mark = slurp(path);
    if (!mark) return POINT_CUT;
    point_marker_text(dir, c, want, sizeof want);
    size_t own = 0;   /* the marker's first three lines: its title and its own files' digests */
    for (int i = 0; i < 3 && want[own]; i++) own += strcspn(want + own, "\n") + 1;
    int st = !strcmp(mark, want) ? POINT_DONE : !strncmp(mark, want, own) ? POINT_RAN : POINT_CUT;
    free(mark);
    return st;
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void free_dims(dim_t *dims, int ndims)
{
    for (int d = 0; d < ndims; d++) {
        for (int v = 0; v < dims[d].n; v++) free(dims[d].vals[v]);
        free(dims[d].vals);
    }
    free(dims);
}

struct sweep {
    cfg_t *base;
    dim_t *dims;
    int ndims;
    long npoints;
    const char *outdir;
    long done, ran, skipped;  /* points finished (reused and other shards' too), computed, reused */
    int failed;               /* the sweep's exit status once a point failed */
    int tty;                  /* progress line on stderr */
    double t0;
};

static void point_dir(const sweep_t *sw, long pt, char *buf, size_t n)
{
    snprintf(buf, n, "%s/points/%04ld", sw->outdir, pt);
}

/* Point pt's configuration: the base with one value of each swept key, the
 * last key varying fastest. */
static void point_config(const sweep_t *sw, long pt, cfg_t *c)
{
    cfg_copy(c, sw->base);
    long rem = pt;
    for (int d = sw->ndims - 1; d >= 0; d--) {
        const dim_t *dm = &sw->dims[d];
        char origin[300];
        int vi = (int)(rem % dm->n);
        rem /= dm->n;
        snprintf(origin, sizeof origin, "-s %s=%s", icn_keys[dm->key].name, dm->vals[vi]);
        cfg_set(c, (key_id)dm->key, dm->vals[vi], origin, 0);
    }
}

int sweep_run_point(const sweep_t *sw, long pt)
{
    cfg_t c;
    char dir[4096];
    point_config(sw, pt, &c);
    point_dir(sw, pt, dir, sizeof dir);
    int rc = run_one(&c, dir, RUN_POINT, NULL);
    cfg_free(&c);
    fflush(NULL);
    return rc;
}

int sweep_point_done(sweep_t *sw, long pt, int rc, int sig)
{
    char dir[4096];
    point_dir(sw, pt, dir, sizeof dir);
    sw->done++;
    sw->ran++;
    if (sig) {
        fprintf(stderr, "icnsim: sweep point %ld (%s) was killed by signal %d (%s)\n", pt, dir, sig, strsignal(sig));
        sw->failed = EXIT_INTERNAL;
    } else if (rc != 0 && rc != EXIT_DEADLOCK) {
        fprintf(stderr, "icnsim: sweep point %ld (%s) failed with status %d (its error is above)\n", pt, dir, rc);
        if (sw->failed != EXIT_INTERNAL) sw->failed = rc == EXIT_CONFIG ? EXIT_CONFIG : EXIT_INTERNAL;
    }
    if (sw->tty) {
        double el = wall() - sw->t0;
        double eta = el / (double)sw->ran * (double)(sw->npoints - sw->done);
        fprintf(stderr, "\r  sweep: %ld/%ld points done (%ld reused), %.0f s elapsed, ETA %.0f s   ", sw->done, sw->npoints,
                sw->skipped, el, eta);
    }
    return sw->failed != 0;
}

/* The points todo[0..n) on up to `jobs` forked worker processes. */
static void run_local(sweep_t *sw, const long *todo, long n, int jobs)
{
    pid_t parent = getpid();
    pid_t *pids = xcalloc((size_t)jobs, sizeof *pids);
    long *slot_point = xcalloc((size_t)jobs, sizeof *slot_point);
    long next = 0;
    int running = 0;
    while (next < n || running) {
        while (running < jobs && next < n && !sw->failed) {
            long pt = todo[next++];
            fflush(NULL);
            pid_t pid = fork();
            if (pid < 0) die("fork failed");
            if (pid == 0) {
                /* A worker must not outlive the sweep: it would finish a point
                 * that an immediate rerun computes again. */
                prctl(PR_SET_PDEATHSIG, SIGTERM);
                if (getppid() != parent) _exit(EXIT_INTERNAL);
                _exit(sweep_run_point(sw, pt));
            }
            for (int j = 0; j < jobs; j++) if (!pids[j]) { pids[j] = pid; slot_point[j] = pt; break; }
            running++;
        }
        if (!running) break;
        int ws;
        pid_t pid = wait(&ws);
        if (pid < 0) die("wait failed");
        for (int j = 0; j < jobs; j++) {
            if (pids[j] != pid) continue;
            pids[j] = 0;
            running--;
            sweep_point_done(sw, slot_point[j], WIFEXITED(ws) ? WEXITSTATUS(ws) : EXIT_INTERNAL,
                             WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
        }
    }
    free(pids);
    free(slot_point);
}

/* The highest point number among the directories in outdir/points (-1: none). */
static long last_point_dir(const char *outdir, char *name, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/points", outdir);
    DIR *d = opendir(path);
    long last = -1;
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));) {
        char *end;
        long pt = strtol(e->d_name, &end, 10);
        if (end == e->d_name || *end || pt <= last) continue;
        last = pt;
        snprintf(name, n, "%s/%s", path, e->d_name);
    }
    closedir(d);
    return last;
}

static int refuse(const char *outdir, const char *what)
{
    fprintf(stderr, "icnsim: %s %s; nothing was changed: sweep into another directory (-o DIR), or delete %s to start "
                    "this sweep there\n", outdir, what, outdir);
    return EXIT_CONFIG;
}

/* Which points this run computes: those of its shard without a complete
 * point, into todo (*n of them). A directory belongs to one sweep: if it
 * holds a complete point whose configuration is not this sweep's, a point
 * beyond this sweep's last, or a single run's results, reusing it would mix
 * two experiments in one summary and recomputing would destroy results, so
 * the sweep is refused (status 2) before anything is written. Incomplete or
 * damaged points prove nothing and are recomputed. */
static int plan(sweep_t *sw, long shard, long nshards, long *todo, long *n)
{
    char path[4200], why[600], what[9000];
    snprintf(path, sizeof path, "%s/config.ini", sw->outdir);
    if (access(path, F_OK) == 0) {
        snprintf(what, sizeof what, "holds the results of a single run (%s), not a sweep", path);
        return refuse(sw->outdir, what);
    }
    if (last_point_dir(sw->outdir, path, sizeof path) >= sw->npoints) {
        snprintf(what, sizeof what, "holds a larger sweep: %s is beyond this sweep's %ld points", path, sw->npoints);
        return refuse(sw->outdir, what);
    }
    *n = 0;
    for (long pt = 0; pt < sw->npoints; pt++) {
        int mine = !nshards || pt % nshards == shard;
        char dir[4096];
        point_dir(sw, pt, dir, sizeof dir);
        cfg_t c;
        point_config(sw, pt, &c);
        /* A point that ran to its end with another configuration refuses the
         * directory, whatever its input files; one of this configuration runs
         * again unless complete (its inputs unchanged too), and so does a cut one. */
        int st = point_state(dir, &c), same = 1;
        if (st != POINT_CUT) {
            snprintf(path, sizeof path, "%s/config.ini", dir);
            char *old = slurp(path);
            same = !old || same_config(old, &c, why, sizeof why);
            if (!old) st = POINT_CUT;   /* removed since its marker was read */
            free(old);
        }
        int done = st == POINT_DONE;
        cfg_free(&c);
        if (!same) {
            snprintf(what, sizeof what, "holds another sweep: its point %s ran with %s", dir, why);
            return refuse(sw->outdir, what);
        }
        if (mine && !done) todo[(*n)++] = pt;
        else if (mine) sw->skipped++;
    }
    sw->done = sw->npoints - *n;
    return 0;
}

/* Every point complete: DIR/summary.csv, one row per point in sweep order,
 * the table on stdout, and the plot. Returns 3 if a point deadlocked. */
static int merge(sweep_t *sw, int quiet)
{
    const char *outdir = sw->outdir;
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.csv", outdir);
    outfile_t of;
    FILE *out = out_open(&of, path, NULL);
    summary_header(out);
    char *hdr = NULL, *cur[K__COUNT + 80];
    size_t hlen = 0;
    FILE *hf = open_memstream(&hdr, &hlen);
    summary_header(hf);
    fclose(hf);
    char *hdr_split = xstrdup(hdr);
    hdr_split[strcspn(hdr_split, "\n")] = 0;
    int ncur = csv_split(hdr_split, cur, K__COUNT + 80);
    int any_deadlock = 0;
    if (!quiet) {
        printf("icnsim sweep '%s': %ld points (%ld reused from an earlier run), results in %s/\n\n  ", sw->base->name, sw->npoints,
               sw->skipped, outdir);
        for (int d = 0; d < sw->ndims; d++) printf("%-22s ", icn_keys[sw->dims[d].key].name);
        printf("%10s %10s %12s %12s %12s %9s\n", "accepted", "offered", "lat_mean_ns", "net_mean_ns", "net_p99_ns", "status");
    }
    for (long pt = 0; pt < sw->npoints; pt++) {
        char dir[4096], p2[4200];
        point_dir(sw, pt, dir, sizeof dir);
        snprintf(p2, sizeof p2, "%s/summary.csv", dir);
        char *txt = slurp(p2);
        char *line = txt ? strchr(txt, '\n') : NULL;
        cfg_t c;
        point_config(sw, pt, &c);
        int complete = point_state(dir, &c) == POINT_DONE;
        cfg_free(&c);
        if (!line || !line[1] || !complete) {
            fprintf(stderr, "icnsim: %s: results of point %ld changed while the sweep ran; run the sweep again\n", p2, pt);
            out_discard(&of);
            exit(EXIT_INTERNAL);
        }
        line++;
        if ((size_t)(line - txt) != hlen || strncmp(txt, hdr, hlen)) {   /* written by another version */
            char *row = realign_row(txt, cur, ncur);
            free(txt);
            txt = line = row;
        }
        fputs(line, out);
        char *f[K__COUNT + 40];
        int nf = csv_split(line, f, K__COUNT + 40);
        int m = 1 + K__COUNT;    /* first metric column */
        if (nf < m + 10) {
            fprintf(stderr, "icnsim: %s: a summary row with %d fields, fewer than a result has; delete the point to recompute it\n", p2, nf);
            out_discard(&of);
            exit(EXIT_INTERNAL);
        }
        if (!strcmp(f[m], "deadlock") || !strcmp(f[m], "unfinished")) any_deadlock = 1;   /* as the run's exit status 3 */
        if (!quiet) {
            printf("  ");
            for (int d = 0; d < sw->ndims; d++) printf("%-22s ", f[1 + sw->dims[d].key]);
            printf("%10s %10s %12s %12s %12s %9s\n", f[m + 1], f[m + 2], f[m + 6], f[m + 10], f[m + 12],
                   nf > m + 26 && !strcmp(f[m + 26], "1") && !strcmp(f[m], "ok") ? "unstable" : f[m]);
        }
        free(txt);
    }
    free(hdr);
    free(hdr_split);
    out_close(&of);
    /* a plot against the first swept key, if its values are plain numbers */
    const dim_t *dims = sw->dims;
    int numeric = sw->ndims >= 1 && sw->ndims <= 2;
    for (int v = 0; numeric && v < dims[0].n; v++) {
        char *end;
        strtod(dims[0].vals[v], &end);
        numeric = end != dims[0].vals[v] && !*end;
    }
    if (numeric) {
        int m = 2 + K__COUNT;   /* 1-based column of the first metric (status) */
        int two = sw->ndims == 2;
        plot_sweep(outdir, sw->base->name, 2 + dims[0].key, icn_keys[dims[0].key].name, two ? icn_keys[dims[1].key].name : "",
                   two ? dims[1].vals : NULL, two ? dims[1].n : 0, m + 1, m + 10, m + 26, plot_wanted(sw->base));
    }
    return any_deadlock ? EXIT_DEADLOCK : EXIT_OK;
}

long mpi_job_size(const char **var)
{
    static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        char *end;
        long n = v ? strtol(v, &end, 10) : 0;
        if (v && *v && !*end && n >= 1) { *var = vars[i]; return n; }
    }
    *var = NULL;
    return 1;
}

int run_sweep(cfg_t *base, char **sets, int nsets, const char *outdir, int jobs, int quiet, long shard, long nshards)
{
    dim_t *dims = xcalloc((size_t)nsets + 1, sizeof *dims);
    int ndims = 0;
    long npoints = 1;
    for (int i = 0; i < nsets; i++) {
        dim_t d;
        expand(sets[i], &d);
        char origin[300];
        snprintf(origin, sizeof origin, "-s %s", sets[i]);
        for (int v = 0; v < d.n; v++) {            /* validate every value now */
            cfg_t tmp;
            cfg_copy(&tmp, base);
            cfg_set(&tmp, (key_id)d.key, d.vals[v], origin, 0);
            cfg_free(&tmp);
        }
        if (d.n == 1) {
            cfg_set(base, (key_id)d.key, d.vals[0], origin, 0);
            free(d.vals[0]);
            free(d.vals);
            continue;
        }
        dims[ndims++] = d;
        npoints *= d.n;
        if (npoints > 1000000) bad_sweep(sets[i], "sweep has more than a million points");
    }
    sweep_t sw = { .base = base, .dims = dims, .ndims = ndims, .npoints = npoints, .outdir = outdir,
                   .tty = !quiet && isatty(2), .t0 = wall() };
    long *todo = xmalloc((size_t)npoints * sizeof *todo), ntodo = 0;
    int rank = 0, rc = 0;
#ifdef ICN_MPI
    const char *var;
    int mpi = mpi_job_size(&var) > 1, size = 1;
    if (mpi) rank = mpi_begin(&size);
#endif
    if (rank == 0) {
        rc = plan(&sw, shard, nshards, todo, &ntodo);
        if (!rc) make_dirs(outdir);
    }
#ifdef ICN_MPI
    if (mpi) {
        mpi_run_points(&sw, todo, rc ? 0 : ntodo);   /* a refused directory: every rank is told to stop */
        mpi_end();
    } else
#endif
    if (!rc) run_local(&sw, todo, ntodo, jobs);
    free(todo);
    if (rank || rc) { free_dims(dims, ndims); return rc; }
    if (sw.tty && sw.ran) fputc('\n', stderr);
    if (sw.failed) {
        fprintf(stderr, "icnsim: sweep stopped: a point failed; the points completed so far are kept and a rerun resumes\n");
        exit(sw.failed);
    }
    if (nshards) {   /* the points of this shard are complete; a sweep without --shard merges them all */
        if (!quiet)
            printf("icnsim sweep '%s': shard %ld/%ld: %ld of %ld points (%ld reused), results in %s/points/; run the same "
                   "sweep without --shard to merge\n", base->name, shard, nshards, npoints / nshards + (shard < npoints % nshards),
                   npoints, sw.skipped, outdir);
    } else
        rc = merge(&sw, quiet);
    free_dims(dims, ndims);
    return rc;
}
