#!/usr/bin/env python3
"""Seed 000 (AFI), Figures 5 (no VOQs) and 6 (VOQ switches): normalized
throughput versus generated load for D-mod-K, Adaptive, Adaptive-th and AFI x
{1VC, DBBM-3VC, Flow2SL-3VC, vFtree-3VC} x {UT, HS10, HS25}.

    python3 experiments/seed000/figs.py [--nodes 432|11664] [-j 2] [--loads 0.1:0.1:1.0]
                                        [--schemes 1q,dbbm,flow2sl,vftree-hop] [--out DIR]
                                        [--bin PATH] [--report-only]

The paper's set-up (section V-A): 40 Gbps links, 6 ns, 128 KB input buffers
(32 packets of 4 KB) split equally among the VCs; 1VC is one VC, and two (VC0 +
AFC) under AFI; the 3VC schemes use 3 VCs, and 4 (3 + AFC) under AFI.
Adaptive = fully adaptive (the up port whose downstream VC has most credits);
Adaptive-th adapts when the D-mod-K VC downstream is over 75 % full (ADAP-TH-
S-K with routing.ltth = 0.25); AFI adapts at 75 %, once, into the AFC.

One resumable sweep per (switch, scheme, routing) under
results/seed000-figs-<nodes>/; then fig5.csv / fig6.csv (one row per point)
and fig5.png / fig6.png laid out like the paper (rows UT, HS10, HS25; columns
D-mod-K, Adaptive, Adaptive-th, AFI; one curve per queuing scheme)."""
import argparse, os, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import DEFAULT_BIN, ROOT, grid_plot, render, summary, sweep, write_csv  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# vFtree in its per-hop reading, as in the seed 002 tables (docs/FATTREE.md)
SCHEMES = [("1q", "1VC", 1), ("dbbm", "DBBM-3VC", 3), ("flow2sl", "Flow2SL-3VC", 3), ("vftree-hop", "vFtree-3VC", 3)]
# other readings of the paper's schemes (docs/FATTREE.md), for --schemes
OTHER = [("vftree", "vFtree-3VC", 3), ("vftree-sd", "vFtree-3VC", 3), ("flow2sl-sd", "Flow2SL-3VC", 3)]
# (routing.algorithm, paper's name, extra keys, VCs added)
ROUTINGS = [("dmodk", "D-mod-K", [], 0), ("fully-adaptive", "Adaptive", [], 0),
            ("ADAP-TH-S-K", "Adaptive-th", [("routing.ltth", "0.25")], 0),
            ("afi", "AFI", [("routing.ltth", "0.25")], 1)]
TRAFFIC = [("none", "UT"), ("hs10-1", "HS10"), ("hs25-1", "HS25")]


def run_dir(out, voq, scheme, routing):
    return os.path.join(out, "%s-%s-%s" % ("voq" if voq else "novoq", scheme, routing))


def run_all(args, out):
    base = os.path.join(HERE, "base-%d.ini" % args.nodes)
    for voq in (0, 1):
        for scheme, _, vcs in args.schemes:
            for routing, _, extra, more in ROUTINGS:
                sweep(args.bin, base, run_dir(out, voq, scheme, routing),
                      [("queuing.scheme", scheme), ("switch.vcs", vcs + more), ("switch.voq", voq),
                       ("routing.algorithm", routing), ("traffic.scenario", ",".join(t for t, _ in TRAFFIC)),
                       ("load", args.loads)] + extra, args.j)


def report(out, nodes, schemes):
    for voq, fig in ((0, 5), (1, 6)):
        rows, panels = [], []
        for traffic, tname in TRAFFIC:
            for routing, rname, _, _ in ROUTINGS:
                curves = []
                for scheme, sname, _ in schemes:
                    if len({n for _, n, _ in schemes}) < len(schemes):
                        sname = scheme   # two readings of one paper scheme: name them by scheme
                    pts = sorted((float(r["load"]), float(r["accepted"])) for r in summary(run_dir(out, voq, scheme, routing))
                                 if r["traffic.scenario"] == traffic)
                    rows += [[tname, rname, sname, "%.3f" % x, "%.4f" % y] for x, y in pts]
                    if pts:
                        f = "fig%d-%s-%s-%s.csv" % (fig, tname, rname, sname)
                        write_csv(os.path.join(out, f), ["load", "accepted"], pts)
                        curves.append((f, 1, 2, sname))
                panels.append(("%s + %s" % (tname, rname), curves))
        write_csv(os.path.join(out, "fig%d.csv" % fig), ["traffic", "routing", "scheme", "load", "accepted"], rows)
        gp = os.path.join(out, "fig%d.gp" % fig)
        grid_plot(gp, "fig%d.png" % fig, "Seed 000 Fig. %d: %d-node RLFT%s" % (fig, nodes, ", VOQ switches" if voq else ""),
                  panels, len(ROUTINGS), "generated load", "normalized throughput", ("0", "1"))
        render(gp)
        print("fig%d: %d points -> %s" % (fig, len(rows), os.path.join(out, "fig%d.csv" % fig)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=432, choices=(432, 11664))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--loads", default="0.1:0.1:1.0", help="generated loads (a:step:b or a,b,c)")
    ap.add_argument("--bin", default=DEFAULT_BIN, help="icnsim binary to run")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--schemes", default=",".join(s for s, _, _ in SCHEMES), help="queuing schemes (curves), comma-separated")
    ap.add_argument("--out", help="results directory (default results/seed000-figs-<nodes>)")
    args = ap.parse_args()
    known = {s[0]: s for s in SCHEMES + OTHER}
    try:
        args.schemes = [known[s] for s in args.schemes.split(",")]
    except KeyError as e:
        sys.exit("unknown scheme %s (known: %s)" % (e, ", ".join(known)))
    out = args.out or os.path.join(ROOT, "results", "seed000-figs-%d" % args.nodes)
    os.makedirs(out, exist_ok=True)
    if not args.report_only:
        run_all(args, out)
    report(out, args.nodes, args.schemes)


if __name__ == "__main__":
    main()
