#!/usr/bin/env python3
"""Seed 002, Tables 2 (no VOQs) and 3 (VOQ switches): 17 routing configurations
x {1Q, DBBM, vFtree, Flow2SL} x {HS10-1, HS25-1, HS10-4, HS25-4, IHS}.

    python3 experiments/seed002/tables.py [--nodes 432|11664] [-j 2] [--quick]
        [--schemes 1q,dbbm,vftree-hop,flow2sl] [--voq 0,1] [--per-cell]
        [--shard K/N] [--skip RAW.csv] [--out DIR] [--raw FILE.csv] [--bin PATH] [--report-only]
    python3 experiments/seed002/tables.py --from-raw A.csv [B.csv ...] [--md OUT.md]
    python3 experiments/seed002/tables.py --docs

Running: one resumable `icnsim sweep` per (switch architecture, queuing
scheme) under results/seed002-tables-<nodes>/ (or --out); an interrupted run
picks up where it stopped, finished points are never recomputed. --per-cell
runs every cell as its own one-point sweep, headline cells first (PRIORITY),
so that a long run that is stopped early has the cells that matter most; it
resumes the same way. --schemes picks the columns: each scheme fills the
paper's column of its family (COLUMN), e.g. vftree-sd fills vFtree.

Results: --raw writes the compact raw results (one row per cell: nodes, voq,
scheme, routing, scenario, throughput in %, build) that the repository keeps
under experiments/seed002/results/. --from-raw makes the tables from such
files alone, without running anything; with several files a later file's cell
replaces an earlier one's for the same (table, column, routing, scenario).
Both print the markdown laid out like the paper ("icnsim / paper" in every
cell) with the mean distance per column; --md also writes it to a file.

--docs regenerates, from the kept raw CSVs alone, the four docs pages
(DOCS_PAGES), the seed002 block of docs/REPRODUCING.md (the mean distance to
the paper per table and column, for both scales and both readings) and the
fattree-sd block of docs/FATTREE.md (the cells of sd-11664.csv it quotes).

Each value is the normalized throughput of a 200 us window that opens when the
paper's 1 ms warm-up ends ("we capture each value after a 1ms warm-up"):
over the 257 runs of the 432-node tables, it differs from the 1-2 ms mean by
0.35 points on average, at 60 % of the cost (--measure changes it). The run
ends with the window (time.drain = false): the drain after it serves latency
only and changes no throughput figure.
--quick shortens the warm-up to 0.3 ms for a smoke test. --bin runs another
binary (a frozen copy, so that rebuilding does not change a long run)."""
import argparse, csv, glob, os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from common import DEFAULT_BIN, ROOT, sweep  # noqa: E402
from paper import ROWS, TABLE2, TABLE3  # noqa: E402

# The paper's columns: (label, VCs). Every scheme fills the column of its
# family; the paper's values are per column.
COLUMNS = [("1Q", 1), ("DBBM", 3), ("vFtree", 3), ("Flow2SL", 3)]
COLUMN = {"1q": "1Q", "dbbm": "DBBM", "vftree": "vFtree", "vftree-hop": "vFtree", "vftree-pod": "vFtree",
          "vftree-sd": "vFtree", "flow2sl": "Flow2SL", "flow2sl-sd": "Flow2SL"}
