#!/usr/bin/env python3
"""Seed 000 (AFI), Figures 5 (no VOQs) and 6 (VOQ switches): normalized
throughput versus generated load for D-mod-K, Adaptive, Adaptive-th and AFI x
{1VC, DBBM-3VC, Flow2SL-3VC, vFtree-3VC} x {UT, HS10, HS25}.

    python3 experiments/seed000/figs.py [--nodes 432|11664] [-j 2] [--loads 0.1:0.1:1.0]
                                        [--schemes 1q,dbbm,flow2sl,vftree-hop] [--out DIR]
                                        [--bin PATH] [--report-only]
                                        [--raw FILE --build ID [--only-missing]]
    python3 experiments/seed000/figs.py --table

The paper's set-up (section V-A): 40 Gbps links, 6 ns, 128 KB input buffers
(32 packets of 4 KB) split equally among the VCs; 1VC is one VC, and two (VC0 +
AFC) under AFI; the 3VC schemes use 3 VCs, and 4 (3 + AFC) under AFI.
Adaptive = fully adaptive (the up port whose downstream VC has most credits);
Adaptive-th adapts when the D-mod-K VC downstream is over 75 % full (ADAP-TH-
S-K with routing.ltth = 0.25); AFI adapts at 75 %, once, into the AFC.

One resumable sweep per (switch, scheme, routing) under
results/seed000-figs-<nodes>/; then fig5.csv / fig6.csv (one row per point)
and fig5.png / fig6.png laid out like the paper (rows UT, HS10, HS25; columns
D-mod-K, Adaptive, Adaptive-th, AFI; one curve per queuing scheme).

--raw FILE (with --build ID) adds a run's finished points (an interrupted
sweep's too), one row each (figure, traffic, routing, icnsim's scheme, load,
accepted, build), to a kept CSV; a point already there is replaced. With
--only-missing, a sweep runs only the loads at which FILE lacks a point (in a
directory named by those loads), and a sweep FILE holds whole is skipped: a
long run can be kept in parts and finished later.

--table runs nothing: it generates docs/seed000-figs.md from the kept points,
docs/seed000/fig5-11664.csv and fig6-11664.csv (the full-scale curves, vFtree
and Flow2SL destination-only), experiments/seed000/results/readings-432.csv
(both readings of vFtree and Flow2SL at 432 nodes, every load) and
sd-11664.csv (the source-dependent readings at 11664 nodes, every load run);
the paper's claims are checked in both readings. Once sd-11664.csv holds every
point, it also draws docs/seed000/fig5-11664-sd.png and fig6-11664-sd.png (the
figures with vFtree and Flow2SL source-dependent), unless gnuplot is missing or
ICNSIM_DOCS_NO_RENDER is set."""
import argparse, csv, glob, os, shutil, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import DEFAULT_BIN, ROOT, grid_plot, render, sweep, write_csv  # noqa: E402
from pages import block, read_table, require, write_doc  # noqa: E402

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


def load_list(spec):
    """The loads of a --loads value: a:step:b or a,b,c."""
    if ":" in spec:
        a, step, b = (float(x) for x in spec.split(":"))
        n = int(round((b - a) / step)) + 1
        return [round(a + i * step, 6) for i in range(n)]
    return [float(x) for x in spec.split(",")]


def kept_points(path):
    """The (figure, traffic, routing, scheme, load) points a raw CSV holds (none if it does not exist)."""
    if not os.path.exists(path):
        return set()
    return {(r["figure"], r["traffic"], r["routing"], r["scheme"], "%.3f" % float(r["load"]))
            for r in csv.DictReader(open(path))}


def missing_loads(kept, voq, scheme, rname, loads):
    """The loads at which the kept points lack one of the sweep (voq, scheme, routing rname), any traffic."""
    return [x for x in loads if any((str(6 if voq else 5), t, rname, scheme, "%.3f" % x) not in kept for _, t in TRAFFIC)]


