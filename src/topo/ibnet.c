/* topology.type = ibnetdiscover: a fabric from ibnetdiscover output.
 *
 * The file has one record per node: a "Switch N "S-<guid>" # "desc" ... lid L
 * lmc M" or "Ca N "H-<guid>" # "desc"" line, then one line per connected
 * port: "[p]" (a CA's with "(portguid)"), the peer "\"S-<guid>\"[q]" (a CA
 * peer's with "(portguid)"), and a comment with the peer's LID and the link's
 * width and speed ("4xQDR"); a CA port's comment starts with its own "lid L
 * lmc M". vendid=, devid=, sysimgguid=, switchguid=, caguid= lines and '#'
 * comments are skipped. Every connected CA port becomes an end node, in file
 * order; switches keep their file order and their port numbers (IB port p is
 * icnsim local port p - 1). CA-to-CA links and routers are refused. */
#include "ibnet.h"
#include "../net/policy.h"
#include "../core/util.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const topo_ops topo_ibnet;

typedef struct rnode { int sw; uint64_t guid; uint32_t nports, line; uint64_t listed; char *name; } rnode_t;
typedef struct rport { uint32_t node, port, rport, line; uint64_t rguid, pguid; uint32_t lid; int lmc, rsw; char rate[8]; } rport_t;

static const char *fname;

static void free_nodes(rnode_t *nd, uint32_t nn)
{
    for (uint32_t i = 0; nd && i < nn; i++) free(nd[i].name);
    free(nd);
}

typedef struct lidline { uint32_t lid, line; } lidline_t;   /* a CA port's LID and its line */

static int by_lid(const void *a, const void *b)
{
    const lidline_t *x = a, *y = b;
    return x->lid < y->lid ? -1 : x->lid > y->lid;
}
/* The reading's allocations (pointers to build()'s own), which bad() frees
 * before it exits: a refused file leaves nothing allocated behind. */
static struct parse {
    struct rnode **nd;
    uint32_t *nn;
    void **pt, **gi, **idx, **ll;
    char **line;
    FILE **f;
} P;

_Noreturn static void bad(int line, const char *what)
{
    fprintf(stderr, "icnsim: %s:%d: %s\n", fname, line, what);
    if (P.nd) {
        free_nodes(*P.nd, *P.nn);
        free(*P.pt); free(*P.gi); free(*P.idx); free(*P.ll); free(*P.line);
        if (*P.f) fclose(*P.f);
    }
    exit(2);
}

/* The first quoted string after p, copied (NULL if none). */
static char *quoted(const char *p)
{
    const char *a = strchr(p, '"');
    if (!a) return NULL;
    const char *b = strchr(a + 1, '"');
    if (!b) return NULL;
    return strndup(a + 1, (size_t)(b - a - 1));
}

/* The number after word (" lid ", " lmc ") in s: -1 if the word is absent;
 * a number outside lo..hi (or none) ends the run naming the line. */
static long after(const char *s, const char *word, long lo, long hi, int line, const char *what)
{
    const char *p = strstr(s, word);
    if (!p) return -1;
    char *e;
    errno = 0;
    /* decimal, as ibnetdiscover prints it, or 0x hex; a word must follow a blank */
    const char *n = p + strlen(word);
    int hex = n[0] == '0' && (n[1] == 'x' || n[1] == 'X');
    long v = strtol(n, &e, hex ? 16 : 10);
    if (e == n || errno || v < lo || v > hi || (*e && !isspace((unsigned char)*e))) bad(line, what);
    return v;
}

/* "4xQDR"-like token in a comment. */
static void rate_of(const char *c, char out[8])
{
    out[0] = 0;
    for (const char *p = c; *p; p++)
        if (isdigit((unsigned char)*p) && p[1] == 'x' && isupper((unsigned char)p[2]) && (p == c || p[-1] == ' ')) {
            size_t n = 0;
            while (n < 7 && p[n] && !isspace((unsigned char)p[n])) { out[n] = p[n]; n++; }
            out[n] = 0;
            return;
        }
}

