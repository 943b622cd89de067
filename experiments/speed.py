#!/usr/bin/env python3
"""The tables of docs/SPEED.md, from the benchmark rows kept in bench/results.csv
(appended by `make bench RECORD=1`, i.e. bench/run.sh --record; bench/README.md
describes the columns):

    python3 experiments/speed.py        (also run by experiments/docs.py)

Writes the blocks speed-packet, speed-flit and speed-cc of docs/SPEED.md and
simulates nothing. It also writes the block speed-cachegrind from
bench/cachegrind.csv (appended by `make bench-cachegrind RECORD=1`, i.e.
bench/cachegrind.sh --record): per case, each sitting's instructions and cache
misses per packet-hop, the change between the two newest sittings (by date),
and IBA CC's cost per hop in each (the CC-on row over the CC-off row). Rows of one case, build, date and note are one line of a
table; where there are several (repeated runs), each column shows their range.
Derived columns are computed here: events per packet-hop (Mevents/s over
Mhops/s of the same row) and the IBA CC cost per packet-hop (the CC-off row's
Mhops/s over the CC-on row's, both of the same sitting: build, date and note;
with repeated runs, the fastest CC-off run against the fastest CC-on run, and
so on down). A sitting with CC-on rows but no CC-off row on the plain source
queues is listed with the cost against the flow NIC only."""
import csv, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from pages import block  # noqa: E402

RAW = os.path.join(ROOT, "bench", "results.csv")
CG_RAW = os.path.join(ROOT, "bench", "cachegrind.csv")
DOC = os.path.join(ROOT, "docs", "SPEED.md")
CC_OFF = "seed002-hs10-1-dmodk-11664"
CC_ON = CC_OFF + "-cc-iba"
FLOW_NIC = CC_OFF + "-flow-nic"   # CC off on the flow transport (nic.queues = flows): CC's own cost
GOAL_BASE = "c9ca78c"   # the build the packet model's speed goals were set against
FIRST_BUILD = "d560075"   # the build of the D-mod-K/1Q case's first figures (hand-kept rows)
GOALS = (CC_OFF, "seed002-hs10-1-vftree-2th-11664", "seed002-hs10-1-vftree-2th-voq-11664")   # the packet model's speed goals
CC_GOAL = 1.3      # the target for IBA CC's cost per packet-hop at the default settings
NIC_FLOWS = 256    # nic.flows' default (docs/CONFIG.md)

DESC = {  # case of bench/run.sh: what it runs
    "seed002-hs10-1-dmodk-11664": "seed 002 HS10-1, D-mod-K, 1Q, 11664 nodes, 1 ms + 1 ms",
    "seed002-hs10-1-dmodk-432": "same, 432 nodes",
    "seed002-hs10-1-vftree-2th-11664": "seed 002 HS10-1, vFtree, 3 VCs, ADAP-2TH-S-K/3, 11664 nodes",
    "seed002-hs10-1-vftree-2th-voq-11664": "same, with VOQs",
    "seed002-hs10-1-dmodk-11664-canonical": "the D-mod-K case, time.ties = canonical, no drain",
    "seed002-hs10-1-dmodk-11664-parts2": "same, time.parts = 2 (taking turns)",
    "seed002-hs10-1-dmodk-11664-parts2-threads2": "same, time.parts = 2 on 2 threads",
    "seed002-hs10-1-vftree-2th-11664-canonical": "the vFtree case without VOQs, time.ties = canonical, no drain",
    "seed002-hs10-1-vftree-2th-11664-parts2-threads2": "same, time.parts = 2 on 2 threads",
    "seed002-hs10-1-dmodk-11664-parts2-ranks2": "the D-mod-K case, time.parts = 2 on 2 MPI ranks",
    "seed002-hs10-1-vftree-2th-11664-parts2-ranks2": "the vFtree case, time.parts = 2 on 2 MPI ranks",
    "uniform-0.5-rlft4-131072-canonical": "uniform 0.5 load, 131072 nodes (4-stage RLFT), 5 us + 10 us, canonical, no drain",
    "uniform-0.5-rlft4-131072-parts2-threads2": "same, time.parts = 2 on 2 threads",
    "uniform-0.5-rlft4-131072-parts2-ranks2": "same, time.parts = 2 on 2 MPI ranks",
    "uniform-0.6-rlft-k6-432": "uniform 0.6 load, 250 us, 432 nodes",
    "uniform-0.6-rlft-k12-3456": "uniform 0.6 load, 250 us, 3456 nodes",
    "uniform-0.6-rlft-k18-11664": "uniform 0.6 load, 250 us, 11664 nodes",
    "torus8x8-bubble-dor-0.1": "seed 004 8x8 torus, Bubble DOR, load 0.1, 100k cycles",
    "torus8x8-bubble-dor-0.24": "same, load 0.24",
    "torus32x32-bubble-dor-0.1": "32x32 torus, Bubble DOR, load 0.1, 100k cycles",
    "flit-torus8x8-wormhole-0.1": "8x8 torus, wormhole DOR, 2 VCs of 8 flits, 20-flit packets, uniform 0.1 flits/node/cycle, 100k cycles",
    "flit-torus8x8-wormhole-0.24": "same, 0.24 flits/node/cycle",
    "flit-torus32x32-wormhole-0.1": "32x32 torus, same router, 0.1 (saturated)",
    "flit-torus8x8-wormhole-sa-0.1": "8x8 torus, input-queued VC router with a switch allocator, 0.1",
    "flit-torus8x8-wormhole-sa-0.24": "same, 0.24",
    "torus32x32-msp-path0-0.1": "32x32 torus, multi-step paths, path 0 only, uniform 0.1",
    "torus32x32-drb-0.1": "same, DRB",
    "torus32x32-prdrb-0.1": "same, PR-DRB",
    "torus8x8-ib-path0-0.3": "seed 001 8x8 torus subnet, path 0, transpose 0.3, 20 ms",
    "torus8x8-drb-ib-0.3": "same, drb-ib with IBA CC",
    "rlft432-uniform-0.5-open-loop": "432-node RLFT, uniform 0.5, open loop, 2 ms",
    "rlft432-alltoall-closed-loop": "same fabric, all-to-all workload (closed loop)",
    "rlft432-ptrans-closed-loop": "same fabric, PTRANS workload (closed loop)",
}


