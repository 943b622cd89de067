/* Routing and queuing combinations whose rules would be silently lost:
 * refused with status 2, naming the key, where the simulator cannot apply
 * them; accepted where it can. */
#include "test.h"
#include "util.h"
#include <stdlib.h>
#include <string.h>

static char tmpdir[256];

/* Run icnsim on an INI text with -s arguments; check the status and that the
 * output names every needle. */
static void expect_status(const char *ini, const char *args, int status, const char *const *needles)
{
    char path[512], cmd[2048], out[8192];
    const char *dir = test_tmpdir(tmpdir, sizeof tmpdir, "rules");
    snprintf(path, sizeof path, "%s/rules.ini", dir);
    FILE *f = fopen(path, "w");
    if (!f) abort();
    fputs(ini, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s run %s -q -o %s/out %s", icnsim_bin(), path, dir, args);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == status, "'%s' exited %d, want %d; output: %s", args, rc, status, out);
    for (int i = 0; needles && needles[i]; i++)
        CHECK(strstr(out, needles[i]) != NULL, "'%s': message lacks '%s': %s", args, needles[i], out);
}

/* The bubble rule is a property of the candidate a head is granted (room for
 * two packets when entering a ring). A packet routed at arrival, or queued in
 * a VOQ switch, keeps only its output and VC, so the rule would be dropped
 * and the torus could deadlock (it does, saturated). */
TEST(bubble_rule_needs_routing_at_the_head)
{
    static const char *ini = "load = 0.2\n[time]\nwarmup = 2us\nmeasure = 4us\n[topology]\ntype = torus\nk = 4\nn = 2\n"
                             "[routing]\nalgorithm = dor-bubble\n";
    expect_status(ini, "", 0, NULL);
    expect_status(ini, "-s routing.when=head", 0, NULL);
    expect_status(ini, "-s routing.when=arrival", 2, (const char *[]){ "routing.when", "bubble", NULL });
    expect_status(ini, "-s cc.mode=iba", 2, (const char *[]){ "cc.mode", "bubble", NULL });
    expect_status(ini, "-s switch.voq=true", 2, (const char *[]){ "switch.voq", "bubble", NULL });
}

/* VOQsw picks each VC from the output the packet takes at the next switch
 * under D-mod-K. The lft routing is deterministic too, but minhop's and
 * updn's tables differ from D-mod-K on an RLFT (about 3 hops in 10 of a
 * 432-node tree would wait in another output's queue). */
TEST(voqsw_needs_dmodk_itself)
{
    static const char *ini = "load = 0.2\n[time]\nwarmup = 2us\nmeasure = 4us\n[topology]\ntype = rlft\nk = 6\nstages = 3\n"
                             "[switch]\nvcs = 12\n[queuing]\nscheme = voqsw\n";
    expect_status(ini, "-s routing.algorithm=dmodk", 0, NULL);
    expect_status(ini, "-s routing.algorithm=lft -s ib.engine=minhop", 2, (const char *[]){ "queuing.scheme", "D-mod-K", NULL });
    expect_status(ini, "-s routing.algorithm=lft -s ib.engine=dmodk", 2, (const char *[]){ "queuing.scheme", "lft", NULL });
}

/* routing.delta_ref chooses among the K/d candidate sets; with K (or K/1)
 * every up port is a candidate and the key changes nothing. */
TEST(delta_ref_only_with_k_over_d)
{
    static const char *ini = "load = 0.2\n[time]\nwarmup = 2us\nmeasure = 4us\n[topology]\ntype = rlft\nk = 6\nstages = 3\n"
                             "[switch]\nvcs = 3\n[queuing]\nscheme = dbbm\n";
    expect_status(ini, "-s routing.algorithm=ADAP-TH-S-K/3 -s routing.delta_ref=destination", 0, NULL);
    expect_status(ini, "-s routing.algorithm=ADAP-TH-S-K -s routing.delta_ref=destination", 2,
                  (const char *[]){ "routing.delta_ref", "no effect", NULL });
    expect_status(ini, "-s routing.algorithm=ADAP-2TH-2S-K/1 -s routing.delta_ref=dmodk", 2,
                  (const char *[]){ "routing.delta_ref", "no effect", NULL });
}
