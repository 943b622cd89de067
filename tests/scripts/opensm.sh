#!/usr/bin/env bash
# Real OpenSM routes icnsim fabrics: icnsim writes a topology as an ibsim net
# file; ibsim simulates the fabric; OpenSM routes it with each engine (LMC 0
# and 2); ibnetdiscover and dump_lfts dump the topology and the LFTs; icnsim
# reads both and simulates exactly those routes at low load (it must finish
# without deadlock and deliver what it offered), then routes the same fabric
# with its own engines. Every step's figures (ib.report) are printed side by
# side. Needs the Debian packages opensm, ibsim-utils and infiniband-diags;
# without them (or if ibsim cannot start) it prints SKIPPED and exits 0.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${ICNSIM:-./icnsim}
for t in ibsim ibsim-run opensm ibnetdiscover dump_lfts; do
    command -v "$t" >/dev/null || { echo "SKIPPED: $t not installed (apt-get install opensm ibsim-utils infiniband-diags)"; exit 0; }
done
W=$(mktemp -d /tmp/icnsim-opensm-XXXXXX)
export OSM_CACHE_DIR=$W/cache
mkdir -p "$OSM_CACHE_DIR"
SIM=
cleanup() { [ -n "$SIM" ] && kill "$SIM" 2>/dev/null; wait 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
fail=0

# fabric name, icnsim keys that build it, OpenSM engines, icnsim engines
fabrics=(
  "ftree2x3|-s topology.type=rlft -s topology.k=2 -s topology.stages=3|minhop updn ftree dfsssp lash|minhop updn ftree dmodk dfs-disjoint"
  "ftree3x2|-s topology.type=rlft -s topology.k=3 -s topology.stages=2|minhop updn ftree dfsssp|minhop updn ftree dmodk dfs-disjoint"
  "torus4x4|-s topology.type=torus -s topology.k=4 -s topology.n=2|minhop updn dor dfsssp lash|dor updn dfs-disjoint"
  "mesh3x3|-s topology.type=mesh -s topology.k=3 -s topology.n=2|minhop updn dor dfsssp lash|dor updn dfs-disjoint minhop"
)
printf '[routing]\nalgorithm = lft\n[time]\nwarmup = 10us\nmeasure = 50us\n' > "$W/base.ini"
printf '[topology]\ntype = ibnetdiscover\n[routing]\nalgorithm = lft\n[time]\nwarmup = 10us\nmeasure = 50us\n' > "$W/file.ini"

# icnsim over a fabric file; $1 = label, rest = keys. Checks exit status and delivery.
simulate() {
    local label=$1; shift
    local out rc
    out=$("$BIN" run "$W/file.ini" -s ib.report=true -s load=0.05 -o "$W/res" "$@" 2>&1); rc=$?
    echo "$out" | grep '^ib:' | sed "s/^ib:/  $label:/" | tee "$W/last.txt"
    if [ $rc -ne 0 ]; then echo "FAIL $label: icnsim exit $rc"; echo "$out" | tail -5; fail=1; return; fi
    # accepted vs offered (columns named in summary.csv)
    python3 - "$W/res/summary.csv" "$label" <<'PY' || fail=1
import csv, sys
row = list(csv.DictReader(open(sys.argv[1])))[-1]
acc, off = float(row["accepted"]), float(row["offered"])
if off <= 0 or abs(acc - off) > 0.1 * off:
    print(f"FAIL {sys.argv[2]}: accepted {acc:.4f} of offered {off:.4f}"); sys.exit(1)
PY
}

for f in "${fabrics[@]}"; do
    IFS='|' read -r name keys osm_engines own_engines <<< "$f"
    # shellcheck disable=SC2086
    "$BIN" run "$W/base.ini" $keys -s ib.engine=updn -s load=0 -s ib.write_net="$W/$name.net" -o "$W/w" >/dev/null 2>&1 \
        || { echo "FAIL $name: icnsim could not write the net file"; fail=1; continue; }
    [ -n "$SIM" ] && kill "$SIM" 2>/dev/null && wait "$SIM" 2>/dev/null
    ibsim -s "$W/$name.net" </dev/null >"$W/ibsim.log" 2>&1 &
    SIM=$!
    sleep 1
    if ! kill -0 "$SIM" 2>/dev/null; then echo "SKIPPED: ibsim did not start: $(tail -2 "$W/ibsim.log")"; SIM=; exit 0; fi
    for lmc in 0 2; do
        echo "== $name, LMC $lmc"
        for e in $osm_engines; do
            rm -f "$OSM_CACHE_DIR"/*
            timeout 60 ibsim-run opensm -o -f "$W/osm.log" -R "$e" -l "$lmc" >/dev/null 2>&1
            if ! grep -q "$e tables configured on all switches\|SUBNET UP" "$W/osm.log"; then
                echo "  OpenSM $e: did not bring the subnet up"; fail=1; continue
            fi
            used=$(grep -o "[a-z0-9_]* tables configured on all switches" "$W/osm.log" | tail -1 | cut -d' ' -f1)
            timeout 60 ibsim-run ibnetdiscover > "$W/fabric.txt" 2>/dev/null
            timeout 60 ibsim-run dump_lfts > "$W/lfts.txt" 2>/dev/null
            # SL-based engines (lash, dfsssp) and minhop may show loops on one VL (icnsim does not
            # read SL-to-VL tables): run them anyway; up*/down*, ftree and mesh DOR must be free of them.
            # shellcheck disable=SC2086
            simulate "OpenSM $e (used: ${used:-?})" -s ib.net_file="$W/fabric.txt" -s ib.engine=file -s ib.lft_file="$W/lfts.txt" -s ib.allow_credit_loops=true
            if [ "$used" = updn ] || [ "$used" = ftree ] || { [ "$used" = dor ] && [ "${name#mesh}" != "$name" ]; }; then
                grep -q "credit loops no" "$W/last.txt" || { echo "FAIL OpenSM $used: its tables have a credit loop"; fail=1; }
            fi
            [ "$used" != "$e" ] && echo "  (OpenSM fell back from $e to $used on $name)"
            [ "$e" = "${osm_engines%% *}" ] && cp "$W/fabric.txt" "$W/fabric-$lmc.txt"
        done
        for e in $own_engines; do
            vcs=1; extra=
            case $e in dor) [ "${name#torus}" != "$name" ] && vcs=2 ;; dfs-disjoint) vcs=8 ;; minhop) extra="-s ib.allow_credit_loops=true" ;; esac
            if [ "$e" = dmodk ] || [ "$e" = ftree ] || [ "$e" = dor ]; then
                # icnsim's structured engines need icnsim's own topology: same fabric, same wiring
                # shellcheck disable=SC2086
                out=$("$BIN" run "$W/base.ini" $keys -s ib.engine=$e -s ib.lmc=$lmc -s switch.vcs=$vcs -s ib.report=true -s load=0.05 -o "$W/res" 2>&1) \
                    || { echo "FAIL icnsim $e"; echo "$out" | tail -3; fail=1; }
                echo "$out" | grep '^ib:' | sed "s/^ib:/  icnsim $e:/"
            else
                # shellcheck disable=SC2086
                simulate "icnsim $e" -s ib.net_file="$W/fabric-$lmc.txt" -s ib.engine=$e -s switch.vcs=$vcs $extra
            fi
        done
    done
done
if [ $fail -ne 0 ]; then echo "opensm.sh: FAILED"; exit 1; fi
echo "opensm.sh: OpenSM's routes simulated without deadlock on every fabric"
