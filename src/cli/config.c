#include "config.h"
#include "../core/units.h"
#include "../core/util.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const keydef_t icn_keys[K__COUNT] = {
#define X(id, name, type, def, mn, mx, doc) [K_##id] = { name, type, def, mn, mx, doc },
    ICN_KEYS(X)
#undef X
};

int key_lookup(const char *name)
{
    for (int k = 0; k < K__COUNT; k++)
        if (!strcmp(icn_keys[k].name, name)) return k;
    return -1;
}

static void origin_prefix(const cfgval_t *v, char *buf, size_t n)
{
    if (!v->file) snprintf(buf, n, "default");
    else if (v->line > 0) snprintf(buf, n, "%s:%d", v->file, v->line);
    else snprintf(buf, n, "%s", v->file);
}

void cfg_fail(const cfg_t *c, key_id k, const char *fmt, ...)
{
    char where[512];
    origin_prefix(&c->val[k], where, sizeof where);
    fprintf(stderr, "icnsim: %s: key '%s' = '%s': ", where, icn_keys[k].name, c->val[k].text);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_CONFIG);
}

static _Noreturn void fail_at(const char *file, int line, const char *fmt, ...)
{
    if (line > 0) fprintf(stderr, "icnsim: %s:%d: ", file, line);
    else fprintf(stderr, "icnsim: %s: ", file);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_CONFIG);
}

/* Parse text into v according to the key's type and range. */
static int parse_value(key_id k, const char *text, cfgval_t *v, char *why, size_t wn)
{
    const keydef_t *d = &icn_keys[k];
    const char *w = NULL;
    int64_t i;
    double x;
    uint64_t u;
    int b;
    switch (d->type) {
    case KT_INT:
        if (parse_int64(text, &i, &w)) break;
        if (i < d->min || i > d->max) {
            snprintf(why, wn, "must be an integer in [%.0f, %.0f]", d->min, d->max);
            return -1;
        }
        v->v.i = i;
        return 0;
    case KT_DOUBLE:
        if (parse_double(text, &x, &w)) break;
        if (x < d->min || x > d->max) {
            snprintf(why, wn, "must be in [%g, %g]", d->min, d->max);
            return -1;
        }
        v->v.d = x;
        return 0;
    case KT_BOOL:
        if (parse_bool(text, &b, &w)) break;
        v->v.i = b;
        return 0;
    case KT_TIME:
        if (parse_time_ps(text, &u, &w)) break;
        if ((double)u < d->min) {
            if (d->min <= 1) snprintf(why, wn, "must be positive");
            else snprintf(why, wn, "must be at least %.0f ps (%g ns)", d->min, d->min * 1e-3);
            return -1;
        }
        if ((double)u > d->max) { snprintf(why, wn, "must be at most %.0f ps (%g s)", d->max, d->max * 1e-12); return -1; }
        v->v.u = u;
        return 0;
    case KT_BYTES:
        if (parse_bytes(text, &u, &w)) break;
        if ((double)u < d->min) { snprintf(why, wn, "must be at least %.0f byte(s)", d->min); return -1; }
        if ((double)u > d->max) { snprintf(why, wn, "must be at most %.0f bytes", d->max); return -1; }
        v->v.u = u;
        return 0;
    case KT_BW:
        if (parse_bandwidth(text, &x, &w)) break;
        if (d->max > 0 && (x < d->min || x > d->max)) {
            snprintf(why, wn, "must be between %g and %g bits per second", d->min, d->max);
            return -1;
        }
        v->v.d = x;
        return 0;
    case KT_NAME:
        for (const char *p = text; *p; p++)
            if (!isalnum((unsigned char)*p) && !strchr("-_./*", *p)) {
                w = "expected a name (letters, digits, '-', '_', '.', '/', '*')";
                break;
            }
        if (w) break;
        if (!*text && *d->def) { w = "must not be empty"; break; }   /* empty: an optional name left unset */
        return 0;
    case KT_STR:
    case KT_LIST:
        return 0;
    }
    snprintf(why, wn, "%s", w ? w : "invalid value");
    return -1;
}