/* Node id "S-<hex>" / "H-<hex>" at p (after the quote): a GUID of at most
 * 16 hex digits. */
static int parse_id(const char *p, int *is_sw, uint64_t *guid)
{
    if ((p[0] != 'S' && p[0] != 'H') || p[1] != '-') return -1;
    const char *h = p + 2;
    if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) h += 2;
    size_t nd = strspn(h, "0123456789abcdefABCDEF");
    if (!nd || nd > 16 || h[nd] != '"') return -1;
    *guid = strtoull(h, NULL, 16);
    *is_sw = p[0] == 'S';
    return 0;
}

/* A port number "[p]" at p (at its '['), 1..max: the number, or 0. */
static uint32_t port_in_brackets(const char *p, uint32_t max)
{
    if (*p != '[' || !isdigit((unsigned char)p[1])) return 0;
    char *e;
    errno = 0;
    unsigned long v = strtoul(p + 1, &e, 10);
    return *e != ']' || errno || v < 1 || v > max ? 0 : (uint32_t)v;
}

typedef struct gl { uint64_t guid; uint32_t line, sw, node; } gl_t;
static int by_guid(const void *a, const void *b)
{
    const gl_t *x = a, *y = b;
    if (x->sw != y->sw) return x->sw < y->sw ? -1 : 1;
    return x->guid < y->guid ? -1 : x->guid > y->guid ? 1 : (x->line > y->line) - (x->line < y->line);
}

/* The records sorted by (kind, GUID), for look-ups. Two Switch records with
 * one GUID (or two Ca records listing one port) end the run: the second
 * would be a phantom that every link to the GUID misses. */
static gl_t *guid_index(const rnode_t *nd, uint32_t nn)
{
    gl_t *g = xmalloc((nn + 1) * sizeof *g);
    for (uint32_t i = 0; i < nn; i++) g[i] = (gl_t){ nd[i].guid, nd[i].line, (uint32_t)nd[i].sw, i };
    qsort(g, nn, sizeof *g, by_guid);
    for (uint32_t i = 1; i < nn; i++) {
        if (g[i].sw != g[i - 1].sw || g[i].guid != g[i - 1].guid) continue;
        /* one HCA may come as a record per port (icnsim's own writer does
         * so): the same CA GUID again is right if its ports are others */
        uint64_t both = 0;
        for (uint32_t k = i; k > 0 && !g[i].sw && g[k - 1].sw == 0 && g[k - 1].guid == g[i].guid; k--)
            both |= nd[g[k - 1].node].listed & nd[g[i].node].listed;
        if (!g[i].sw && !both) continue;
        char msg[128];
        snprintf(msg, sizeof msg, "this %s's GUID is already that of the record on line %u%s", g[i].sw ? "switch" : "CA",
                 g[i - 1].line, g[i].sw ? "" : ", with a port of the same number");
        bad((int)g[i].line, msg);
    }
    return g;
}

/* The record of the switch (sw = 1) or CA with this GUID, or ICN_NIL. */
static uint32_t guid_find(const gl_t *g, uint32_t nn, int sw, uint64_t guid)
{
    uint32_t lo = 0, hi = nn;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (g[m].sw < (uint32_t)sw || (g[m].sw == (uint32_t)sw && g[m].guid < guid)) lo = m + 1;
        else hi = m;
    }
    return lo < nn && g[lo].sw == (uint32_t)sw && g[lo].guid == guid ? g[lo].node : ICN_NIL;
}

