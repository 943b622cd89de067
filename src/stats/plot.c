#include "plot.h"
#include "../core/util.h"
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int gnuplot_on_path(void)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    char *dup = xstrdup(path), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(dup, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char full[4096];
        snprintf(full, sizeof full, "%s/gnuplot", d);
        found = access(full, X_OK) == 0;
    }
    free(dup);
    return found;
}

int plot_wanted(cfg_t *c)
{
    const char *v = cfg_str(c, K_OUT_PLOTS);
    if (!strcmp(v, "no")) return 0;
    int have = gnuplot_on_path();
    if (!strcmp(v, "yes")) {
        if (!have) cfg_fail(c, K_OUT_PLOTS, "gnuplot is not on the PATH (Debian: apt-get install gnuplot-nox), or use auto/no");
        return 1;
    }
    if (strcmp(v, "auto")) cfg_fail(c, K_OUT_PLOTS, "must be auto, yes or no");
    return have;
}

/* Copy the text of file path to stderr, indented. */
static void relay(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) fprintf(stderr, "  %s%s", line, strchr(line, '\n') ? "" : "\n");
    fclose(f);
}

/* Run gnuplot on script in dir; a failure is reported but does not fail the
 * run. gnuplot's own messages go to a file beside the script: shown with a
 * failure, dropped otherwise (its warnings about degenerate plots, e.g. a
 * series of one sample, are not the user's concern, and -q means quiet). */
static void render(const char *dir, const char *script)
{
    /* the image is the script's name with .png (every script sets its output so) */
    char png[256];
    const char *dot = strrchr(script, '.');
    snprintf(png, sizeof png, "%.*s.png", (int)(dot ? dot - script : (long)strlen(script)), script);
    out_list_add(dir, png);
    char errname[300], errpath[4600];   /* gnuplot's stderr, relative to dir (the child's working directory) */
    snprintf(errname, sizeof errname, ".%s.log", script);
    snprintf(errpath, sizeof errpath, "%s/%s", dir, errname);
    pid_t pid;
    char *argv[] = { "gnuplot", (char *)script, NULL };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addchdir_np(&fa, dir);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, errname, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int st = 0;
    if (rc || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
        fprintf(stderr, "icnsim: warning: gnuplot failed on %s/%s; the CSV files are complete\n", dir, script);
        relay(errpath);
        char path[4600];   /* no empty or cut image left to mislead */
        snprintf(path, sizeof path, "%s/%s", dir, png);
        unlink(path);
    }
    unlink(errpath);
}

FILE *plot_open(outfile_t *o, const char *dir, const char *name)
{
    return out_open(o, dir, name);
}

/* gnuplot string literal: single quotes, '' for a quote. */
void plot_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) { if (*s == '\'') fputc('\'', f); fputc(*s, f); }
    fputc('\'', f);
}

void plot_render(const char *dir, const char *script, int do_render)
{
    if (do_render) render(dir, script);
}

void plot_timeseries(const char *dir, const char *title, double warmup_us, int do_render)
{
    outfile_t o;
    FILE *f = plot_open(&o, dir, "timeseries.gp");
    fputs("# icnsim: throughput, packets in the network and latency versus time.\n"
          "# Render with: gnuplot timeseries.gp  (in this directory)\n"
          "set datafile separator ','\n"
          "set terminal pngcairo size 1000,760 noenhanced\n"
          "set output 'timeseries.png'\n", f);
    fputs("set multiplot layout 2,1 title ", f);
    plot_str(f, title);
    fputs("\nset grid\nset xlabel 'time (us)'\nset ylabel 'normalized throughput'\nset yrange [0:*]\n", f);
    fprintf(f, "set arrow 1 from %.3f, graph 0 to %.3f, graph 1 nohead dashtype 2\n", warmup_us, warmup_us);
    fprintf(f, "set label 1 'end of warm-up' at %.3f, graph 0.95 offset 1,0\n", warmup_us);
    fputs("plot 'timeseries.csv' skip 1 using (($1+$2)/2):3 with lines lw 2 title 'accepted', \\\n"
          "     '' skip 1 using (($1+$2)/2):4 with lines dashtype 3 title 'offered'\n"
          "set ylabel 'packets in the network'\nset y2label 'mean latency of delivered packets (ns)'\n"
          "set ytics nomirror\nset y2tics\nset y2range [0:*]\n"
          "plot 'timeseries.csv' skip 1 using 2:8 with lines lw 2 title 'in the network', \\\n"
          "     '' skip 1 using (($1+$2)/2):9 axes x1y2 with lines title 'mean latency'\n"
          "unset multiplot\n", f);
    out_close(&o);
    if (do_render) render(dir, "timeseries.gp");
}

void plot_sweep(const char *dir, const char *title, int x_col, const char *x_name,
                const char *series_name, char *const *series_vals, int nseries,
                int acc_col, int net_col, int unstable_col, int do_render)
{
    outfile_t o;
    FILE *f = plot_open(&o, dir, "sweep.gp");
    fputs("# icnsim: accepted throughput and network latency against the swept key.\n"
          "# Render with: gnuplot sweep.gp  (in this directory)\n"
          "set datafile separator ','\n"
          "set terminal pngcairo size 1000,760 noenhanced\n"
          "set output 'sweep.png'\n", f);
    fputs("set multiplot layout 2,1 title ", f);
    plot_str(f, title);
    fputs("\nset grid\nset key outside right\nset xlabel ", f);
    plot_str(f, x_name);
    fputs("\n", f);
    for (int panel = 0; panel < 2; panel++) {
        int col = panel ? net_col : acc_col;
        fprintf(f, "set ylabel '%s'\nset yrange [0:*]\nplot ", panel ? "mean network latency (ns)" : "accepted throughput (normalized)");
        if (!nseries) fprintf(f, "'summary.csv' skip 1 using %d:%d with linespoints lw 2 notitle", x_col, col);
        for (int k = 0; k < nseries; k++) {
            /* rows of series k: k, k + nseries, k + 2 nseries, ... */
            char t[512];
            snprintf(t, sizeof t, "%s = %s", series_name, series_vals[k]);
            fprintf(f, "%s'summary.csv' skip 1 every %d::%d using %d:%d with linespoints lw 2 title ",
                    k ? ", \\\n     " : "", nseries, k, x_col, col);
            plot_str(f, t);
        }
        /* unstable points (past saturation) circled, so saturation reads the same on every plot */
        fprintf(f, ", \\\n     'summary.csv' skip 1 using %d:($%d > 0 ? $%d : 1/0) with points pt 6 ps 2.5 lc rgb 'red' "
                "title 'unstable'\n", x_col, unstable_col, col);
    }
    fputs("unset multiplot\n", f);
    out_close(&o);
    if (do_render) render(dir, "sweep.gp");
}