CG_DESC = {  # case of bench/cachegrind.sh: what it runs
    "seed002-hs10-1-dmodk-432": "seed 002 HS10-1, D-mod-K, 1Q, 432 nodes, 1 ms + 1 ms, drained",
    "seed002-hs10-1-dmodk-3456-400us": "same, 3456 nodes, 200 us + 200 us, no drain",
    "seed002-hs10-1-dmodk-3456-400us-cc-iba": "same, IBA CC (opa preset)",
    "seed002-hs10-1-dmodk-3456-400us-flow-nic": "same, CC off on the flow NIC (`nic.queues = flows`)",
    "seed002-hs10-1-vftree-sd-2th-3456-70us": "HS10-1, vFtree-SD, 3 VCs, ADAP-2TH-S-K/3, 3456 nodes, 50 us + 20 us, no drain",
    "seed002-hs10-1-vftree-sd-2th-voq-3456-70us": "same, with VOQs",
    "seed002-hs10-1-vftree-sd-2th-3456-70us-canonical": "the vFtree-SD case without VOQs, time.ties = canonical",
}
CG_CC_OFF = "seed002-hs10-1-dmodk-3456-400us"
CG_CC_ON = CG_CC_OFF + "-cc-iba"
CG_TIES = "seed002-hs10-1-vftree-sd-2th-3456-70us"
CG_RATIOS = (  # (what, base case, case): the case's counts over the base's, per sitting
    ("IBA CC's cost per packet-hop", CG_CC_OFF, CG_CC_ON),
    ("IBA CC's cost per packet-hop over the same NIC (CC off on the flow NIC)", CG_CC_OFF + "-flow-nic", CG_CC_ON),
    ("The flow NIC's cost per packet-hop over the plain source queue (both without CC)", CG_CC_OFF,
     CG_CC_OFF + "-flow-nic"),
    ("The canonical order of same-time events (time.ties = canonical): its cost per packet-hop", CG_TIES,
     CG_TIES + "-canonical"),
)
CG_COLS = (("ir_per_hop", "%.0f"), ("d1_miss_per_hop", "%.2f"), ("ll_miss_per_hop", "%.4f"))
CG_SCRIPT = os.path.join(ROOT, "bench", "cachegrind.sh")


def cache_model():
    """The cache model bench/cachegrind.sh gives cachegrind (its CACHES line), in words."""
    with open(CG_SCRIPT) as f:
        caches = re.search(r"^CACHES=\((.*)\)", f.read(), re.M).group(1)
    words = []
    for name, size, ways, line in re.findall(r"--(\w+)=(\d+),(\d+),(\d+)", caches):
        size = int(size)
        words.append("%s %s %s-way, %s-byte lines" % (
            name, "%d MB" % (size >> 20) if size >= 1 << 20 else "%d KB" % (size >> 10), ways, line))
    return "; ".join(words)


