/* A fabric read from ibnetdiscover output (topology.type = ibnetdiscover,
 * ib.net_file), and the identities (GUIDs, names, link rates) that fabric
 * files need for any icnsim topology. */
#ifndef ICN_IBNET_H
#define ICN_IBNET_H
#include <stdint.h>
#include "../net/model.h"

typedef struct ibnet {
    uint64_t *sw_guid, *ca_guid, *ca_pguid;   /* [switch], [node]: node GUID, port GUID */
    uint32_t *ca_port;                         /* [node] IB port number on its CA */
    char **sw_name, **ca_name;                 /* node descriptions */
    uint32_t *lid;                             /* [node] base LID from the file, or NULL if incomplete */
    int lmc;                                   /* from the file, -1 if not given */
    char (*rate)[8];                           /* [global port] width and speed, e.g. "4xQDR" ("" if unknown) */
} ibnet_t;

/* The fabric of this simulation if read from a file, else NULL. */
const ibnet_t *ibnet_get(const sim_t *s);
/* Base LIDs / LMC given by the fabric file, or NULL / -1. */
const uint32_t *ibnet_lids(const sim_t *s);
int ibnet_lmc(const sim_t *s);
/* Identities: the file's, or made up for icnsim's own topologies
 * (switch w: GUID 0x0002c90000100000 + w, name "sw<w>"; node n: node GUID
 * 0x0002c90000800000 + 2n, port GUID + 1, name "ca<n>"). */
uint64_t ibnet_sw_guid(const sim_t *s, uint32_t w);
uint64_t ibnet_ca_guid(const sim_t *s, uint32_t n);
uint64_t ibnet_ca_pguid(const sim_t *s, uint32_t n);
uint32_t ibnet_ca_port(const sim_t *s, uint32_t n);
const char *ibnet_sw_name(const sim_t *s, uint32_t w, char *buf, size_t n);
const char *ibnet_ca_name(const sim_t *s, uint32_t n, char *buf, size_t len);
/* Width and speed of the link at global port g ("4xEDR" from link.bandwidth if unknown). */
const char *ibnet_rate(const sim_t *s, uint32_t g);

#endif
