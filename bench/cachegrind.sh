#!/usr/bin/env bash
# make bench-cachegrind: instructions and cache misses per packet-hop, counted
# by valgrind's cachegrind (the machine has no hardware counters). The counts
# are deterministic: machine load does not change them, so sittings of
# different builds compare whenever they ran. A benchmark, not a test.
#
#   bash bench/cachegrind.sh [--record] [--note TEXT] [--build ID] [CASE]
#   make bench-cachegrind [RECORD=1] [NOTE=TEXT] [CASE=...]
#   BIN=/path/to/icnsim bash bench/cachegrind.sh --record --build ID
#
# Per case it prints the packet-hops (the run's perf.csv), instructions per
# packet-hop (Ir), D1 misses per hop (D1mr + D1mw) and last-level misses per
# hop (DLmr + DLmw). The totals are the whole process's, set-up and writing
# results included. CASE (a shell pattern) runs only the matching cases. BIN
# (default ./icnsim) is the binary measured; --build labels its rows (default:
# the commit at HEAD, +dirty when src/ has uncommitted changes). --record
# appends each case's row to bench/cachegrind.csv; experiments/speed.py makes
# docs/SPEED.md's cachegrind table from that file. Without --record nothing
# in the repository is written.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh
bin=${BIN:-./icnsim}
record=0 note="" only="*" build=""
usage="usage: bench/cachegrind.sh [--record] [--note TEXT] [--build ID] [CASE]"
while [ $# -gt 0 ]; do
    case $1 in
        --record) record=1 ;;
        --note) note=$2; shift ;;
        --build) build=$2; shift ;;
        -*) echo "$usage" >&2; exit 2 ;;
        *) only=$1 ;;
    esac
    shift
done
results=bench/cachegrind.csv
[ -n "$build" ] || build=$(bench_build)
sitting=$(bench_sitting)
out=bench/out/cachegrind/$build   # each run's output and cachegrind's, per build
mkdir -p "$out"

# The simulated caches, fixed so that the counts do not depend on the host
# (cachegrind otherwise copies the host's, and a VM may report any): 64 KB
# 4-way I1, 32 KB 8-way D1, and a 32 MB 16-way last level like the L3 of the
# project's machine (an AMD EPYC VM); 64-byte lines. A change of model makes
# new rows incomparable with old ones: say so in --note.
# shellcheck disable=SC2054  # commas inside cachegrind options
CACHES=(--I1=65536,4,64 --D1=32768,8,64 --LL=33554432,16,64)

case_row() {   # name, then icnsim run arguments
    local name=$1; shift
    # shellcheck disable=SC2053
    [[ $name == $only ]] || return 0
    rm -rf "${out:?}/$name" && mkdir -p "$out/$name"
    valgrind --tool=cachegrind --cache-sim=yes "${CACHES[@]}" \
        --cachegrind-out-file="$out/$name/cachegrind.out" --log-file="$out/$name/valgrind.log" \
        "$bin" run "$@" -q -o "$out/$name/run" >/dev/null
    local hops fields
    hops=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "packet_hops") c = i } NR == 2 { print $c }' \
        "$out/$name/run/perf.csv")
    # events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw, summary: their totals
    fields=$(awk -v h="$hops" '
        /^events:/  { for (i = 2; i <= NF; i++) col[$i] = i }
        /^summary:/ { printf "%.1f %.3f %.4f", $col["Ir"] / h, ($col["D1mr"] + $col["D1mw"]) / h,
                                                ($col["DLmr"] + $col["DLmw"]) / h }' "$out/$name/cachegrind.out")
    local ir d1 ll
    read -r ir d1 ll <<<"$fields"
    printf "%-44s %12s %10s %12s %12s\n" "$name" "$hops" "$ir" "$d1" "$ll"
    if [ "$record" = 1 ]; then
        bench_record "$results" "$name,$build,$sitting,$hops,$ir,$d1,$ll,$(bench_csv_quote "$note")"
    fi
}

printf "%-44s %12s %10s %12s %12s\n" case packet_hops Ir/hop D1miss/hop LLmiss/hop
# Seed 002 HS10-1, D-mod-K, 1Q, 432 nodes: the full case (1 ms + 1 ms, drained).
case_row seed002-hs10-1-dmodk-432 experiments/seed002/hs10-1-dmodk-432.ini
# The same at 3456 nodes (K = 12), shortened to 200 us + 200 us without a
# drain (the "-400us" of the name); with IBA CC (opa preset) in the same
# shortening, so CC's cost per hop is the ratio of the two rows.
S3456=(experiments/seed002/hs10-1-dmodk.ini -s topology.k=12 -s time.warmup=200us -s time.measure=200us
       -s time.drain=false)
case_row seed002-hs10-1-dmodk-3456-400us "${S3456[@]}"
case_row seed002-hs10-1-dmodk-3456-400us-cc-iba "${S3456[@]}" -s cc.mode=iba
# CC off on the NIC that CC runs on (nic.queues = flows): against it, the
# CC-on row's counts are those of CC alone, the rest the flow NIC's.
case_row seed002-hs10-1-dmodk-3456-400us-flow-nic "${S3456[@]}" -s nic.queues=flows
# Multi-VC adaptive: vFtree-SD, 3 VCs, ADAP-2TH-S-K/3, HS10-1, 3456 nodes,
# shortened to 50 us + 20 us without a drain (the "-70us"); with and without VOQs.
VC3456=(experiments/seed002/base-11664.ini -s topology.k=12 -s queuing.scheme=vftree-sd -s switch.vcs=3
        -s routing.algorithm=ADAP-2TH-S-K/3 -s traffic.scenario=hs10-1 -s time.warmup=50us -s time.measure=20us
        -s time.drain=false)
case_row seed002-hs10-1-vftree-sd-2th-3456-70us "${VC3456[@]}"
case_row seed002-hs10-1-vftree-sd-2th-voq-3456-70us "${VC3456[@]}" -s switch.voq=true
# The same-time events in their canonical order (time.ties): what ordering them costs.
case_row seed002-hs10-1-vftree-sd-2th-3456-70us-canonical "${VC3456[@]}" -s time.ties=canonical
