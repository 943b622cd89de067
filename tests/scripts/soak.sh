#!/usr/bin/env bash
# Soak: the saturated configurations of every router, queuing scheme and
# switch model, run with the invariant checks on (check.invariants, every
# few thousand events). A broken invariant stops a run with status 1 and a
# report. Each case has a fixed simulated time and a wall-clock cap.
# Usage: soak.sh [seconds per case, default 60]. Prints "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${ICNSIM:-./icnsim}
cap=${1:-60}
out=$(mktemp -d /tmp/icnsim-soak.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0; fail=0
FT="experiments/seed002/base-432.ini -s topology.k=4 -s topology.stages=3 -s load=1.0 -s time.warmup=0 -s time.measure=${SOAK_MEASURE:-1ms}"
TORUS="-s topology.k=8 -s load=1.0 -s time.warmup=0 -s time.measure=${SOAK_MEASURE:-1ms}"
cases=(
  "ft-1q-hs10-1|$FT -s traffic.scenario=hs10-1"
  "ft-dbbm-adaptive|$FT -s traffic.scenario=hs10-4 -s switch.vcs=3 -s queuing.scheme=dbbm -s routing.algorithm=ADAP-2TH-S-K"
  "ft-vftree-voq|$FT -s traffic.scenario=hs25-1 -s switch.vcs=3 -s queuing.scheme=vftree -s switch.voq=true"
  "ft-flow2sl-xbar-queue|$FT -s traffic.scenario=hs10-1 -s switch.vcs=4 -s queuing.scheme=flow2sl -s switch.crossbar=queue -s switch.arbiter= -s switch.islip_iterations="
  "ft-voqsw|$FT -s traffic.scenario=hs10-1 -s switch.vcs=4 -s queuing.scheme=voqsw"
  "ft-vftree-hop-arrival|$FT -s traffic.scenario=ihs -s switch.vcs=3 -s queuing.scheme=vftree-hop -s routing.algorithm=ADAP-TH-S-K -s routing.when=arrival"
  "ft-voqnet|$FT -s traffic.scenario=hs10-1 -s queuing.scheme=voqnet -s switch.buffer="
  "ft-afi|$FT -s traffic.scenario=hs10-1 -s switch.vcs=4 -s queuing.scheme=dbbm -s routing.algorithm=afi"
  "ft-oblivious|$FT -s traffic.pattern=bitrev -s routing.algorithm=oblivious"
  "ft-iba-cc|$FT -s traffic.scenario=hs10-1 -s cc.mode=iba"
  "ft-flows-nic|$FT -s traffic.scenario=hs10-1 -s nic.queues=flows"
  "ft-iba-cc-llnl-voq-dbbm|$FT -s traffic.scenario=hs25-4 -s cc.mode=iba -s cc.preset=simula-llnl -s switch.voq=true -s switch.vcs=3 -s queuing.scheme=dbbm"
  "torus-bubble-dor|experiments/seed004/bubble-dor.ini $TORUS -s traffic.pattern=tornado"
  "torus-bubble-adaptive|experiments/seed004/bubble-adaptive.ini $TORUS -s traffic.pattern=transpose"
  "torus-flit-vc-dor|experiments/seed004/vc-dor.ini $TORUS -s traffic.pattern=tornado"
  "torus-flit-duato|experiments/seed004/vc-adaptive.ini $TORUS -s traffic.pattern=uniform"
  "torus-drb|experiments/seed001/torus-msp.ini -s load=1.0 -s time.warmup=0 -s time.measure=${SOAK_MEASURE:-4ms} -s traffic.pattern=transpose -s multipath.scheme=drb -s drb.high=1.2 -s drb.low=1.05 -s drb.max_paths=8"
  "mesh-prdrb-bursty|experiments/seed003/mesh.ini -s load=0.6 -s time.measure=${SOAK_MEASURE:-4ms} -s multipath.scheme=pr-drb -s traffic.burst_period=400us -s traffic.burst_length=200us"
  "torus-drb-ib|experiments/seed001/torus.ini -s load=1.0 -s time.warmup=0 -s time.measure=${SOAK_MEASURE:-4ms} -s traffic.pattern=butterfly -s cc.mode=iba -s multipath.scheme=drb-ib"
  "mesh-flit-dor|experiments/seed004/vc-dor.ini $TORUS -s topology.type=mesh -s routing.algorithm=dor -s switch.vcs=1 -s traffic.pattern=transpose"
)
for c in "${cases[@]}"; do
    name=${c%%|*}; args=${c#*|}
    set +e
    # shellcheck disable=SC2086
    msg=$(timeout "$cap" "$bin" run $args -q -s check.invariants=yes -s check.every=2000 -o "$out/$name" 2>&1)
    rc=$?
    set -e
    if [ "$rc" -eq 0 ]; then echo "ok   $name"; pass=$((pass + 1))
    elif [ "$rc" -eq 124 ]; then echo "FAIL $name: over ${cap}s"; fail=$((fail + 1))
    else echo "FAIL $name: status $rc"; echo "$msg" | tail -n 20; fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