static void build(sim_t *s, cfg_t *c)
{
    fname = cfg_str(c, K_IB_NET_FILE);
    if (!*fname) cfg_fail(c, K_IB_NET_FILE, "topology.type = ibnetdiscover needs the fabric file (ib.net_file)");
    FILE *f = fopen(fname, "r");
    if (!f) cfg_fail(c, K_IB_NET_FILE, "cannot open '%s'", fname);
    rnode_t *nd = NULL;
    rport_t *pt = NULL;
    gl_t *gi = NULL;
    uint32_t *idx = NULL;
    lidline_t *ll = NULL;
    uint32_t nn = 0, np = 0, capn = 0, capp = 0;
    char *line = NULL;
    P = (struct parse){ &nd, &nn, (void **)&pt, (void **)&gi, (void **)&idx, (void **)&ll, &line, &f };
    size_t cap = 0;
    int ln = 0;
    long len;
    while ((len = text_line(&line, &cap, f)) != -1) {
        ln++;
        if (len < 0) bad(ln, text_line_why(len));
        char *p = line;
        while (isspace((unsigned char)*p)) p++;
        p[strcspn(p, "\r\n")] = 0;
        if (!*p || *p == '#') continue;
        if (!strncmp(p, "vendid=", 7) || !strncmp(p, "devid=", 6) || !strncmp(p, "sysimgguid=", 11) ||
            !strncmp(p, "switchguid=", 11) || !strncmp(p, "caguid=", 7) || !strncmp(p, "rtguid=", 7))
            continue;
        if (!strncmp(p, "Switch", 6) || !strncmp(p, "Ca", 2)) {
            int sw = p[0] == 'S';
            char *e, *q = p + (sw ? 6 : 2);
            long ports = strtol(q, &e, 10);
            if (e == q || ports < 1) bad(ln, "expected the port count after 'Switch' or 'Ca'");
            if (ports > MAX_RADIX) bad(ln, "a node with more than 64 ports is not supported");
            char *id = strchr(e, '"');
            int is_sw;
            uint64_t guid;
            if (!id || parse_id(id + 1, &is_sw, &guid) || is_sw != sw)
                bad(ln, sw ? "expected the switch id \"S-<GUID>\" (at most 16 hex digits)" : "expected the CA id \"H-<GUID>\" (at most 16 hex digits)");
            if (nn == capn) nd = xrealloc(nd, (capn = capn ? 2 * capn : 64) * sizeof *nd);
            char *cm = strchr(id + 1, '#');
            nd[nn] = (rnode_t){ sw, guid, (uint32_t)ports, (uint32_t)ln, 0, cm ? quoted(cm) : NULL };
            nn++;
            continue;
        }
        if (!strncmp(p, "Rt", 2)) bad(ln, "routers (Rt) are not supported");
        if (*p != '[') bad(ln, "expected a node line (Switch, Ca), a port line ([port] \"peer\"[port]) or a vendid=/devid=/...guid= line");
        if (!nn) bad(ln, "a port line before any Switch or Ca line");
        char *e;
        long port = strtol(p + 1, &e, 10);
        if (e == p + 1 || *e != ']' || port < 1 || port > (long)nd[nn - 1].nports) bad(ln, "expected [port] with a port number within the node's port count");
        if (nd[nn - 1].listed >> (port - 1) & 1) bad(ln, "this port of the node is listed twice");
        nd[nn - 1].listed |= 1ull << (port - 1);
        rport_t r = { nn - 1, (uint32_t)port, 0, (uint32_t)ln, 0, 0, 0, -1, 0, "" };
        e++;
        if (*e == '[') e = strchr(e, ']') ? strchr(e, ']') + 1 : e;   /* [ext N] */
        if (*e == '(') r.pguid = strtoull(e + 1, &e, 16), e = strchr(e, ')') ? strchr(e, ')') + 1 : e;
        char *id = strchr(e, '"');
        int is_sw;
        if (!id || parse_id(id + 1, &is_sw, &r.rguid)) bad(ln, "expected the peer's id \"S-<GUID>\" or \"H-<GUID>\" (at most 16 hex digits) after the port");
        r.rsw = is_sw;
        char *rb = strchr(id + 1, '"') + 1;
        if (*rb != '[') bad(ln, "expected [port] after the peer's id");
        r.rport = port_in_brackets(rb, MAX_RADIX);
        if (!r.rport) bad(ln, "expected the peer's port number in [port], 1 to 64");
        char *cm = strchr(rb, '#');
        if (cm) {
            rate_of(cm, r.rate);
            if (!nd[nn - 1].sw) {   /* a unicast LID (IBA: 0x0001-0xBFFF; 0: none assigned yet) and an LMC of 0-7 */
                long lid = after(cm, "# lid ", 0, 0xBFFF, ln, "expected a unicast LID (1 to 0xBFFF, or 0 for none) after 'lid'");
                r.lid = lid > 0 ? (uint32_t)lid : 0;
                r.lmc = (int)after(cm, " lmc ", 0, 7, ln, "expected an LMC of 0 to 7 after 'lmc'");
            }
        }
        if (np == capp) pt = xrealloc(pt, (capp = capp ? 2 * capp : 256) * sizeof *pt);
        pt[np++] = r;
    }
    free(line);
    line = NULL;
    fclose(f);
    f = NULL;
    /* switches in file order; CA ports that lead to a switch become nodes */
    uint32_t S = 0, N = 0;
    for (uint32_t i = 0; i < nn; i++) S += nd[i].sw != 0;
    if (!S) bad(ln, "the file has no switches");
    for (uint32_t k = 0; k < np; k++) if (!nd[pt[k].node].sw) N++;
    if (!N) bad(ln, "the file has no CA port connected to a switch");
    gi = guid_index(nd, nn);
    idx = xmalloc((nn + 1) * sizeof *idx);
    for (uint32_t i = 0, w = 0; i < nn; i++) idx[i] = nd[i].sw ? w++ : ICN_NIL;
    uint16_t *nps = xmalloc(S * sizeof *nps);
    for (uint32_t i = 0; i < nn; i++) if (nd[i].sw) nps[idx[i]] = (uint16_t)nd[i].nports;
    net_alloc(s, S, nps, N);
    free(nps);
    ibnet_t *ib = xcalloc(1, sizeof *ib);
    s->topo_data = ib;
    ib->sw_guid = xcalloc(S, sizeof(uint64_t));
    ib->sw_name = xcalloc(S, sizeof(char *));
    ib->ca_guid = xcalloc(N, sizeof(uint64_t));
    ib->ca_pguid = xcalloc(N, sizeof(uint64_t));
    ib->ca_port = xcalloc(N, sizeof(uint32_t));
    ib->ca_name = xcalloc(N, sizeof(char *));
    ib->lid = xcalloc(N, sizeof(uint32_t));
    ib->rate = xcalloc(s->nports, sizeof *ib->rate);
    ib->lmc = -1;
    for (uint32_t i = 0; i < nn; i++)
        if (nd[i].sw) { ib->sw_guid[idx[i]] = nd[i].guid; ib->sw_name[idx[i]] = nd[i].name; nd[i].name = NULL; }
    int lids_ok = 1;
    uint32_t n = 0, some_lid = 0, no_lid = 0;   /* lines of a CA port with a LID, and of one without */
    ll = xmalloc((N + 1) * sizeof *ll);
    for (uint32_t k = 0; k < np; k++) {
        rport_t *r = &pt[k];
        uint32_t peer = ICN_NIL;   /* the switch at the far end */
        /* the peer's id names its kind: S- a Switch record, H- a Ca record */
        uint32_t ps = r->rsw ? guid_find(gi, nn, 1, r->rguid) : ICN_NIL;
        if (ps != ICN_NIL) peer = idx[ps];
        if (r->rsw && ps == ICN_NIL) bad((int)r->line, "no Switch record declares the peer \"S-<GUID>\"");
        if (!r->rsw && guid_find(gi, nn, 0, r->rguid) == ICN_NIL) bad((int)r->line, "no Ca record declares the peer \"H-<GUID>\"");
        if (nd[r->node].sw) {
            uint32_t w = idx[r->node], a = sw_port(s, w, r->port - 1);
            if (peer == ICN_NIL) continue;   /* a CA: linked from the CA's side */
            if (r->rport > s->sw[peer].nports) bad((int)r->line, "the peer's port number exceeds its port count");
            uint32_t b = sw_port(s, peer, r->rport - 1);
            if (a == b) bad((int)r->line, "a cable from a port to itself");
            strcpy(ib->rate[a], r->rate);
            if (s->port[a].peer == b) continue;               /* the other end already linked it */
            if (s->port[a].peer != ICN_NIL || s->port[b].peer != ICN_NIL)
                bad((int)r->line, "this link contradicts the peer's own port line (a port wired twice)");
            net_link(s, a, b);
        } else {
            if (peer == ICN_NIL) bad((int)r->line, "a CA port must lead to a switch (\"S-<GUID>\")");
            if (r->rport > s->sw[peer].nports) bad((int)r->line, "the switch port number exceeds its port count");
            uint32_t b = sw_port(s, peer, r->rport - 1);
            if (s->port[b].peer != ICN_NIL) bad((int)r->line, "the switch port is already wired to another port");
            net_link(s, s->nic[n].port, b);
            strcpy(ib->rate[b], r->rate);
            strcpy(ib->rate[s->nic[n].port], r->rate);
            ib->ca_guid[n] = nd[r->node].guid;
            ib->ca_pguid[n] = r->pguid ? r->pguid : nd[r->node].guid + r->port;
            ib->ca_port[n] = r->port;
            ib->ca_name[n] = nd[r->node].name ? strdup(nd[r->node].name) : NULL;
            ib->lid[n] = r->lid;
            ll[n] = (lidline_t){ r->lid, r->line };
            if (!r->lid) lids_ok = 0;
            *(r->lid ? &some_lid : &no_lid) = r->line;
            if (r->lmc >= 0) {
                if (ib->lmc >= 0 && ib->lmc != r->lmc) bad((int)r->line, "CA ports with different LMCs are not supported");
                ib->lmc = r->lmc;
            }
            n++;
        }
    }
    /* a switch's own lines to CAs must agree with the CAs' lines, which made the links */
    for (uint32_t k = 0; k < np; k++) {
        const rport_t *r = &pt[k];
        if (!nd[r->node].sw || guid_find(gi, nn, 1, r->rguid) != ICN_NIL) continue;
        uint32_t peer = s->port[sw_port(s, idx[r->node], r->port - 1)].peer;
        int ok = peer != ICN_NIL && (s->port[peer].dev & NIC_BIT);
        if (ok) {
            uint32_t ca = s->port[peer].dev & ~NIC_BIT;
            ok = ib->ca_guid[ca] == r->rguid && ib->ca_port[ca] == r->rport;
        }
        if (!ok) bad((int)r->line, "this link to a CA contradicts the CA's own port lines (or the CA lists no such port)");
    }
    /* a fabric discovered before its subnet manager ran has no LIDs (icnsim
     * assigns them); one with LIDs must have them all */
    if (some_lid && no_lid) bad((int)no_lid, "a CA port without a LID (none given, or 0) in a fabric whose other CA ports have LIDs");
    /* given LIDs: each CA port's 2^LMC from a base aligned to it (so within
     * the unicast range, 0xC000 being aligned), shared with no other port */
    if (lids_ok) {
        uint32_t span = 1u << (ib->lmc > 0 ? ib->lmc : 0);
        char why[160];
        for (uint32_t k = 0; k < n; k++) {
            if (ll[k].lid & (span - 1)) bad((int)ll[k].line, "the LID is not a multiple of 2^LMC (a CA's base LID is aligned to its LMC)");
        }
        qsort(ll, n, sizeof *ll, by_lid);
        for (uint32_t k = 1; k < n; k++)
            if (ll[k].lid < ll[k - 1].lid + span) {
                uint32_t a = ll[k].line > ll[k - 1].line ? ll[k].line : ll[k - 1].line, b = ll[k].line ^ ll[k - 1].line ^ a;
                snprintf(why, sizeof why, "this CA port's LIDs overlap those of the CA port on line %u", b);
                bad((int)a, why);
            }
    }
    if (!lids_ok) { free(ib->lid); ib->lid = NULL; }
    free_nodes(nd, nn);
    free(pt); free(idx); free(gi); free(ll);
    P = (struct parse){ 0 };
    for (uint32_t g = 0; g < s->nports; g++) s->port[g].stage = 1;
    s->radix_k[0] = s->nnodes;
    s->radix_n = 1;
}

