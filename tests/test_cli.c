/* The command line: bad input gets a clear error and status 2; same seed,
 * same bytes, whatever the number of sweep workers. */
#include "test.h"
#include "util.h"
#include "../src/stats/report.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static char tmpdir[256];

static const char *tmp(void) { return test_tmpdir(tmpdir, sizeof tmpdir, "test"); }

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) abort();
    fputs(text, f);
    fclose(f);
}

/* Run icnsim on an INI text with extra arguments; expect status and a message. */
static void expect_error(const char *ini, const char *args, int status, const char *const *needles)
{
    char path[512], cmd[2048], out[8192];
    snprintf(path, sizeof path, "%s/bad.ini", tmp());
    write_file(path, ini);
    snprintf(cmd, sizeof cmd, "%s run %s -q -o %s/out %s", icnsim_bin(), path, tmp(), args);
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == status, "'%s' with\n%s\nexited %d, want %d; output: %s", args, ini, rc, status, out);
    for (int i = 0; needles && needles[i]; i++)
        CHECK(strstr(out, needles[i]) != NULL, "message lacks '%s': %s", needles[i], out);
}

TEST(cli_bad_configs_are_rejected)
{
    expect_error("[topology]\nkk = 4\n", "", 2, (const char *[]){ "bad.ini:2", "topology.kk", "unknown key", NULL });
    expect_error("load = 0.5\n[topology]\nk = four\n", "", 2, (const char *[]){ "bad.ini:3", "topology.k", "integer", NULL });
    expect_error("load = 1.5\n", "", 2, (const char *[]){ "bad.ini:1", "'load'", "[0, 1]", NULL });
    expect_error("[switch]\nbuffer = 3KB\n", "", 2, (const char *[]){ "bad.ini:2", "switch.buffer", "less than one packet", NULL });
    expect_error("[switch]\nbuffer = 12KB\nvcs = 4\n[queuing]\nscheme = dbbm\n", "", 2, (const char *[]){ "bad.ini:2", "switch.buffer", "4 VCs", NULL });
    expect_error("[topology]\nk = 6\nports = 36\n", "", 2, (const char *[]){ "bad.ini:3", "topology.ports", "2K", NULL });
    expect_error("[topology]\nk = 6\nstages = 3\n[traffic]\npattern = bitrev\n", "", 2, (const char *[]){ "bad.ini:5", "traffic.pattern", "power-of-two", NULL });
    expect_error("[topology]\nk = 4\nstages = 2\n[traffic]\nscenario = ihs\n", "", 2, (const char *[]){ "bad.ini:5", "traffic.scenario", "3 stages", NULL });
    expect_error("[topology]\nk = 2\nstages = 4\n[traffic]\nscenario = ihs\n", "", 2, (const char *[]){ "bad.ini:5", "traffic.scenario", "at most K^2", NULL });
    expect_error("[routing]\nalgorithm = updown\n", "", 2, (const char *[]){ "bad.ini:2", "routing.algorithm", "--list", NULL });
    expect_error("[traffic]\nshift = 3\n", "", 2, (const char *[]){ "bad.ini:2", "traffic.shift", "no effect", NULL });
    expect_error("[traffic]\nscenario = hs10-1\nhs_fraction = 0.3\n", "", 2, (const char *[]){ "bad.ini:3", "hs_fraction", "fixes", NULL });
    expect_error("[traffic]\nscenario = hs10-4\nhs_count = 2\n", "", 2, (const char *[]){ "bad.ini:3", "hs_count", "fixes the count at 4", NULL });
    expect_error("[link]\ndelay = 6 parsecs\n", "", 2, (const char *[]){ "bad.ini:2", "link.delay", "unit", NULL });
    expect_error("[link]\nbandwidth = 0Gbps\n", "", 2, (const char *[]){ "bad.ini:2", "link.bandwidth", "positive", NULL });
    expect_error("load = 0.5\nload = 0.6\n", "", 2, (const char *[]){ "bad.ini:2", "twice", NULL });
    expect_error("[topology\n", "", 2, (const char *[]){ "bad.ini:1", "section", NULL });
    expect_error("just words\n", "", 2, (const char *[]){ "bad.ini:1", "key = value", NULL });
    expect_error("", "-s topology.k=abc", 2, (const char *[]){ "-s topology.k=abc", "integer", NULL });
    expect_error("", "-s nosuch=1", 2, (const char *[]){ "nosuch", "unknown key", NULL });
    expect_error("", "-s load=0.1:0.1:0.5", 2, (const char *[]){ "icnsim sweep", NULL });
    expect_error("", "-j 2", 2, (const char *[]){ "sweep", NULL });
    expect_error("", "--frobnicate", 2, (const char *[]){ "unknown option", NULL });
    expect_error("[time]\nmeasure = 1s\ninterval = 1ns\n", "", 2, (const char *[]){ "bad.ini:3", "time.interval", "samples", NULL });
    expect_error("[traffic]\nlong_fraction = 0.1\n", "", 2, (const char *[]){ "bad.ini:2", "traffic.long_fraction", "long_size", NULL });
    expect_error("[traffic]\nlong_size = 400B\n", "", 2, (const char *[]){ "bad.ini:2", "traffic.long_size", "no effect", NULL });
    expect_error("[switch]\nbuffer = 5KB\ngranularity = 3KB\n", "", 2, (const char *[]){ "bad.ini:3", "switch.granularity", NULL });
    expect_error("[packet]\nmtu = 4000B\n[switch]\ngranularity = 4096B\n[nic]\nbuffer = 4000B\n", "", 2,
                 (const char *[]){ "bad.ini:6", "nic.buffer", "units of switch.granularity", NULL });
    expect_error("[switch]\nbuffer = 3072MB\n", "", 2, (const char *[]){ "bad.ini:2", "switch.buffer", "2 GB", NULL });
    expect_error("[routing]\nalgorithm = dor\n", "", 2, (const char *[]){ "routing.algorithm", "k-ary n-cubes", NULL });
    expect_error("include = nothere.ini\n", "", 2, (const char *[]){ "bad.ini:1", "nothere.ini", NULL });
    /* a file included again and again, level after level, is refused before it multiplies the work */
    for (int i = 0; i < 4; i++) {
        char name[512], text[512] = "";
        snprintf(name, sizeof name, "%s/fan%d.ini", tmp(), i);
        for (int j = 0; i < 3 && j < 10; j++) snprintf(text + strlen(text), sizeof text - strlen(text), "include = fan%d.ini\n", i + 1);
        write_file(name, i < 3 ? text : "seed = 3\n");
    }
    expect_error("include = fan0.ini\n", "", 2, (const char *[]){ "more than 256 config files", NULL });
    /* the fat-tree adaptive routings read the packet model's credits: on the flit model they would be D-mod-K */
    expect_error("[switch]\nmodel = flit\n[routing]\nalgorithm = ADAP-TH-S-K\n", "", 2,
                 (const char *[]){ "bad.ini:4", "routing.algorithm", "switch.model = packet", NULL });
    expect_error("[switch]\nmodel = flit\nvcs = 2\n[routing]\nalgorithm = fully-adaptive\n", "", 2,
                 (const char *[]){ "bad.ini:5", "routing.algorithm", "switch.model = packet", NULL });
    expect_error("[switch]\nmodel = flit\nvcs = 2\n[routing]\nalgorithm = afi\n", "", 2,
                 (const char *[]){ "bad.ini:5", "routing.algorithm", "switch.model = packet", NULL });
    /* range errors name the bound that was crossed */
    expect_error("[link]\nphit = 2KB\n", "", 2, (const char *[]){ "bad.ini:2", "link.phit", "at most 1024 bytes", NULL });
    expect_error("[traffic]\nburst_period = 500ps\n", "", 2,
                 (const char *[]){ "bad.ini:2", "traffic.burst_period", "at least 1000 ps", NULL });
    /* a key set before an include that sets it again would be lost: refused, naming both lines */
    char inc[512];
    snprintf(inc, sizeof inc, "%s/inc.ini", tmp());
    write_file(inc, "# base\nload = 0.3\n");
    expect_error("seed = 2\nload = 0.4\ninclude = inc.ini\n", "", 2,
                 (const char *[]){ "inc.ini:2", "'load'", "bad.ini:2", "line 3", NULL });
    /* after the include, the file's own key overrides the included one */
    char okf[512];
    snprintf(okf, sizeof okf, "%s/ok.ini", tmp());
    write_file(okf, "include = inc.ini\nload = 0.4\n");
    cfg_t oc;
    cfg_init(&oc);
    cfg_load_file(&oc, okf);
    CHECK(oc.val[K_LOAD].v.d == 0.4 && oc.val[K_LOAD].line == 2, "load = %g from line %d, want 0.4 from line 2",
          oc.val[K_LOAD].v.d, oc.val[K_LOAD].line);
    cfg_free(&oc);
    expect_error("[time]\nties = random\n", "", 2, (const char *[]){ "bad.ini:2", "time.ties", "insertion or canonical", NULL });
    expect_error("", "-s check.shuffle_ties=-1", 2, (const char *[]){ "check.shuffle_ties", NULL });
    /* fat-tree congestion management */
    expect_error("[routing]\nalgorithm = ADAP-3TH-S-K\n", "", 2, (const char *[]){ "bad.ini:2", "routing.algorithm", "--list", NULL });
    expect_error("[topology]\nk = 4\n[routing]\nalgorithm = ADAP-TH-S-K/3\n", "", 2, (const char *[]){ "bad.ini:4", "divisor of K = 4", NULL });
    expect_error("[routing]\nalgorithm = ADAP-TH-3S-K\n", "", 2, (const char *[]){ "bad.ini:2", "stage 3", NULL });
    expect_error("[routing]\nalgorithm = dmodk\nltth = 0.3\n", "", 2, (const char *[]){ "bad.ini:3", "routing.ltth", "no effect", NULL });
    expect_error("[routing]\nalgorithm = ADAP-TH-S-K\nhtth = 0.3\n", "", 2, (const char *[]){ "bad.ini:3", "routing.htth", "no effect", NULL });
    expect_error("[routing]\nalgorithm = ADAP-2TH-S-K\nhtth = 0.1\n", "", 2, (const char *[]){ "bad.ini:3", "routing.htth", "below", NULL });
    expect_error("[routing]\nalgorithm = afi\n", "", 2, (const char *[]){ "switch.vcs", "afi", NULL });
    expect_error("[topology]\ntype = torus\nk = 4\nn = 2\n[switch]\nvcs = 2\nvoq = true\n[routing]\nalgorithm = bubble-adaptive\n", "", 2,
                 (const char *[]){ "bad.ini:7", "switch.voq", "one at arrival", NULL });
    expect_error("[switch]\nvcs = 3\n[queuing]\nscheme = vftree\n[nic]\nqueues = fifo\n", "", 2, (const char *[]){ "bad.ini:6", "nic.queues", "per-vc, shared or flows", NULL });
    expect_error("[nic]\nqueue_limit = 5\n", "", 2, (const char *[]){ "bad.ini:2", "nic.queue_limit", "no effect", NULL });
    expect_error("[topology]\ntype = torus\nk = 4\n[routing]\nalgorithm = dor\n[queuing]\nscheme = vftree\n", "", 2, (const char *[]){ "bad.ini:7", "fat-trees", NULL });
    expect_error("[switch]\nvcs = 4\n[routing]\nalgorithm = fully-adaptive\n[queuing]\nscheme = voqsw\n", "", 2,
                 (const char *[]){ "bad.ini:6", "queuing.scheme", "deterministic", NULL });
    expect_error("[topology]\ntype = torus\nk = 4\n[routing]\nalgorithm = dor\n[queuing]\nscheme = voqsw\n", "", 2,
                 (const char *[]){ "bad.ini:7", "every hop", NULL });
    expect_error("[switch]\nvcs = 3\n[queuing]\nscheme = voqnet\n", "", 2, (const char *[]){ "bad.ini:2", "switch.vcs", "voqnet", NULL });
    expect_error("[routing]\nalgorithm = oblivious\n[queuing]\nscheme = voqnet\n", "", 2, (const char *[]){ "bad.ini:4", "deterministic", NULL });
    expect_error("[queuing]\nscheme = voqnet\nqueue_size = 1KB\n", "", 2, (const char *[]){ "bad.ini:3", "queuing.queue_size", "one packet", NULL });
    expect_error("[queuing]\nqueue_size = 16KB\n", "", 2, (const char *[]){ "bad.ini:2", "queuing.queue_size", "no effect", NULL });
    expect_error("[routing]\nwhen = later\n", "", 2, (const char *[]){ "bad.ini:2", "routing.when", "head or arrival", NULL });
    expect_error("[routing]\nalgorithm = ADAP-TH-S-K\nscan = random\n", "", 2, (const char *[]){ "bad.ini:3", "routing.scan", "dmodk or port", NULL });
    expect_error("[routing]\nalgorithm = dmodk\nscan = port\n", "", 2, (const char *[]){ "bad.ini:3", "routing.scan", "no effect", NULL });
    expect_error("[switch]\ncrossbar = vc\n", "", 2, (const char *[]){ "bad.ini:2", "switch.crossbar", "port or queue", NULL });
    expect_error("[switch]\ncrossbar = queue\n[queuing]\nscheme = voqnet\n", "", 2, (const char *[]){ "bad.ini:2", "switch.crossbar", "VOQnet", NULL });
    expect_error("[topology]\ntype = torus\nk = 4\n[switch]\nmodel = flit\ncrossbar = queue\n[routing]\nalgorithm = dor\n", "", 2,
                 (const char *[]){ "bad.ini:6", "switch.crossbar", "flit", NULL });
    expect_error("[switch]\nvoq = true\n[routing]\nwhen = head\n", "", 2, (const char *[]){ "bad.ini:4", "routing.when", "VOQ", NULL });
    expect_error("[topology]\ntype = torus\nk = 4\nn = 2\n[switch]\nvcs = 3\n[routing]\nalgorithm = duato\nwhen = arrival\n", "", 2,
                 (const char *[]){ "bad.ini:9", "routing.when", "several outputs", NULL });
    /* the bubble rule is applied to the head of a VC queue: not with VOQs, nor to a packet routed at arrival */
    expect_error("[topology]\ntype = torus\nk = 4\nn = 2\n[switch]\nvoq = true\n[routing]\nalgorithm = dor-bubble\n", "", 2,
                 (const char *[]){ "bad.ini:6", "switch.voq", "bubble", NULL });
    expect_error("[topology]\ntype = torus\nk = 4\nn = 2\n[routing]\nalgorithm = dor-bubble\nwhen = arrival\n", "", 2,
                 (const char *[]){ "bad.ini:7", "routing.when", "bubble", NULL });
    expect_error("[topology]\ntype = torus\nk = 4\nn = 2\n[routing]\nalgorithm = dor-bubble\n[cc]\nmode = iba\n", "", 2,
                 (const char *[]){ "bad.ini:8", "cc.mode", "bubble", NULL });
    char out[4096], cmd[600];
    snprintf(cmd, sizeof cmd, "%s run /nonexistent/x.ini -q", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "/nonexistent/x.ini"), "missing file: %s", out);
    snprintf(cmd, sizeof cmd, "%s bogus", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 2, "unknown command accepted");
    snprintf(cmd, sizeof cmd, "%s keys --bogus", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "usage"), "keys with an unknown option: %s", out);
}