void cfg_set(cfg_t *c, key_id k, const char *text, const char *file, int line)
{
    cfgval_t *v = &c->val[k];
    free(v->text);
    free(v->file);
    v->text = xstrdup(text);
    v->file = file ? xstrdup(file) : NULL;
    v->line = line;
    v->set = file != NULL;
    char why[256];
    if (parse_value(k, text, v, why, sizeof why)) cfg_fail(c, k, "%s", why);
}

void cfg_init(cfg_t *c)
{
    memset(c, 0, sizeof *c);
    c->name = xstrdup("default");
    for (int k = 0; k < K__COUNT; k++) cfg_set(c, (key_id)k, icn_keys[k].def, NULL, 0);
}

void cfg_free(cfg_t *c)
{
    for (int k = 0; k < K__COUNT; k++) { free(c->val[k].text); free(c->val[k].file); }
    free(c->name);
    memset(c, 0, sizeof *c);
}

void cfg_copy(cfg_t *dst, const cfg_t *src)
{
    *dst = *src;
    dst->name = xstrdup(src->name);
    for (int k = 0; k < K__COUNT; k++) {
        dst->val[k].text = xstrdup(src->val[k].text);
        dst->val[k].file = src->val[k].file ? xstrdup(src->val[k].file) : NULL;
    }
}

char *cfg_trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

/* The files being loaded, innermost first: an include of one of them is a cycle. */
typedef struct incl {
    const char *path;        /* as named */
    char *real;              /* canonical path, NULL if unknown */
    const struct incl *up;
    int depth;
    int *files;              /* files loaded so far from the outermost one, itself included */
} incl_t;

/* MAX_CONFIG_FILES bounds what a file that includes others several times,
 * level after level, makes the parser read (each level would multiply it). */
enum { MAX_INCLUDE_DEPTH = 16, MAX_CONFIG_BYTES = 1 << 20, MAX_CONFIG_FILES = 256 };

static void load_file_in(cfg_t *c, const char *path, const incl_t *up, const char *from, int from_line);

/* Parse INI text. Keys before any section are top-level; "[topology]\nk = 4"
 * sets topology.k. "include = other.ini" (top level) loads a file relative to
 * this one; keys after it override the included file's. A key given twice in
 * one file is an error, and so is one given before an include that sets it. */
static void load_text(cfg_t *c, char *text, const char *origin, const incl_t *chain)
{
    char section[128] = "";
    int line = 0;
    int first_line[K__COUNT] = { 0 };
    if (!strncmp(text, "\xEF\xBB\xBF", 3)) text += 3;   /* a UTF-8 byte-order mark, as some editors write */
    for (char *p = text, *nl; p && *p; p = nl) {
        nl = strchr(p, '\n');
        if (nl) *nl++ = 0;
        line++;
        /* Comments: whole-line '#' or ';', and '#' after a blank (space or tab) following a value. */
        for (char *hash = p; (hash = strchr(hash, '#')); hash++)
            if (hash > p && (hash[-1] == ' ' || hash[-1] == '\t')) { *hash = 0; break; }
        char *s = cfg_trim(p);
        if (!*s || *s == '#' || *s == ';') continue;
        if (*s == '[') {
            char *e = strchr(s, ']');
            if (!e || e[1]) fail_at(origin, line, "malformed section header '%s'", s);
            *e = 0;
            snprintf(section, sizeof section, "%s", cfg_trim(s + 1));
            if (strcmp(section, "general") == 0) section[0] = 0;
            continue;
        }
        char *eq = strchr(s, '=');
        if (!eq) fail_at(origin, line, "expected 'key = value', got '%s'", s);
        *eq = 0;
        char *key = cfg_trim(s), *val = cfg_trim(eq + 1);
        char full[256];
        if (section[0]) snprintf(full, sizeof full, "%s.%s", section, key);
        else snprintf(full, sizeof full, "%s", key);
        if (!section[0] && !strcmp(key, "include")) {
            char *dup = xstrdup(origin), *path;
            const char *dir = dirname(dup);
            size_t n = strlen(dir) + strlen(val) + 2;
            path = xmalloc(n);
            if (val[0] == '/') snprintf(path, n, "%s", val);
            else snprintf(path, n, "%s/%s", dir, val);
            free(dup);
            load_file_in(c, path, chain, origin, line);
            free(path);
            /* A key this file gave before the include, which the included
             * file gives again, would be lost without a word. */
            for (int k = 0; k < K__COUNT; k++)
                if (first_line[k] && (c->val[k].line != first_line[k] || strcmp(c->val[k].file, origin)))
                    fail_at(c->val[k].file, c->val[k].line, "key '%s' sets again what %s:%d set before including this file "
                            "(at line %d); a file's own keys go after its includes, which they override",
                            icn_keys[k].name, origin, first_line[k], line);
            continue;
        }
        int k = key_lookup(full);
        if (k < 0) fail_at(origin, line, "unknown key '%s' (see docs/CONFIG.md or `icnsim keys`)", full);
        if (first_line[k]) fail_at(origin, line, "key '%s' given twice (first at line %d)", full, first_line[k]);
        first_line[k] = line;
        cfg_set(c, (key_id)k, val, origin, line);
    }
}

