/* Figures of a subnet's routes (ib.report). */
#ifndef ICN_IB_REPORT_H
#define ICN_IB_REPORT_H
#include <stdio.h>
#include "subnet.h"

/* One line: routes delivered and minimal, hops, LIDs per inter-switch port, credit loops. */
void ib_report(const ib_subnet_t *ib, const sim_t *s, const char *engine, FILE *f);

#endif
