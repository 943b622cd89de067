/* Flit-level router model (switch.model = flit), cycle driven.
 *
 * Packets are split into flits (one phit each); a link carries one flit per
 * router cycle. Each input VC is a FIFO of flits; a header, once it has gone
 * through the pipeline, is routed once (the routing's ordered candidates;
 * again every cycle only for an adaptive routing) and
 * allocated an output VC by a separable allocator, per hop (any VC of the
 * class its routing allows) or static: with wormhole switching a free output VC, which its
 * worm then holds until the tail leaves; with virtual cut-through a free
 * output VC with room downstream for the whole packet. Each cycle every
 * output link sends one flit from one of its VCs (round-robin: flit-by-flit
 * VC multiplexing for wormhole; for VCT a started packet keeps the link until
 * its tail). Credits count flits and return one cycle after a flit leaves.
 * A flit entering a router at cycle t may leave at t + P - 1, P being the sum
 * of the pipeline stages, so a hop costs P cycles and an unloaded packet
 * crossing H routers takes H P + L cycles (L flits). Only routers holding
 * flits are visited, so the cost follows the traffic. */
#ifndef ICN_FLIT_H
#define ICN_FLIT_H
#include "model.h"

struct cfg;

void flit_setup(sim_t *s, struct cfg *c);
void flit_free(sim_t *s);
/* EV_CYCLE: one router cycle. */
void flit_cycle(sim_t *s);
/* A node has a message due (EV_NIC_WAKE): make sure the clock runs. */
void flit_wake_nic(sim_t *s, uint32_t n);
int flit_check_invariants(sim_t *s, int drained);
/* Time to send one packet.mtu packet across one router (pipeline + serialization). */
simtime_t flit_packet_time(const sim_t *s);
/* Credits (flits) of output VC `oi` (port * nvc + vc), for selection functions. */
int32_t flit_credits(const sim_t *s, uint32_t oi);
void flit_deadlock_report(sim_t *s);
/* Most flits one input port has sent in one cycle so far (router.input_speedup bounds it). */
uint32_t flit_max_input_flits(const sim_t *s);

#endif