TEST(cli_help_list_and_keys_tell_the_truth)
{
    char out[65536], cmd[600];
    snprintf(cmd, sizeof cmd, "%s --list", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "--list failed");
    static const char *names[] = { "rlft", "kary-ntree", "dmodk", "1q", "dbbm", "islip", "rr", "bernoulli", "poisson",
                                   "uniform", "bitrev", "bitcomp", "transpose", "shuffle", "butterfly", "tornado", "shift",
                                   "hs10-1", "hs25-1", "hs10-4", "hs25-4", "ihs",
                                   "iba", "opa", "simula-llnl", "mellanox-default", NULL };
    for (int i = 0; names[i]; i++) CHECK(strstr(out, names[i]), "--list lacks %s", names[i]);
    snprintf(cmd, sizeof cmd, "%s --help", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "sweep") && strstr(out, "-s key=value"), "--help: %s", out);
    /* docs/CONFIG.md is generated from the key table and must match it */
    snprintf(cmd, sizeof cmd, "%s keys --markdown | diff -q - docs/CONFIG.md", icnsim_bin());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "docs/CONFIG.md is stale: run `make docs` (%s)", out);
}

/* A file saved with a UTF-8 byte-order mark, and a comment after a tab,
 * read as they look. */
TEST(cli_bom_and_tab_comments)
{
    char ini[600], out[8192], cmd[1500];
    snprintf(ini, sizeof ini, "%s/bom.ini", tmp());
    write_file(ini, "\xEF\xBB\xBFload = 0.3\t# a comment after a tab\n[time]\nwarmup = 1us # and a space\nmeasure = 2us\n");
    snprintf(cmd, sizeof cmd, "%s run %s -q -o %s/bom -s output.plots=no && grep -x 'load = 0.3' %s/bom/config.ini",
             icnsim_bin(), ini, tmp(), tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "BOM and tab comment: %s", out);
}

