/* Congestion control tables: the built-in shapes and tables from files. */
#ifndef ICN_CCT_H
#define ICN_CCT_H
#include "cc.h"
#include <stdio.h>

/* Fill cc->cct and cc->ird[0..ccti_limit] from cc.cct (default: preset_cct
 * when the key is not given). Errors name the key or the file and line. */
void cct_build(sim_t *s, cfg_t *c, const char *preset_cct, cc_t *cc);
/* The built-in quadratic tables, for --list. */
void cct_list(FILE *f);
/* IRD of a CCT entry: (Tp >> shift) x multiplier. */
static inline simtime_t cct_ird(simtime_t tp, uint16_t e) { return (tp >> (e >> 14)) * (simtime_t)(e & 0x3fff); }

#endif