VCS = {label: v for label, v in COLUMNS}
# Default schemes. vFtree and Flow2SL run in their source-dependent readings,
# as the seed defines them (by source and destination switch, or flow; formulas
# and sources in docs/FATTREE.md); their destination-only readings are
# vftree-hop and flow2sl (--schemes 1q,dbbm,vftree-hop,flow2sl).
DEFAULT_SCHEMES = "1q,dbbm,vftree-sd,flow2sl-sd"
SCHEMES = [(s, COLUMN[s], VCS[COLUMN[s]]) for s in DEFAULT_SCHEMES.split(",")]   # figs.py uses it
SCENARIOS = [("hs10-1", "HS10-1"), ("hs25-1", "HS25-1"), ("hs10-4", "HS10-4"), ("hs25-4", "HS25-4"), ("ihs", "IHS")]
LABEL = {"dmodk": "D-MOD-K", "oblivious": "OBLIVIOUS", "ADAP-NoTH-S-K": "FULLY ADAPTIVE (NoTH-*S-K)"}
SC_LABEL = dict(SCENARIOS)
SC_NAME = {v: k for k, v in SCENARIOS}
# --per-cell order, as (voq, routing, scenario): the cells the fidelity issue
# names and the D-mod-K cells with VOQs (where a source-dependent mapping
# would lose every VC), then the rest of HS10-1 and HS10-4, then the others.
PRIORITY = [(0, "dmodk", "hs10-1"), (0, "ADAP-NoTH-S-K", "hs10-1"), (1, "dmodk", "hs10-1"), (0, "ADAP-2TH-S-K", "hs10-4"),
            (0, "dmodk", "hs10-4"), (1, "dmodk", "hs10-4"), (0, "ADAP-TH-1S-K", "hs10-4"), (0, "ADAP-2TH-1S-K", "hs10-4"),
            (0, "ADAP-TH-S-K/3", "hs10-1"), (0, "ADAP-NoTH-1S-K", "hs10-1"), (0, "ADAP-2TH-S-K", "hs10-1"),
            (0, "oblivious", "hs10-1"), (1, "ADAP-2TH-S-K/3", "hs10-1"), (1, "ADAP-NoTH-S-K", "hs10-1"), (0, "dmodk", "ihs")]
RAW_HEADER = ["nodes", "voq", "scheme", "routing", "scenario", "throughput", "build"]


def paper_value(voq, column, routing, scenario):
    ci = [c for c, _ in COLUMNS].index(column)
    si = [s for s, _ in SCENARIOS].index(scenario)
    return (TABLE3 if voq else TABLE2)[ROWS.index(routing)][ci * 5 + si]


def build_id(binary):
    """The commit of this tree (+dirty if src/ has changes), for the raw CSV."""
    try:
        h = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "src"], capture_output=True, text=True).stdout.strip()
        return h + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def common_sets(args, scheme, voq):
    # time.drain = false: a cell's value is the window's accepted traffic,
    # which the drain after the window (latency only) cannot change
    sets = [("queuing.scheme", scheme), ("switch.vcs", VCS[COLUMN[scheme]]), ("switch.voq", voq), ("time.measure", args.measure),
            ("time.drain", "false")]
    if args.quick:
        sets.append(("time.warmup", "300us"))
    return sets


def cell_dir(out, voq, scheme, routing, scenario):
    return os.path.join(out, "%s-%s" % ("voq" if voq else "novoq", scheme), "%s-%s" % (routing.replace("/", "_"), scenario))


def cell_order(voqs):
    """Every (voq, routing, scenario), most wanted first (PRIORITY)."""
    order = [c for c in PRIORITY if c[0] in voqs]
    for voq in voqs:
        for group in (("hs10-1", "hs10-4"), ("hs25-1", "hs25-4", "ihs")):
            for sc in group:
                for rt in ROWS:
                    if (voq, rt, sc) not in order:
                        order.append((voq, rt, sc))
    return order