void cfg_load_string(cfg_t *c, const char *text, const char *origin)
{
    char *dup = xstrdup(text);
    load_text(c, dup, origin, NULL);
    free(dup);
}

/* A config file's text, at most MAX_CONFIG_BYTES (so /dev/zero or a huge file
 * is refused, not read until memory runs out); errors name the includer. */
static char *read_config(const char *path, const char *from, int from_line)
{
    const char *who = from ? from : path;
    int line = from ? from_line : 0;
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f) fail_at(who, line, "cannot open %sconfig file '%s': %s", from ? "included " : "", path, strerror(errno));
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        fail_at(who, line, "'%s' is a directory, not a config file", path);
    }
    size_t cap = 4096, n = 0;
    char *buf = xmalloc(cap);
    for (size_t r; (r = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += r;
        if (n > MAX_CONFIG_BYTES) { fclose(f); free(buf); fail_at(who, line, "'%s' is larger than 1 MiB; not a config file", path); }
        if (cap - n < 2) buf = xrealloc(buf, cap *= 2);
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) { free(buf); fail_at(who, line, "cannot read '%s'", path); }
    buf[n] = 0;
    if (memchr(buf, 0, n)) { free(buf); fail_at(path, 0, "file contains NUL bytes; not a text INI file"); }
    return buf;
}

static void load_file_in(cfg_t *c, const char *path, const incl_t *up, const char *from, int from_line)
{
    int count = 0;
    incl_t me = { path, realpath(path, NULL), up, up ? up->depth + 1 : 0, up ? up->files : &count };
    for (const incl_t *i = up; i && me.real; i = i->up)
        if (i->real && !strcmp(i->real, me.real)) {
            const char *ring[MAX_INCLUDE_DEPTH + 2];
            int n = 0;
            for (const incl_t *j = up; j != i->up; j = j->up) ring[n++] = j->path;
            fprintf(stderr, "icnsim: %s:%d: include cycle: ", from, from_line);
            while (n) fprintf(stderr, "%s includes ", ring[--n]);
            fprintf(stderr, "%s\n", path);
            exit(EXIT_CONFIG);
        }
    if (me.depth > MAX_INCLUDE_DEPTH) fail_at(from, from_line, "includes nested more than %d deep", MAX_INCLUDE_DEPTH);
    if (++*me.files > MAX_CONFIG_FILES)
        fail_at(from, from_line, "more than %d config files included in all (a file included again and again?)", MAX_CONFIG_FILES);
    char *buf = read_config(path, from, from_line);
    load_text(c, buf, path, &me);
    free(buf);
    free(me.real);
}

void cfg_load_file(cfg_t *c, const char *path)
{
    free(c->name);
    char *dup = xstrdup(path), *base = basename(dup), *dot = strrchr(base, '.');
    if (dot && !strcmp(dot, ".ini")) *dot = 0;
    c->name = xstrdup(base);
    free(dup);
    load_file_in(c, path, NULL, NULL, 0);
}

