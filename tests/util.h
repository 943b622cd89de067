/* Helpers for tests that run simulations. */
#ifndef ICN_TEST_UTIL_H
#define ICN_TEST_UTIL_H
#include "../src/sim/sim.h"
#include "../src/cli/config.h"
#include "../src/stats/report.h"

/* Build a simulation from INI text plus "key=value" overrides (NULL-ended). */
void tsim_setup(sim_t *s, cfg_t *c, const char *ini, const char *const *sets);
/* Run, check invariants loaded, drain, check the drained invariants; fills r
 * with the results of the measured run. Returns the run status. */
int tsim_run_checked(const char *ini, const char *const *sets, result_t *r);
/* Saturation run that must end in a reported deadlock (want_deadlock) or must
 * not (then also drained and checked, and carrying more than min_accepted). */
void expect_deadlock(const char *ini, const char *const *sets, int want_deadlock, double min_accepted, const char *label);
/* Walk a packet from node a to node b of a k-ary n-cube through its routing,
 * following at every router the candidate pick() chooses (NULL: the first;
 * pick sees every candidate, so it can check them). Returns the hops between
 * routers, or -1 if the walk leaves the network, passes 64 hops or ejects at
 * another node. */
typedef int (*walk_pick_fn)(sim_t *s, uint32_t w, const cand_t *c, int n, void *arg);
int cube_walk(sim_t *s, uint32_t a, uint32_t b, walk_pick_fn pick, void *arg);
/* A fresh directory /tmp/icnsim-<tag>-<pid>, made once into buf (n bytes)
 * on the first call; returns buf. */
const char *test_tmpdir(char *buf, size_t n, const char *tag);
/* A shell command (for run_cmd, inside a printf format: its %% are doubled)
 * that rewrites, in the current directory, a sweep point's completion marker
 * over its config.ini and summary.csv as they are (FNV-1a, as icnsim writes
 * it): a point edited by a test then reads as complete. */
#define TEST_REMARK_POINT \
    "python3 -c \"import functools as f; h = lambda n: '%%016x' %% f.reduce(lambda a, b: ((a ^ b) * 0x100000001b3) %% 2**64, " \
    "open(n, 'rb').read(), 0xcbf29ce484222325); " \
    "open('complete', 'w').write('icnsim point complete\\nconfig.ini %%s\\nsummary.csv %%s\\n' %% (h('config.ini'), h('summary.csv')))\""
/* The icnsim under test: $ICNSIM (make test sets it), else ./icnsim. */
const char *icnsim_bin(void);
/* Run icnsim on an INI file with -s sets, then -s more (NULL-ended lists,
 * either NULL); returns a digest of every result file it wrote but perf.csv
 * (times) and summary.csv's key columns (the results from its status column
 * on count), or 0 if the run failed. */
unsigned long cli_results_digest(const char *file, const char *const *sets, const char *const *more);
/* The same, with perf.csv's counts of events and packet-hops in the digest. */
unsigned long cli_counts_digest(const char *file, const char *const *sets, const char *const *more);
/* Run a shell command; returns its exit status; output captured into buf. */
int run_cmd(const char *cmd, char *buf, size_t n);

#endif
