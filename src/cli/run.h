#ifndef ICN_RUN_H
#define ICN_RUN_H
#include "config.h"
#include "../stats/report.h"

/* The configuration used when no file is given (a 432-node RLFT, HS10-1). */
extern const char default_ini[];

enum {
    RUN_VERBOSE = 1,    /* readable summary on stdout */
    RUN_PROGRESS = 2,   /* progress line on stderr */
    RUN_POINT = 4,      /* a sweep point: plots only if output.plots = yes */
    RUN_NO_OUTPUT = 8,  /* a rank other than 0 of a run over MPI ranks: rank 0 writes the results */
};

/* Run one simulation of c, writing its files into dir (created). Returns the
 * exit status (0 or 3); configuration errors exit with status 2. */
int run_one(cfg_t *c, const char *dir, int flags, result_t *out);
/* mkdir -p, then check that path is a writable directory; exits with
 * status 2 naming it otherwise (an empty name included). */
void make_dirs(const char *path);
/* A sweep point is complete only when this file, written after every other,
 * holds the digests of its config.ini and summary.csv, and of the input files
 * its configuration cfg names (a trace, a mapping, a table: an edited one
 * makes the point run again), as point_marker_text gives them. */
#define POINT_MARKER "complete"
enum { POINT_MARKER_MAX = 1024 };
void point_marker_text(const char *dir, const cfg_t *cfg, char *buf, size_t n);
/* Sweep: the cartesian product of the swept -s values. */
/* shard, nshards: run only the points i with i mod nshards = shard, and
 * merge nothing (nshards = 0: every point, then the merged summary). */
int run_sweep(cfg_t *base, char **sets, int nsets, const char *outdir, int jobs, int quiet, long shard, long nshards);
/* Does this -s value ask for a sweep (a:step:b or a list)? */
int is_sweep_value(const char *key, const char *value);

#endif