void cfg_set_arg(cfg_t *c, const char *kv, const char *origin)
{
    const char *eq = strchr(kv, '=');
    if (!eq) fail_at(origin, 0, "expected key=value, got '%s'", kv);
    char key[256];
    snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
    char *k = cfg_trim(key);
    int id = key_lookup(k);
    if (id < 0) fail_at(origin, 0, "unknown key '%s' (see docs/CONFIG.md or `icnsim keys`)", k);
    char *val = xstrdup(eq + 1), *v = cfg_trim(val);
    if (!*v) {   /* -s key= : back to the default, as if never given (a file's value included) */
        cfg_set(c, (key_id)id, icn_keys[id].def, NULL, 0);
        free(val);
        return;
    }
    /* config.ini must run again as it is: there a '#' after a blank starts a
     * comment and a line break ends the value */
    for (const char *p = v; *p; p++)
        if (*p == '\n' || *p == '\r' || (*p == '#' && (p == v || p[-1] == ' ' || p[-1] == '\t')))
            fail_at(origin, 0, "key '%s': a value cannot hold %s (config.ini would read it back cut)", k,
                    *p == '#' ? "a '#' at its start or after a blank" : "a line break");
    char where[300];
    snprintf(where, sizeof where, "%s %s", origin, kv);
    cfg_set(c, (key_id)id, v, where, 0);
    free(val);
}

int64_t cfg_int(cfg_t *c, key_id k) { c->val[k].used = 1; return c->val[k].v.i; }
double cfg_double(cfg_t *c, key_id k) { c->val[k].used = 1; return c->val[k].v.d; }
uint64_t cfg_u64(cfg_t *c, key_id k) { c->val[k].used = 1; return c->val[k].v.u; }
const char *cfg_str(cfg_t *c, key_id k) { c->val[k].used = 1; return c->val[k].text; }
/* A value of the embedded default is a starting point, not a request: a key
 * given in its place (traffic.rate for its load, topology.shape for its
 * topology.k) replaces it instead of contradicting it. */
int cfg_from_embedded(const cfg_t *c, key_id k) { return c->val[k].file && !strcmp(c->val[k].file, CFG_EMBEDDED); }

int cfg_is_set(const cfg_t *c, key_id k) { return c->val[k].set && !cfg_from_embedded(c, k); }
const char *cfg_peek(const cfg_t *c, key_id k) { return c->val[k].text; }

void cfg_check_unused(cfg_t *c)
{
    for (int k = 0; k < K__COUNT; k++) {
        if (!c->val[k].set || c->val[k].used) continue;
        /* the embedded default is a starting point, not a request: its key
         * that no longer applies (topology.stages once -s makes a torus)
         * goes back to unset, so config.ini runs again as it is */
        if (cfg_from_embedded(c, (key_id)k)) cfg_set(c, (key_id)k, icn_keys[k].def, NULL, 0);
        else cfg_fail(c, (key_id)k, "this key has no effect with the rest of the configuration "
                                    "(see docs/CONFIG.md for when it applies)");
    }
}

void cfg_write(const cfg_t *c, FILE *f)
{
    /* Keys left at their defaults are written as comments: the file shows every
     * value, and runs again as it is (a default key given explicitly could be
     * one that has no effect here, which is an error). */
    fprintf(f, "# icnsim %s: effective configuration of run '%s'; keys left at their default are\n"
               "# commented out, so `icnsim run` on this file repeats the run\n", ICNSIM_VERSION, c->name);
    const char *cur = "";
    size_t curlen = 0;
    for (int k = 0; k < K__COUNT; k++) {
        const char *name = icn_keys[k].name, *dot = strchr(name, '.');
        size_t slen = dot ? (size_t)(dot - name) : 0;
        if (slen != curlen || strncmp(name, cur, slen)) {
            if (slen) fprintf(f, "\n[%.*s]\n", (int)slen, name);
            cur = name;
            curlen = slen;
        }
        fprintf(f, "%s%s = %s\n", c->val[k].set ? "" : "# ", dot ? dot + 1 : name, c->val[k].text);
    }
}
