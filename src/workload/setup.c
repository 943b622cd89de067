/* Workload set-up: the source (workload.source), ranks and their mapping to
 * nodes (workload.mapping), and the results (workload.csv). */
#include "internal.h"
#include "../stats/outfile.h"
#include "../core/util.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

extern const wl_source_t wl_source_pingpong, wl_source_alltoall, wl_source_allreduce, wl_source_allgather,
    wl_source_bcast, wl_source_barrier, wl_source_halo2d, wl_source_ptrans, wl_source_dimemas;
static const wl_source_t *const sources[] = { &wl_source_pingpong, &wl_source_alltoall, &wl_source_allreduce,
                                              &wl_source_allgather, &wl_source_bcast, &wl_source_barrier,
                                              &wl_source_halo2d, &wl_source_ptrans, &wl_source_dimemas, NULL };

void wl_list(FILE *f)
{
    fprintf(f, "workload sources (workload.source; closed loop, docs/WORKLOADS.md):\n  %-12s %s\n", "none",
            "open-loop synthetic traffic only");
    for (const wl_source_t *const *p = sources; *p; p++) fprintf(f, "  %-12s %s\n", (*p)->name, (*p)->desc);
}

int wl_wanted(cfg_t *c) { return strcmp(cfg_str(c, K_WL_SOURCE), "none") != 0; }

/* rank -> node: linear, a random permutation, or a file of node ids. */
static void map_ranks(sim_t *s, cfg_t *c, wl_t *w)
{
    const char *mp = cfg_str(c, K_WL_MAPPING);
    if (!strcmp(mp, "linear")) {
        for (uint32_t r = 0; r < w->nranks; r++) w->rank[r].node = r;
    } else if (!strcmp(mp, "random")) {
        uint32_t *perm = xmalloc(s->nnodes * sizeof *perm);
        for (uint32_t n = 0; n < s->nnodes; n++) perm[n] = n;
        rng_t r;
        rng_seed(&r, s->seed, RNG_SETUP, 0x776cu);
        for (uint32_t n = s->nnodes; n > 1; n--) {
            uint32_t j = (uint32_t)rng_below(&r, n), t = perm[n - 1];
            perm[n - 1] = perm[j];
            perm[j] = t;
        }
        for (uint32_t k = 0; k < w->nranks; k++) w->rank[k].node = perm[k];
        free(perm);
    } else if (!strcmp(mp, "file")) {
        const char *path = cfg_str(c, K_WL_MAP_FILE);
        FILE *f = fopen(path, "r");
        if (!f) cfg_fail(c, K_WL_MAP_FILE, "cannot read '%s'", path);
        char *line = NULL;
        size_t cap = 0;
        long len;
        uint32_t k = 0, ln = 0;
        while ((len = text_line(&line, &cap, f)) != -1) {   /* one node id per line, then at most a # comment */
            ln++;
            if (len < 0) {
                fclose(f);
                free(line);
                cfg_fail(c, K_WL_MAP_FILE, "%s:%u: %s", path, ln, text_line_why(len));
            }
            char *p = line + strspn(line, " \t\r\n");
            if (*p == '#' || !*p) continue;
            char *end;
            errno = 0;
            unsigned long v = isdigit((unsigned char)*p) ? strtoul(p, &end, 10) : (end = p, 0);
            end += strspn(end, " \t\r\n");
            if (end == p || errno || v >= s->nnodes || (*end && *end != '#')) {
                fclose(f);
                cfg_fail(c, K_WL_MAP_FILE, "%s:%u: want one node id below %u per line (then at most a # comment)", path, ln, s->nnodes);
            }
            if (k < w->nranks) w->rank[k].node = (uint32_t)v;   /* more ids than ranks: the first ones (one file serves a sweep of workload.ranks) */
            k++;
        }
        free(line);
        fclose(f);
        if (k < w->nranks) cfg_fail(c, K_WL_MAP_FILE, "%s: %u node ids for %u ranks", path, k, w->nranks);
    } else {
        cfg_fail(c, K_WL_MAPPING, "must be linear, random or file");
    }
    if (strcmp(mp, "file") && cfg_is_set(c, K_WL_MAP_FILE)) cfg_fail(c, K_WL_MAP_FILE, "only with workload.mapping = file");
    for (uint32_t r = 0; r < w->nranks; r++) {
        wnode_t *nd = &w->node[w->rank[r].node];
        if (nd->rank != ICN_NIL) cfg_fail(c, K_WL_MAPPING, "ranks %u and %u are on node %u: one rank per node", nd->rank, r,
                                          w->rank[r].node);
        nd->rank = r;
    }
}

