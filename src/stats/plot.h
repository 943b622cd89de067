/* Plots: gnuplot scripts written beside the CSV files, rendered to PNG when
 * gnuplot is available (output.plots). gnuplot is optional at build and run
 * time; the scripts let a user render or restyle plots later. */
#ifndef ICN_PLOT_H
#define ICN_PLOT_H
#include "../cli/config.h"
#include "outfile.h"

/* Check output.plots; returns 1 if plots should be rendered. */
int plot_wanted(cfg_t *c);
/* timeseries.gp for a run directory (needs timeseries.csv). */
void plot_timeseries(const char *dir, const char *title, double warmup_us, int render);
/* sweep.gp: metrics against the first swept key (column x_col of
 * summary.csv, 1-based), one curve per value of the second swept key
 * (nseries values, varying fastest in the row order; nseries = 0 if none);
 * points whose unstable_col is 1 circled. */
void plot_sweep(const char *dir, const char *title, int x_col, const char *x_name,
                const char *series_name, char *const *series_vals, int nseries,
                int acc_col, int net_col, int unstable_col, int render);

/* Create dir/name for writing through o (src/stats/outfile.h); finish it
 * with out_close(o). Exits on failure. */
FILE *plot_open(outfile_t *o, const char *dir, const char *name);
/* A gnuplot string literal. */
void plot_str(FILE *f, const char *s);
/* Render script (in dir) with gnuplot if do_render. */
void plot_render(const char *dir, const char *script, int do_render);

#endif