static void cleanup(sim_t *s)
{
    ibnet_t *ib = s->topo_data;
    for (uint32_t w = 0; w < s->nswitches; w++) free(ib->sw_name[w]);
    for (uint32_t n = 0; n < s->nnodes; n++) free(ib->ca_name[n]);
    free(ib->sw_guid); free(ib->sw_name); free(ib->ca_guid); free(ib->ca_pguid); free(ib->ca_port);
    free(ib->ca_name); free(ib->lid); free(ib->rate);
}

const topo_ops topo_ibnet = { "ibnetdiscover", "a fabric written by ibnetdiscover (ib.net_file): switches, CAs, GUIDs, LIDs, link rates", build, cleanup };

const ibnet_t *ibnet_get(const sim_t *s) { return s->topo == &topo_ibnet ? s->topo_data : NULL; }
const uint32_t *ibnet_lids(const sim_t *s) { return ibnet_get(s) ? ibnet_get(s)->lid : NULL; }
int ibnet_lmc(const sim_t *s) { return ibnet_get(s) ? ibnet_get(s)->lmc : -1; }

uint64_t ibnet_sw_guid(const sim_t *s, uint32_t w) { return ibnet_get(s) ? ibnet_get(s)->sw_guid[w] : 0x0002c90000100000ull + w; }
uint64_t ibnet_ca_guid(const sim_t *s, uint32_t n) { return ibnet_get(s) ? ibnet_get(s)->ca_guid[n] : 0x0002c90000800000ull + 2ull * n; }
uint64_t ibnet_ca_pguid(const sim_t *s, uint32_t n) { return ibnet_get(s) ? ibnet_get(s)->ca_pguid[n] : 0x0002c90000800001ull + 2ull * n; }
uint32_t ibnet_ca_port(const sim_t *s, uint32_t n) { return ibnet_get(s) ? ibnet_get(s)->ca_port[n] : 1; }

const char *ibnet_sw_name(const sim_t *s, uint32_t w, char *buf, size_t n)
{
    const ibnet_t *ib = ibnet_get(s);
    if (ib && ib->sw_name[w]) return ib->sw_name[w];
    snprintf(buf, n, "sw%u", w);
    return buf;
}
const char *ibnet_ca_name(const sim_t *s, uint32_t n, char *buf, size_t len)
{
    const ibnet_t *ib = ibnet_get(s);
    if (ib && ib->ca_name[n]) return ib->ca_name[n];
    snprintf(buf, len, "ca%u", n);
    return buf;
}

const char *ibnet_rate(const sim_t *s, uint32_t g)
{
    const ibnet_t *ib = ibnet_get(s);
    if (ib && ib->rate[g][0]) return ib->rate[g];
    double b = s->link_bps;
    return b >= 200e9 ? "4xHDR" : b >= 100e9 ? "4xEDR" : b >= 56e9 ? "4xFDR" : b >= 40e9 ? "4xQDR" : b >= 20e9 ? "4xDDR" : "4xSDR";
}