def run_all(args, out):
    # time.drain = false: the figures plot the window's accepted traffic,
    # which the drain after the window (latency only) cannot change
    base = os.path.join(HERE, "base-%d.ini" % args.nodes)
    loads = load_list(args.loads)
    kept = kept_points(args.raw) if args.only_missing else None
    for voq in (0, 1):
        for scheme, _, vcs in args.schemes:
            for routing, rname, extra, more in ROUTINGS:
                d, want = run_dir(out, voq, scheme, routing), args.loads
                if kept is not None:
                    miss = missing_loads(kept, voq, scheme, rname, loads)
                    if not miss:
                        continue
                    if len(miss) < len(loads):   # its own directory: a sweep's set-up is fixed once run
                        want = ",".join("%g" % x for x in miss)
                        d += "-loads-" + want
                sweep(args.bin, base, d,
                      [("queuing.scheme", scheme), ("switch.vcs", vcs + more), ("switch.voq", voq),
                       ("routing.algorithm", routing), ("traffic.scenario", ",".join(t for t, _ in TRAFFIC)),
                       ("load", want), ("time.drain", "false")] + extra, args.j)


def finished(d):
    """The summary rows of the finished points of the sweep(s) of run_dir d (an interrupted one's too)."""
    rows = []
    for sweep_dir in [d] + sorted(glob.glob(d + "-loads-*")):
        for p in sorted(glob.glob(os.path.join(sweep_dir, "points", "*"))):
            if os.path.exists(os.path.join(p, "complete")):
                rows += list(csv.DictReader(open(os.path.join(p, "summary.csv"))))
    return rows


