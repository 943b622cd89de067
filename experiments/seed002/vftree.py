#!/usr/bin/env python3
"""Which reading of vFtree fits seed 002's Tables 2/3? Runs the vFtree column
(17 routings x 5 scenarios, without and with VOQs) under both readings and
prints each cell as static / per-hop / paper, with the mean distance:

    vftree      static: VC = leaf(D) mod Q at injection, kept on every hop;
    vftree-hop  leaf(D) mod Q up to stage 2, then the stage-2 up port mod Q.

    python3 experiments/seed002/vftree.py [--nodes 432|11664] [-j 2] [--bin PATH]

Results in results/vftree-hop-<nodes>/ (resumable)."""
import argparse, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from common import DEFAULT_BIN, ROOT, summary, sweep  # noqa: E402
from paper import ROWS, TABLE2, TABLE3  # noqa: E402
from tables import SCENARIOS  # noqa: E402

VFTREE_COL = 10   # first vFtree column of the paper's tables


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=432, choices=(432, 11664))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--bin", default=DEFAULT_BIN)
    args = ap.parse_args()
    out = os.path.join(ROOT, "results", "vftree-hop-%d" % args.nodes)
    sweep(args.bin, os.path.join(HERE, "base-%d.ini" % args.nodes), out,
          [("queuing.scheme", "vftree,vftree-hop"), ("switch.vcs", 3), ("switch.voq", "0,1"),
           ("traffic.scenario", ",".join(s for s, _ in SCENARIOS)), ("routing.algorithm", ",".join(ROWS)),
           ("time.measure", "200us")], args.j)
    v = {(r["queuing.scheme"], int(r["switch.voq"]), r["routing.algorithm"], r["traffic.scenario"]): 100 * float(r["accepted"])
         for r in summary(out)}
    for voq, paper in ((0, TABLE2), (1, TABLE3)):
        print("\n%s, %d nodes; cells: static / per-hop / paper" % ("VOQ switches (Table 3)" if voq else "no VOQs (Table 2)", args.nodes))
        print("| routing | " + " | ".join(n for _, n in SCENARIOS) + " |\n|---" * 1 + "|---" * len(SCENARIOS) + "|")
        dist = {"vftree": [], "vftree-hop": []}
        for i, rt in enumerate(ROWS):
            cells = []
            for j, (sc, _) in enumerate(SCENARIOS):
                p = paper[i][VFTREE_COL + j]
                a, b = v[("vftree", voq, rt, sc)], v[("vftree-hop", voq, rt, sc)]
                dist["vftree"].append(abs(a - p))
                dist["vftree-hop"].append(abs(b - p))
                cells.append("%.0f / %.0f / %d" % (a, b, p))
            print("| %s | %s |" % (rt, " | ".join(cells)))
        for k, d in dist.items():
            print("%s: mean |icnsim - paper| = %.1f points, %d of %d cells within 10" % (k, sum(d) / len(d), sum(x <= 10 for x in d), len(d)))


if __name__ == "__main__":
    main()
