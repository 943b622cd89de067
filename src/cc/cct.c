/* CCT shapes. linear follows the OPA fabric manager (stl_cca.c: IPG_i =
 * i / limit x DesiredMaxDelay); the quadratic ones are the LLNL scripts'
 * generate_cct_* tables (shift, multiplier = floor(i^2 x 7 / a^2 / b)). */
#include "cct.h"
#include "../core/util.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct quad { const char *name; unsigned shift; double a, b; } cct_quad_t;
static const cct_quad_t quads[] = {
    { "simula-llnl", 3, 106, 0.408 },
    { "simula-optimal", 3, 106, 0.218 },
    { "mellanox-default", 0, 95, 0.218 },
    { "mellanox-llnl", 0, 95, 0.408 },
};

void cct_list(FILE *f)
{
    for (size_t i = 0; i < ICN_ARRAY_LEN(quads); i++)
        fprintf(f, "  %-12s quadratic (LLNL scripts): shift %u, multiplier = floor(i^2 x 7 / %.0f^2 / %g)\n", quads[i].name,
                quads[i].shift, quads[i].a, quads[i].b);
}

static uint16_t entry(unsigned shift, uint32_t mult) { return (uint16_t)(shift << 14 | (mult > 0x3fff ? 0x3fff : mult)); }

/* Linear to max_delay at the limit: the largest shift (finest step) whose
 * multiplier for the last entry fits 14 bits. */
static void linear(cc_t *cc, simtime_t max_delay)
{
    unsigned shift = 3;
    while (shift > 0 && (double)max_delay / (double)(cc->tp >> shift) > 0x3fff) shift--;
    if ((double)max_delay / (double)cc->tp > 0x3fff)   /* entry() caps the multiplier: the table goes flat there */
        fprintf(stderr, "icnsim: warning: cc: cc.max_delay = %.3f us is more than a CCT entry holds at this packet time "
                "(16383 x %.4f us = %.3f us): the table stops growing there\n", max_delay / 1e6, cc->tp / 1e6, 0x3fff * (cc->tp / 1e6));
    double unit = (double)(cc->tp >> shift);
    for (uint32_t i = 0; i <= cc->ccti_limit; i++) {
        double ird = cc->ccti_limit ? (double)max_delay * i / cc->ccti_limit : 0;
        cc->cct[i] = entry(shift, (uint32_t)floor(ird / unit + 0.5));
    }
}

static _Noreturn void file_fail(const char *path, int line, const char *what)
{
    fprintf(stderr, "icnsim: %s:%d: %s\n", path, line, what);
    exit(EXIT_CONFIG);
}

/* A number of a CCT file: decimal, or hexadecimal after 0x (a whole 16-bit
 * word); a leading 0 is not octal. *e = p when there is none. */
static unsigned long number(const char *p, char **e)
{
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        if (!isxdigit((unsigned char)p[2])) { *e = (char *)p; return 0; }
        return strtoul(p + 2, e, 16);
    }
    if (*p < '0' || *p > '9') { *e = (char *)p; return 0; }
    return strtoul(p, e, 10);
}

/* One entry per line: "shift multiplier" or a 16-bit word (0x...); each
 * entry's line into lines. */
