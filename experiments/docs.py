#!/usr/bin/env python3
"""Regenerate every generated page and block of docs/ from the results kept in
the repository, without simulating anything:

    python3 experiments/docs.py        (or: make docs-results)

Each experiment script has a mode that only reads its kept raw results
(experiments/*/results/, experiments/pdes/results/, docs/seed000/*.csv, bench/results.csv,
bench/cachegrind.csv) and writes its page(s) and its block of docs/REPRODUCING.md (the text between <!-- tag:begin --> and
<!-- tag:end -->); this script runs each of them, and docs/CONFIG.md from
`./icnsim keys --markdown` when the binary is built. Plots are not re-rendered
(a PNG differs byte-wise between gnuplot builds); the full runs draw them. CI runs it and fails if
`git diff` then shows a change in docs/: a page edited by hand, or a script
changed without its pages."""
import os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (script, arguments): each writes the pages and blocks named in its docstring
STEPS = [
    ("experiments/seed000/fig7.py", ["--table"]),            # docs/seed000-fig7.md, block seed000-fig7
    ("experiments/seed000/figs.py", ["--table"]),            # docs/seed000-figs.md, block seed000-figs
    ("experiments/seed001/seed001.py", ["--table"]),         # docs/seed001-drb.md, block seed001
    ("experiments/seed002/tables.py", ["--docs"]),           # docs/seed002-*.md, blocks seed002, fattree-sd
    ("experiments/seed002/triggerlog.py", ["--docs"]),       # docs/seed002-triggerlog.md
    ("experiments/seed002/cost.py", ["--docs"]),             # block seed002-cost of docs/SPEED.md
    ("experiments/seed003/seed003.py", ["--table"]),         # docs/seed003-prdrb.md, block seed003
    ("experiments/seed004/reproduce.py", ["--table"]),       # docs/seed004-bubble.md, block seed004
    ("experiments/ibcc/victim.py", ["--table"]),             # docs/ibcc-victim.md, blocks ibcc-victim
    ("experiments/ibcc/parkinglot.py", ["--table"]),         # docs/ibcc-parking-lot.md, block ibcc-parkinglot
    ("experiments/ibcc/fattree648.py", ["--table"]),         # docs/ibcc-fattree648.md
    ("experiments/ibcc/moving.py", ["--table"]),             # docs/ibcc-moving-hotspots.md, block ibcc-moving
    ("experiments/ibcc/schemes.py", ["--table"]),            # docs/ibcc-schemes-432.md, block ibcc-schemes
    ("experiments/ibcc/schemes11664.py", ["--table"]),       # docs/ibcc-schemes-11664.md, block ibcc-schemes-11664
    ("experiments/ibcc/seed001.py", ["--table"]),            # docs/ibcc-seed001-torus.md, block ibcc-seed001
    ("experiments/speed.py", []),                            # blocks speed-packet, speed-flit, speed-cc, speed-cachegrind of docs/SPEED.md
    ("experiments/pdes/windows.py", ["--table"]),            # block pdes-projection of docs/DESIGN.md
]


def main():
    # the helpers' own checks first: a failed one stops before any page is written
    subprocess.run([sys.executable, os.path.join(ROOT, "experiments", "selftest.py")], cwd=ROOT, check=True)
    for script, args in STEPS:
        print("==", script, " ".join(args), flush=True)
        subprocess.run([sys.executable, os.path.join(ROOT, script)] + args, cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, env=dict(os.environ, ICNSIM_DOCS_NO_RENDER="1"))
    binary = os.path.join(ROOT, "icnsim")
    if os.path.exists(binary):
        print("== icnsim keys --markdown > docs/CONFIG.md", flush=True)
        text = subprocess.run([binary, "keys", "--markdown"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
        with open(os.path.join(ROOT, "docs", "CONFIG.md.tmp"), "w") as f:
            f.write(text)
        os.replace(os.path.join(ROOT, "docs", "CONFIG.md.tmp"), os.path.join(ROOT, "docs", "CONFIG.md"))
    else:
        print("== docs/CONFIG.md skipped: ./icnsim is not built (make)", flush=True)


if __name__ == "__main__":
    main()