def run_sweeps(args, out, schemes, voqs):
    base = os.path.join(HERE, "base-11664.ini" if args.nodes == 11664 else "base-432.ini")
    t0 = time.time()
    if args.per_cell:
        done = set()
        for path in args.skip or []:
            done |= {(int(r["voq"]), r["scheme"], r["routing"], r["scenario"]) for r in csv.DictReader(open(path))}
        k, n = args.shard
        for i, (voq, rt, sc) in enumerate(cell_order(voqs)):
            if i % n != k - 1:
                continue
            for scheme in schemes:
                if (voq, scheme, rt, sc) in done:
                    continue
                sets = common_sets(args, scheme, voq) + [("traffic.scenario", sc), ("routing.algorithm", rt)]
                sweep(args.bin, base, cell_dir(out, voq, scheme, rt, sc), sets, 1)
        return time.time() - t0
    for voq in voqs:
        for scheme in schemes:
            sets = common_sets(args, scheme, voq) + [("traffic.scenario", ",".join(s for s, _ in SCENARIOS)),
                                                     ("routing.algorithm", ",".join(ROWS))]
            sweep(args.bin, base, os.path.join(out, "%s-%s" % ("voq" if voq else "novoq", scheme)), sets, args.j)
    return time.time() - t0


def load_runs(out, nodes, build):
    """Raw rows of every finished point under out (either layout)."""
    rows = {}
    # each finished point's own summary, so that a sweep still running counts
    points = os.path.join("points", "*", "summary.csv")
    for path in glob.glob(os.path.join(out, "*", points)) + glob.glob(os.path.join(out, "*", "*", points)):
        for r in csv.DictReader(open(path)):
            key = (int(r["switch.voq"] in ("1", "true", "yes")), r["queuing.scheme"], r["routing.algorithm"], r["traffic.scenario"])
            rows[key] = [nodes, key[0], key[1], key[2], key[3], "%.2f" % (100 * float(r["accepted"])), build]
    return [rows[k] for k in sorted(rows)]


def write_raw(path, rows):
    """Merge rows into the raw CSV at path: a cell already there is replaced."""
    old = {}
    if os.path.exists(path):
        for r in csv.reader(open(path)):
            if r and r[0] != "nodes":
                old[tuple(r[1:5])] = r
    for r in rows:
        old[tuple(str(x) for x in r[1:5])] = [str(x) for x in r]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(RAW_HEADER)
        w.writerows(old[k] for k in sorted(old))


def read_raw(paths):
    """{(voq, column, routing, scenario): (value, scheme)} from raw CSVs, later files winning; and the node counts."""
    from pages import read_table   # the parent directory is on sys.path
    vals, nodes = {}, set()
    for p in paths:
        for (voq, scheme, rt, sc), r in read_table(p, ["voq", "scheme", "routing", "scenario"], ["throughput"]).items():
            if scheme not in COLUMN or rt not in ROWS or sc not in SC_LABEL or voq not in ("0", "1"):
                sys.exit("%s: a row the tables have no cell for: voq %s, %s, %s, %s" % (p, voq, scheme, rt, sc))
            vals[(int(voq), COLUMN[scheme], rt, sc)] = (float(r["throughput"]), scheme)
            nodes.add(int(r["nodes"]))
    return vals, nodes


def header(paths, nodes):
    """The head of a generated docs page: the command and the builds."""
    builds = sorted({r["build"] for p in paths for r in csv.DictReader(open(p))})
    rel = [os.path.relpath(os.path.abspath(p), ROOT) for p in paths]
    return ("# Seed 002, Tables 2 and 3 at %s nodes\n\nGenerated by `python3 experiments/seed002/tables.py --from-raw %s "
            "--md <this file>` from the raw results kept in the repository (builds: %s). Each value is the normalized "
            "throughput of the 200 us window after the 1 ms warm-up (experiments/seed002/base-<N>.ini: packets routed as "
            "they enter a buffer, K/Δ candidates congruent to the stage's D-mod-K port); a later file's cell replaces an "
            "earlier one's. The queuing scheme behind each column is listed under each table. The analysis is in "
            "docs/REPRODUCING.md." % (nodes, " ".join(rel), ", ".join(builds)))