static uint32_t from_file(cc_t *cc, const char *path, int *lines)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "icnsim: %s: cannot open the CCT file: %s\n", path, strerror(errno));
        exit(EXIT_CONFIG);
    }
    char *buf = NULL;
    size_t cap = 0;
    long len;
    int line = 0;
    uint32_t n = 0;
    while ((len = text_line(&buf, &cap, f)) != -1) {   /* whole lines: a long comment's tail is no entry */
        line++;
        if (len < 0) { fclose(f); file_fail(path, line, text_line_why(len)); }
        char *h = strchr(buf, '#');
        if (h) *h = 0;
        char *p = buf;
        while (isspace((unsigned char)*p)) p++;
        if (!*p) continue;
        if (n == CC_MAX_CCT) { fclose(f); file_fail(path, line, "more than 896 entries (CCTI_Limit is at most 895)"); }
        unsigned long a, b;
        char *e;
        errno = 0;
        a = number(p, &e);
        if (e == p || errno) { fclose(f); file_fail(path, line, "expected 'shift multiplier' or a 16-bit word 0x..."); }
        while (isspace((unsigned char)*e)) e++;
        if (!*e) {
            if (a > 0xffff) { fclose(f); file_fail(path, line, "a CCT entry is a 16-bit word"); }
            lines[n] = line;
            cc->cct[n++] = (uint16_t)a;
            continue;
        }
        char *e2;
        b = number(e, &e2);
        while (isspace((unsigned char)*e2)) e2++;
        if (e2 == e || *e2 || a > 3 || b > 0x3fff) {
            fclose(f);
            file_fail(path, line, "expected 'shift multiplier' with shift 0..3 and multiplier 0..16383");
        }
        lines[n] = line;
        cc->cct[n++] = entry((unsigned)a, (uint32_t)b);
    }
    free(buf);
    fclose(f);
    return n;
}

void cct_build(sim_t *s, cfg_t *c, const char *preset_cct, cc_t *cc)
{
    const char *name = cfg_is_set(c, K_CC_CCT) ? cfg_str(c, K_CC_CCT) : preset_cct;
    int lines[CC_MAX_CCT];   /* a file's entries: their lines */
    if (cfg_is_set(c, K_CC_MAX_DELAY) && strcmp(name, "linear"))
        cfg_fail(c, K_CC_MAX_DELAY, "applies to cc.cct = linear only");
    if (cfg_is_set(c, K_CC_CCT_FILE) && strcmp(name, "file")) cfg_fail(c, K_CC_CCT_FILE, "applies to cc.cct = file only");
    key_id k = cfg_is_set(c, K_CC_CCT) ? K_CC_CCT : K_CC_PRESET;
    if (!strcmp(name, "linear")) {
        linear(cc, cfg_u64(c, K_CC_MAX_DELAY));
    } else if (!strcmp(name, "file")) {
        const char *path = cfg_str(c, K_CC_CCT_FILE);
        if (!path[0]) cfg_fail(c, K_CC_CCT, "a table from a file needs cc.cct_file");
        uint32_t n = from_file(cc, path, lines);
        if (n == 0) { fprintf(stderr, "icnsim: %s: the CCT file has no entries\n", path); exit(EXIT_CONFIG); }
        if (n <= cc->ccti_limit) {
            fprintf(stderr, "icnsim: %s: the CCT file has %u entries; cc.ccti_limit = %u needs %u\n", path, n,
                    cc->ccti_limit, cc->ccti_limit + 1);
            exit(EXIT_CONFIG);
        }
    } else {
        const cct_quad_t *q = NULL;
        for (size_t i = 0; i < ICN_ARRAY_LEN(quads); i++)
            if (!strcmp(quads[i].name, name)) q = &quads[i];
        if (!q) cfg_fail(c, k, "unknown CCT (linear, simula-llnl, simula-optimal, mellanox-default, mellanox-llnl, file)");
        for (uint32_t i = 0; i <= cc->ccti_limit; i++)
            cc->cct[i] = entry(q->shift, (uint32_t)floor((double)i * i * 7 / (q->a * q->a) / q->b));
    }
    for (uint32_t i = 0; i <= cc->ccti_limit; i++) {
        cc->ird[i] = cct_ird(cc->tp, cc->cct[i]);
        if (i && cc->ird[i] < cc->ird[i - 1]) {
            if (!strcmp(name, "file")) {
                fprintf(stderr, "icnsim: %s:%d: entry %u gives a shorter delay than entry %u (line %d): a CCT must not decrease\n",
                        cfg_str(c, K_CC_CCT_FILE), lines[i], i, i - 1, lines[i - 1]);
                exit(EXIT_CONFIG);
            }
            die("CCT %s decreases at %u", name, i);
        }
    }
    (void)s;
}
