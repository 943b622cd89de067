/* Every configuration key, in one table. The table drives parsing, range
 * checks, defaults, `icnsim keys` and docs/CONFIG.md, so a key cannot exist
 * undocumented. Columns: id, name, type, default, min, max, description.
 * For times and sizes the range is in picoseconds and bytes. */
#ifndef ICN_KEYS_H
#define ICN_KEYS_H

#define ICN_KEYS(X) \
 X(SEED, "seed", KT_INT, "1", 0, 9e15, "Random seed. Every random choice draws from a stream derived from (seed, purpose, index), so a run is reproducible bit for bit.") \
 X(LOAD, "load", KT_DOUBLE, "0.5", 0, 1, "Offered load per end node as a fraction of link bandwidth (1.0 = one link's worth). Or give traffic.rate instead; then this column of summary.csv holds the fraction it makes.") \
 X(TIME_WARMUP, "time.warmup", KT_TIME, "50us", 0, 1e18, "Warm-up period; nothing delivered or generated before it enters the statistics.") \
 X(TIME_MEASURE, "time.measure", KT_TIME, "200us", 1, 1e18, "Measurement period after the warm-up: throughput counts what is delivered in it, latency what is generated in it. The run ends at warmup + measure, or after the drain (time.drain).") \
 X(TIME_INTERVAL, "time.interval", KT_TIME, "10us", 1, 1e18, "Sampling interval of timeseries.csv (throughput and counters versus time).") \
 X(TIME_DEADLOCK, "time.deadlock", KT_TIME, "0", 0, 1e18, "Watchdog: if packets are in the network and none moves for this long, the run stops and reports a deadlock (exit status 3); also checked at the end of the run. 0 = automatic: 50 times the time to send one packet.mtu packet and cross one router.") \
 X(TIME_DRAIN, "time.drain", KT_BOOL, "true", 0, 0, "After the measurement window the run goes on, sources still generating, until every packet generated in the window is delivered or time.drain_max has passed, so latency counts the window's slowest packets too; summary.csv reports those still undelivered (undrained) and marks an unstable run. false: the run ends with the window and latency counts only the window's packets delivered in it.") \
 X(TIME_DRAIN_MAX, "time.drain_max", KT_TIME, "0", 0, 1e18, "Longest drain after the window (time.drain). 0 = as long as time.measure.") \
 X(TOPO_TYPE, "topology.type", KT_NAME, "rlft", 0, 0, "Topology: see `icnsim --list`.") \
 X(TOPO_K, "topology.k", KT_INT, "4", 1, 64, "Fat-trees: arity K, ports a switch uses towards each neighbouring stage (P = 2K). k-ary n-cubes: radix k, routers per dimension (topology.shape gives one per dimension).") \
 X(TOPO_PORTS, "topology.ports", KT_INT, "0", 0, 128, "Switch port count P; optional, must equal 2K when given (0 = derive from topology.k).") \
 X(TOPO_STAGES, "topology.stages", KT_INT, "3", 1, 8, "Fat-trees: number of switch stages T (T = 1 is a single crossbar switch).") \
 X(TOPO_N, "topology.n", KT_INT, "2", 1, 8, "k-ary n-cubes (torus, mesh): number of dimensions n; topology.k is the radix (routers per dimension).") \
 X(TOPO_SHAPE, "topology.shape", KT_NAME, "", 0, 0, "k-ary n-cubes (torus, mesh): a radix per dimension, dimension 0 first, joined by 'x' (8x4: 8 routers along dimension 0, 4 along dimension 1; router r = x + 8 y), as SST Merlin's torus shape; instead of topology.k and topology.n. Node ids follow the router numbering, so bit permutations need a power-of-two product.") \
 X(TOPO_CONC, "topology.concentration", KT_INT, "1", 1, 16, "k-ary n-cubes: end nodes per router (node = router * concentration + i).") \
 X(LINK_BW, "link.bandwidth", KT_BW, "100Gbps", 1e6, 8e12, "Bandwidth of every link, each direction (full duplex); 1 Mbps to 8 Tbps, so that a byte takes at least 1 ps and the largest packet fits the time range.") \
 X(LINK_DELAY, "link.delay", KT_TIME, "6ns", 0, 1e15, "Propagation delay of every link; credits travel back with the same delay.") \
 X(SW_MODEL, "switch.model", KT_NAME, "packet", 0, 0, "Router model: packet (event-driven, virtual cut-through at packet granularity) or flit (cycle-driven flits, wormhole or VCT, pipeline; k-ary n-cubes).") \
 X(SW_SWITCHING, "switch.switching", KT_NAME, "wormhole", 0, 0, "Flit model: wormhole (a VC is held by one worm, links multiplex VCs flit by flit) or vct (a packet needs room for all its flits; links multiplex whole packets).") \
 X(SW_VC_SIZES, "switch.vc_sizes", KT_LIST, "", 0, 0, "Flit model: per-VC input buffer sizes (e.g. 160B 80B 80B), instead of switch.buffer split equally.") \
 X(FLIT_PHIT, "link.phit", KT_BYTES, "2", 1, 1024, "Flit model: phit size (the unit of link width).") \
 X(FLIT_PHITS, "link.flit", KT_INT, "1", 1, 64, "Flit model: phits per flit (the unit of buffering and flow control).") \
 X(LINK_WIDTH, "link.width", KT_INT, "1", 1, 64, "Flit model: phits a link carries per router cycle; a flit takes ceil(flit / width) cycles, or a link carries width / flit flits per cycle (then a multiple of link.flit).") \
 X(ROUTER_CYCLE, "router.cycle", KT_TIME, "5ns", 1, 1e12, "Flit model: router clock period.") \
 X(ROUTER_SYNC, "router.sync", KT_INT, "1", 0, 16, "Flit model: synchronizer cycles per hop (seed 004: 0.5-1.5, 1 on average).") \
 X(ROUTER_FIFO, "router.fifo", KT_INT, "1", 0, 16, "Flit model: input FIFO cycles per hop.") \
 X(ROUTER_ROUTING, "router.routing", KT_INT, "1", 0, 16, "Flit model: routing unit cycles per hop.") \
 X(ROUTER_XBAR, "router.crossbar", KT_INT, "1", 0, 16, "Flit model: arbitration and crossbar cycles per hop.") \
 X(ROUTER_VCMUX, "router.vcmux", KT_INT, "0", 0, 16, "Flit model: VC multiplexer cycles per hop (wormhole VC routers have one).") \
 X(SW_BUFFER, "switch.buffer", KT_BYTES, "192KB", 1, 4e9, "Input buffer per switch port, statically split into equal VCs.") \
 X(SW_VCS, "switch.vcs", KT_INT, "1", 1, 64, "Virtual channels per port (switch inputs and NIC injection).") \
 X(SW_VOQ, "switch.voq", KT_BOOL, "false", 0, 0, "Packet model: virtual output queues. Each VC of an input buffer is demultiplexed per output port (the output is chosen when the packet arrives); flow control stays per VC, not per VOQ, and any VOQ head may request the crossbar.") \
 X(SW_CROSSBAR, "switch.crossbar", KT_NAME, "port", 0, 0, "Packet model: crossbar inputs. port: one per input port, which feeds one output at a time; queue: one per VC queue (per VOQ with switch.voq), so an input port feeds several outputs at once, one packet per queue (seed 002: VOQs let \"the same VL forward packets at the same time to different output ports\"). With queue each queue requests one output, so the allocator reduces to a round-robin grant per output.") \
 X(SW_ARBITER, "switch.arbiter", KT_NAME, "islip", 0, 0, "Crossbar allocator: see `icnsim --list`.") \
 X(SW_ISLIP_ITERS, "switch.islip_iterations", KT_INT, "3", 1, 16, "iSLIP request-grant-accept iterations per allocation.") \
 X(SW_GRANULARITY, "switch.granularity", KT_BYTES, "1", 1, 4e9, "Buffers are allocated in units of this many bytes: a packet occupies its size rounded up (seed 004's VCT routers advance in units of the long packet).") \
 X(SW_ROUTING_DELAY, "switch.routing_delay", KT_TIME, "0ns", 0, 1e15, "Delay from a packet head's arrival at a switch input to its eligibility for the crossbar.") \
 X(NIC_BUFFER, "nic.buffer", KT_BYTES, "192KB", 1, 4e9, "Receive buffer of an end node's port (the credits its switch sees); drained at link rate.") \
 X(NIC_QUEUES, "nic.queues", KT_NAME, "per-vc", 0, 0, "Source queues of an end node when the queuing scheme uses several VCs: per-vc (one FIFO per VC, served round-robin among those with credits, so a blocked VC does not stop the others, like an InfiniBand HCA's send queues per SL) or shared (one FIFO: the head message's VC blocks the node).") \
 X(NIC_QUEUE_LIMIT, "nic.queue_limit", KT_INT, "256", 0, 1e9, "nic.queues = per-vc: messages each VC's source queue holds; a message generated for a full queue is dropped at the source and counted (src_drops). 0 = unbounded (memory grows with the backlog of a saturated VC).") \
 X(NIC_FLOWS, "nic.flows", KT_INT, "256", 1, 65536, "Flow transport (with cc.mode = iba): flows (queue pairs) a node keeps at once, each with its own send queue of up to nic.queue_limit messages. A message for a new destination beyond that waits, with the messages after it, in the node's source queue until a flow ends: set it to the number of destinations for no such blocking (memory grows with it: about 2.8 GB for 1024 at 11664 nodes under saturation).") \
 X(PKT_MTU, "packet.mtu", KT_BYTES, "4KB", 1, 4e9, "Largest packet; messages are split into packets of this size (the last may be shorter).") \
 X(MSG_SIZE, "traffic.message_size", KT_BYTES, "4KB", 1, 4e9, "Size of a generated message (of a short one when traffic.long_fraction > 0).") \
 X(MSG_LONG_FRACTION, "traffic.long_fraction", KT_DOUBLE, "0", 0, 1, "Bimodal lengths: probability that a message is long (seed 004: 0.1 for 20/200 phits, 0.8 for 4/20 phits).") \
 X(MSG_LONG_SIZE, "traffic.long_size", KT_BYTES, "0", 0, 4e9, "Bimodal lengths: size of a long message (used when traffic.long_fraction > 0).") \
 X(ROUTING, "routing.algorithm", KT_NAME, "dmodk", 0, 0, "Routing algorithm: see `icnsim --list`.") \
 X(ROUTING_TIE, "routing.tie", KT_NAME, "random", 0, 0, "Torus DOR routings: direction when the offset is exactly k/2: random (per packet and dimension), plus, or balanced (+ from even source coordinates, - from odd).") \
 X(ROUTING_BUBBLE, "routing.bubble", KT_NAME, "local", 0, 0, "dor-bubble: where the bubble (room for 2 packets) is checked when a packet enters a ring: local (the router's own input queue of that ring, as the hardware of seed 004) or remote (the next router's queue).") \
 X(ROUTING_SELECTION, "routing.selection", KT_NAME, "dynamic-xy", 0, 0, "Adaptive routings: order in which the adaptive channels are requested: dynamic-xy (current dimension, then the next ones), zigzag (largest remaining offset first), max-credits (most free space downstream first), random. The escape channel comes last.") \
 X(ROUTING_ESCAPE_AFTER, "routing.escape_after", KT_INT, "64", 0, 65535, "Adaptive routings: after this many lost arbitrations a packet waits only for its escape channel (seed 004's starvation guard; 0 = never).") \
 X(ROUTING_LTTH, "routing.ltth", KT_DOUBLE, "0.25", 0, 1, "Fat-tree routings with a trigger (ADAP-TH-*, ADAP-2TH-*, afi): low triggering threshold as a fraction of a VC's credits. TH/2TH leave D-mod-K when its port's downstream VC has fewer free credits than this; AFI adapts when they are at most this (its 75 % occupancy threshold).") \
 X(ROUTING_WHEN, "routing.when", KT_STR, "head", 0, 0, "Packet-level input-queued switches: when a packet is routed. head = when it reaches the head of its VC queue, with the credits of that moment; arrival = when it enters the input buffer, keeping that choice while it waits (seed 002's simulator: it reproduces the paper's TH/2TH results). VOQ switches always route at arrival.") \
 X(ROUTING_DELTA_REF, "routing.delta_ref", KT_NAME, "dmodk", 0, 0, "ADAP-*-K/d routings: what an up port p is compared with, mod d, to be a candidate: dmodk (p mod d == this stage's D-mod-K port mod d, so the D-mod-K port is always a candidate; the reading that gives seed 002 Table 1's K/Delta counts) or destination (p mod d == D mod d, Algorithm 1's ModuloResult read literally). The two agree at stage 1 when d divides K.") \
 X(ROUTING_SCAN, "routing.scan", KT_NAME, "dmodk", 0, 0, "ADAP-* routings: the order in which candidate up ports are compared (Algorithm 1's OutPortList.SortBy(Port)): dmodk (from the D-mod-K port upwards, cyclically, so ties go to D-mod-K and then the next port) or port (ascending port number, so ties go to the lowest port).") \
 X(ROUTING_HTTH, "routing.htth", KT_DOUBLE, "0.5", 0, 1, "ADAP-2TH-*: high triggering threshold as a fraction of a VC's credits; after triggering, D-mod-K is used again once its port's downstream VC has at least this many free credits.") \
 X(IB_ENGINE, "ib.engine", KT_NAME, "minhop", 0, 0, "routing.algorithm = lft: the routing engine that fills the InfiniBand linear forwarding tables: minhop, updn, ftree, dor, dfs-disjoint, dmodk or file (see `icnsim --list` and docs/INFINIBAND.md).") \
 X(IB_LMC, "ib.lmc", KT_INT, "0", 0, 7, "routing.algorithm = lft: LID Mask Control; every CA port gets 2^lmc LIDs (base aligned to 2^lmc, all within the unicast range 0x0001-0xBFFF), a path per LID offset (packet.path).") \
 X(IB_ROOT, "ib.root", KT_LIST, "", 0, 0, "ib.engine = updn: root switches (indices, space separated). Default: a fat-tree's top stage, else the switch with the smallest largest distance to the switches with CAs.") \
 X(IB_LFT_FILE, "ib.lft_file", KT_STR, "", 0, 0, "ib.engine = file: forwarding tables in the format of OpenSM's LFT dump (opensm-lfts.dump) or of dump_lfts / ibroute; switches are matched by GUID.") \
 X(IB_ALLOW_LOOPS, "ib.allow_credit_loops", KT_BOOL, "false", 0, 0, "routing.algorithm = lft: run even if the credit-loop check finds a cycle in the channel dependency graph (it is printed; the deadlock watchdog still reports a deadlock). Default: refuse (exit status 2).") \
 X(IB_NET_FILE, "ib.net_file", KT_STR, "", 0, 0, "topology.type = ibnetdiscover: the fabric, as written by ibnetdiscover (switches, CAs, ports, GUIDs, LIDs, link widths and speeds).") \
 X(IB_WRITE_NET, "ib.write_net", KT_STR, "", 0, 0, "routing.algorithm = lft: write the topology to this file in ibnetdiscover format (also an ibsim net file) before the run.") \
 X(IB_WRITE_LFTS, "ib.write_lfts", KT_STR, "", 0, 0, "routing.algorithm = lft: write the forwarding tables to this file in OpenSM's LFT dump format before the run.") \
 X(IB_REPORT, "ib.report", KT_BOOL, "false", 0, 0, "routing.algorithm = lft: print the routes' figures before the run: routes delivered, hops (mean, max; minimal = switch distance + 1), LIDs per inter-switch port (max, mean), credit loops.") \
 X(QUEUING, "queuing.scheme", KT_NAME, "1q", 0, 0, "Queuing scheme: how packets map onto VCs (at injection; at every hop for voqsw and vftree-hop) or, for voqnet, onto per-destination queues: see `icnsim --list`.") \
 X(QUEUING_DEPTH, "queuing.queue_size", KT_BYTES, "0", 0, 4e9, "queuing.scheme = voqnet: bytes of each per-destination queue at a switch input, with its own credits; 0 = two packets (packet.mtu), enough for full link rate. Queues exist only while they hold packets or owe credits.") \
 X(TR_RATE, "traffic.rate", KT_DOUBLE, "0", 0, 8e6, "Offered load per end node in bits/us (Mbit/s), the unit of seeds 001 and 003, instead of load (set one of the two); at most link.bandwidth.") \
 X(TR_PROCESS, "traffic.process", KT_NAME, "bernoulli", 0, 0, "Injection process: see `icnsim --list`.") \
 X(TR_PATTERN, "traffic.pattern", KT_NAME, "uniform", 0, 0, "Destination pattern of the background traffic: see `icnsim --list`.") \
 X(TR_SELF, "traffic.self", KT_BOOL, "false", 0, 0, "Uniform pattern only: whether a node may pick itself as destination.") \
 X(TR_SHIFT, "traffic.shift", KT_INT, "1", -1e9, 1e9, "Shift pattern only: destination = (source + shift) mod N.") \
 X(TR_SCENARIO, "traffic.scenario", KT_NAME, "none", 0, 0, "Scenario laid over the pattern (hot-spots, bursts): see `icnsim --list`.") \
 X(TR_HS_FRACTION, "traffic.hs_fraction", KT_DOUBLE, "0.1", 0, 1, "Scenarios hotspot and hs-region: fraction of end nodes that send to the hot-spots (chosen at random, never a hot-spot themselves).") \
 X(TR_HS_COUNT, "traffic.hs_count", KT_INT, "1", 1, 1e6, "Scenario hotspot only: number of hot-spot destinations.") \
 X(TR_HS_NODES, "traffic.hs_nodes", KT_LIST, "600 3400 5200 9500", 0, 0, "Hot-spot node ids as given for an 11664-node network; for N nodes each id i maps to floor(i * N / 11664). Space separated.") \
 X(TR_HS_START, "traffic.hs_start", KT_TIME, "0", 0, 1e18, "Time the hot-spot sources (hotspot, hs-region, ihs and the presets) start sending to their hot destinations; before it they follow the pattern.") \
 X(TR_HS_PERIOD, "traffic.hs_period", KT_TIME, "0", 0, 1e18, "Scenarios hotspot, hs10-1, hs25-1, hs10-4, hs25-4: the hot-spots move every period from traffic.hs_start on, to the next traffic.hs_count nodes of a random order (drawn from the seed) of the nodes that are not sources; the sources follow (Gran et al.'s moving hot-spots). 0 = they never move.") \
 X(TR_HS_END, "traffic.hs_end", KT_TIME, "0", 0, 1e18, "Time they go back to the pattern; 0 = never.") \
 X(TR_HS_REGION, "traffic.hs_region", KT_LIST, "", 0, 0, "Scenario hs-region: the box of router coordinates at the heart of the hot-spot region, one entry per dimension, each a coordinate or an inclusive range lo-hi (3 3: router (3,3); 2-5 0-1: a 4x2 rectangle). Default: the central router (k_d / 2 in every dimension).") \
 X(TR_HS_RADIUS, "traffic.hs_radius", KT_INT, "1", 0, 1000, "Scenario hs-region: the region is every router within this many hops of the box (round the rings in a torus): 1 adds the neighbours, 0 is the box alone.") \
 X(TR_HS_SOURCES, "traffic.hs_sources", KT_LIST, "", 0, 0, "Scenario hs-region: a box of router coordinates (as traffic.hs_region) whose nodes are the sources, instead of traffic.hs_fraction of the nodes at random; nodes of the region never are.") \
 X(TR_IHS_FRACTION, "traffic.ihs_fraction", KT_DOUBLE, "0.2", 0, 1, "Scenario ihs only: fraction of end nodes sending to the intermediate hot ports.") \
 X(TR_BURST_PERIOD, "traffic.burst_period", KT_TIME, "200us", 1000, 1e18, "Scenarios bursty and bursty-var: length of a cycle, a low phase then a burst; cycles start at time 0.") \
 X(TR_BURST_LENGTH, "traffic.burst_length", KT_TIME, "50us", 1000, 1e18, "Scenarios bursty and bursty-var: length of the burst that ends each cycle (shorter than traffic.burst_period).") \
 X(TR_BURST_PATTERN, "traffic.burst_pattern", KT_LIST, "bitrev", 0, 0, "Scenarios bursty and bursty-var: the burst's pattern (bursty), or the patterns the bursts take in turn (bursty-var: burst i uses entry i mod m). Space separated. A node a pattern leaves without destination (a fixed point) is idle during its bursts.") \
 X(TR_LOW_LOAD, "traffic.low_load", KT_DOUBLE, "0.1", 0, 1, "Scenarios bursty and bursty-var: load of the low phase, on traffic.pattern, as a fraction of link bandwidth (the burst's is load or traffic.rate).") \
 X(TR_LOW_RATE, "traffic.low_rate", KT_DOUBLE, "0", 0, 8e6, "Scenarios bursty and bursty-var: load of the low phase in bits/us per node, instead of traffic.low_load (set one of the two).") \
 X(CC_MODE, "cc.mode", KT_NAME, "off", 0, 0, "Congestion control: off, or iba (InfiniBand Annex A10: switches mark FECN on packets leaving congested ports, destinations return a CNP with BECN to the source, sources throttle by a CCT index). Needs a routing that fixes the output at arrival (deterministic); turns on the flow transport at the NICs.") \
 X(CC_PRESET, "cc.preset", KT_NAME, "opa", 0, 0, "cc.mode = iba: the set of defaults for the cc.* keys not given: opa (OPA fabric manager template: Threshold 8, Marking_Rate 0, CCTI_Increase 5, CCTI_Timer 10, linear CCT to 8300 ns, per flow) or simula-llnl (LLNL hardware study: Threshold 15, Marking_Rate 15, Packet_Size 1, CCTI_Increase 1, CCTI_Timer 150, quadratic simula_llnl CCT, per SL). See docs/INFINIBAND-CC.md.") \
 X(CC_THRESHOLD, "cc.threshold", KT_INT, "8", 0, 15, "IBA CC switch Threshold (OpenSM cc_sw_cong_setting_threshold): 0 never marks; otherwise a port's VL is congested when the bytes queued for it in the switch reach B (16 - T) / 16, B a VL buffer (15: 1/16 of it, 1: 15/16).") \
 X(CC_HYSTERESIS, "cc.hysteresis", KT_BYTES, "0", 0, 4e9, "IBA CC: a congested port VL leaves the state when its queued bytes fall below the threshold minus this (0 = one packet.mtu; Gran et al. found more than one MTU needed for fairness). Set 1B for no hysteresis.") \
 X(CC_MARKING_RATE, "cc.marking_rate", KT_INT, "0", 0, 65535, "IBA CC Marking_Rate (cc_sw_cong_setting_marking_rate): eligible packets between two marked ones, per port and VL (0 = mark every eligible packet).") \
 X(CC_PACKET_SIZE, "cc.packet_size", KT_INT, "0", 0, 255, "IBA CC Packet_Size (cc_sw_cong_setting_packet_size): packets smaller than this many 64-byte units are not marked (0 = all sizes).") \
 X(CC_VICTIM_MASK, "cc.victim_mask", KT_NAME, "all", 0, 0, "IBA CC Victim_Mask (cc_sw_cong_setting_victim_mask): all (victim ports mark too) or none (only root ports mark). A congested port is a victim when its downstream VL has no room for another packet.mtu packet as it forwards, a root otherwise.") \
 X(CC_PORT_CONTROL, "cc.port_control", KT_NAME, "flow", 0, 0, "IBA CC Port_Control (cc_ca_cong_setting_port_control): flow (CCTI per queue pair: (source, destination)) or sl (per source node and SL, shared by its flows).") \
 X(CC_CCTI_INCREASE, "cc.ccti_increase", KT_INT, "5", 0, 255, "IBA CC CCTI_Increase (cc_ca_cong_setting_ccti_increase): added to the CCT index on each BECN, up to cc.ccti_limit.") \
 X(CC_CCTI_TIMER, "cc.ccti_timer", KT_INT, "10", 1, 65535, "IBA CC CCTI_Timer (cc_ca_cong_setting_ccti_timer) in units of 1.024 us: while the index is above cc.ccti_min it is lowered by one at every expiry.") \
 X(CC_CCTI_MIN, "cc.ccti_min", KT_INT, "0", 0, 255, "IBA CC CCTI_Min (cc_ca_cong_setting_ccti_min): the index never falls below it.") \
 X(CC_CCTI_LIMIT, "cc.ccti_limit", KT_INT, "127", 0, 895, "IBA CC CCTI_Limit: the largest index (the CCT has limit + 1 entries).") \
 X(CC_CCT, "cc.cct", KT_NAME, "linear", 0, 0, "IBA CC congestion control table (OpenSM cc_cct): linear (OPA fabric manager: IRD_i = i / limit x cc.max_delay), simula-llnl, simula-optimal, mellanox-default, mellanox-llnl (the quadratic tables of the LLNL scripts), or file (cc.cct_file). Entries are (CCT_Shift, CCT_Multiplier): IRD = (Tp >> shift) x multiplier, Tp the serialization time of a packet.mtu packet.") \
 X(CC_MAX_DELAY, "cc.max_delay", KT_TIME, "8300ns", 1, 1e12, "cc.cct = linear: the IRD at the last index (OPA DesiredMaxDelay).") \
 X(CC_CCT_FILE, "cc.cct_file", KT_STR, "", 0, 0, "cc.cct = file: a table, one entry per line as 'shift multiplier' (shift 0..3, multiplier 0..16383) or a 16-bit hex word 0x...; '#' comments. Indices must give non-decreasing delays; at least cc.ccti_limit + 1 entries.") \
 X(CC_CNP_SIZE, "cc.cnp_size", KT_BYTES, "26", 1, 4096, "Bytes of a CNP on the wire (LRH 8 + BTH 12 + ICRC 4 + VCRC 2).") \
 X(MP_SCHEME, "multipath.scheme", KT_NAME, "off", 0, 0, "Source multipath balancing (docs/DRB.md): off; drb (seed 003's Distributed Routing Balancing: per pair a metapath of multi-step paths S->IN1->IN2->D opened and closed from the queueing latency that ACKs return; needs routing.algorithm = dor-msp); pr-drb (DRB plus routers' records of contending flows and a per-pair database of solutions re-applied when a pattern recurs); drb-ib (seed 001: the 2^LMC LID paths of routing.algorithm = lft, opened by IBA CC's BECNs, cc.mode = iba, no throttling). Turns on the flow transport at the NICs.") \
 X(DRB_HIGH, "drb.high", KT_DOUBLE, "2", 1, 1000, "drb, pr-drb: open one more path when the metapath latency (sum of 1/L_i)^-1 exceeds this multiple of its zero-load value (sum of 1/L0_i)^-1.") \
 X(DRB_LOW, "drb.low", KT_DOUBLE, "1.2", 0, 1000, "drb, pr-drb: close one path (never path 0) when the metapath latency falls below this multiple of its zero-load value; below drb.high.") \
 X(DRB_EWMA, "drb.ewma", KT_DOUBLE, "0.25", 0.001, 1, "drb, pr-drb: weight of a new ACK in a path's latency estimate (1 = the last value).") \
 X(DRB_IDLE, "drb.idle", KT_TIME, "0", 0, 1e15, "drb, pr-drb: a pair with no message in flight whose last ACK is older than this returns to path 0 at its next message (its estimates describe a network that has moved on; PR-DRB saves the solution first). 0 = 20 times the zero-load latency of the pair's path 0.") \
 X(DRB_RADIUS, "drb.radius", KT_INT, "2", 1, 64, "drb, pr-drb: largest supernode radius (hops around the source and destination routers) where intermediate routers IN1 and IN2 are looked for; at most the network's diameter.") \
 X(DRB_PATHS, "drb.max_paths", KT_INT, "4", 1, 16, "drb, pr-drb: paths a metapath holds at most, path 0 included.") \
 X(DRB_ACK_SIZE, "drb.ack_size", KT_BYTES, "32", 1, 4096, "drb, pr-drb: bytes of an ACK on the wire (an InfiniBand ACK is 30: LRH 8 + BTH 12 + AETH 4 + ICRC 4 + VCRC 2; plus the latency field, rounded).") \
 X(DRB_LOG, "drb.log", KT_INT, "100000", 0, 1e9, "Multipath schemes: rows of drb-log.csv at most (every opening, closing, applied or saved solution, per pair, with the metapath width).") \
 X(PRDRB_MONITOR, "prdrb.monitor", KT_TIME, "0", 0, 1e15, "pr-drb: a packet that waits longer than this at a router records the flows in that router's buffers (once per packet, at the first such router); 0 = the serialization time of a packet.mtu packet.") \
 X(PRDRB_MATCH, "prdrb.match", KT_DOUBLE, "0.5", 0.01, 1, "pr-drb: a stored solution applies when the Jaccard similarity of its contending-flow set and the current one reaches this (1 = identical sets).") \
 X(PRDRB_DB, "prdrb.db_size", KT_INT, "8", 1, 1024, "pr-drb: solutions a pair stores; a new pattern beyond that replaces the worst.") \
 X(WL_SOURCE, "workload.source", KT_NAME, "none", 0, 0, "Closed-loop application workload (docs/WORKLOADS.md): none (open-loop synthetic traffic only), a built-in kernel (pingpong, alltoall, allreduce, allgather, bcast, barrier, halo2d, ptrans) or a trace reader; see `icnsim --list`. Ranks run their operations; the run ends when all have finished (makespan in workload-summary.csv) or at time.measure (then exit 3 with the ranks still waiting).") \
 X(WL_RANKS, "workload.ranks", KT_INT, "0", 0, 4e6, "Workload: number of ranks, one per node (0 = every node). The other nodes send background traffic only if load or traffic.rate is set.") \
 X(WL_MAPPING, "workload.mapping", KT_NAME, "linear", 0, 0, "Workload: ranks to nodes: linear (rank r on node r), random (a permutation drawn from the seed) or file (workload.map_file).") \
 X(WL_MAP_FILE, "workload.map_file", KT_STR, "", 0, 0, "workload.mapping = file: one node id per line, rank 0 first ('#' comments).") \
 X(WL_BYTES, "workload.bytes", KT_BYTES, "64KB", 0, 4e9, "Workload kernels: the size of the kernel's data (see each kernel in --list): a message, a vector, a block.") \
 X(WL_ITER, "workload.iterations", KT_INT, "1", 1, 1e9, "Workload kernels: iterations, each a compute phase (workload.compute) then the kernel's communication.") \
 X(WL_COMPUTE, "workload.compute", KT_TIME, "0", 0, 1e15, "Workload kernels: compute time before each iteration's communication (0 = none).") \
 X(WL_TRACE, "workload.trace", KT_STR, "", 0, 0, "workload.source = dimemas: the Dimemas .dim trace to replay (tasks become ranks 0..T-1; docs/WORKLOADS.md gives the records read).") \
 X(WL_GRID, "workload.grid", KT_STR, "", 0, 0, "Workload kernels halo2d and ptrans: the process grid PxQ (P x Q = ranks; default: the most square factorization).") \
 X(OUT_DIR, "output.dir", KT_STR, "", 0, 0, "Results directory (default results/<config name>).") \
 X(OUT_TIMESERIES, "output.timeseries", KT_BOOL, "true", 0, 0, "Write timeseries.csv.") \
 X(OUT_DESTMAP, "output.destmap", KT_BOOL, "false", 0, 0, "Record the destinations routed through every switch output port and VC (destmap.csv, destmap-stages.csv per stage and direction: seed 002's Table 1 by measurement). Costs one bit per port, VC and destination.") \
 X(OUT_LINKS, "output.links", KT_BOOL, "false", 0, 0, "Write the utilization of every switch output link in the measurement window (links.csv, and links-stages.csv per stage and direction).") \
 X(OUT_OCCUPANCY, "output.occupancy", KT_BOOL, "false", 0, 0, "Write every switch's input-buffer occupancy at every time.interval (occupancy.csv, a time x switch matrix) and a heat map (occupancy.png) to watch congestion trees grow.") \
 X(VIEWS_LATENCY, "views.latency", KT_BOOL, "false", 0, 0, "Write latency over time (latency.csv and a plot): per time.interval, the data packets delivered and their mean and largest total latency (generation to delivery) and network latency (injection to delivery). The rows' delivered packets add up to the summary's delivered count.") \
 X(VIEWS_PAIRS, "views.pairs", KT_LIST, "", 0, 0, "Latency over time of these source:destination pairs (latency-pairs.csv and a plot), e.g. 0:63 5:10 (spaces or commas). Costs one record per pair and time.interval.") \
 X(VIEWS_TOP_PAIRS, "views.top_pairs", KT_INT, "0", 0, 64, "Latency over time of the K pairs that delivered the most packets in the run (latency-pairs.csv, busiest first; ties to the lower source, then destination). Records every pair in every time.interval (N^2 records each), so it suits small networks; name pairs with views.pairs on large ones. 0 = off.") \
 X(VIEWS_PEAK_WINDOW, "views.peak_window", KT_TIME, "0", 0, 1e18, "With views.latency: latency peaks per window of this length from time 0 (a burst cycle of bursty traffic), in latency-peaks.csv: packets, mean and largest latency, and the interval that held the peak. A multiple of time.interval; 0 = off.") \
 X(VIEWS_ROUTER_WAIT, "views.router_wait", KT_BOOL, "false", 0, 0, "Packet model: per-router latency map (router-wait.csv; a heat map on 2-D meshes and tori): packets forwarded by each switch in the measurement window and their mean and largest wait there, from the head's arrival (routed) to the start of its transmission onward.") \
 X(VIEWS_LINK_LOAD, "views.link_load", KT_BOOL, "false", 0, 0, "Packet model: load of every switch-to-switch link in the measurement window as a histogram (link-load-hist.csv) and a summary (link-load-summary.csv: links, min, mean, peak, standard deviation, coefficient of variation, in utilization and Mbit/s = bits/us); on k-ary n-cubes also a map per router and direction (link-map.csv; arrows on 2-D meshes and tori in link-load.png).") \
 X(VIEWS_LINK_BINS, "views.link_bins", KT_INT, "10", 1, 1000, "views.link_load: bins of the histogram, equal widths of utilization over [0, 1] (a load of 1 or more falls in the last).") \
 X(VIEWS_PORT_COUNTERS, "views.port_counters", KT_BOOL, "false", 0, 0, "Packet model: InfiniBand port counters of every connected switch port over the measurement window, named as perfquery names them (port-counters.csv): PortXmitData and PortRcvData (4-byte words, each packet rounded up to a word), PortXmitPkts, PortRcvPkts, PortXmitWait (ticks of 8 bytes' time at the link rate: time the output link was idle while a packet in the switch was routed to it, for lack of credits or of arbitration, as the IB specification defines it).") \
 X(CHECK_INVARIANTS, "check.invariants", KT_BOOL, "false", 0, 0, "Check the model's invariants during the run (credits plus bytes owed equal every buffer's capacity, packets conserved, queue caches right) every check.every events; a violation stops the run with a report (exit status 1). For soak tests and debugging: it costs a pass over the whole network per check.") \
 X(CHECK_EVERY, "check.every", KT_INT, "100000", 1, 1e12, "check.invariants: events between two checks.") \
 X(OUT_PLOTS, "output.plots", KT_NAME, "auto", 0, 0, "Render plots with gnuplot: auto (when gnuplot is on the PATH), yes (an error without it), no. The gnuplot scripts are written in any case.")

typedef enum {
#define X(id, ...) K_##id,
    ICN_KEYS(X)
#undef X
    K__COUNT
} key_id;

#endif