def report(vals, nodes, out=None):
    """Markdown tables laid out like the paper from {(voq, column, routing, scenario): (value, scheme)}."""
    md = []
    for voq, title in ((0, "Table 2: switches without VOQs"), (1, "Table 3: VOQ switches")):
        cols = [c for c, _ in COLUMNS if any(k[0] == voq and k[1] == c for k in vals)]
        if not cols:
            continue
        used = sorted({"%s: %s" % (k[1], v[1]) for k, v in vals.items() if k[0] == voq})
        md.append("### %s (%s nodes; each cell: icnsim / paper, normalized throughput %%)\n" % (title, nodes))
        md.append("Schemes: %s.\n" % "; ".join(used))
        md.append("| routing | " + " | ".join("%s %s" % (c, sn) for c in cols for _, sn in SCENARIOS) + " |")
        md.append("|---" * (1 + len(cols) * len(SCENARIOS)) + "|")
        diffs = {c: [] for c in cols}
        rows_csv = []
        for rt in ROWS:
            cells = []
            for c in cols:
                for sc, sn in SCENARIOS:
                    p = paper_value(voq, c, rt, sc)
                    v = vals.get((voq, c, rt, sc))
                    cells.append("%s / %d" % ("-" if v is None else "%.0f" % v[0], p))
                    rows_csv.append([rt, c, sn, "" if v is None else "%.2f" % v[0], p])
                    if v is not None:
                        diffs[c].append(abs(v[0] - p))
            md.append("| %s | %s |" % (LABEL.get(rt, rt), " | ".join(cells)))
        md.append("")
        md.append("| column | cells measured | mean \\|icnsim - paper\\| (points) | cells within 10 |")
        md.append("|---|---|---|---|")
        alld = []
        for c in cols:
            d = diffs[c]
            alld += d
            if d:
                md.append("| %s | %d of 85 | %.1f | %d |" % (c, len(d), sum(d) / len(d), sum(x <= 10 for x in d)))
        if alld:
            md.append("| all | %d of %d | %.1f | %d |\n" % (len(alld), 85 * len(cols), sum(alld) / len(alld), sum(x <= 10 for x in alld)))
        if out:
            with open(os.path.join(out, "table%d.csv" % (3 if voq else 2)), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["routing", "scheme", "scenario", "icnsim", "paper"])
                w.writerows(rows_csv)
    return "\n".join(md)


def compare(old, new, nodes_old, nodes_new):
    """Markdown: every cell measured in `new` as old / new / paper, per table
    and column, and per column the mean distance of both on those cells."""
    md, summ = [], ["| table | column | cells | old: mean distance (within 10) | new: mean distance (within 10) |",
                    "|---|---|---|---|---|"]
    for voq, title in ((0, "Table 2, no VOQs"), (1, "Table 3, VOQ switches")):
        for col, _ in COLUMNS:
            keys = [(voq, col, rt, sc) for rt in ROWS for sc, _ in SCENARIOS if (voq, col, rt, sc) in new]
            if not keys:
                continue
            sch = lambda vals: ", ".join(sorted({vals[k][1] for k in keys if k in vals})) or "-"
            md.append("#### %s, %s column: %s (%s nodes) / %s (%s nodes) / paper\n" % (title, col, sch(old), nodes_old, sch(new), nodes_new))
            md.append("| routing | " + " | ".join(sn for _, sn in SCENARIOS) + " |")
            md.append("|---" * 6 + "|")
            for rt in ROWS:
                if not any((voq, col, rt, sc) in new for sc, _ in SCENARIOS):
                    continue
                cells = []
                for sc, _ in SCENARIOS:
                    k = (voq, col, rt, sc)
                    o = "%.0f" % old[k][0] if k in old else "-"
                    cells.append("%s / %.0f / %d" % (o, new[k][0], paper_value(voq, col, rt, sc)) if k in new else "")
                md.append("| %s | %s |" % (LABEL.get(rt, rt), " | ".join(cells)))
            both = [k for k in keys if k in old]
            do = [abs(old[k][0] - paper_value(*k)) for k in both]
            dn = [abs(new[k][0] - paper_value(*k)) for k in both]
            if both:
                summ.append("| %d | %s | %d | %.1f (%d) | %.1f (%d) |" % (3 if voq else 2, col, len(both), sum(do) / len(do),
                            sum(x <= 10 for x in do), sum(dn) / len(dn), sum(x <= 10 for x in dn)))
                md.append("\n%d cells: mean |icnsim - paper| %.1f (%s) and %.1f (%s) points; within 10: %d and %d.\n"
                          % (len(both), sum(do) / len(do), sch(old), sum(dn) / len(dn), sch(new),
                             sum(x <= 10 for x in do), sum(x <= 10 for x in dn)))
    return "\n".join(summ + [""] + md)