void wl_setup(sim_t *s, cfg_t *c)
{
    const char *name = cfg_str(c, K_WL_SOURCE);
    if (!strcmp(name, "none")) return;
    const wl_source_t *src = NULL;
    for (const wl_source_t *const *p = sources; *p; p++)
        if (!strcmp((*p)->name, name)) src = *p;
    if (!src) cfg_fail(c, K_WL_SOURCE, "unknown workload source (see icnsim --list)");
    if (s->flit_mode) cfg_fail(c, K_WL_SOURCE, "workloads run on the packet-level model (switch.model = packet)");
    if (cfg_u64(c, K_TIME_WARMUP)) cfg_fail(c, K_TIME_WARMUP, "a workload runs from time 0 to its end: set time.warmup = 0");
    wl_t *w = s->wl = xcalloc(1, sizeof *w);
    w->src = src;
    w->msg_free = w->req_free = ICN_NIL;
    uint32_t n = (uint32_t)cfg_int(c, K_WL_RANKS);
    if (!n) n = s->nnodes;
    if (n > s->nnodes) cfg_fail(c, K_WL_RANKS, "%u ranks on %u nodes: one rank per node", n, s->nnodes);
    w->nranks = n;
    w->src_state = src->open(s, c, &w->nranks);   /* a trace says how many ranks it has */
    n = w->nranks;
    w->rank = xcalloc(n, sizeof *w->rank);
    w->node = xmalloc(s->nnodes * sizeof *w->node);
    for (uint32_t i = 0; i < s->nnodes; i++) w->node[i] = (wnode_t){ ICN_NIL, ICN_NIL, ICN_NIL };
    for (uint32_t r = 0; r < n; r++) w->rank[r] = wl_rank_new(0);   /* (map_ranks places them) */
    map_ranks(s, c, w);
}

void wl_free(sim_t *s)
{
    wl_t *w = s->wl;
    if (!w) return;
    if (w->src_state) w->src->close(w->src_state);
    for (uint32_t r = 0; r < w->nranks; r++) free(w->rank[r].seq);
    free(w->rank); free(w->node); free(w->msg); free(w->req); free(w->map);
    free(w->ts_gen_pkts); free(w->ts_gen_bytes);
    free(w);
    s->wl = NULL;
}

void wl_count_generated(sim_t *s)
{
    const wl_t *w = s->wl;
    s->st.gen_pkts += w->gen_pkts;
    s->st.w_gen_pkts += w->gen_pkts;
    s->st.w_gen_bytes += w->gen_bytes;
    for (uint32_t b = 0; w->ts_gen_pkts && b < s->st.nbins; b++) {
        s->st.ts_gen_pkts[b] += w->ts_gen_pkts[b];
        s->st.ts_gen_bytes[b] += w->ts_gen_bytes[b];
    }
}

void wl_write(const sim_t *s, const char *dir)
{
    const wl_t *w = s->wl;
    if (!w) return;
    outfile_t o;
    FILE *f = out_open(&o, dir, "workload.csv");
    fputs("rank,node,operations,compute_us,communication_us,finish_us,finished\n", f);
    for (uint32_t r = 0; r < w->nranks; r++) {
        const wrank_t *k = &w->rank[r];
        /* a run cut short counts the burst or the wait under way up to now */
        simtime_t comm = k->comm + (k->state != RS_DONE && k->state != RS_RUN && k->state != RS_COMPUTE ? s->now - k->since : 0);
        simtime_t comp = k->compute + (k->state == RS_COMPUTE ? s->now - k->since : 0);
        fprintf(f, "%u,%u,%" PRIu64 ",%.6f,%.6f,%.6f,%d\n", r, k->node, k->ops, comp / 1e6, comm / 1e6,
                (k->state == RS_DONE ? k->finish : s->now) / 1e6, k->state == RS_DONE);
    }
    out_close(&o);
    f = out_open(&o, dir, "workload-summary.csv");
    uint64_t unrec = wl_unreceived(s);
    fputs("source,ranks,finished,makespan_us,messages,bytes_delivered,stuck,unreceived\n", f);
    fprintf(f, "%s,%u,%u,%.6f,%" PRIu64 ",%" PRIu64 ",%u,%" PRIu64 "\n", w->src->name, w->nranks, w->done,
            (w->done == w->nranks ? w->makespan : s->now) / 1e6, w->sent_msgs, w->rx_bytes, w->stuck, unrec);
    out_close(&o);
    if (unrec && w->done == w->nranks)   /* as MPI_Finalize with messages pending: the trace's error */
        fprintf(stderr, "icnsim: warning: the application finished with %" PRIu64 " message%s no rank received "
                "(a send without its receive; workload-summary.csv: unreceived)\n", unrec, unrec == 1 ? "" : "s");
}

simtime_t wl_makespan(const sim_t *s) { return s->wl->makespan; }
uint32_t wl_rank_node(const sim_t *s, uint32_t rank) { return s->wl->rank[rank].node; }