/* The embedded default's keys give way: -s may turn its fat-tree into a
 * torus, where its topology.stages no longer applies, and the run's
 * config.ini runs again; the same key set by a user still fails. */
TEST(cli_embedded_default_keys_give_way)
{
    char out[8192], cmd[2048];
    const char *torus = "-s topology.type=torus -s topology.k=4 -s topology.n=2 -s routing.algorithm=dor-dateline "
                        "-s switch.vcs=2 -s traffic.scenario=none -s time.warmup=2us -s time.measure=4us -s output.plots=no";
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/emb %s && %s run %s/emb/config.ini -q -o %s/emb2 -s output.plots=no",
             icnsim_bin(), tmp(), torus, icnsim_bin(), tmp(), tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "a torus from the embedded default: %s", out);
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/emb3 %s -s topology.stages=3", icnsim_bin(), tmp(), torus);
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "topology.stages") && strstr(out, "no effect"),
          "topology.stages given on a torus: %s", out);
    /* a key given in place of one of its keys replaces it: traffic.rate its load, topology.shape its topology.k */
    const char *brief = "-s time.warmup=1us -s time.measure=2us -s output.plots=no";
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/emb4 %s -s traffic.rate=50000 && "
             "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"load\") c = i } NR == 2 { exit $c != 0.5 }' %s/emb4/summary.csv",
             icnsim_bin(), tmp(), brief, tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "traffic.rate on the embedded default: %s", out);
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/emb5 %s -s topology.type=torus -s topology.shape=4x2 -s routing.algorithm=dor-dateline "
             "-s switch.vcs=2 -s traffic.scenario=none", icnsim_bin(), tmp(), brief);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "topology.shape on the embedded default: %s", out);
    /* the same keys given by a user still contradict */
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/emb6 %s -s traffic.rate=50000 -s load=0.5", icnsim_bin(), tmp(), brief);
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "set either it or load"), "rate and load both given: %s", out);
    /* a workload on the embedded default runs alone (its load is not the user's), and says so */
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/emb7 -s time.warmup=0 -s time.measure=50us -s output.plots=no "
             "-s workload.source=pingpong -s workload.ranks=2 && "
             "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"load\") c = i } NR == 2 { exit $c != 0 }' %s/emb7/summary.csv && "
             "grep -q '^# load = 0$' %s/emb7/config.ini", icnsim_bin(), tmp(), tmp(), tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "a workload on the embedded default: %s", out);
}

