#!/usr/bin/env bash
# make bench: speed of the packet-level model. A benchmark, not a test: it
# prints figures and asserts nothing. Each case is one run; perf.csv holds
# the wall time, events, packet-hops and peak memory of that run.
#
#   bash bench/run.sh [--record] [--note TEXT] [--set KEY=VALUE]... [--repeat N]
#                     [--base COMMIT [--base-files] [--head-set KEY=VALUE]...] [CASE]
#   make bench [RECORD=1] [NOTE=TEXT] [REPEAT=N] [BASE=COMMIT [BASE_FILES=1] [HEAD_SET='K=V ...']] [CASE=...]
#
# CASE (a shell pattern) runs only the cases whose names match it; --set adds
# -s KEY=VALUE to every case's run (e.g. time.drain=false). --record
# appends each case's row to bench/results.csv, with the build (the commit,
# +dirty when src/ has uncommitted changes), the sitting's start time (UTC;
# the rows of one invocation share it) and TEXT; experiments/speed.py makes
# docs/SPEED.md's tables from that file. Without --record nothing in the
# repository is written. --repeat N runs the selected cases N times in turn
# (case A, case B, ..., then A, B, ... again), so that the runs a ratio
# compares meet the same moments of a shared machine; every run is a row.
# --base COMMIT builds that commit (once, in bench/out/base-<commit>/) and
# runs every case with it just before the build at HEAD, so the two meet the
# same moments too; its rows carry its own build label, and the note of both
# says "against <commit>" (experiments/speed.py pairs them). A case the base
# cannot run (a key it does not have) is reported and skipped for it;
# --head-set gives settings to the build at HEAD only (e.g. time.drain=false
# against a base that has no drain). --base-files runs the base in its own
# tree, on its commit's experiment files, for a base older than a key those
# files now set (its rows' note says so); equal packet-hops then still say
# that the two builds ran the same simulation.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh
out=bench/out
mkdir -p "$out"
bin=./icnsim
record=0 note="" only="*" sets=() head_sets=() repeat=1 base="" base_files=0
usage="usage: bench/run.sh [--record] [--note TEXT] [--set KEY=VALUE]... [--repeat N] [--base COMMIT [--base-files] [--head-set KEY=VALUE]...] [CASE]"
while [ $# -gt 0 ]; do
    case $1 in
        --record) record=1 ;;
        --note) note=$2; shift ;;
        --set) sets+=(-s "$2"); shift ;;
        --head-set) head_sets+=(-s "$2"); shift ;;
        --repeat) repeat=$2; shift ;;
        --base) base=$2; shift ;;
        --base-files) base_files=1 ;;
        -*) echo "$usage" >&2; exit 2 ;;
        *) only=$1 ;;
    esac
    shift
done
results=bench/results.csv
build=$(bench_build)
sitting=$(bench_sitting)

base_bin="" base_build=""
if [ -n "$base" ]; then
    base_build=$(git rev-parse --short "$base^{commit}" 2>/dev/null) || { echo "bench/run.sh: --base: no commit '$base'" >&2; exit 2; }
    base_dir=$PWD/$out/base-$base_build
    base_bin=$base_dir/icnsim
    if [ ! -x "$base_bin" ]; then
        rm -rf "$base_dir"
        mkdir -p "$base_dir"
        git archive "$base_build" | tar -x -C "$base_dir"
        # (not the settings of a make that runs this script: its command line, BASE=... included, is not the base's)
        env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES make -C "$base_dir" -j2 icnsim >"$base_dir/build.log" 2>&1 ||
            { echo "bench/run.sh: --base: $base_build does not build (see $base_dir/build.log)" >&2; exit 2; }
    fi
    [ "$base_files" = 1 ] && note="${note:+$note; }the base on its own experiment files"
    note="${note:+$note; }against $base_build"
