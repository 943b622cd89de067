"""Shared by the IBA CC experiment scripts: run a sweep with CC off and on
(the CC points with FLOWS flows per node: a flow per destination up to FLOWS
destinations), keep a compact CSV of results."""
import argparse, csv, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.dirname(HERE))
from pages import block, read_table, require, write_doc  # noqa: E402,F401  (the scripts import them from here)

FLOWS = 1024   # nic.flows of the CC points unless a script says otherwise


def flows_text(nodes, flows=FLOWS):
    """How the CC runs' nic.flows compares with the destinations of a node, for a page."""
    if flows >= nodes - 1:
        return "with a flow per destination (nic.flows = %d)" % flows
    return ("with nic.flows = %d, fewer than the %d destinations of a node: a source whose %d flows are all alive "
            "waits for one to end, which can make CC look costlier than it is (docs/INFINIBAND-CC.md)" % (flows, nodes - 1, flows))


def sweep(binary, jobs, name, config, sets, cc, flows=FLOWS):
    """Run `icnsim sweep config` with the -s values of `sets` (a list of
    "key=value") and cc.mode = cc; return the rows of its summary.csv."""
    out = os.path.join(ROOT, "results", "ibcc-%s-%s" % (name, cc))
    # the committed results count latency over the window only (no drain)
    cmd = [binary, "sweep", config, "-q", "-j", str(jobs), "-o", out, "-s", "cc.mode=" + cc, "-s", "time.drain=false"]
    for s in sets:
        cmd += ["-s", s]
    if cc == "iba":   # flows per node: a flow per destination when flows >= nodes - 1
        cmd += ["-s", "nic.flows=%d" % flows]
    subprocess.run(cmd, cwd=ROOT, check=True)
    with open(os.path.join(out, "summary.csv")) as f:
        return list(csv.DictReader(f))


def keep(path, cols, rows):
    """Write the columns `cols` of `rows` to path, atomically."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        for r in rows:
            w.writerow([r[c] for c in cols])
    os.replace(path + ".tmp", path)


def main(doc, run, table):
    """The scripts' command line: run the sweeps (unless --table), then the table."""
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-j", type=int, default=2)
    p.add_argument("--bin", default=os.path.join(ROOT, "icnsim"))
    p.add_argument("--table", action="store_true", help="only regenerate the table from the kept CSV")
    a = p.parse_args()
    if not a.table:
        run(a)
    table()