/* The column names that docs/OUTPUT.md's table under heading `section`
 * gives in order (the first cell of each row), comma-separated. */
static void output_doc_columns(const char *section, char *doc, size_t size)
{
    char line[4096];
    size_t n = 0;
    int in = 0;
    doc[0] = 0;
    FILE *f = fopen("docs/OUTPUT.md", "r");
    CHECK(f != NULL, "docs/OUTPUT.md missing");
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' && line[1] == ' ') in = !strncmp(line + 2, section, strlen(section));
        if (!in || strncmp(line, "| `", 3)) continue;   /* a table row naming columns */
        char *end = strstr(line + 2, " |");
        for (char *p = line + 2; end && p < end; p++) {
            if (*p != '`') continue;
            char *q = strchr(p + 1, '`');
            if (!q || q > end) break;
            n += (size_t)snprintf(doc + n, size - n, "%s%.*s", n ? "," : "", (int)(q - p - 1), p + 1);
            if (n >= size) break;
            p = q;
        }
    }
    fclose(f);
}

/* docs/OUTPUT.md defines summary.csv's metric columns and nodes.csv's: its
 * tables' first cells, read in order, must name exactly the columns the
 * code writes. */
TEST(cli_output_doc_names_every_summary_column)
{
    char hdr[2048] = "", doc[2048], cmd[1024], out[4096];
    FILE *m = fmemopen(hdr, sizeof hdr - 1, "w");
    CHECK(m != NULL, "fmemopen");
    if (!m) return;
    result_csv_header(m);
    fclose(m);
    output_doc_columns("summary.csv", doc, sizeof doc);
    CHECK(!strcmp(doc, hdr), "docs/OUTPUT.md lists\n  %s\nsummary.csv has\n  %s", doc, hdr);
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/nodes -s topology.k=4 -s time.warmup=1us -s time.measure=2us && head -n 1 %s/nodes/nodes.csv",
             icnsim_bin(), tmp(), tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "run failed: %s", out);
    out[strcspn(out, "\r\n")] = 0;
    output_doc_columns("nodes.csv", doc, sizeof doc);
    CHECK(!strcmp(doc, out), "docs/OUTPUT.md lists\n  %s\nnodes.csv has\n  %s", doc, out);
    static const char *const more[] = { "timeseries.csv", "perf.csv" };
    for (size_t i = 0; i < ICN_ARRAY_LEN(more); i++) {
        snprintf(cmd, sizeof cmd, "head -n 1 %s/nodes/%s", tmp(), more[i]);
        CHECK(run_cmd(cmd, out, sizeof out) == 0, "%s: %s", more[i], out);
        out[strcspn(out, "\r\n")] = 0;
        output_doc_columns(more[i], doc, sizeof doc);
        CHECK(!strcmp(doc, out), "docs/OUTPUT.md lists\n  %s\n%s has\n  %s", doc, more[i], out);
    }
}