RES = os.path.join(HERE, "results")
# (page, --from-raw files, --compare files): what --docs regenerates
# The tables' pages: 1Q and DBBM from tables-<N>.csv, vFtree and Flow2SL in
# their source-dependent readings from sd-<N>.csv (a later file wins).
DOCS_PAGES = [("seed002-tables-11664.md", ["tables-11664.csv", "sd-11664.csv"], None),
              ("seed002-tables-432.md", ["tables-432.csv", "sd-432.csv"], None),
              ("seed002-sd-432.md", ["sd-432.csv"], ["tables-432.csv"]),
              ("seed002-sd-11664.md", ["sd-11664.csv"], ["tables-11664.csv"])]


def distance(vals, keys):
    d = [abs(vals[k][0] - paper_value(*k)) for k in keys]
    return "%.1f (%d/%d)" % (sum(d) / len(d), sum(x <= 10 for x in d), len(d)) if d else "-"


def summary_block():
    """REPRODUCING's seed002 block: mean distance to the paper (cells within 10)."""
    L = ["Generated by `python3 experiments/seed002/tables.py --docs` from `experiments/seed002/results/*.csv`. "
         "Mean |icnsim - paper| in points, and (cells within 10 points / cells); the paper's values are for 11664 "
         "nodes, so the 432-node rows are a scale check. vFtree and Flow2SL in their source-dependent readings "
         "(`sd-<N>.csv`), 1Q and DBBM from `tables-<N>.csv`, which holds whole points (builds marked `-rounded`), so a "
         "cell that rounds to 10 points off counts as within.", "",
         "| nodes | table | 1Q | DBBM | vFtree | Flow2SL | all |", "|---|---|---|---|---|---|---|"]
    for nodes in (11664, 432):
        vals, _ = read_raw([os.path.join(RES, "%s-%d.csv" % (f, nodes)) for f in ("tables", "sd")])
        for voq in (0, 1):
            keys = {c: [k for k in vals if k[0] == voq and k[1] == c] for c, _ in COLUMNS}
            L.append("| %d | %d (%s) | %s | %s |" % (nodes, 3 if voq else 2, "VOQs" if voq else "no VOQs",
                     " | ".join(distance(vals, keys[c]) for c, _ in COLUMNS), distance(vals, sum(keys.values(), []))))
    L += ["", "Source-dependent readings (`vftree-sd`, `flow2sl-sd`) against the destination-only ones on the same "
          "cells (`docs/seed002-sd-432.md`, `docs/seed002-sd-11664.md`):", "",
          "| nodes | table | column | cells | destination-only | source-dependent |", "|---|---|---|---|---|---|"]
    for nodes in (432, 11664):
        new, _ = read_raw([os.path.join(RES, "sd-%d.csv" % nodes)])
        old, _ = read_raw([os.path.join(RES, "tables-%d.csv" % nodes)])
        for voq in (0, 1):
            for c in ("vFtree", "Flow2SL"):
                keys = [k for k in new if k[0] == voq and k[1] == c and k in old]
                if keys:
                    L.append("| %d | %d | %s | %d of 85 | %s | %s |" % (nodes, 3 if voq else 2, c, len(keys),
                                                                     distance(old, keys), distance(new, keys)))
    return "\n".join(L) + "\n"