elif [ ${#head_sets[@]} -gt 0 ] || [ "$base_files" = 1 ]; then
    echo "bench/run.sh: --head-set and --base-files are for a sitting with --base" >&2; exit 2
fi

launch=("$bin")
row() {   # name, then icnsim run arguments
    local name=$1; shift
    # shellcheck disable=SC2053
    [[ $name == $only ]] || return 0
    if [ -n "$base_bin" ] && [ "${launch[0]}" = "$bin" ]; then   # (no MPI build of the base)
        local where=.
        [ "$base_files" = 1 ] && where=$base_dir
        if (cd "$where" && "$base_bin" run "$@" ${sets[@]+"${sets[@]}"} -q -o "$OLDPWD/$out/$name-base") >/dev/null 2>"$out/$name-base.err"; then
            report "$name" "$out/$name-base" "$base_build"
        else
            printf "%-34s (base %s cannot run it: %s)\n" "$name" "$base_build" "$(head -n 1 "$out/$name-base.err")"
        fi
    fi
    "${launch[@]}" run "$@" "${sets[@]}" ${head_sets[@]+"${head_sets[@]}"} -q -o "$out/$name" >/dev/null
    report "$name" "$out/$name" "$build"
}
report() {   # case, the folder of its run, the build that ran it
    local name=$1 dir=$2 rbuild=$3 perf acc
    perf=$(tail -n 1 "$dir/perf.csv")
    acc=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "accepted") c = i } NR == 2 { print $c }' "$dir/summary.csv")
    IFS=, read -r wall events hops evps hps rss fhops fhps _ <<<"$perf"
    printf "%-34s %8.2f %12s %11.2f %11.2f %9.0f %9s %11.2f%s\n" "$name" "$wall" "$hops" \
        "$(echo "$hps" | awk '{print $1/1e6}')" "$(echo "$evps" | awk '{print $1/1e6}')" "$rss" "$acc" \
        "$(echo "$fhps" | awk '{print $1/1e6}')" "${base:+  $rbuild}"
    if [ "$record" = 1 ]; then
        bench_record "$results" "$(awk -v c="$name" -v b="$rbuild" -v d="$sitting" -v a="$acc" -v n="$note" -F, \
            -v OFS=, '{ gsub(/"/, "\"\"", n)
                        printf "%s,%s,%s,%.3f,%d,%.3f,%.3f,%.1f,%s,%s,\"%s\",%s,%s\n", c, b, d, $1, $3, $5 / 1e6, $4 / 1e6, $6, a,
                               ($7 > 0 ? sprintf("%.3f", $8 / 1e6) : ""), n, ($9 > 0 ? $9 : ""), ($9 > 0 ? $10 : "") }' <<<"$perf")"
    fi
}

[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "bench/run.sh: --repeat wants a count of 1 or more, not '$repeat'" >&2; exit 2; }