static int files_equal(const char *a, const char *b)
{
    char cmd[1200], out[256];
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
    return run_cmd(cmd, out, sizeof out) == 0;
}

TEST(cli_same_seed_same_bytes_any_worker_count)
{
    char cmd[2048], out[16384], a[600], b[600];
    const char *common = "-s topology.k=4 -s time.warmup=20us -s time.measure=60us -s traffic.scenario=hs10-4";
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/r1 %s && %s run -q -o %s/r2 %s", icnsim_bin(), tmp(), common, icnsim_bin(), tmp(), common);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "runs failed: %s", out);
    snprintf(a, sizeof a, "%s/r1/summary.csv", tmp());
    snprintf(b, sizeof b, "%s/r2/summary.csv", tmp());
    CHECK(files_equal(a, b), "two runs with the same seed differ (summary.csv)");
    snprintf(a, sizeof a, "%s/r1/timeseries.csv", tmp());
    snprintf(b, sizeof b, "%s/r2/timeseries.csv", tmp());
    CHECK(files_equal(a, b), "two runs with the same seed differ (timeseries.csv)");
    /* a different seed must change the result, or the check above proves nothing */
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/r3 %s -s seed=2", icnsim_bin(), tmp(), common);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "seed 2 run failed: %s", out);
    snprintf(a, sizeof a, "%s/r3/timeseries.csv", tmp());
    CHECK(!files_equal(a, b), "seed has no effect");
    /* sweeps on 1 and 2 workers */
    snprintf(cmd, sizeof cmd, "%s sweep -q -j 1 -o %s/s1 %s -s load=0.2:0.4:1.0 -s traffic.process=bernoulli,poisson && "
                              "%s sweep -q -j 2 -o %s/s2 %s -s load=0.2:0.4:1.0 -s traffic.process=bernoulli,poisson",
             icnsim_bin(), tmp(), common, icnsim_bin(), tmp(), common);
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "sweeps failed: %s", out);
    snprintf(a, sizeof a, "%s/s1/summary.csv", tmp());
    snprintf(b, sizeof b, "%s/s2/summary.csv", tmp());
    CHECK(files_equal(a, b), "-j 1 and -j 2 sweeps differ");
    snprintf(cmd, sizeof cmd, "test $(wc -l < %s) -eq 7 && grep -c ',poisson,' %s", a, a);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && atoi(out) == 3, "sweep summary should have 6 rows, 3 poisson: %s", out);
    /* the sweep point equals the single run with the same values */
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/r4 %s -s load=0.6 -s traffic.process=poisson && "
                              "tail -n 1 %s/r4/summary.csv | cut -d, -f2- > %s/x && sed -n 5p %s | cut -d, -f2- > %s/y && cmp -s %s/x %s/y",
             icnsim_bin(), tmp(), common, tmp(), tmp(), a, tmp(), tmp(), tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "sweep point differs from the equivalent run: %s", out);
    /* resume: a second sweep reuses every point */
    snprintf(cmd, sizeof cmd, "%s sweep -j 2 -o %s/s2 %s -s load=0.2:0.4:1.0 -s traffic.process=bernoulli,poisson", icnsim_bin(), tmp(), common);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "6 reused"), "resume did not reuse points: %s", out);
    CHECK(files_equal(a, b), "resumed sweep changed the summary");
    /* a point written by an older icnsim, without a key added since (at its
     * default), is still reused and its row realigned; a point whose
     * configuration differs is recomputed */
    snprintf(cmd, sizeof cmd,
             "(cd %s/s2/points/0000 && grep -v 'queue_size = ' config.ini > c && mv c config.ini && "
             "python3 -c \"import csv; r = list(csv.reader(open('summary.csv'))); i = r[0].index('queuing.queue_size'); "
             "csv.writer(open('summary.csv', 'w', newline=''), lineterminator='\\n').writerows([x[:i] + x[i + 1:] for x in r])\" && "
             /* the older version wrote its completion marker over its own files */
             TEST_REMARK_POINT " && "
             "sed -i 's/^# seed = 1$/seed = 7/' ../0001/config.ini) && "
             "%s sweep -j 2 -o %s/s2 %s -s load=0.2:0.4:1.0 -s traffic.process=bernoulli,poisson",
             tmp(), icnsim_bin(), tmp(), common);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && strstr(out, "5 reused"), "older point not reused or changed one reused: %s", out);
    CHECK(files_equal(a, b), "summary changed after reusing an older point");
}

