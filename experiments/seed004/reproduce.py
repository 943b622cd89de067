#!/usr/bin/env python3
"""Seed 004 (Puente, thesis ch. 3): Tables 3-7 and 3-8 and Figures 3-21..3-26
for the four routers of Table 3-6: the bubble routers (virtual cut-through,
packet-level model) and the VC routers (wormhole, flit-level model).

    python3 experiments/seed004/reproduce.py [-j 2] [--quick]

Runs ./icnsim (build it first with `make`), writes results/seed004/ (--quick:
results/seed004-quick/, since a sweep directory holds one sweep), prints a
markdown table with our value beside the paper's in every cell, and renders
latency-versus-throughput plots with gnuplot when it is installed."""
import argparse, csv, os, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "results", "seed004")

ROUTERS = {  # name: (config, cycle ns, paper base latency, paper max throughput phits/cycle)
    "Bubble DOR": ("bubble-dor.ini", 5.25,
                   [212.9, 330.5, 192.6, 221.4, 225.2, 212.0], [38.7, 29.9, 38.6, 13.0, 12.0, 18.7]),
    "VC DOR": ("vc-dor.ini", 5.57,
               [248.7, 373.9, 226.4, 260.2, 264.8, 247.3], [36.72, 28.1, 36.0, 14.7, 12.4, 20.6]),
    "VC Adapt": ("vc-adaptive.ini", 7.50,
                 [374.4, 541.5, 344.0, 391.9, 392.9, 376.8], [39.4, 34.7, 39.2, 27.3, 32.7, 29.1]),
    "Bubble Adapt": ("bubble-adaptive.ini", 5.65,
                     [229.5, 350.0, 208.3, 238.3, 239.0, 230.4], [43.6, 36.8, 41.8, 30.6, 34.1, 28.7]),
}
LOADS = [  # column, overrides (figure)
    ("uniform", ["traffic.pattern=uniform"], "3-21"),
    ("bimodal", ["traffic.pattern=uniform", "traffic.long_fraction=0.1", "traffic.long_size=400B"], "3-22"),
    ("bimodal short", ["traffic.pattern=uniform", "traffic.message_size=8B", "traffic.long_fraction=0.8",
                       "traffic.long_size=40B", "switch.granularity=40B"], "3-23"),
    ("transpose", ["traffic.pattern=transpose"], "3-25"),
    ("bit-reversal", ["traffic.pattern=bitrev"], "3-24"),
    ("perfect shuffle", ["traffic.pattern=shuffle"], "3-26"),
]


def icnsim(args):
    r = subprocess.run([os.path.join(ROOT, "icnsim")] + args, cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        sys.exit("icnsim failed: %s\n%s" % (" ".join(args), r.stderr))


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", default="2")
    ap.add_argument("--quick", action="store_true", help="fewer load points, shorter runs (CI)")
    a = ap.parse_args()
    if not os.path.exists(os.path.join(ROOT, "icnsim")):
        sys.exit("build icnsim first: make")
    global OUT
    if a.quick:
        OUT += "-quick"
    step = "0.1" if a.quick else "0.05"
    base_time = "10ms" if a.quick else "40ms"
    table = {}
    for rname, (ini, tc, plat, pthr) in ROUTERS.items():
        cfg = os.path.join("experiments", "seed004", ini)
        for i, (col, sets, fig) in enumerate(LOADS):
            tag = "%s-%s" % (ini[:-4], col.replace(" ", "-"))
            sets = [x for x in sets if not (ini.startswith("vc-") and x.startswith("switch.granularity"))]
            sargs = sum((["-s", x] for x in sets), [])
            bdir = os.path.join(OUT, tag, "base")
            icnsim(["run", cfg, "-q", "-o", bdir, "-s", "load=0.0003", "-s", "time.measure=" + base_time] + sargs)
            sdir = os.path.join(OUT, tag, "curve")
            icnsim(["sweep", cfg, "-q", "-j", a.j, "-o", sdir, "-s", "load=%s:%s:1.0" % (step, step)] + sargs)
            b = rows(os.path.join(bdir, "summary.csv"))[0]
            curve = rows(os.path.join(sdir, "summary.csv"))
            nodes = 64
            full = float(curve[-1]["accepted"]) * nodes
            table[(rname, col)] = (float(b["msg_mean_ns"]), plat[i], full, pthr[i], tc)
    cols = [c for c, _, _ in LOADS]
    print("### Table 3-7: base latency (ns), icnsim / paper\n")
    print("| router | " + " | ".join(cols) + " |\n|---|" + "---|" * len(cols))
    for rname in ROUTERS:
        cells = ["%.1f / %.1f (%+.1f%%)" % (v[0], v[1], 100 * (v[0] / v[1] - 1)) for v in (table[(rname, c)] for c in cols)]
        print("| %s | %s |" % (rname, " | ".join(cells)))
    print("\n### Table 3-8: maximum throughput at full injection, phits/cycle (phits/ns), icnsim / paper\n")
    print("| router | " + " | ".join(cols) + " |\n|---|" + "---|" * len(cols))
    for rname in ROUTERS:
        cells = []
        for c in cols:
            v = table[(rname, c)]
            cells.append("%.1f (%.2f) / %.1f (%.2f) (%+.1f%%)" % (v[2], v[2] / v[4], v[3], v[3] / v[4], 100 * (v[2] / v[3] - 1)))
        print("| %s | %s |" % (rname, " | ".join(cells)))
    # Figures 3-21..3-26: latency versus accepted throughput (phits/ns), one curve per router
    if shutil.which("gnuplot"):
        for col, _, fig in LOADS:
            gp = os.path.join(OUT, "fig%s.gp" % fig)
            with open(gp, "w") as f:
                f.write("set datafile separator ','\nset terminal pngcairo size 900,600 noenhanced\n")
                f.write("set output 'fig%s.png'\nset title 'Figure %s (%s), 8x8 torus'\n" % (fig, fig, col))
                f.write("set xlabel 'accepted traffic (phits/ns, whole network)'\nset ylabel 'latency (ns)'\n")
                f.write("set logscale y\nset grid\nset key top left\nplot ")
                plots = []
                for rname, (ini, tc, _, _) in ROUTERS.items():
                    tag = "%s-%s" % (ini[:-4], col.replace(" ", "-"))
                    data = os.path.join(tag, "curve", "summary.csv")
                    plots.append("'%s' using (column('accepted')*64/%g):(column('msg_mean_ns')) skip 0 with linespoints title '%s'"
                                 % (data, tc, rname))
                f.write(", \\\n     ".join(plots) + "\n")
            # gnuplot's column('name') needs the header: tell it the first row holds names
            txt = open(gp).read().replace("set datafile separator ','\n", "set datafile separator ','\nset key autotitle columnhead\n")
            open(gp, "w").write(txt)
            subprocess.run(["gnuplot", os.path.basename(gp)], cwd=OUT, check=False)
        print("\nplots: %s/fig3-21.png .. fig3-26.png" % os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    main()
