#!/usr/bin/env python3
"""Why does a TH/2TH cell fall short? Runs one Table 2/3 cell with the
routing's decision log (ICNSIM_FTADAPT_LOG, src/routing/ftadapt.c) and
summarizes it over the measurement window, per adaptive stage:

  fired   share of upward decisions whose D-mod-K port had fewer free credits
          than LTTh in the packet's VC (the trigger);
  held    share kept adaptive above LTTh by 2TH's hysteresis;
  moved   share that left the D-mod-K port;
  stuck   share of the fired decisions with no alternative above LTTh, i.e.
          every candidate as full as the threshold;
  free    mean free-credit fraction of the D-mod-K port (packet's VC) and of
          the best alternative when the trigger fired;
  occ     mean occupancy of each VC of the D-mod-K port at decision time.

    python3 experiments/seed002/triggerlog.py --scheme flow2sl-sd --routing ADAP-2TH-S-K \\
        [--scenario hs10-4] [--nodes 432|11664] [--voq 0] [--bin PATH] [--out DIR]
    python3 experiments/seed002/triggerlog.py --summarize LOG.csv ...

The log is kept as <out>/trigger-<scheme>-<routing>-<scenario>.csv."""
import argparse, csv, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from common import DEFAULT_BIN, ROOT  # noqa: E402


def summarize(path, t0=1000, t1=1200):
    rows = [r for r in csv.DictReader(open(path)) if t0 <= int(r["t_us"]) < t1]
    out = []
    for st in sorted({r["stage"] for r in rows}):
        r = [x for x in rows if x["stage"] == st]
        n = sum(int(x["decisions"]) for x in r)
        tot = lambda k: sum(int(x[k]) for x in r)
        mean = lambda k: sum(float(x[k]) * int(x["decisions"]) for x in r) / n
        fired = tot("fired")
        alt = sum(float(x["alt_free_when_fired"]) * int(x["fired"]) for x in r) / fired if fired else 0.0
        occ = [mean(k) for k in r[0] if k.startswith("dmodk_occ_vc")]
        out.append("stage %s: %d decisions, fired %.1f %%, held %.1f %%, moved %.1f %%, stuck %.1f %% of fired; "
                   "free: D-mod-K %.2f, best alternative when fired %.2f; occupancy per VC %s"
                   % (st, n, 100 * fired / n, 100 * tot("held") / n, 100 * tot("moved") / n,
                      100 * tot("stuck") / fired if fired else 0.0, mean("dmodk_free"), alt, " ".join("%.2f" % o for o in occ)))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scheme")
    ap.add_argument("--routing")
    ap.add_argument("--scenario", default="hs10-4")
    ap.add_argument("--nodes", type=int, default=432, choices=(432, 11664))
    ap.add_argument("--voq", type=int, default=0)
    ap.add_argument("--bin", default=DEFAULT_BIN)
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "seed002-triggerlog"))
    ap.add_argument("--summarize", nargs="+", metavar="LOG")
    args = ap.parse_args()
    if args.summarize:
        for p in args.summarize:
            print("%s\n%s" % (p, summarize(p)))
        return
    if not (args.scheme and args.routing):
        sys.exit("--scheme and --routing are needed to run a cell")
    os.makedirs(args.out, exist_ok=True)
    name = "trigger-%s-%s-%s" % (args.scheme, args.routing.replace("/", "_"), args.scenario)
    log = os.path.join(args.out, name + ".csv")
    vcs = 1 if args.scheme == "1q" else 3
    cmd = [args.bin, "run", os.path.join(HERE, "base-%d.ini" % args.nodes), "-q", "-o", os.path.join(args.out, name),
           "-s", "queuing.scheme=%s" % args.scheme, "-s", "switch.vcs=%d" % vcs, "-s", "switch.voq=%d" % args.voq,
           "-s", "traffic.scenario=%s" % args.scenario, "-s", "routing.algorithm=%s" % args.routing,
           "-s", "time.measure=200us", "-s", "output.plots=no"]
    subprocess.run(cmd, check=True, env=dict(os.environ, ICNSIM_FTADAPT_LOG=log))
    acc = next(csv.DictReader(open(os.path.join(args.out, name, "summary.csv"))))["accepted"]
    print("%s: throughput %.1f %%\n%s" % (name, 100 * float(acc), summarize(log)))


if __name__ == "__main__":
    main()