/* The config.ini a run writes runs again as it is and repeats the run: keys
 * at their default are comments (a default given explicitly may be a key with
 * no effect, which is an error), and a preset's own values are accepted. */
TEST(cli_written_config_repeats_the_run)
{
    char cmd[2048], out[8192], a[600], b[600];
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/c1 -s topology.k=4 -s time.warmup=20us -s time.measure=60us "
                              "-s traffic.scenario=hs10-4 -s queuing.scheme=dbbm -s switch.vcs=3 -s routing.algorithm=ADAP-TH-S-K && "
                              "grep -q '^# seed = 1$' %s/c1/config.ini && grep -q '^algorithm = ADAP-TH-S-K$' %s/c1/config.ini && "
                              "%s run %s/c1/config.ini -q -o %s/c2 && "
                              "cut -d, -f2- %s/c1/summary.csv > %s/c1.x && cut -d, -f2- %s/c2/summary.csv > %s/c2.x",
             icnsim_bin(), tmp(), tmp(), tmp(), icnsim_bin(), tmp(), tmp(), tmp(), tmp(), tmp(), tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "writing or re-running config.ini failed: %s", out);
    snprintf(a, sizeof a, "%s/c1.x", tmp());
    snprintf(b, sizeof b, "%s/c2.x", tmp());
    CHECK(files_equal(a, b), "re-running config.ini gave another result");
    /* the preset's own values, given explicitly, are no contradiction */
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/c3 -s topology.k=4 -s time.warmup=20us -s time.measure=60us "
                              "-s traffic.scenario=hs10-4 -s traffic.hs_count=4 -s traffic.hs_fraction=0.1", icnsim_bin(), tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "hs10-4 with its own count and fraction refused: %s", out);
}

