#!/usr/bin/env python3
"""Seed 002, Figures 8-12 (normalized throughput versus time over 3 ms, end of
the 1 ms warm-up marked) and A.1-A.5 (normalized throughput versus generated
load), for the 17 routing configurations of Tables 2/3; one figure per
scenario (8 / A.1 HS10-1, 9 / A.2 HS25-1, 10 / A.3 HS10-4, 11 / A.4 HS25-4,
12 / A.5 IHS) with the paper's eight panels: (a) 1VC, (b) 1VC and VOQs,
(c) DBBM, (d) DBBM and VOQs, (e) vFtree, (f) vFtree and VOQs, (g) Flow2SL,
(h) Flow2SL and VOQs; one curve per routing configuration.

    python3 experiments/seed002/figs.py time [--nodes 432|11664] [-j 2] [--bin PATH] [--report-only]
    python3 experiments/seed002/figs.py load [--nodes ...] [--loads 0.1:0.1:1.0] ...

time: one 3 ms run at 100 % load per (switch, scheme, routing, scenario),
sampled every 20 us (time.interval). load: the tables' runs (1 ms warm-up,
200 us window) at every generated load. Runs are resumable sweeps under
results/seed002-figs-<what>-<nodes>/; the script writes one CSV per figure
(one row per point) and one PNG per figure when gnuplot is installed."""
import argparse, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from common import DEFAULT_BIN, ROOT, grid_plot, render, summary, sweep, timeseries, write_csv  # noqa: E402
from paper import ROWS  # noqa: E402
from tables import SCENARIOS, SCHEMES  # noqa: E402

FIGS = {"time": (8, "Fig. %d"), "load": (1, "Fig. A.%d")}


def run_dir(out, voq, scheme):
    return os.path.join(out, "%s-%s" % ("voq" if voq else "novoq", scheme))


def run_all(args, out):
    base = os.path.join(HERE, "base-%d.ini" % args.nodes)
    for scheme, _, vcs in SCHEMES:
        for voq in (0, 1):
            sets = [("queuing.scheme", scheme), ("switch.vcs", vcs), ("switch.voq", voq),
                    ("traffic.scenario", ",".join(s for s, _ in SCENARIOS)), ("routing.algorithm", ",".join(ROWS))]
            if args.what == "time":
                sets += [("time.warmup", "1ms"), ("time.measure", "2ms")]
            else:
                sets += [("time.measure", "200us"), ("load", args.loads)]
            sweep(args.bin, base, run_dir(out, voq, scheme), sets, args.j)


def curves_of(out, voq, scheme, scenario, what):
    """{routing: [(x, throughput), ...]} for one panel."""
    got = {}
    if what == "time":
        for row, ts in timeseries(run_dir(out, voq, scheme)):
            if row["traffic.scenario"] == scenario:
                got[row["routing.algorithm"]] = [(float(b["t_end_us"]), float(b["accepted"])) for b in ts]
    else:
        for r in summary(run_dir(out, voq, scheme)):
            if r["traffic.scenario"] == scenario:
                got.setdefault(r["routing.algorithm"], []).append((float(r["load"]), float(r["accepted"])))
    return {k: sorted(v) for k, v in got.items()}


def report(args, out):
    first, label = FIGS[args.what]
    for k, (scenario, sname) in enumerate(SCENARIOS):
        fig = first + k
        rows, panels = [], []
        for scheme, name, _ in SCHEMES:
            for voq in (0, 1):
                cur = curves_of(out, voq, scheme, scenario, args.what)
                curves = []
                for routing in ROWS:
                    pts = cur.get(routing)
                    if not pts:
                        continue
                    rows += [[name, voq, routing, "%g" % x, "%.4f" % y] for x, y in pts]
                    f = "%s%d-%s-%s-%s.csv" % (args.what, fig, name, "voq" if voq else "novoq", routing.replace("/", "_"))
                    write_csv(os.path.join(out, f), ["x", "accepted"], pts)
                    curves.append((f, 1, 2, routing))
                panels.append(("%s%s" % (name if name != "1Q" else "1VC", " and VOQs" if voq else ""), curves))
        tag = "fig%s" % (fig if args.what == "time" else "A%d" % fig)
        xl = "time (us)" if args.what == "time" else "generated load"
        write_csv(os.path.join(out, tag + ".csv"), ["scheme", "voq", "routing", xl.split()[0], "accepted"], rows)
        extra = ["set arrow from 1000, graph 0 to 1000, graph 1 nohead dt 2"] if args.what == "time" else []
        gp = os.path.join(out, tag + ".gp")
        # 17 curves per panel: the key goes beside each panel
        grid_plot(gp, tag + ".png", "Seed 002 %s: %s, %d-node RLFT" % (label % fig, sname, args.nodes), panels, 2, xl,
                  "normalized throughput", None, extra, panel=(720, 330), key="outside right top font ',7' spacing 0.8")
        render(gp)
        print("%s (%s): %d points -> %s" % (label % fig, sname, len(rows), os.path.join(out, tag + ".csv")))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("time", "load"))
    ap.add_argument("--nodes", type=int, default=432, choices=(432, 11664))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--loads", default="0.1:0.1:1.0", help="generated loads for 'load' (a:step:b or a,b,c)")
    ap.add_argument("--bin", default=DEFAULT_BIN, help="icnsim binary to run")
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args()
    out = os.path.join(ROOT, "results", "seed002-figs-%s-%d" % (args.what, args.nodes))
    os.makedirs(out, exist_ok=True)
    if not args.report_only:
        run_all(args, out)
    report(args, out)


if __name__ == "__main__":
    main()