def rows(path=RAW):
    with open(path) as f:
        return list(csv.DictReader(f))


def num(r, col):
    return float(r[col]) if r[col] else None


def g(v):
    return "%.3g" % v


def span(values, f=g, unit=""):
    """The range of the values present, each formatted by f: "lo-hi unit" or "v unit"."""
    v = [x for x in values if x is not None]
    if not v:
        return ""
    lo, hi = f(min(v)), f(max(v))
    return (lo if lo == hi else lo + "-" + hi) + unit


def groups(rs):
    """Lines of a table: rows of one (case, build, date, note), in the order of
    DESC and, within a case, of the file (append order: oldest first)."""
    out = {}
    for r in rs:
        out.setdefault((r["case"], r["build"], r["date"], r["note"]), []).append(r)
    order = list(DESC)
    return sorted(out.items(), key=lambda kv: (order.index(kv[0][0]) if kv[0][0] in order else len(order), kv[0][0]))


def case_cells(keys):
    """The case column: its description on the first line of each case only."""
    seen = set()
    for key in keys:
        case = key[0]
        yield "`%s`" % case + (": " + DESC[case] if case in DESC and case not in seen else "")
        seen.add(case)


def sitting(build, date, note):
    """The build, date and note columns."""
    return "%s | %s | %s" % (build, date[:16].replace("T", " "), note)


def hops(rs):
    return span([num(r, "packet_hops") / 1e6 for r in rs if r["packet_hops"]], lambda v: "%.4g" % v, " M")


def packet_table(rs):
    L = ["| case | build | date | note | wall | packet-hops | Mhops/s | Mevents/s | events per hop | peak memory |",
         "|---|---|---|---|---|---|---|---|---|---|"]
    lines = groups(r for r in rs if not r["case"].startswith("flit-") and "-cc-iba" not in r["case"] and r["case"] != FLOW_NIC)
    for cell, (key, g_rs) in zip(case_cells(k for k, _ in lines), lines):
        per_hop = [num(r, "mevents_s") / num(r, "mhops_s") for r in g_rs if r["mevents_s"] and r["mhops_s"]]
        L.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            cell, sitting(*key[1:]), span([num(r, "wall_s") for r in g_rs], unit=" s"), hops(g_rs),
            span([num(r, "mhops_s") for r in g_rs]), span([num(r, "mevents_s") for r in g_rs]),
            span(per_hop, lambda v: "%.2f" % v), span([num(r, "peak_mb") for r in g_rs], unit=" MB")))
    return "\n".join(L) + "\n"


def flit_table(rs):
    L = ["| case | build | date | note | wall | packet-hops | M flit-hops/s | peak memory |",
         "|---|---|---|---|---|---|---|---|"]
    lines = groups(r for r in rs if r["case"].startswith("flit-"))
    for cell, (key, g_rs) in zip(case_cells(k for k, _ in lines), lines):
        L.append("| %s | %s | %s | %s | %s | %s |" % (
            cell, sitting(*key[1:]), span([num(r, "wall_s") for r in g_rs], unit=" s"), hops(g_rs),
            span([num(r, "mflit_hops_s") for r in g_rs]), span([num(r, "peak_mb") for r in g_rs], unit=" MB")))
    return "\n".join(L) + "\n"


PARTS_PAIRS = (  # (sequential case, partitioned case): the speed-up of each sitting
    ("seed002-hs10-1-dmodk-11664-canonical", "seed002-hs10-1-dmodk-11664-parts2"),
    ("seed002-hs10-1-dmodk-11664-canonical", "seed002-hs10-1-dmodk-11664-parts2-threads2"),
    ("seed002-hs10-1-dmodk-11664-canonical", "seed002-hs10-1-dmodk-11664-parts2-ranks2"),
    ("seed002-hs10-1-vftree-2th-11664-canonical", "seed002-hs10-1-vftree-2th-11664-parts2-threads2"),
    ("seed002-hs10-1-vftree-2th-11664-canonical", "seed002-hs10-1-vftree-2th-11664-parts2-ranks2"),
    ("uniform-0.5-rlft4-131072-canonical", "uniform-0.5-rlft4-131072-parts2-threads2"),
    ("uniform-0.5-rlft4-131072-canonical", "uniform-0.5-rlft4-131072-parts2-ranks2"),
)