TEST(cli_plots_rendered_or_refused)
{
    char cmd[2048], out[8192], path[600];
    /* asked for plots without gnuplot: a clear configuration error */
    snprintf(cmd, sizeof cmd, "PATH=/nonexistent %s run -q -o %s/p0 -s output.plots=yes -s time.measure=20us", icnsim_bin(), tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "output.plots") && strstr(out, "gnuplot"), "plots=yes without gnuplot: %s", out);
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/p1 -s output.plots=maybe -s time.measure=20us", icnsim_bin(), tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 2 && strstr(out, "auto, yes or no"), "plots=maybe: %s", out);
    /* the scripts are always written; PNGs when gnuplot is present (CI installs it) */
    snprintf(cmd, sizeof cmd, "%s run -q -o %s/p2 -s time.measure=40us && %s sweep -q -j 2 -o %s/p3 -s time.measure=40us "
                              "-s load=0.3,0.6 -s traffic.scenario=none,hs10-1", icnsim_bin(), tmp(), icnsim_bin(), tmp());
    CHECK(run_cmd(cmd, out, sizeof out) == 0, "runs failed: %s", out);
    snprintf(path, sizeof path, "%s/p2/timeseries.gp", tmp());
    CHECK(access(path, R_OK) == 0, "no timeseries.gp");
    snprintf(path, sizeof path, "%s/p3/sweep.gp", tmp());
    CHECK(access(path, R_OK) == 0, "no sweep.gp");
    if (run_cmd("command -v gnuplot", out, sizeof out) == 0) {
        snprintf(cmd, sizeof cmd, "test -s %s/p2/timeseries.png && test -s %s/p3/sweep.png", tmp(), tmp());
        CHECK(run_cmd(cmd, out, sizeof out) == 0, "gnuplot present but no PNG rendered");
    } else {
        printf("       (gnuplot not installed: PNG rendering not checked here; CI installs it)\n");
    }
}

/* Shapes, rates and the traffic scenarios: errors name the key. */
TEST(cli_shape_rate_and_scenario_errors)
{
    const char *mesh = "[topology]\ntype = mesh\nshape = 8x4\n[routing]\nalgorithm = dor\n";
    expect_error(mesh, "-s topology.k=8", 2, (const char *[]){ "bad.ini:3", "topology.shape", "either", NULL });
    expect_error(mesh, "-s topology.n=2", 2, (const char *[]){ "topology.shape", "either", NULL });
    expect_error("[topology]\ntype = mesh\nshape = 8x1\n[routing]\nalgorithm = dor\n", "", 2, (const char *[]){ "bad.ini:3", "2..64", NULL });
    expect_error("[topology]\ntype = mesh\nshape = 8x\n[routing]\nalgorithm = dor\n", "", 2, (const char *[]){ "bad.ini:3", "topology.shape", NULL });
    expect_error("[topology]\ntype = mesh\nshape = 2x2x2x2x2x2x2x2x2\n[routing]\nalgorithm = dor\n", "", 2, (const char *[]){ "bad.ini:3", "up to 8", NULL });
    expect_error("[topology]\nshape = 8x4\n", "", 2, (const char *[]){ "bad.ini:2", "topology.shape", "no effect", NULL });
    expect_error("load = 0.3\n[traffic]\nrate = 400\n", "", 2, (const char *[]){ "bad.ini:3", "traffic.rate", "either it or load", NULL });
    expect_error("[link]\nbandwidth = 2Gbps\n[traffic]\nrate = 2001\n", "", 2, (const char *[]){ "bad.ini:4", "traffic.rate", "2000 bits/us", NULL });
    const char *b = "[topology]\nk = 2\n[traffic]\nscenario = bursty\n";
    expect_error(b, "-s \"traffic.burst_pattern=bitrev shuffle\"", 2, (const char *[]){ "traffic.burst_pattern", "bursty-var", NULL });
    expect_error(b, "-s traffic.scenario=bursty-var", 2, (const char *[]){ "traffic.burst_pattern", "at least two", NULL });
    expect_error(b, "-s traffic.burst_pattern=bitrevv", 2, (const char *[]){ "traffic.burst_pattern", "unknown pattern 'bitrevv'", NULL });
    expect_error(b, "-s traffic.burst_length=200us", 2, (const char *[]){ "traffic.burst_length", "shorter than traffic.burst_period", NULL });
    expect_error(b, "-s traffic.low_rate=100 -s traffic.low_load=0.2", 2, (const char *[]){ "traffic.low_rate", "traffic.low_load", NULL });
    expect_error("[topology]\nk = 3\n[traffic]\nscenario = bursty\n", "", 2,
                 (const char *[]){ "traffic.burst_pattern", "power-of-two", NULL });
    expect_error("[traffic]\nlow_load = 0.2\n", "", 2, (const char *[]){ "bad.ini:2", "traffic.low_load", "no effect", NULL });
    expect_error("[traffic]\nburst_period = 1ms\n", "", 2, (const char *[]){ "bad.ini:2", "traffic.burst_period", "no effect", NULL });
    const char *hr = "[topology]\ntype = mesh\nshape = 8x4\n[routing]\nalgorithm = dor\n[traffic]\nscenario = hs-region\n";
    expect_error("[traffic]\nscenario = hs-region\n", "", 2, (const char *[]){ "bad.ini:2", "traffic.scenario", "mesh or torus", NULL });
    expect_error(hr, "-s \"traffic.hs_region=8 0\"", 2, (const char *[]){ "traffic.hs_region", "one per dimension", NULL });
    expect_error(hr, "-s traffic.hs_region=3", 2, (const char *[]){ "traffic.hs_region", "2 entries", NULL });
    expect_error(hr, "-s \"traffic.hs_region=3-1 0\"", 2, (const char *[]){ "traffic.hs_region", "lo-hi", NULL });
    expect_error(hr, "-s \"traffic.hs_sources=0 0\" -s traffic.hs_fraction=0.2", 2, (const char *[]){ "traffic.hs_sources", "hs_fraction", NULL });
    expect_error("[traffic]\nhs_radius = 2\n", "", 2, (const char *[]){ "bad.ini:2", "traffic.hs_radius", "no effect", NULL });
    /* an empty hot-spot list (it divided by zero), fewer sources than hot-spots, a burst no node sends */
    expect_error("[topology]\nk = 2\n[traffic]\nscenario = hotspot\nhs_nodes = ,\n", "", 2,
                 (const char *[]){ "bad.ini:5", "traffic.hs_nodes", "no hot-spot", NULL });
    expect_error("[topology]\nk = 2\n[traffic]\nscenario = hs10-4\n", "", 2,
                 (const char *[]){ "traffic.hs_fraction", "2 sources for 4 hot-spots", NULL });
    expect_error(b, "-s traffic.burst_pattern=shift -s traffic.shift=16", 2, (const char *[]){ "traffic.shift", "burst pattern shift", NULL });
    /* the widest k-ary n-tree switch is 2K below the top; one stage has K ports */
    expect_error("[topology]\ntype = kary-ntree\nk = 33\nstages = 2\n", "", 2, (const char *[]){ "bad.ini:3", "66 ports", NULL });
    expect_error("[topology]\ntype = kary-ntree\nk = 4\nstages = 1\nports = 8\n", "", 2, (const char *[]){ "bad.ini:5", "P = K", NULL });
    /* one message per router cycle at most; every message long */
    expect_error("load = 0.8\n[topology]\ntype = mesh\nk = 4\n[routing]\nalgorithm = dor\n[switch]\nmodel = flit\n[link]\nwidth = 4\n"
                 "[traffic]\nmessage_size = 2B\nprocess = bernoulli-cycle\n", "", 2, (const char *[]){ "bad.ini:1", "load of 0.25", NULL });
    expect_error("[traffic]\nmessage_size = 2KB\nlong_fraction = 1\nlong_size = 8KB\n", "", 2,
                 (const char *[]){ "bad.ini:2", "traffic.message_size", "every message is long", NULL });
    /* a VC allocation policy where the routing picks every VC */
    expect_error("", "-s switch.model=flit -s topology.type=torus -s topology.k=4 -s routing.algorithm=dor-dateline "
                 "-s switch.vcs=2 -s router.vc_alloc=static", 2, (const char *[]){ "router.vc_alloc", "chooses every hop's VC", NULL });
    /* two full packets per bubble queue, as the switch stores them (48 bytes each, not 40) */
    expect_error("[topology]\ntype = torus\nk = 4\nn = 2\n[routing]\nalgorithm = dor-bubble\n[packet]\nmtu = 40B\n"
                 "[traffic]\nmessage_size = 40B\n[switch]\nvcs = 1\nbuffer = 80B\ngranularity = 48B\n", "", 2,
                 (const char *[]){ "bad.ini:13", "switch.buffer", "two full packets", NULL });
}

