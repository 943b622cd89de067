#!/usr/bin/env python3
"""Checks of the helpers that turn kept results into the numbers of docs/,
run by experiments/docs.py before any page is written (and alone:
python3 experiments/selftest.py). Each guards a rule a page states: a kept CSV
that is malformed or incomplete stops the scripts, figures that tie at the
tables' precision do not decide a verdict, a reference table has the paper's
shape."""
import importlib.util, os, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pages import read_table  # noqa: E402


def load(path):
    """The module of experiments/<path> (several scripts share a file name), its directory on sys.path."""
    full = os.path.join(HERE, path)
    sys.path.insert(0, os.path.dirname(full))
    spec = importlib.util.spec_from_file_location(path.replace("/", "_")[:-3], full)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.pop("common", None)   # experiments/common.py and experiments/ibcc/common.py
    spec.loader.exec_module(mod)
    sys.path.pop(0)
    return mod


def refused(text, **kw):
    """Whether read_table refuses a CSV with this text."""
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write(text)
    try:
        read_table(f.name, ["a"], **kw)
        return False
    except SystemExit:
        return True
    finally:
        os.unlink(f.name)


def main():
    assert not refused("a,x\n1,0.5\n2,0.25\n", numeric=["x"], expect=[("1",), ("2",)])
    assert refused("a,x\n1,0.5\n1,0.25\n"), "a duplicate key"
    assert refused("a,x\n1,\n", numeric=["x"]), "an empty number"
    assert refused("a,x\n1,nan\n", numeric=["x"]), "a NaN"
    assert refused("a,x\n1,0.5\n", expect=[("1",), ("2",)]), "a missing row"
    assert refused("b,x\n1,0.5\n"), "a missing key column"

    best_verdict = load("seed000/figs.py").best_verdict
    want = ("AFI", "Flow2SL-3VC")
    assert best_verdict([(0.70, "AFI", "Flow2SL-3VC"), (0.65, "AFI", "vFtree-3VC")], want) == "yes"
    assert best_verdict([(0.6909, "AFI", "vFtree-3VC"), (0.6908, "AFI", "Flow2SL-3VC")], want).startswith("in part")
    assert best_verdict([(0.6423, "AFI", "Flow2SL-3VC"), (0.6402, "AFI", "vFtree-3VC")], want).startswith("in part")
    assert best_verdict([(0.70, "AFI", "vFtree-3VC"), (0.65, "AFI", "Flow2SL-3VC")], want) == "no"

    figs = load("seed000/figs.py")
    assert figs.load_list("0.1:0.1:0.9") == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    assert figs.load_list("0.1:0.1:1.0")[-1] == 1.0 and figs.load_list("0.5,1") == [0.5, 1.0]
    # --only-missing: a load is run again if any traffic lacks it, and only then
    kept = {("5", t, "AFI", "vftree-sd", x) for t in ("UT", "HS10", "HS25") for x in ("0.100", "0.200")}
    kept.discard(("5", "HS25", "AFI", "vftree-sd", "0.200"))
    assert figs.missing_loads(kept, 0, "vftree-sd", "AFI", [0.1, 0.2, 0.3]) == [0.2, 0.3]
    assert figs.missing_loads(kept, 1, "vftree-sd", "AFI", [0.1]) == [0.1], "figure 6 is not figure 5"
    # the readings' comparison counts a point under the tie as neither higher nor lower, and skips load 1.0
    curves = {(5, "UT", "AFI", "vFtree-3VC", x): 0.5 for x in ("0.100", "0.200", "0.300", "1.000")}
    sd = {(5, "UT", "AFI", "vftree-sd", "0.100"): 0.6, (5, "UT", "AFI", "vftree-sd", "0.200"): 0.502,
          (5, "UT", "AFI", "vftree-sd", "0.300"): 0.4, (5, "UT", "AFI", "vftree-sd", "1.000"): 0.9}
    text = figs.readings_compare(curves, sd)
    assert "(3 of 432 points run)" in text and "higher at 1 points, lower at 1, within 0.005 at 1" in text, text
    assert "largest gain +0.10" in text and "largest loss -0.10" in text, text
    assert "no gain, no loss" in figs.readings_compare(curves, {(5, "UT", "AFI", "vftree-sd", "0.100"): 0.501})

    ABOVE_MTU = load("ibcc/parkinglot.py").ABOVE_MTU
    assert ABOVE_MTU and not any("no hysteresis" in c or "1 MTU" in c for c in ABOVE_MTU)

    flows_text = load("ibcc/common.py").flows_text
    assert "a flow per destination" in flows_text(432) and "a flow per destination" not in flows_text(11664)

    paper = load("seed002/paper.py")
    ROWS, TABLE2, TABLE3 = paper.ROWS, paper.TABLE2, paper.TABLE3
    for t in (TABLE2, TABLE3):   # 17 routings x (4 schemes x 5 scenarios), throughput in whole %
        assert len(t) == len(ROWS) == 17 and all(len(r) == 20 and all(0 <= x <= 100 for x in r) for r in t)
    cost = load("seed002/cost.py")   # the tables' projected time: 85 x the mean per sweep, stratified 95 % interval
    rows = [{"voq": v, "scheme": sc, "wall_s": w, "packet_hops": 1e6} for (v, sc) in cost.strata() for w in (10, 30)]
    total, half, cells, hops = cost.projection(rows)
    assert (total, cells, hops) == (8 * 85 * 20, 16, 680e6) and abs(half - 1.96 * (8 * 85 * 85 * (1 - 2 / 85) * 200 / 2) ** 0.5) < 1e-6
    assert cost.projection(rows[2:]) is None, "a sweep without a sampled cell projects nothing"
    seed004 = load("seed004/reproduce.py")
    ROUTERS, LOADS = seed004.ROUTERS, seed004.LOADS
    assert all(len(lat) == len(thr) == len(LOADS) for _, _, lat, thr in ROUTERS.values())
    print("experiments/selftest.py: ok")


if __name__ == "__main__":
    main()
