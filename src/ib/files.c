/* Fabric files (see files.h). Formats as OpenSM 3.3 and infiniband-diags
 * write them:
 *   LFT dump    "Unicast lids [0-N] of switch Lid L guid 0x<16 hex> ('name'):"
 *               then "0x<LID4> <PORT3> # ..." per LID, then "N lids dumped";
 *               dump_lfts / ibroute write "... guid 0x... (name):", two
 *               column-title lines, "0x<LID4> <PORT3> : (...)" and
 *               "N valid lids dumped": both are read.
 *   topology    ibnetdiscover's records (see src/topo/ibnet.c). */
#include "files.h"
#include "../topo/ibnet.h"
#include "../core/util.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

_Noreturn static void bad(const char *path, int line, const char *what)
{
    fprintf(stderr, "icnsim: %s:%d: %s\n", path, line, what);
    exit(2);
}

void ib_read_lfts(ib_subnet_t *ib, const sim_t *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "icnsim: cannot open '%s'\n", path); exit(2); }
    char *line = NULL;
    size_t cap = 0;
    int ln = 0;
    uint32_t w = ICN_NIL;
    uint8_t *seen = xcalloc(s->nswitches, 1);
    /* per LID: the table (1, 2, ...) and line of its last entry, so that a
     * LID listed twice in one table is caught without clearing per table */
    uint32_t *tab = xcalloc(ib->nlid, sizeof *tab), *at = xcalloc(ib->nlid, sizeof *at), ntab = 0;
    long len;
    while ((len = text_line(&line, &cap, f)) != -1) {
        ln++;
        if (len < 0) bad(path, ln, text_line_why(len));
        char *p = line;
        while (isspace((unsigned char)*p)) p++;
        p[strcspn(p, "\r\n")] = 0;
        if (!*p || *p == '#' || *p == '*' || !strncmp(p, "Lid ", 4) || !strncmp(p, "Port ", 5)) continue;
        if (!strncmp(p, "Unicast lids", 12)) {
            char *g = strstr(p, " guid 0x");
            if (!g) bad(path, ln, "expected 'guid 0x<GUID>' in the switch header");
            uint64_t guid = strtoull(g + 8, NULL, 16);
            w = ICN_NIL;
            for (uint32_t v = 0; v < s->nswitches; v++) if (ibnet_sw_guid(s, v) == guid) { w = v; break; }
            if (w == ICN_NIL) bad(path, ln, "no switch of the topology has this GUID");
            if (seen[w]++) bad(path, ln, "a second table for the same switch");
            ntab++;
            continue;
        }
        if (!strncmp(p, "0x", 2)) {
            if (w == ICN_NIL) bad(path, ln, "an entry before any 'Unicast lids ... guid 0x...' header");
            char *e, *e2;
            unsigned long lid = strtoul(p, &e, 16);
            unsigned long port = strtoul(e, &e2, 10);
            if (e == p + 2 || e2 == e || !(isspace((unsigned char)*e2) || !*e2))
                bad(path, ln, "expected '0x<LID> <port>'");
            if (lid > 0xFFFF) bad(path, ln, "a LID above 0xFFFF");
            if (lid >= ib->nlid || ib->owner[lid] == ICN_NIL) continue;   /* switch LIDs: not simulated destinations */
            if (port < 1 || port > s->sw[w].nports) bad(path, ln, "a CA LID must leave by a port between 1 and the switch's port count");
            if (tab[lid] == ntab) {
                char msg[96];
                snprintf(msg, sizeof msg, "this LID is listed twice in the switch's table (first on line %u)", at[lid]);
                bad(path, ln, msg);
            }
            tab[lid] = ntab;
            at[lid] = (uint32_t)ln;
            ib_set(ib, w, (uint32_t)lid, (uint32_t)port - 1);
            continue;
        }
        if (isdigit((unsigned char)*p) && strstr(p, "lids")) continue;   /* "N lids dumped" trailer */
        bad(path, ln, "expected a 'Unicast lids ... guid 0x<GUID>' header, a '0x<LID> <port>' entry or an 'N lids dumped' trailer");
    }
    free(line);
    free(seen); free(tab); free(at);
    fclose(f);
}

