#!/usr/bin/env python3
"""Cost of seed 002's full-scale tables (680 cells at 11664 nodes).

    python3 experiments/seed002/cost.py [DIR]
        the runs, summed run time, packet-hops and packet-hops per second of a
        finished (or partial) tables run, per sweep directory, from each point's
        perf.csv (DIR: results/seed002-tables-11664)
    python3 experiments/seed002/cost.py --sample K [--bin PATH --build ID] [--note TEXT]
        brings every (switch architecture, scheme) sweep up to K cells of this
        build, drawn at random (a fixed seed per sweep), runs them one at a
        time, and appends their wall time, packet-hops and peak memory to
        experiments/seed002/results/cost-11664.csv
    python3 experiments/seed002/cost.py --docs
        the projection of the full tables' wall time from that file, as the
        seed002-cost block of docs/SPEED.md

The projection is a stratified estimate: the 680 cells fall into 8 sweeps of
85 (Table 2 or 3 x four schemes); a sweep's total is 85 times the mean of its
sampled cells, the tables' total is the sum of the sweeps', and its 95 %
interval comes from the spread of the cells within each sweep (normal
approximation, finite-population correction). Wall time on W workers is the
total over W: the cells are independent runs, and the longest is a few minutes
of many hours, so the packing loses little."""
import argparse, csv, glob, math, os, random, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from common import DEFAULT_BIN, ROOT  # noqa: E402
from paper import ROWS  # noqa: E402
from tables import DEFAULT_SCHEMES, SCENARIOS, VCS, COLUMN, build_id  # noqa: E402

RAW = os.path.join(HERE, "results", "cost-11664.csv")
HEADER = ["voq", "scheme", "routing", "scenario", "wall_s", "packet_hops", "events", "peak_rss_mb", "build", "date", "note"]
SPEED = os.path.join(ROOT, "docs", "SPEED.md")
SEED = 20261127
WORKERS = 2


def strata():
    """(voq, scheme) -> its 85 cells (routing, scenario), in the tables' order."""
    return {(voq, s): [(rt, sc) for rt in ROWS for sc, _ in SCENARIOS]
            for voq in (0, 1) for s in DEFAULT_SCHEMES.split(",")}


def run_cell(binary, voq, scheme, routing, scenario):
    """One cell as tables.py runs it; returns its perf.csv row."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [binary, "run", os.path.join(HERE, "base-11664.ini"), "-q", "-o", out, "-s", "output.plots=no"]
        for k, v in [("queuing.scheme", scheme), ("switch.vcs", VCS[COLUMN[scheme]]), ("switch.voq", voq),
                     ("time.measure", "200us"), ("time.drain", "false"), ("traffic.scenario", scenario),
                     ("routing.algorithm", routing)]:
            cmd += ["-s", "%s=%s" % (k, v)]
        subprocess.run(cmd, check=True)
        return next(csv.DictReader(open(os.path.join(out, "perf.csv"))))


def sample(args):
    """Bring every sweep up to K cells of this build: its cells are drawn in an
    order of its own (seeded), skipping those already kept."""
    build = args.build or build_id(args.bin)
    new = not os.path.exists(RAW)
    kept = set() if new else {(int(r["voq"]), r["scheme"], r["routing"], r["scenario"])
                              for r in csv.DictReader(open(RAW)) if r["build"] == build}
    picks = []
    for (voq, s), cells in strata().items():
        have = sum((voq, s) + c in kept for c in cells)
        order = random.Random("%d %d %s" % (SEED, voq, s)).sample(cells, len(cells))
        picks += [(voq, s, c) for c in order if (voq, s) + c not in kept][:max(0, args.sample - have)]
    for i, (voq, scheme, (rt, sc)) in enumerate(picks):
        print("[%d/%d] voq %d %s %s %s" % (i + 1, len(picks), voq, scheme, rt, sc), file=sys.stderr, flush=True)
        p = run_cell(args.bin, voq, scheme, rt, sc)
        with open(RAW, "a", newline="") as f:   # one row per finished cell: an interrupted run keeps what it measured
            w = csv.writer(f)
            if new:
                w.writerow(HEADER)
                new = False
            w.writerow([voq, scheme, rt, sc, p["wall_s"], p["packet_hops"], p["events"], p["peak_rss_mb"], build,
                        time.strftime("%Y-%m-%d %H:%M", time.gmtime()), args.note])


def projection(rows):
    """(total s, half-width of its 95 % interval, cells, packet-hops total) of the
    680 cells, from one build's sampled rows."""
    by = {}
    for r in rows:
        by.setdefault((int(r["voq"]), r["scheme"]), []).append(r)
    total = var = hops = 0.0
    for key, cells in strata().items():
        got = by.get(key)
        if not got:
            return None
        n, N = len(got), len(cells)
        w = [float(r["wall_s"]) for r in got]
        m = sum(w) / n
        total += N * m
        hops += N * sum(float(r["packet_hops"]) for r in got) / n
        if n > 1:
            s2 = sum((x - m) ** 2 for x in w) / (n - 1)
            var += N * N * (1 - n / N) * s2 / n
    return total, 1.96 * math.sqrt(var), sum(len(v) for v in by.values()), hops


