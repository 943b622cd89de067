/* Fabric files: OpenSM's LFT dump and ibnetdiscover's topology format. */
#ifndef ICN_IB_FILES_H
#define ICN_IB_FILES_H
#include <stdio.h>
#include "subnet.h"

/* Read forwarding tables (OpenSM's opensm-lfts.dump, or dump_lfts / ibroute
 * output) into ib->lft; switches are matched by GUID (ibnet_sw_guid). A
 * malformed file exits with status 2, naming file, line and what was expected. */
void ib_read_lfts(ib_subnet_t *ib, const sim_t *s, const char *path);
/* Write the forwarding tables in OpenSM's LFT dump format. */
void ib_write_lfts(const ib_subnet_t *ib, const sim_t *s, FILE *f);
/* Write the topology in ibnetdiscover format (ibsim reads it as a net file),
 * with the subnet's LIDs in the comments where ibnetdiscover puts them. */
void ib_write_net(const ib_subnet_t *ib, const sim_t *s, FILE *f);

#endif