def parts_table(rs):
    """Wall-time speed-up of the partitioned runs over the canonical sequential run, per sitting."""
    L = ["| partitioned case | against | build | date | note | speed-up (sequential wall / partitioned wall) | windows | "
         "waiting per window |", "|---|---|---|---|---|---|---|---|"]
    by = {}
    for r in rs:
        by.setdefault((r["build"], r["date"], r["note"]), {}).setdefault(r["case"], []).append(r)
    for seq, par in PARTS_PAIRS:
        for key, cases in by.items():
            if seq in cases and par in cases:
                a, b = [num(r, "wall_s") for r in cases[seq]], [num(r, "wall_s") for r in cases[par]]
                ratios = sorted(x / y for x in a for y in b if y)
                w = [r for r in cases[par] if r.get("windows")]
                wins = span([int(r["windows"]) for r in w], lambda v: "%d" % v) if w else ""
                wait = span([1e6 * float(r["window_wait_s"]) / int(r["windows"]) for r in w], lambda v: "%.1f" % v, " us") \
                    if w and "threads" in par or w and "ranks" in par else ""
                L.append("| `%s` | `%s` | %s | %s | %s | %s |" % (par, seq, sitting(*key), span(ratios, lambda v: "%.2fx" % v),
                                                       wins, wait))
    return "\n".join(L) + "\n"


def flows(case):
    m = re.search(r"-flows(\d+)$", case)
    return int(m.group(1)) if m else NIC_FLOWS


def paired(off, on):
    """Each `on` run's cost per hop against the `off` run of the same rank
    (fastest with fastest): off's packet-hops/s over on's, e.g. IBA CC's cost
    (CC off, CC on), or a base build's speed over HEAD's."""
    off = sorted((num(r, "mhops_s") for r in off), reverse=True)
    on = sorted((num(r, "mhops_s") for r in on), reverse=True)
    return [off[min(i, len(off) - 1)] / v for i, v in enumerate(on)]


def cc_table(rs):
    sittings = {}
    for r in rs:
        if r["case"] in (CC_OFF, FLOW_NIC) or r["case"].startswith(CC_ON):
            sittings.setdefault((r["build"], r["date"], r["note"]), []).append(r)
    L = ["| build | date | note | run | wall | packet-hops | Mhops/s | Mevents/s | peak memory | CC cost per hop | "
         "CC cost per hop, same NIC |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    newest, per_build = None, {}
    for (build, date, note), s_rs in sittings.items():
        off = [r for r in s_rs if r["case"] == CC_OFF]
        fnic = [r for r in s_rs if r["case"] == FLOW_NIC]
        cases = sorted({r["case"] for r in s_rs if r["case"] not in (CC_OFF, FLOW_NIC)},
                       key=lambda c: (flows(c) != NIC_FLOWS, flows(c)))
        if not cases:
            continue
        # a sitting without a CC-off run on the plain queues is listed too, its cost against the flow NIC alone
        for case in ([CC_OFF] if off else []) + ([FLOW_NIC] if fnic else []) + cases:
            c_rs = [r for r in s_rs if r["case"] == case]
            if case == CC_OFF:
                run, cost, same = "CC off", "", ""
            elif case == FLOW_NIC:
                run, cost, same = "CC off, flow NIC (`nic.queues = flows`)", "", ""
            else:
                run = "CC on, nic.flows %d%s" % (flows(case), " (default)" if flows(case) == NIC_FLOWS else "")
                cost = span(paired(off, c_rs), lambda v: "%.2f" % v, "x") if off else ""
                same = span(paired(fnic, c_rs), lambda v: "%.2f" % v, "x") if fnic and flows(case) == NIC_FLOWS else ""
            L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                sitting(build, date, note), run, span([num(r, "wall_s") for r in c_rs], unit=" s"), hops(c_rs),
                span([num(r, "mhops_s") for r in c_rs]), span([num(r, "mevents_s") for r in c_rs]),
                span([num(r, "peak_mb") for r in c_rs], unit=" MB"), cost, same))
        if not off:
            continue
        newest = (build, date, off, fnic, {flows(c): [r for r in s_rs if r["case"] == c] for c in cases})
        if fnic:
            per_build.setdefault(build, []).append((paired(off, [r for r in s_rs if r["case"] == CC_ON]),
                                                    paired(fnic, [r for r in s_rs if r["case"] == CC_ON])))
    if newest:
        build, date, off, fnic, on = newest
        cost = {k: paired(off, v) for k, v in on.items()}
        at_default = max(cost[NIC_FLOWS]) if NIC_FLOWS in cost else None
        best = min(cost, key=lambda k: max(cost[k]))
        L.append("")
        text = ("In the newest sitting (build %s, %s) CC costs %s per packet-hop at the default `nic.flows` against "
                "the CC-off run on the plain source queues, against the goal of at most %sx: %s." % (
                    build, date[:10], span(cost.get(NIC_FLOWS, []), lambda v: "%.2f" % v, "x") or "(not run)", g(CC_GOAL),
                    "met" if at_default is not None and at_default <= CC_GOAL else "not met"))
        if best != NIC_FLOWS:   # (a sitting of the default alone has no other to compare)
            text += " The lowest cost there, %s, is with `nic.flows = %d`." % (span(cost[best], lambda v: "%.2f" % v, "x"), best)
        if fnic and NIC_FLOWS in on:
            same = paired(fnic, on[NIC_FLOWS])
            nic = paired(off, fnic)
            text += (" Against the CC-off run on the same NIC (`nic.queues = flows`, the flow transport without CC) "
                     "it costs %s: %s; the flow NIC itself costs %s per packet-hop over the plain source queues." % (
                         span(same, lambda v: "%.2f" % v, "x"),
                         "within the goal" if max(same) <= CC_GOAL else "above the goal",
                         span(nic, lambda v: "%.2f" % v, "x")))
        runs = per_build.get(build, [])
        if len(runs) > 1:   # one sitting is one draw of a noisy machine: the spread over the build's sittings
            text += (" Over the %d sittings of build %s the cost per packet-hop ranges over %s against the plain source "
                     "queues and %s against the same NIC." % (
                         len(runs), build, span([c for a, _ in runs for c in a], lambda v: "%.2f" % v, "x"),
                         span([c for _, b in runs for c in b], lambda v: "%.2f" % v, "x")))
        L.append(text)
    return "\n".join(L) + "\n"