def docs():
    rows = list(csv.DictReader(open(RAW)))
    builds = []
    for r in rows:
        if r["build"] not in builds:
            builds.append(r["build"])
    lines = ["Generated by `python3 experiments/seed002/cost.py --docs` from `experiments/seed002/results/cost-11664.csv`: "
             "cells of the 11664-node tables drawn at random within each of the 8 sweeps (Table 2 or 3, four schemes), run "
             "one at a time; the full tables' time is projected from them (the method is in the script's docstring), on %d "
             "workers as `tables.py -j %d` runs them." % (WORKERS, WORKERS), "",
             "| build | date | cells run | their wall time | their packet-hops | Mhops/s | slowest cell | projected tables, "
             "1 worker | projected tables, %d workers (95 %% interval) |" % WORKERS,
             "|---|---|---|---|---|---|---|---|---|"]
    for b in builds:
        rs = [r for r in rows if r["build"] == b]
        p = projection(rs)
        wall = sum(float(r["wall_s"]) for r in rs)
        h = sum(float(r["packet_hops"]) for r in rs)
        slow = max(rs, key=lambda r: float(r["wall_s"]))
        dates = sorted({r["date"][:10] for r in rs})
        proj1 = proj2 = "(not every sweep sampled)"
        if p:
            proj1 = "%.1f h" % (p[0] / 3600)
            proj2 = "%.1f h (%.1f-%.1f)" % (p[0] / 3600 / WORKERS, (p[0] - p[1]) / 3600 / WORKERS, (p[0] + p[1]) / 3600 / WORKERS)
        lines.append("| %s | %s | %d | %.0f s | %.2f G | %.2f | %.0f s (%s, %s, %s, %s) | %s | %s |" % (
            b, ", ".join(dates), len(rs), wall, h / 1e9, h / wall / 1e6, float(slow["wall_s"]),
            "VOQ" if slow["voq"] == "1" else "no VOQ", slow["scheme"], slow["routing"], slow["scenario"], proj1, proj2))
    block = "\n".join(lines)
    text = open(SPEED).read()
    a, b = "<!-- seed002-cost:begin -->\n", "<!-- seed002-cost:end -->"
    i, j = text.index(a) + len(a), text.index(b)
    tmp = SPEED + ".tmp"
    with open(tmp, "w") as f:
        f.write(text[:i] + block + "\n" + text[j:])
    os.replace(tmp, SPEED)


def summed(base):
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", default=os.path.join(ROOT, "results", "seed002-tables-11664"))
    ap.add_argument("--sample", type=int, metavar="K", help="run K random cells of every sweep")
    ap.add_argument("--bin", default=DEFAULT_BIN)
    ap.add_argument("--note", default="")
    ap.add_argument("--build", help="build id for the raw CSV (default: this tree's commit; give it for a frozen binary)")
    ap.add_argument("--docs", action="store_true")
    a = ap.parse_args()
    if a.sample:
        sample(a)
    elif a.docs:
        docs()
    else:
        summed(a.dir)


if __name__ == "__main__":
    main()