cases() {
row seed002-hs10-1-dmodk-11664 experiments/seed002/hs10-1-dmodk.ini
row seed002-hs10-1-dmodk-432   experiments/seed002/hs10-1-dmodk-432.ini
# Multi-VC cases of Tables 2/3: vFtree, restricted adaptive routing, with and without VOQs.
row seed002-hs10-1-vftree-2th-11664     experiments/seed002/hs10-1-dmodk.ini -s queuing.scheme=vftree -s switch.vcs=3 -s routing.algorithm=ADAP-2TH-S-K/3
row seed002-hs10-1-vftree-2th-voq-11664 experiments/seed002/hs10-1-dmodk.ini -s queuing.scheme=vftree -s switch.vcs=3 -s routing.algorithm=ADAP-2TH-S-K/3 -s switch.voq=true
# The network in parts (time.parts, src/sim/parts.c), without the drain (the
# rows keep the set-up they were first measured with): the sequential run in
# the canonical order they reproduce, 2 parts taking turns in one thread, and
# the same on 2 threads.
PARTS=(-s time.ties=canonical -s time.drain=false)
row seed002-hs10-1-dmodk-11664-canonical experiments/seed002/hs10-1-dmodk.ini "${PARTS[@]}"
row seed002-hs10-1-dmodk-11664-parts2 experiments/seed002/hs10-1-dmodk.ini "${PARTS[@]}" -s time.parts=2
row seed002-hs10-1-dmodk-11664-parts2-threads2 experiments/seed002/hs10-1-dmodk.ini "${PARTS[@]}" -s time.parts=2 -s time.threads=2
VFT=(experiments/seed002/hs10-1-dmodk.ini -s queuing.scheme=vftree -s switch.vcs=3 -s routing.algorithm=ADAP-2TH-S-K/3)
row seed002-hs10-1-vftree-2th-11664-canonical "${VFT[@]}" "${PARTS[@]}"
row seed002-hs10-1-vftree-2th-11664-parts2-threads2 "${VFT[@]}" "${PARTS[@]}" -s time.parts=2 -s time.threads=2
# A network of 131072 end nodes (4-stage RLFT of radix-32 switches), uniform
# traffic at half load, 5 us + 10 us: sequential, and 2 parts on 2 threads.
BIG=(experiments/seed002/base-11664.ini -s topology.k=16 -s topology.stages=4 -s load=0.5 -s time.warmup=5us
     -s time.measure=10us "${PARTS[@]}")
row uniform-0.5-rlft4-131072-canonical "${BIG[@]}"
row uniform-0.5-rlft4-131072-parts2-threads2 "${BIG[@]}" -s time.parts=2 -s time.threads=2
# The same 2 parts on 2 MPI ranks of this machine (src/sim/ranks.c), when an
# MPI build exists (make MPI=1); its perf.csv has rank 0's wall time and memory.
if [ -x build-mpi/icnsim ] && command -v mpirun >/dev/null; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    launch=(mpirun --oversubscribe -np 2 build-mpi/icnsim)
    row seed002-hs10-1-dmodk-11664-parts2-ranks2 experiments/seed002/hs10-1-dmodk.ini "${PARTS[@]}" -s time.parts=2
    row seed002-hs10-1-vftree-2th-11664-parts2-ranks2 "${VFT[@]}" "${PARTS[@]}" -s time.parts=2
    row uniform-0.5-rlft4-131072-parts2-ranks2 "${BIG[@]}" -s time.parts=2
    launch=("$bin")
elif [[ $only == *ranks* || $only == "*" ]]; then
    echo "(the MPI rows need build-mpi/icnsim and mpirun: make MPI=1)" >&2
fi
# IBA congestion control (opa preset) on the same 11664-node HS10-1 case, in one run
# with the case above: its cost per packet-hop (flows, CNPs, marking, timers).
row seed002-hs10-1-dmodk-11664-cc-iba experiments/seed002/hs10-1-dmodk.ini -s cc.mode=iba
# CC off on the NIC that CC runs on (nic.queues = flows: a send queue per
# destination): against it, the CC-on row's cost is that of CC alone.
row seed002-hs10-1-dmodk-11664-flow-nic experiments/seed002/hs10-1-dmodk.ini -s nic.queues=flows
# The flows a node keeps at once set the transport's working set: a saturated
# uniform source holds nic.flows flows, each waiting with one message, and
# 11664 x 256 flow records exceed the last-level cache.
row seed002-hs10-1-dmodk-11664-cc-iba-flows16 experiments/seed002/hs10-1-dmodk.ini -s cc.mode=iba -s nic.flows=16
row seed002-hs10-1-dmodk-11664-cc-iba-flows64 experiments/seed002/hs10-1-dmodk.ini -s cc.mode=iba -s nic.flows=64
# Scaling: uniform traffic at 60 % load, 200 us after a 50 us warm-up, on
# growing 3-stage RLFTs. Cost per simulated packet-hop should stay flat.
for k in 6 12 18; do
    n=$((2 * k * k * k))
    row "uniform-0.6-rlft-k$k-$n" experiments/seed002/base-11664.ini -s topology.k=$k -s load=0.6 \
        -s time.warmup=50us -s time.measure=200us
done
# Direct networks, packet level (virtual cut-through bubble routers; the
# wormhole routers await the flit-level model). 100k router cycles of 5.25 ns.
# Flit-hops = packet-hops x 20 phits.
for load in 0.1 0.24; do
    row "torus8x8-bubble-dor-$load" experiments/seed004/bubble-dor.ini -s load=$load \
        -s time.warmup=25us -s time.measure=500us
done
row "torus32x32-bubble-dor-0.1" experiments/seed004/bubble-dor.ini -s topology.k=32 -s load=0.1 \
    -s time.warmup=25us -s time.measure=500us
# Flit level (issue 4): 8x8 torus, wormhole DOR with datelines, 2 VCs of 8
# flits, 20-flit packets, uniform, 0.1 and 0.24 flits/node/cycle, 100k cycles
# of 5 ns; and a 32x32 torus. Cost should follow the traffic, not the routers.
FLIT="experiments/seed004/vc-dor.ini -s router.cycle=5ns -s switch.buffer=32B -s time.warmup=0 -s time.measure=500us"
for load in 0.1 0.24; do
    row "flit-torus8x8-wormhole-$load" $FLIT -s load=$load
done
row "flit-torus32x32-wormhole-0.1" $FLIT -s topology.k=32 -s load=0.1
# The same torus under the usual input-queued VC router (one crossbar input per
# port and a switch allocator, heads routed at the front of their VC) instead
# of seed 004's (a crossbar input per VC): the allocator's cost per flit-hop.
for load in 0.1 0.24; do
    row "flit-torus8x8-wormhole-sa-$load" $FLIT -s load=$load -s router.input_speedup=1 -s router.head_turnover=front
done
# Multipath (DRB, PR-DRB): the same 32x32 torus, multi-step-path routing, with
# every message taking path 0 and with DRB's ACKs, monitoring and metapaths:
# the ratio of the Mhops/s columns is DRB's cost per packet-hop.
MSP="experiments/seed001/torus-msp.ini -s topology.k=32 -s traffic.pattern=uniform -s load=0.1 -s time.warmup=100us -s time.measure=3ms"
row "torus32x32-msp-path0-0.1" $MSP
row "torus32x32-drb-0.1" $MSP -s multipath.scheme=drb
row "torus32x32-prdrb-0.1" $MSP -s multipath.scheme=pr-drb
# DRB over InfiniBand: seed 001's 8x8 torus subnet (LMC 2, 9 VLs), path 0
# only against drb-ib (IBA CC marking, CNPs, LID paths), 20 ms at 600 bits/us.
IB="experiments/seed001/torus.ini -s traffic.pattern=transpose -s load=0.3 -s time.measure=20ms"
row "torus8x8-ib-path0-0.3" $IB
row "torus8x8-drb-ib-0.3" $IB -s cc.mode=iba -s multipath.scheme=drb-ib
# Closed-loop workload against open-loop traffic on the same 432-node fat-tree:
# the ratio of the Mhops/s columns is the engine's cost per packet-hop.
row "rlft432-uniform-0.5-open-loop" experiments/seed000/base-432.ini -s load=0.5 -s time.warmup=0 -s time.measure=2ms
row "rlft432-alltoall-closed-loop" experiments/seed000/base-432.ini -s time.warmup=0 -s time.measure=100ms \
    -s workload.source=alltoall -s workload.bytes=16KB -s workload.iterations=2
row "rlft432-ptrans-closed-loop" experiments/seed000/base-432.ini -s time.warmup=0 -s time.measure=100ms \
    -s workload.source=ptrans -s workload.bytes=64KB -s workload.iterations=5 -s workload.compute=20us
}

printf "%-34s %8s %12s %11s %11s %9s %9s %11s\n" case wall_s packet_hops Mhops/s Mevents/s peak_MB accepted Mflit-hops/s
for ((round = 1; round <= repeat; round++)); do
    cases
done