def cg_sittings(rs):
    """{(build, date, note): {case: row}}, oldest sitting first (by date, then by
    the file's order)."""
    out = {}
    for r in rs:
        out.setdefault((r["build"], r["date"], r["note"]), {})[r["case"]] = r
    return dict(sorted(out.items(), key=lambda kv: kv[0][1]))


def cg_cells(r):
    return " | ".join(f % float(r[col]) for col, f in CG_COLS)


def change(new, old):
    return "%+.1f %%" % (100.0 * (new / old - 1.0)) if old else ""


def cachegrind_table(rs):
    sittings = cg_sittings(rs)
    cases = sorted({r["case"] for r in rs}, key=lambda c: (list(CG_DESC).index(c) if c in CG_DESC else len(CG_DESC), c))
    L = ["| case | build | date | note | packet-hops | instructions per hop | D1 misses per hop | LL misses per hop |",
         "|---|---|---|---|---|---|---|---|"]
    for case in cases:
        runs = [(key, s[case]) for key, s in sittings.items() if case in s]
        for i, (key, r) in enumerate(runs):
            cell = "`%s`" % case + (": " + CG_DESC[case] if case in CG_DESC and i == 0 else "")
            L.append("| %s | %s | %s | %s |" % (cell, sitting(*key), "%.4g M" % (float(r["packet_hops"]) / 1e6), cg_cells(r)))
        if len(runs) >= 2:
            (k0, r0), (k1, r1) = runs[-2], runs[-1]
            L.append("| | change, %s to %s | | | %s | %s |" % (
                k0[0], k1[0], change(float(r1["packet_hops"]), float(r0["packet_hops"])),
                " | ".join(change(float(r1[col]), float(r0[col])) for col, _ in CG_COLS)))
    L.append("")
    L.append("Cache model (bench/cachegrind.sh): %s." % cache_model())
    L.append("")
    for what, base, case in CG_RATIOS:
        L.append("")
        L.append("%s in each sitting: the `%s` row over the `%s` row." % (what, case, base))
        L.append("")
        L.append("| build | date | note | instructions | D1 misses | LL misses |")
        L.append("|---|---|---|---|---|---|")
        for key, s in sittings.items():
            if base in s and case in s:
                on, off = s[case], s[base]
                L.append("| %s | %s |" % (sitting(*key), " | ".join(
                    "%.2fx" % (float(on[col]) / float(off[col])) if float(off[col]) else "" for col, _ in CG_COLS)))
    return "\n".join(L) + "\n"


