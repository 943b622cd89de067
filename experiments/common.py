"""Helpers shared by the experiment scripts: resumable sweeps, summaries,
gnuplot rendering. Each script describes its grid of runs; icnsim does the
running (in parallel, skipping points already computed) and writes one
summary.csv row per run plus per-run time series under <dir>/points/."""
import argparse, csv, glob, os, shutil, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BIN = os.path.join(ROOT, "icnsim")


def sweep(binary, base, outdir, sets, j):
    """Run `icnsim sweep base -o outdir -s k=v ...` (v may list values: a,b,c
    or a:step:b). Finished points in outdir with the same configuration are
    reused, so an interrupted script resumes where it stopped."""
    cmd = [binary, "sweep", base, "-q", "-j", str(j), "-o", outdir, "-s", "output.plots=no"]
    for k, v in sets:
        cmd += ["-s", "%s=%s" % (k, v)]
    print("==", " ".join(cmd[2:]), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)


def run_or_table(doc, run, table, jobs=2):
    """The command line of a script that runs its grid, keeps the raw results
    and writes its table: `-j N --bin PATH`, or `--table` to write the table
    from the kept results alone."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-j", type=int, default=jobs)
    ap.add_argument("--bin", default=DEFAULT_BIN)
    ap.add_argument("--table", action="store_true")
    a = ap.parse_args()
    if not a.table:
        run(a)
    table()


def summary(outdir):
    """The rows of outdir/summary.csv (empty if the sweep has not run)."""
    path = os.path.join(outdir, "summary.csv")
    return list(csv.DictReader(open(path))) if os.path.exists(path) else []


def timeseries(outdir):
    """(summary row, time-series rows) for every finished point of a sweep."""
    out = []
    for d in sorted(glob.glob(os.path.join(outdir, "points", "*"))):
        s, t = os.path.join(d, "summary.csv"), os.path.join(d, "timeseries.csv")
        if os.path.exists(s) and os.path.exists(t):
            out.append((next(csv.DictReader(open(s))), list(csv.DictReader(open(t)))))
    return out


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def render(gp_path):
    """Render a gnuplot script (in its own directory) if gnuplot is installed;
    returns whether it ran. The script and its CSV are kept either way."""
    if not shutil.which("gnuplot"):
        print("gnuplot not found: %s not rendered" % gp_path, file=sys.stderr)
        return False
    subprocess.run(["gnuplot", os.path.basename(gp_path)], cwd=os.path.dirname(gp_path), check=True)
    return True


def grid_plot(gp_path, png, title, panels, ncols, xlabel, ylabel, xrange=None, extra=(),
              panel=(360, 280), key="top right font ',8'"):
    """A multiplot of panels laid out in ncols columns. Each panel is
    (title, [(csv file, x column, y column, curve title), ...]); the CSV
    files are comma-separated with a header line. `extra`: gnuplot lines
    applied to every panel (e.g. an arrow marking the end of warm-up)."""
    nrows = (len(panels) + ncols - 1) // ncols
    g = ["set terminal pngcairo size %d,%d noenhanced" % (panel[0] * ncols, panel[1] * nrows + 40),
         "set output '%s'" % png, "set datafile separator ','", "set key %s" % key,
         "set yrange [0:1.05]", "set grid", "set xlabel '%s'" % xlabel, "set ylabel '%s'" % ylabel]
    if xrange:
        g.append("set xrange [%s:%s]" % xrange)
    g += list(extra)
    g.append("set multiplot layout %d,%d title '%s'" % (nrows, ncols, title.replace("'", "")))
    for ptitle, curves in panels:
        g.append("set title '%s'" % ptitle.replace("'", ""))
        if not curves:
            g.append("plot 2 notitle")   # empty panel: nothing measured yet
            continue
        g.append("plot " + ", \\\n     ".join("'%s' skip 1 using %d:%d with linespoints title '%s'" % (f, x, y, t)
                                             for f, x, y, t in curves))
    g.append("unset multiplot")
    with open(gp_path, "w") as f:
        f.write("\n".join(g) + "\n")
