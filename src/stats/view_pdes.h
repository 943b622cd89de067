/* views.pdes: the window statistics of a conservative parallel run on N
 * parts, measured on the sequential run (view_pdes.c). */
#ifndef ICN_VIEW_PDES_H
#define ICN_VIEW_PDES_H
#include "../net/model.h"

typedef struct pdes_view pdes_view_t;

void pdes_view_setup(sim_t *s, uint32_t parts);   /* s->pdes stays NULL for 0 parts */
void pdes_view_free(sim_t *s);
/* Called for every event handled and every device service, when s->pdes is set. */
void pdes_on_event(sim_t *s, const event_t *e);
void pdes_on_service(sim_t *s, uint32_t d);
/* pdes.csv: windows, work per window, cross-part events, the speedup bound. */
void pdes_view_write(sim_t *s, const char *dir);

#endif