void ib_write_lfts(const ib_subnet_t *ib, const sim_t *s, FILE *f)
{
    char nb[64], cb[64];
    for (uint32_t w = 0; w < s->nswitches; w++) {
        fprintf(f, "Unicast lids [0-%u] of switch Lid %u guid 0x%016" PRIx64 " ('%s'):\n", ib->nlid - 1,
                ib->nlid + w <= IB_LID_MAX ? ib->nlid + w : 0, ibnet_sw_guid(s, w), ibnet_sw_name(s, w, nb, sizeof nb));
        uint32_t cnt = 0;
        for (uint32_t lid = 1; lid < ib->nlid; lid++) {
            uint32_t p = ib_lft(ib, w, lid), n = ib->owner[lid];
            if (p == IB_NO_PORT || n == ICN_NIL) continue;
            fprintf(f, "0x%04x %03u # Channel Adapter portguid 0x%016" PRIx64 ": '%s'\n", lid, p + 1, ibnet_ca_pguid(s, n),
                    ibnet_ca_name(s, n, cb, sizeof cb));
            cnt++;
        }
        fprintf(f, "%u lids dumped\n", cnt);
    }
}

void ib_write_net(const ib_subnet_t *ib, const sim_t *s, FILE *f)
{
    char nb[64], cb[64];
    fprintf(f, "# icnsim fabric: %u switches, %u CA ports (ibnetdiscover format)\n\n", s->nswitches, s->nnodes);
    for (uint32_t w = 0; w < s->nswitches; w++) {
        uint64_t g = ibnet_sw_guid(s, w);
        uint32_t swlid = ib->nlid + w <= IB_LID_MAX ? ib->nlid + w : 0;
        fprintf(f, "vendid=0x2c9\ndevid=0xcb20\nsysimgguid=0x%" PRIx64 "\nswitchguid=0x%" PRIx64 "(%" PRIx64 ")\n", g, g, g);
        fprintf(f, "Switch\t%u \"S-%016" PRIx64 "\"\t\t# \"%s\" enhanced port 0 lid %u lmc 0\n", s->sw[w].nports, g,
                ibnet_sw_name(s, w, nb, sizeof nb), swlid);
        for (uint32_t p = 0; p < s->sw[w].nports; p++) {
            uint32_t gp = s->sw[w].port0 + p, q = s->port[gp].peer;
            if (q == ICN_NIL) continue;
            uint32_t d = s->port[q].dev;
            if (d & NIC_BIT) {
                uint32_t n = d & ~NIC_BIT;
                fprintf(f, "[%u]\t\"H-%016" PRIx64 "\"[%u](%" PRIx64 ") \t\t# \"%s\" lid %u %s\n", p + 1, ibnet_ca_guid(s, n),
                        ibnet_ca_port(s, n), ibnet_ca_pguid(s, n), ibnet_ca_name(s, n, cb, sizeof cb), ib->base[n], ibnet_rate(s, gp));
            } else {
                fprintf(f, "[%u]\t\"S-%016" PRIx64 "\"[%u]\t\t# \"%s\" lid %u %s\n", p + 1, ibnet_sw_guid(s, d), s->port[q].local + 1u,
                        ibnet_sw_name(s, d, cb, sizeof cb), ib->nlid + d <= IB_LID_MAX ? ib->nlid + d : 0, ibnet_rate(s, gp));
            }
        }
        fputc('\n', f);
    }
    for (uint32_t n = 0; n < s->nnodes; n++) {
        uint64_t g = ibnet_ca_guid(s, n);
        uint32_t q = s->port[s->nic[n].port].peer, w = s->port[q].dev;
        if (!n || ibnet_ca_guid(s, n - 1) != g) {   /* one record per CA, with the lines of all its ports (as read) */
            uint32_t ports = ibnet_ca_port(s, n);
            for (uint32_t m = n + 1; m < s->nnodes && ibnet_ca_guid(s, m) == g; m++)
                if (ibnet_ca_port(s, m) > ports) ports = ibnet_ca_port(s, m);
            fprintf(f, "vendid=0x2c9\ndevid=0x1017\nsysimgguid=0x%" PRIx64 "\ncaguid=0x%" PRIx64 "\n", g, g);
            fprintf(f, "Ca\t%u \"H-%016" PRIx64 "\"\t\t# \"%s\"\n", ports, g, ibnet_ca_name(s, n, cb, sizeof cb));
        }
        fprintf(f, "[%u](%" PRIx64 ") \t\"S-%016" PRIx64 "\"[%u]\t\t# lid %u lmc %u \"%s\" lid %u %s\n", ibnet_ca_port(s, n),
                ibnet_ca_pguid(s, n), ibnet_sw_guid(s, w), s->port[q].local + 1u, ib->base[n], ib->lmc,
                ibnet_sw_name(s, w, nb, sizeof nb), ib->nlid + w <= IB_LID_MAX ? ib->nlid + w : 0, ibnet_rate(s, s->nic[n].port));
        if (n + 1 == s->nnodes || ibnet_ca_guid(s, n + 1) != g) fputc('\n', f);
    }
}