/* The fat-tree trigger's decision log (ICNSIM_FTADAPT_LOG) is written whole
 * or not at all: a complete CSV where it can be written, exit 2 naming the
 * file where it cannot (no half-written log for triggerlog.py to read). */
TEST(cli_ftadapt_log_is_complete_or_refused)
{
    char cmd[2048], out[4096], path[600];
    const char *args = "experiments/seed002/hs10-1-dmodk-432.ini -s routing.algorithm=ADAP-2TH-S-K/3 -s switch.vcs=3 "
                       "-s queuing.scheme=vftree -s time.warmup=50us -s time.measure=100us -s time.drain=false -q";
    snprintf(path, sizeof path, "%s/ftlog.csv", tmp());
    snprintf(cmd, sizeof cmd, "ICNSIM_FTADAPT_LOG=%s %s run %s -o %s/ftlog-run && head -n 2 %s && ls %s.tmp 2>/dev/null; true",
             path, icnsim_bin(), args, tmp(), path, path);
    CHECK(run_cmd(cmd, out, sizeof out) == 0 && !strncmp(out, "t_us,stage,decisions,fired", 26) && strstr(out, "\n0,1,") &&
          !strstr(out, ".tmp"), "log: %s", out);
    snprintf(cmd, sizeof cmd, "ICNSIM_FTADAPT_LOG=%s/no-such-dir/ftlog.csv %s run %s -o %s/ftlog-run2", tmp(), icnsim_bin(), args, tmp());
    int rc = run_cmd(cmd, out, sizeof out);
    CHECK(rc == 2 && strstr(out, "no-such-dir/ftlog.csv"), "unwritable log: rc %d: %s", rc, out);
}
