/* Per-link and per-VC views (destinations per VC and port, link utilization,
 * buffer occupancy over time); see views.c. */
#ifndef ICN_VIEWS_H
#define ICN_VIEWS_H
#include "../net/model.h"
#include "../cli/config.h"

void views_setup(sim_t *s, cfg_t *c);   /* s->views stays NULL when all are off */
void views_free(sim_t *s);
void views_on_send(sim_t *s, uint32_t go, const packet_t *p);
void views_on_sample(sim_t *s, uint32_t k);
void views_write(const sim_t *s, const char *dir, const char *title, int render);
/* Destinations seen through switch output port go on VC vc / on any VC. */
uint32_t views_dests(const sim_t *s, uint32_t go, uint32_t vc);
uint32_t views_dests_any_vc(const sim_t *s, uint32_t go);

#endif