def fattree_sd_block():
    """docs/FATTREE.md's block fattree-sd: the D-mod-K cells with VOQs that test the
    source-dependent readings at 11664 nodes, against the paper."""
    vals, _ = read_raw([os.path.join(RES, "sd-11664.csv")])

    def cell(column, scenario):
        v = vals.get((1, column, "dmodk", scenario))
        return "%.0f (paper %g)" % (v[0], paper_value(1, column, "dmodk", scenario)) if v else "not run"
    return ("Measured at 11664 nodes (`experiments/seed002/results/sd-11664.csv`), with VOQs and D-mod-K: "
            "`vftree-sd` under HS10-4 gives %s; under HS10-1 `vftree-sd` gives %s and `flow2sl-sd` %s.\n"
            % (cell("vFtree", "hs10-4"), cell("vFtree", "hs10-1"), cell("Flow2SL", "hs10-1")))


def docs_pages():
    """Every seed 002 docs page, REPRODUCING's seed002 block and FATTREE's fattree-sd
    block, from the kept raw CSVs."""
    for page, raw, cmp in DOCS_PAGES:
        a = [os.path.join(RES, f) for f in raw]
        cmd = [sys.executable, os.path.abspath(__file__), "--from-raw"] + [os.path.relpath(x, ROOT) for x in a]
        if cmp:
            cmd += ["--compare"] + [os.path.relpath(os.path.join(RES, f), ROOT) for f in cmp]
        subprocess.run(cmd + ["--md", os.path.join("docs", page)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    from pages import block   # the parent directory is on sys.path
    block(os.path.join(ROOT, "docs", "REPRODUCING.md"), "seed002", summary_block())
    block(os.path.join(ROOT, "docs", "FATTREE.md"), "fattree-sd", fattree_sd_block())


def check_sample(args, path, n):
    """Re-run n cells of the raw CSV at path and compare them with it."""
    cells = [r for r in csv.DictReader(open(path)) if not r["build"].endswith("-rounded")]
    if not cells:
        print("%s: no unrounded cell to check" % path, file=sys.stderr)
        return 1
    pick = [cells[i * len(cells) // n] for i in range(min(n, len(cells)))]
    bad = 0
    for r in pick:
        nodes, voq = int(r["nodes"]), int(r["voq"])
        base = os.path.join(HERE, "base-11664.ini" if nodes == 11664 else "base-432.ini")
        out = os.path.join(ROOT, "results", "seed002-sample", "%s-%s" % (voq, r["scheme"]), "%s-%s" % (
            r["routing"].replace("/", "_"), r["scenario"]))
        cmd = [args.bin, "run", base, "-q", "-o", out, "-s", "output.plots=no"]
        for k, v in common_sets(args, r["scheme"], voq) + [("traffic.scenario", r["scenario"]), ("routing.algorithm", r["routing"])]:
            cmd += ["-s", "%s=%s" % (k, v)]
        subprocess.run(cmd, check=True)
        got = "%.2f" % (100 * float(next(csv.DictReader(open(os.path.join(out, "summary.csv"))))["accepted"]))
        ok = got == r["throughput"]
        bad += not ok
        print("%s  %s voq %d %s %s %s: kept %s, now %s" % ("ok  " if ok else "DIFF", r["nodes"], voq, r["scheme"], r["routing"],
                                                          r["scenario"], r["throughput"], got))
    return 1 if bad else 0


def shard(text):
    """K/N with 1 <= K <= N."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError("expected K/N, got %r" % text)
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError("shard %s: K must be in 1..N" % text)
    return k, n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=432, choices=(432, 11664))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--schemes", default=DEFAULT_SCHEMES, help="queuing schemes to run, comma-separated (%s)" % ",".join(COLUMN))
    ap.add_argument("--voq", default="0,1", help="switch architectures: 0 (Table 2), 1 (Table 3) or both")
    ap.add_argument("--per-cell", action="store_true", help="one sweep per cell, headline cells first (always one worker)")
    ap.add_argument("--shard", type=shard, default=(1, 1), metavar="K/N",
                    help="with --per-cell: run only the K-th of every N cells (two shards fill two cores)")
    ap.add_argument("--skip", nargs="+", metavar="CSV", help="with --per-cell: skip the cells these raw CSVs hold")
    ap.add_argument("--out", help="results directory (default results/seed002-tables-<nodes>)")
    ap.add_argument("--raw", help="merge the finished cells into this compact raw CSV")
    ap.add_argument("--from-raw", nargs="+", metavar="CSV", help="make the tables from raw CSVs only")
    ap.add_argument("--compare", nargs="+", metavar="CSV", help="with --from-raw: print the cells of the --from-raw files "
                    "as old / new / paper, old taken from these raw CSVs")
    ap.add_argument("--md", help="also write the markdown here")
    ap.add_argument("--measure", default="200us", help="measurement window after the 1 ms warm-up")
    ap.add_argument("--bin", default=DEFAULT_BIN, help="icnsim binary to run")
    ap.add_argument("--build", help="build id for the raw CSV (default: this tree's commit)")
    ap.add_argument("--check-sample", nargs=2, metavar=("CSV", "N"), help="re-run N cells of a raw CSV (spread over it, "
                    "unrounded values only) and exit 1 if one differs from its kept value")
    ap.add_argument("--docs", action="store_true", help="regenerate the docs pages and REPRODUCING's block from the raw CSVs")
    args = ap.parse_args()
    if args.docs:
        docs_pages()
        return
    if args.check_sample:
        sys.exit(check_sample(args, args.check_sample[0], int(args.check_sample[1])))
    if args.from_raw:
        vals, nodes = read_raw(args.from_raw)
        label = "/".join(str(n) for n in sorted(nodes))
        if args.compare:
            old, onodes = read_raw(args.compare)
            rel = lambda ps: " ".join(os.path.relpath(os.path.abspath(p), ROOT) for p in ps)
            text = ("# Seed 002, vFtree and Flow2SL columns: two readings at %s nodes\n\nGenerated by `python3 "
                    "experiments/seed002/tables.py --from-raw %s --compare %s --md <this file>` from the raw results kept "
                    "in the repository. Each cell: old / new / paper, for the cells of the new files; the schemes are named "
                    "in each heading, their rules in docs/FATTREE.md, the analysis in docs/REPRODUCING.md.\n\n%s"
                    % (label, rel(args.from_raw), rel(args.compare), compare(old, vals, "/".join(str(n) for n in sorted(onodes)), label)))
        else:
            text = "%s\n\n%s" % (header(args.from_raw, label), report(vals, label))
    else:
        schemes = [s for s in args.schemes.split(",") if s]
        for s in schemes:
            if s not in COLUMN:
                sys.exit("unknown scheme %s (known: %s)" % (s, ", ".join(COLUMN)))
        voqs = [int(v) for v in args.voq.split(",")]
        out = args.out or os.path.join(ROOT, "results", "seed002-tables-%d%s" % (args.nodes, "-quick" if args.quick else ""))
        os.makedirs(out, exist_ok=True)
        if not args.report_only:
            wall = run_sweeps(args, out, schemes, voqs)
            print("wall time of the sweeps: %.0f s" % wall, file=sys.stderr)
        rows = [r for r in load_runs(out, args.nodes, args.build or build_id(args.bin)) if r[2] in schemes and r[1] in voqs]
        if args.raw:
            write_raw(args.raw, rows)
        vals = {(r[1], COLUMN[r[2]], r[3], r[4]): (float(r[5]), r[2]) for r in rows}
        text = report(vals, args.nodes, out)
        with open(os.path.join(out, "tables.md"), "w") as f:
            f.write(text + "\n")
    if args.md:
        with open(args.md, "w") as f:
            f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