def report(out, nodes, schemes):
    for voq, fig in ((0, 5), (1, 6)):
        rows, panels = [], []
        for traffic, tname in TRAFFIC:
            for routing, rname, _, _ in ROUTINGS:
                curves = []
                for scheme, sname, _ in schemes:
                    if len({n for _, n, _ in schemes}) < len(schemes):
                        sname = scheme   # two readings of one paper scheme: name them by scheme
                    pts = sorted((float(r["load"]), float(r["accepted"])) for r in finished(run_dir(out, voq, scheme, routing))
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


RAW_HEADER = ["figure", "traffic", "routing", "scheme", "load", "accepted", "build"]


def raw_key(r):
    """Sort and identity key of a raw row: figure, traffic, routing and scheme in the page's order, load."""
    tr = [t for _, t in TRAFFIC].index(r["traffic"])
    ro = [n for _, n, _, _ in ROUTINGS].index(r["routing"])
    return (int(r["figure"]), tr, ro, r["scheme"], float(r["load"]))


def write_raw(path, out, schemes, build):
    """Add every finished point of the run in `out` to the raw CSV `path`."""
    rows = {}
    if os.path.exists(path):
        rows = {raw_key(r): r for r in csv.DictReader(open(path))}
    n = 0
    for voq, fig in ((0, 5), (1, 6)):
        for scheme, _, _ in schemes:
            for routing, rname, _, _ in ROUTINGS:
                for r in finished(run_dir(out, voq, scheme, routing)):
                    tname = dict(TRAFFIC)[r["traffic.scenario"]]
                    row = {"figure": str(fig), "traffic": tname, "routing": rname, "scheme": scheme,
                           "load": "%.3f" % float(r["load"]), "accepted": "%.4f" % float(r["accepted"]), "build": build}
                    rows[raw_key(row)] = row
                    n += 1
    write_csv(path, RAW_HEADER, [[r[h] for h in RAW_HEADER] for _, r in sorted(rows.items())])
    print("%d points -> %s (%d rows)" % (n, path, len(rows)))


def read_raw(name, load=None):
    """{(figure, traffic, routing, scheme): accepted} of a kept raw CSV (at one load, if given); and its builds."""
    v, builds = {}, set()
    for r in read_table(os.path.join(HERE, "results", name), ["figure", "traffic", "routing", "scheme", "load"],
                        ["load", "accepted"]).values():
        if load is None or abs(float(r["load"]) - load) < 1e-9:
            v[(r["figure"], r["traffic"], r["routing"], r["scheme"])] = float(r["accepted"])
            builds.add(r["build"])
    return v, sorted(builds)


def readings_rows(v, figs):
    """Rows of a two-readings table: destination-only / source-dependent per routing."""
    L = []
    for fig in figs:
        for _, tname in TRAFFIC:
            for a, b, name in (("vftree-hop", "vftree-sd", "vFtree"), ("flow2sl", "flow2sl-sd", "Flow2SL")):
                cells = []
                for _, n, _, _ in ROUTINGS:
                    x, y = v.get((fig, tname, n, a)), v.get((fig, tname, n, b))
                    cells.append("-" if x is None or y is None else "%.2f / %.2f" % (x, y))
                if any(c != "-" for c in cells):
                    L.append("| %s | %s | %s | %s |" % (fig, tname, name, " | ".join(cells)))
    return L


def doc_table():
    """docs/seed000-figs.md from the kept CSVs, without running anything."""
    doc = os.path.join(ROOT, "docs", "seed000-figs.md")
    L = ["# Seed 000, Figures 5 and 6: throughput at full load", "",
         "Generated by `python3 experiments/seed000/figs.py --table` from `docs/seed000/fig5-11664.csv`, "
         "`docs/seed000/fig6-11664.csv` (every point of the 11664-node curves, drawn in `docs/seed000/fig5-11664.png` "
         "and `fig6-11664.png`), `experiments/seed000/results/readings-432.csv` and `sd-11664.csv`. "
         "Normalized throughput.", ""]
    for fig, what in ((5, "no VOQs"), (6, "VOQ switches")):
        rows = list(csv.DictReader(open(os.path.join(ROOT, "docs", "seed000", "fig%d-11664.csv" % fig))))
        loads = sorted({r["load"] for r in rows}, key=float)
        for load in (loads[-1],):
            v = {(r["traffic"], r["routing"], r["scheme"]): float(r["accepted"]) for r in rows if r["load"] == load}
            L += ["## Figure %d (%s), 11664 nodes, load %s" % (fig, what, load), "",
                  "| traffic | scheme | " + " | ".join(n for _, n, _, _ in ROUTINGS) + " |", "|---|---|" + "---|" * len(ROUTINGS)]
            for _, tname in TRAFFIC:
                for _, sname, _ in SCHEMES:
                    L.append("| %s | %s | %s |" % (tname, sname, " | ".join(
                        "%.2f" % v[(tname, n, sname)] if (tname, n, sname) in v else "-" for _, n, _, _ in ROUTINGS)))
            L.append("")
    rows = list(csv.DictReader(open(os.path.join(ROOT, "docs", "seed000", "fig6-11664.csv"))))
    L += ["## Figure 6, 11664 nodes: 1VC's peak over the loads (load of the peak)", "",
          "| traffic | " + " | ".join(n for _, n, _, _ in ROUTINGS) + " |", "|---|" + "---|" * len(ROUTINGS)]
    for _, tname in TRAFFIC[1:]:
        cells = []
        for _, n, _, _ in ROUTINGS:
            pts = [(float(r["accepted"]), r["load"]) for r in rows if r["traffic"] == tname and r["routing"] == n
                   and r["scheme"] == "1VC"]
            cells.append("%.2f (%s)" % max(pts) if pts else "-")
        L.append("| %s | %s |" % (tname, " | ".join(cells)))
    L.append("")
    v, builds = read_raw("readings-432.csv", 1.0)
    head = ["| figure | traffic | scheme | " + " | ".join(n for _, n, _, _ in ROUTINGS) + " |",
            "|---|---|---|" + "---|" * len(ROUTINGS)]
    L += ["## Two readings of vFtree and Flow2SL, 432 nodes, load 1.0", "",
          "Destination-only (`vftree-hop`, `flow2sl`) / source-dependent (`vftree-sd`, `flow2sl-sd`) reading "
          "(docs/FATTREE.md), from `experiments/seed000/results/readings-432.csv` (every load; build %s)."
          % ", ".join(builds), ""] + head + readings_rows(v, ("5", "6"))
    do, peak = fig_points()
    sd, builds = read_raw("sd-11664.csv", 1.0)
    complete = len(sd) == 2 * len(TRAFFIC) * len(ROUTINGS) * 2   # figures x traffic x routings x schemes
    both = dict(((str(f), t, r, {"vFtree-3VC": "vftree-hop", "Flow2SL-3VC": "flow2sl"}[sc]), x)
                for (f, t, r, sc), x in do.items() if sc in ("vFtree-3VC", "Flow2SL-3VC"))
    both.update(sd)
    L += ["", "## Two readings of vFtree and Flow2SL, 11664 nodes, load 1.0", "",
          "Destination-only (the curves above) / source-dependent (`experiments/seed000/results/sd-11664.csv`, "
          "build %s%s)." % (", ".join(builds), "" if complete else "; - where not yet run"), ""]
    L += head + readings_rows(both, ("5", "6"))
    alt = dict(do)
    name = {"vftree-sd": "vFtree-3VC", "flow2sl-sd": "Flow2SL-3VC"}
    for (f, t, r, sc), x in sd.items():
        alt[(int(f), t, r, name[sc])] = x
    claims = claims_rows(do, peak, alt if complete else None)
    curves, sdall, sdbuilds = fig_curves(), read_points("sd-11664.csv"), read_raw("sd-11664.csv")[1]
    L += ["", "## Two readings of vFtree and Flow2SL, 11664 nodes, every load", "",
          "Destination-only / source-dependent (`experiments/seed000/results/sd-11664.csv`, build %s); - where not "
          "yet run. %s" % (", ".join(sdbuilds), "Drawn in `docs/seed000/fig5-11664-sd.png` and `fig6-11664-sd.png` "
                           "(vFtree and Flow2SL source-dependent, 1VC and DBBM as above)." if len(sdall) == SD_POINTS
                           else "The figures are drawn once every point has run."), ""]
    L += curves_rows(curves, sdall)
    compare = readings_compare(curves, sdall)
    L += ["", compare]
    L += ["", "## Against the paper's claims (11664 nodes, load 1.0 unless said)", ""] + claims
    text = "\n".join(L) + "\n"
    write_doc(doc, text)
    sys.stdout.write(text)
    if len(sdall) == SD_POINTS:
        draw_sd(curves, sdall)
    block(os.path.join(ROOT, "docs", "REPRODUCING.md"), "seed000-figs", "\n".join(
        ["Generated by `python3 experiments/seed000/figs.py --table` from `docs/seed000/fig5-11664.csv`, "
         "`fig6-11664.csv` and `experiments/seed000/results/sd-11664.csv`; values at load 1.0 unless said, "
         "each claim's test in the script.", ""] + claims + ["", compare]) + "\n")


SD_LOADS = ["%.3f" % (0.1 * i) for i in range(1, 11)]
SD_POINTS = 2 * len(TRAFFIC) * len(ROUTINGS) * 2 * len(SD_LOADS)   # figures x traffic x routings x schemes x loads
SD_PAIRS = (("vftree-sd", "vFtree-3VC"), ("flow2sl-sd", "Flow2SL-3VC"))


def read_points(name):
    """{(figure, traffic, routing, scheme, load): accepted} of a kept raw CSV, every load."""
    return {(int(r["figure"]), r["traffic"], r["routing"], r["scheme"], "%.3f" % float(r["load"])): float(r["accepted"])
            for r in read_table(os.path.join(HERE, "results", name), ["figure", "traffic", "routing", "scheme", "load"],
                                ["load", "accepted"]).values()}


def fig_curves():
    """The kept 11664-node curves, every point: {(figure, traffic, routing, scheme, load): accepted}."""
    v = {}
    for fig in (5, 6):
        path = os.path.join(ROOT, "docs", "seed000", "fig%d-11664.csv" % fig)
        for r in read_table(path, ["traffic", "routing", "scheme", "load"], ["load", "accepted"]).values():
            v[(fig, r["traffic"], r["routing"], r["scheme"], "%.3f" % float(r["load"]))] = float(r["accepted"])
    return v


def curves_rows(curves, sd):
    """One row per figure, traffic, routing and scheme: destination-only / source-dependent at each load."""
    L = ["| figure | traffic | routing | scheme | " + " | ".join(x.rstrip("0") for x in SD_LOADS) + " |",
         "|---|---|---|---|" + "---|" * len(SD_LOADS)]
    for fig in (5, 6):
        for _, t in TRAFFIC:
            for _, r, _, _ in ROUTINGS:
                for sdname, name in SD_PAIRS:
                    cells = []
                    for x in SD_LOADS:
                        a, b = curves.get((fig, t, r, name, x)), sd.get((fig, t, r, sdname, x))
                        cells.append("%s / %s" % ("-" if a is None else "%.2f" % a, "-" if b is None else "%.2f" % b))
                    L.append("| %d | %s | %s | %s | %s |" % (fig, t, r, name[:-4], " | ".join(cells)))
    return L


def readings_compare(curves, sd):
    """A sentence comparing the two readings below load 1.0, over the points both have."""
    d = []
    for (fig, t, r, sdname, x), b in sd.items():
        a = curves.get((fig, t, r, dict(SD_PAIRS)[sdname], x))
        if a is not None and float(x) < 1.0 - 1e-9:
            d.append((b - a, fig, t, r, dict(SD_PAIRS)[sdname][:-4], x))
    below = SD_POINTS - SD_POINTS // len(SD_LOADS)
    if not d:
        return "Below load 1.0: no source-dependent point at 11664 nodes has run yet (%d to run)." % below
    hi, lo = max(d), min(d)
    name = lambda e: "Figure %d, %s, %s, %s, load %s" % (e[1], e[2], e[3], e[4], e[5].rstrip("0"))
    gain = "largest gain %+.2f (%s)" % (hi[0], name(hi)) if hi[0] >= TIE else "no gain"
    loss = "largest loss %+.2f (%s)" % (lo[0], name(lo)) if lo[0] <= -TIE else "no loss"
    return ("Below load 1.0 (%d of %d points run), the source-dependent reading against the destination-only one: "
            "higher at %d points, lower at %d, within %g at %d; mean |difference| %.3f; %s, %s." % (
                len(d), below, sum(1 for e in d if e[0] >= TIE), sum(1 for e in d if e[0] <= -TIE), TIE,
                sum(1 for e in d if abs(e[0]) < TIE), sum(abs(e[0]) for e in d) / len(d), gain, loss))


def draw_sd(curves, sd):
    """docs/seed000/fig5-11664-sd.png and fig6-11664-sd.png: the figures with vFtree and Flow2SL source-dependent."""
    if not shutil.which("gnuplot") or os.environ.get("ICNSIM_DOCS_NO_RENDER"):
        return   # experiments/docs.py sets it: a PNG differs byte-wise between gnuplot builds
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        for fig in (5, 6):
            panels = []
            for _, t in TRAFFIC:
                for _, r, _, _ in ROUTINGS:
                    lines = []
                    for _, name, _ in SCHEMES:
                        sdname = {b: a for a, b in SD_PAIRS}.get(name)
                        pts = [(float(x), sd[(fig, t, r, sdname, x)] if sdname else curves[(fig, t, r, name, x)])
                               for x in SD_LOADS]
                        f = "fig%d-%s-%s-%s.csv" % (fig, t, r, name)
                        write_csv(os.path.join(tmp, f), ["load", "accepted"], pts)
                        lines.append((f, 1, 2, name + (" SD" if sdname else "")))
                    panels.append(("%s + %s" % (t, r), lines))
            gp = os.path.join(tmp, "fig%d.gp" % fig)
            grid_plot(gp, "fig%d.png" % fig, "Seed 000 Fig. %d: 11664-node RLFT%s, vFtree and Flow2SL source-dependent (SD)" % (
                fig, ", VOQ switches" if fig == 6 else ""), panels, len(ROUTINGS), "generated load",
                "normalized throughput", ("0", "1"))
            subprocess.run(["gnuplot", "fig%d.gp" % fig], cwd=tmp, check=True)
            shutil.copyfile(os.path.join(tmp, "fig%d.png" % fig), os.path.join(ROOT, "docs", "seed000", "fig%d-11664-sd.png" % fig))


def fig_points():
    """The kept 11664-node curves: {(figure, traffic, routing, scheme): accepted} at load 1.0, and each curve's peak."""
    v, peak = {}, {}
    for fig in (5, 6):
        path = os.path.join(ROOT, "docs", "seed000", "fig%d-11664.csv" % fig)
        rows = read_table(path, ["traffic", "routing", "scheme", "load"], ["load", "accepted"])
        require(rows, [(t, r, s, "1.000") for _, t in TRAFFIC for _, r, _, _ in ROUTINGS for _, s, _ in SCHEMES], path)
        for r in rows.values():
            k = (fig, r["traffic"], r["routing"], r["scheme"])
            x = float(r["accepted"])
            peak[k] = max(peak.get(k, 0.0), x)
            if abs(float(r["load"]) - 1.0) < 1e-9:
                v[k] = x
    return v, peak


def claims_rows(v, peak, alt):
    """The claims table: with vFtree and Flow2SL destination-only (v), and, when
    alt is given, source-dependent (alt: v with their load-1.0 values replaced;
    the claims that use peaks use 1VC's only)."""
    cells = lambda T: [tuple(x.strip() for x in row.strip("|").split(" | ")) for row in T[2:]]
    a = cells(claims_table(v, peak))
    if alt is None:
        return ["| claim (Figures 5/6) | ours | verdict |", "|---|---|---|"] + ["| %s | %s | %s |" % r for r in a]
    b = cells(claims_table(alt, peak))
    return (["| claim (Figures 5/6) | ours, destination-only vFtree and Flow2SL | verdict | ours, source-dependent | verdict |",
             "|---|---|---|---|---|"] + ["| %s | %s | %s | %s | %s |" % (x[0], x[1], x[2], y[1], y[2]) for x, y in zip(a, b)])


TIE = 0.005   # two throughputs closer than this, the precision of the tables, tie


def best_verdict(order, want):
    """Verdict of "`want` (routing, scheme) gives the best result" from `order`,
    [(value, routing, scheme), ...] best first: "yes" if it is first by more
    than TIE, "in part" if it ties with the first or the runner-up, else "no"."""
    top = order[0][0]
    ties = [(r, sc) for x, r, sc in order if top - x < TIE]
    if want not in ties:
        return "no"
    if len(ties) == 1:
        return "yes"
    return "in part: ties with " + ", ".join("%s + %s" % (sc, r) for r, sc in ties if (r, sc) != want)


def claims_table(v, peak):
    """The paper's prose claims on Figures 5 and 6, each checked by a rule on 11664-node points."""
    R = [n for _, n, _, _ in ROUTINGS]
    S3 = ["DBBM-3VC", "Flow2SL-3VC", "vFtree-3VC"]
    yn = lambda b: "yes" if b else "no"
    T = ["| claim (Figures 5/6) | ours | verdict |", "|---|---|---|"]
    # 1. UT, no VOQs
    spread = {sc: max(v[(5, "UT", r, sc)] for r in R) - min(v[(5, "UT", r, sc)] for r in R) for sc in S3}
    d1 = v[(5, "UT", "D-mod-K", "1VC")] - v[(5, "UT", "Adaptive", "1VC")]
    T.append("| UT, no VOQs: the routing hardly matters for the 3VC schemes | spread over the four routings (hardly: "
             "0.05 or less): %s | %s |" % (
        ", ".join("%s %.2f" % (sc[:-4], spread[sc]) for sc in S3), yn(max(spread.values()) <= 0.05) if max(
            spread.values()) <= 0.05 or min(spread.values()) > 0.05 else "in part"))
    T.append("| UT, no VOQs: 1VC only slightly worse with Adaptive | D-mod-K %.2f, Adaptive %.2f (slightly: 0.05 or "
             "less) | %s |" % (
        v[(5, "UT", "D-mod-K", "1VC")], v[(5, "UT", "Adaptive", "1VC")], "yes" if 0 <= d1 <= 0.05 else
        "no: more than slightly" if d1 > 0.05 else "no: better"))
    # 2. HS10 1VC
    g = lambda f, t, r, sc: v[(f, t, r, sc)]
    near0 = max(g(5, "HS10", "D-mod-K", "1VC"), g(5, "HS10", "Adaptive", "1VC"))
    T.append("| HS10, no VOQs: 1VC near 0, \"reacts a little\" with Adaptive-th or AFI | D-mod-K %.2f, Adaptive %.2f "
             "(near 0: 0.05 or less); Adaptive-th %.2f, AFI %.2f | %s |" % (g(5, "HS10", "D-mod-K", "1VC"), g(5, "HS10", "Adaptive", "1VC"),
                                                   g(5, "HS10", "Adaptive-th", "1VC"), g(5, "HS10", "AFI", "1VC"),
                                                   yn(near0 <= 0.05 and max(g(5, "HS10", "Adaptive-th", "1VC"),
                                                                            g(5, "HS10", "AFI", "1VC")) > near0)))
    T.append("| HS10, no VOQs: vFtree suffers under Adaptive, AFI lifts it significantly | D-mod-K %.2f, Adaptive %.2f, "
             "AFI %.2f (significantly: by more than 0.1) | %s |" % (g(5, "HS10", "D-mod-K", "vFtree-3VC"), g(5, "HS10", "Adaptive", "vFtree-3VC"),
                                  g(5, "HS10", "AFI", "vFtree-3VC"),
                                  yn(g(5, "HS10", "Adaptive", "vFtree-3VC") < g(5, "HS10", "D-mod-K", "vFtree-3VC") and
                                     g(5, "HS10", "AFI", "vFtree-3VC") > g(5, "HS10", "Adaptive", "vFtree-3VC") + 0.1)))
    T.append("| HS10, no VOQs: DBBM pairs better with Adaptive than with AFI | Adaptive %.2f, AFI %.2f | %s |" % (
        g(5, "HS10", "Adaptive", "DBBM-3VC"), g(5, "HS10", "AFI", "DBBM-3VC"),
        yn(g(5, "HS10", "Adaptive", "DBBM-3VC") > g(5, "HS10", "AFI", "DBBM-3VC"))))
    for t in ("HS10", "HS25"):
        order = sorted(((g(5, t, r, sc), r, sc) for r in R for _, sc, _ in SCHEMES), reverse=True)
        T.append("| %s, no VOQs: Flow2SL with AFI gives the best result | best of the 16: %s + %s %.2f; next %s + %s %.2f "
                 "(a tie: less than %g apart) | %s |" % (
                     t, order[0][2], order[0][1], order[0][0], order[1][2], order[1][1], order[1][0], TIE,
                     best_verdict(order, ("AFI", "Flow2SL-3VC"))))
    for r, fig in (("Adaptive-th", "5k"), ("AFI", "5l")):
        up = [sc for _, sc, _ in SCHEMES if g(5, "HS25", r, sc) > g(5, "HS10", r, sc)]
        T.append("| HS25 better than HS10 with %s (%s) | higher under HS25 for %d of 4 schemes%s | %s |" % (
            r, fig, len(up), " (%s)" % ", ".join(up) if up else "", "yes" if len(up) == 4 else "no" if len(up) <= 1 else "in part"))
    gain = {sc: g(5, "HS25", "AFI", sc) - g(5, "HS25", "Adaptive", sc) for _, sc, _ in SCHEMES}
    top2 = sorted(gain, key=lambda sc: -gain[sc])[:2]
    T.append("| HS25, no VOQs: 1VC and vFtree gain most from AFI | Adaptive to AFI: %s | %s |" % (
        ", ".join("%s %+.2f" % (sc, gain[sc]) for _, sc, _ in SCHEMES), yn(set(top2) == {"1VC", "vFtree-3VC"})))
    ut = [g(6, "UT", r, sc) for r in R for _, sc, _ in SCHEMES]
    T.append("| UT with VOQs: optimal whatever the routing | %.2f-%.2f over every scheme and routing (optimal: 0.8 or "
             "more) | %s |" % (min(ut), max(ut), yn(min(ut) >= 0.8)))
    for t in ("HS10", "HS25"):
        pv = (peak[(6, t, "D-mod-K", "1VC")], peak[(6, t, "Adaptive", "1VC")])
        T.append("| %s with VOQs: Adaptive is counterproductive for 1VC and vFtree | vFtree D-mod-K %.2f, Adaptive %.2f; "
                 "1VC at its peak over the loads %.2f, %.2f | %s |" % (
                     t, g(6, t, "D-mod-K", "vFtree-3VC"), g(6, t, "Adaptive", "vFtree-3VC"), pv[0], pv[1],
                     yn(g(6, t, "Adaptive", "vFtree-3VC") < g(6, t, "D-mod-K", "vFtree-3VC") and pv[1] < pv[0])))
    for t in ("HS10", "HS25"):
        gain = {sc: g(6, t, "AFI", sc) - g(6, t, "Adaptive", sc) for _, sc, _ in SCHEMES}
        weak = [sc for sc in ("1VC", "vFtree-3VC") if gain[sc] <= 0.1]
        lose = [sc for sc in ("DBBM-3VC", "Flow2SL-3VC") if gain[sc] < 0]
        more = [sc for sc in ("DBBM-3VC", "Flow2SL-3VC") if gain[sc] > min(gain["1VC"], gain["vFtree-3VC"])]
        bad = ["%s gains 0.1 or less" % sc for sc in weak] + ["%s loses" % sc for sc in lose] + [
            "%s gains more" % sc for sc in more]
        T.append("| %s with VOQs: AFI improves 1VC and vFtree significantly, Flow2SL and DBBM less | Adaptive to AFI: %s "
                 "(significantly: by more than 0.1) | %s |" % (
                     t, ", ".join("%s %+.2f" % (sc, gain[sc]) for _, sc, _ in SCHEMES),
                     "yes" if not bad else ("no" if len(weak) == 2 else "in part") + ": " + "; ".join(bad)))
    return T


def main():
    if sys.argv[1:] == ["--table"]:
        doc_table()
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=432, choices=(432, 11664))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--loads", default="0.1:0.1:1.0", help="generated loads (a:step:b or a,b,c)")
    ap.add_argument("--bin", default=DEFAULT_BIN, help="icnsim binary to run")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--schemes", default=",".join(s for s, _, _ in SCHEMES), help="queuing schemes (curves), comma-separated")
    ap.add_argument("--out", help="results directory (default results/seed000-figs-<nodes>)")
    ap.add_argument("--raw", help="add the run's points to this raw CSV (experiments/seed000/results/)")
    ap.add_argument("--build", help="with --raw: the build that ran the points (a commit)")
    ap.add_argument("--only-missing", action="store_true", help="with --raw: run only the points the raw CSV lacks")
    args = ap.parse_args()
    if args.raw and not args.build:
        sys.exit("--raw needs --build (the commit of the binary that ran the points)")
    if args.only_missing and not args.raw:
        sys.exit("--only-missing needs --raw (the CSV whose points are not run again)")
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
    if args.raw:
        write_raw(args.raw, out, args.schemes, args.build)


if __name__ == "__main__":
    main()
