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
/* A fresh directory /tmp/icnsim-<tag>-<pid>, made once into buf (n bytes)
 * on the first call; returns buf. */
const char *test_tmpdir(char *buf, size_t n, const char *tag);
/* Run a shell command; returns its exit status; output captured into buf. */
int run_cmd(const char *cmd, char *buf, size_t n);

#endif