def base_table(rs):
    """Sittings of `bench/run.sh --base COMMIT` (note "... against COMMIT"): per
    case, the build at HEAD's packet-hops per second over the base's, the
    fastest run of one against the fastest of the other, and so on down."""
    L = ["| case | base | build | date | note | base Mhops/s | build Mhops/s | speed-up | packet-hops equal |",
         "|---|---|---|---|---|---|---|---|---|"]
    by = {}
    for r in rs:
        m = re.search(r"against ([0-9a-f]+)$", r["note"])
        if m:
            by.setdefault((r["date"], r["note"], m.group(1)), {}).setdefault(r["case"], []).append(r)
    order, goal, first = list(DESC), {}, None
    for (date, note, base), cases in sorted(by.items()):
        for case in sorted(cases, key=lambda c: order.index(c) if c in order else len(order)):
            old = [r for r in cases[case] if r["build"] == base]
            new = [r for r in cases[case] if r["build"] != base]
            if not old or not new:
                continue
            ups = [1 / c for c in paired(old, new)]   # HEAD's speed over the base's, fastest with fastest
            L.append("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                case, base, new[0]["build"], date[:16].replace("T", " "), note,
                span([num(r, "mhops_s") for r in old]), span([num(r, "mhops_s") for r in new]),
                span(ups, lambda v: "%.2fx" % v),
                "yes" if {r["packet_hops"] for r in old} == {r["packet_hops"] for r in new} else "no"))
            if case in GOALS and base == GOAL_BASE:
                goal[case] = (new[0]["build"], base, ups, [num(r, "mhops_s") for r in new])
            if case == CC_OFF and base == FIRST_BUILD:
                first = (date, new[0]["build"], old, new, ups)
    words = []
    for case, (build, base, ups, rates) in goal.items():   # the newest sitting of each goal case
        if case == CC_OFF:
            words.append("the D-mod-K/1Q case ran at %s M packet-hops/s on %s (goal: 8), %s the speed of %s" % (
                span(rates), build, span(ups, lambda v: "%.2fx" % v), base))
        else:
            words.append("`%s` at %s the speed of %s (goal: 2x)" % (case, span(ups, lambda v: "%.2fx" % v), base))
    if words:
        L.append("\nIn the newest sittings against %s, the build the goals were set on: " % GOAL_BASE + "; ".join(words) + ".")
    if first:   # the same build then and now: how fast the machine of the first figures was
        date, build, old, new, ups = first
        firsts = [r for r in rs if r["case"] == CC_OFF and r["build"] == FIRST_BUILD and "hand-kept" in r["note"]]
        then = [num(r, "mhops_s") for r in firsts]
        # the first rows give packet-hops to 3 figures: the same simulation if they round alike
        same = all(float("%.3g" % float(r["packet_hops"])) == float("%.3g" % float(o["packet_hops"])) for r in firsts for o in old)
        if then and same:
            was = [num(r, "mhops_s") for r in old]
            L.append("\nThe D-mod-K/1Q case's first figures, %s M packet-hops/s for %s (the first rows of the packet-level "
                     "table, whose packet-hops round to those of the runs below), came from a faster machine, or faster "
                     "moments of it, than the newest sitting against %s (%s): there the same build ran at %s M "
                     "packet-hops/s, %s slower (fastest with fastest, slowest with slowest), and %s at %s, %s its "
                     "speed. If that speed-up carried over, %s would run at about %s M packet-hops/s on the machine of "
                     "the first figures; it is a projection, not a measurement." % (
                         span(then), FIRST_BUILD, FIRST_BUILD, date[:16].replace("T", " "), span(was),
                         span([max(then) / max(was), min(then) / min(was)], lambda v: "%.1fx" % v),
                         build, span([num(r, "mhops_s") for r in new]), span(ups, lambda v: "%.2fx" % v), build,
                         span([min(then) * min(ups), max(then) * max(ups)], lambda v: "%.1f" % v)))
    return "\n".join(L) + "\n"


def main():
    rs = rows()
    block(DOC, "speed-base", base_table(rs))
    block(DOC, "speed-packet", packet_table(rs))
    block(DOC, "speed-flit", flit_table(rs))
    block(DOC, "speed-cc", cc_table(rs))
    block(DOC, "speed-parts", parts_table(rs))
    block(DOC, "speed-cachegrind", cachegrind_table(rows(CG_RAW)))


if __name__ == "__main__":
    main()
