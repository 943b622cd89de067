#!/usr/bin/env python3
"""Cost of a finished (or partial) tables run: runs, summed run time, packet-hops and
packet-hops per second per sweep directory, from each point's perf.csv.

    python3 experiments/seed002/cost.py [results/seed002-tables-11664]"""
import csv, glob, os, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import ROOT  # noqa: E402


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "results", "seed002-tables-11664")
    tot_w = tot_h = tot_n = 0
    for d in sorted(glob.glob(os.path.join(base, "*", "points"))):
        w = h = n = 0
        for p in glob.glob(os.path.join(d, "*", "perf.csv")):
            r = next(csv.DictReader(open(p)))
            w += float(r["wall_s"])
            h += int(r["packet_hops"])
            n += 1
        rate = h / w / 1e6 if w else 0.0
        print("%-20s %4d runs %9.0f s %7.2f G packet-hops %5.2f M/s" % (os.path.basename(os.path.dirname(d)), n, w, h / 1e9, rate))
        tot_w, tot_h, tot_n = tot_w + w, tot_h + h, tot_n + n
    if not tot_n:
        sys.exit("no finished runs under %s" % base)
    print("%-20s %4d runs %9.0f s %7.2f G packet-hops (%.1f h on 2 workers)" % ("all", tot_n, tot_w, tot_h / 1e9, tot_w / 7200))


if __name__ == "__main__":
    main()
