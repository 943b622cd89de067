/* Configuration: INI files with sections, includes and -s overrides.
 *
 * Values keep their origin (file and line, or the -s argument) so every error
 * names where the bad value came from. Modules read values through the
 * accessors, which mark the key used; a key the user set that no module read
 * is an error (cfg_check_unused), because nothing asked for may be ignored;
 * the embedded default's keys go back to unset instead. */
#ifndef ICN_CONFIG_H
#define ICN_CONFIG_H
#include <stdint.h>
#include <stdio.h>
#include "keys.h"

#define ICNSIM_VERSION "0.1.0"

typedef enum { KT_INT, KT_DOUBLE, KT_BOOL, KT_TIME, KT_BYTES, KT_BW, KT_NAME, KT_STR, KT_LIST } key_type;

typedef struct keydef {
    const char *name;
    key_type type;
    const char *def;
    double min, max;
    const char *doc;
} keydef_t;

extern const keydef_t icn_keys[K__COUNT];

typedef struct cfgval {
    char *text;          /* value as written */
    char *file;          /* origin: file name, "-s" or NULL for the default */
    int line;
    int set;             /* given by the user */
    int used;            /* read by some module */
    union { int64_t i; double d; uint64_t u; } v;
} cfgval_t;

typedef struct cfg {
    cfgval_t val[K__COUNT];
    char *name;          /* config name (file basename without .ini, or "default") */
} cfg_t;

void cfg_init(cfg_t *c);
void cfg_free(cfg_t *c);
void cfg_copy(cfg_t *dst, const cfg_t *src);
/* The origin of the embedded default configuration's values. */
#define CFG_EMBEDDED "(embedded default)"
/* s without its leading and trailing white space, in place. */
char *cfg_trim(char *s);
/* Load an INI file (errors exit with status 2). */
void cfg_load_file(cfg_t *c, const char *path);
void cfg_load_string(cfg_t *c, const char *text, const char *origin);
/* Apply "key=value"; origin names it in errors. */
void cfg_set_arg(cfg_t *c, const char *kv, const char *origin);
/* Set one key by id from text (value validated). */
void cfg_set(cfg_t *c, key_id k, const char *text, const char *file, int line);
int key_lookup(const char *name);  /* -1 if unknown */

int64_t cfg_int(cfg_t *c, key_id k);
double cfg_double(cfg_t *c, key_id k);
uint64_t cfg_u64(cfg_t *c, key_id k);      /* times (ps) and sizes (bytes) */
const char *cfg_str(cfg_t *c, key_id k);   /* names, strings, lists */
/* Given by the user (a file or -s), not by the embedded default. */
int cfg_is_set(const cfg_t *c, key_id k);
/* The value is the embedded default's (set-up may leave such a key unset:
 * one that does not apply, or a workload's load). */
int cfg_from_embedded(const cfg_t *c, key_id k);
/* The value's text without marking the key used: for a key that takes effect
 * only in some configurations, whose module marks it (cfg_str) where it does. */
const char *cfg_peek(const cfg_t *c, key_id k);

/* Report a bad value of key k: "file:line: key 'x' = 'v': reason", exit 2. */
_Noreturn void cfg_fail(const cfg_t *c, key_id k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Any user-set key that was never read is an error. */
void cfg_check_unused(cfg_t *c);
/* Write the effective configuration as an INI file. */
void cfg_write(const cfg_t *c, FILE *f);

#endif
