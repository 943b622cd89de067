#!/usr/bin/env bash
# MPI sweeps with a real mpirun (Open MPI) on this machine: 3 ranks, more
# than its cores, so oversubscribed. The MPI build (make MPI=1) must give the
# summary.csv of a -j 1 sweep byte for byte; a computing rank, rank 0 (which
# hands out the points) and mpirun itself, each killed mid-sweep, must lose
# no point completed before the kill, and the rerun must give the same
# summary. A directory of another sweep must be refused. One run whose
# parts (time.parts) the ranks share must give the canonical sequential
# run's results. Installs nothing: without
# mpicc and mpirun it prints SKIPPED. Prints "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
    echo "mpi: SKIPPED: mpicc and mpirun are not installed (Debian: openmpi-bin libopenmpi-dev)"
    exit 0
fi
make -s -j2 >/dev/null
make -s -j2 MPI=1 >/dev/null
ref_bin=$(realpath ./icnsim)
bin=$(realpath build-mpi/icnsim)
work=$(mktemp -d /tmp/icnsim-mpi.XXXXXX)
trap 'rm -rf "$work"' EXIT
pass=0; fail=0
ok()  { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# Open MPI refuses to start as root without these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe -np 3)

# 20 points from 0.1 s to 1 s each (loads 0.1 to 1.0, with and without a hot-spot)
args=(-s topology.k=2 -s topology.stages=2 -s time.warmup=10us -s time.measure=10ms
      -s load=0.1:0.1:1.0 -s traffic.scenario=none,hs10-1)
"$ref_bin" sweep -q "${args[@]}" -j 1 -o "$work/ref"
ref="$work/ref/summary.csv"

"$bin" --version | grep -q "(MPI)" && ok "make MPI=1 builds an MPI icnsim" || bad "build-mpi/icnsim is not an MPI build"

# 1. the MPI sweep's summary is the -j 1 one
if "${mpirun[@]}" "$bin" sweep -q "${args[@]}" -o "$work/mpi" && cmp -s "$ref" "$work/mpi/summary.csv"; then
    ok "mpirun -np 3: summary.csv identical to -j 1"
else bad "mpirun -np 3: summary.csv differs from -j 1"; fi

# The complete points of a sweep with their markers' times: a point listed
# before a kill and unchanged after the rerun was neither lost nor recomputed.
complete() { find "$1/points" -name complete -printf '%h %T@\n' 2>/dev/null | sort; }
wait_complete() {   # dir, count
    for _ in $(seq 600); do [ "$(complete "$1" | wc -l)" -ge "$2" ] && return 0; sleep 0.05; done
    return 1
}
# rerun after a kill: every point complete before it is reused as it was
check_rerun() {   # name, dir, file listing the points complete before the kill
    local out
    if ! out=$("${mpirun[@]}" "$bin" sweep "${args[@]}" -o "$2" 2>&1); then bad "$1: the rerun failed: $out"; return; fi
    out=${out%%$'\n'*}
    local before after
    before=$(wc -l < "$3")
    after=$(complete "$2")
    if ! cmp -s "$ref" "$2/summary.csv"; then bad "$1: the rerun's summary.csv differs from -j 1"
    elif [ -n "$(comm -23 "$3" <(echo "$after"))" ]; then bad "$1: a point complete before the kill was lost or recomputed"
    else ok "$1: $before points complete before the kill kept, rerun identical to -j 1 ($out)"; fi
}

# 2. one rank killed mid-sweep, a computing rank then rank 0 (which hands out
# the points): mpirun ends the job; the rerun resumes
for r in 2 0; do
    d="$work/rank$r"
    setsid "${mpirun[@]}" "$bin" sweep -q "${args[@]}" -o "$d" >"$work/rank$r.log" 2>&1 &
    job=$!
    wait_complete "$d" 4 || true
    victim=""
    for p in $(pgrep -f -- "$bin sweep .* -o $d" || true); do
        if tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$r"; then victim=$p; fi
    done
    complete "$d" > "$work/rank$r.before"
    if [ -n "$victim" ]; then kill -KILL "$victim"; fi
    set +e; wait "$job"; rc=$?; set -e
    if [ -z "$victim" ]; then bad "kill rank $r: not found (the sweep ended first?)"
    elif [ "$rc" -eq 0 ]; then bad "kill rank $r: mpirun exited 0"
    elif [ "$(wc -l < "$work/rank$r.before")" -ge 20 ]; then bad "kill rank $r: every point was complete before the kill"
    else check_rerun "rank $r killed mid-sweep (mpirun status $rc)" "$d" "$work/rank$r.before"; fi
done

# 3. mpirun itself killed mid-sweep (SIGKILL): its ranks, in process groups
# of their own, must notice that they lost it and end within seconds
d="$work/job"
"${mpirun[@]}" "$bin" sweep -q "${args[@]}" -o "$d" >/dev/null 2>&1 &
job=$!
wait_complete "$d" 6 || true
kill -KILL "$job" 2>/dev/null || true
wait "$job" 2>/dev/null || true
for _ in $(seq 100); do pgrep -f -- "$bin sweep .* -o $d" >/dev/null || break; sleep 0.1; done
complete "$d" > "$work/job.before"
if pgrep -f -- "$bin sweep .* -o $d" >/dev/null; then
    bad "mpirun killed: its ranks still run 10 s later"
    for p in $(pgrep -f -- "$bin sweep .* -o $d" || true); do kill -KILL "$p" || true; done
elif [ "$(wc -l < "$work/job.before")" -ge 20 ]; then bad "mpirun killed: every point was complete before the kill"
else check_rerun "mpirun killed mid-sweep" "$d" "$work/job.before"; fi

# 4. bad input under mpirun: a directory of another sweep is refused by rank 0,
# which tells the other ranks to stop; status 2 and nothing written
before=$(find "$work/ref" -type f -printf '%p %s %T@\n' | sort)
set +e
out=$("${mpirun[@]}" "$bin" sweep -q "${args[@]/#load=0.1:0.1:1.0/load=0.1:0.1:0.9}" -o "$work/ref" 2>&1); rc=$?
set -e
if [ "$rc" -eq 2 ] && grep -q "holds a larger sweep" <<<"$out" && [ "$before" = "$(find "$work/ref" -type f -printf '%p %s %T@\n' | sort)" ]; then
    ok "mpirun on a directory of another sweep: status 2, nothing written"
else bad "mpirun on a directory of another sweep: status $rc: $out"; fi

# 5. one run over the ranks (time.parts dealt to them): the results of the
# canonical sequential run, byte for byte, for the cases of tests/test_parts.c
# (fat-tree D-mod-K and adaptive, vFtree-SD with VOQs, torus Duato and bubble)
results() {   # dir: summary.csv without the time.parts and time.threads columns, every other CSV (the views'), perf.csv's counts
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "time.parts" || $i == "time.threads") c[i] = 1 }
             { for (i = 1; i <= NF; i++) if (!(i in c)) printf "%s,", $i; print "" }' "$1/summary.csv"
    for f in $(cd "$1" && ls ./*.csv | LC_ALL=C sort); do
        case $f in ./summary.csv|./perf.csv) ;; *) echo "== $f"; cat "$1/$f" ;; esac
    done
    cut -d, -f2,3 "$1/perf.csv"   # events, packet-hops
}
common=(-q -s time.ties=canonical -s output.plots=no)   # and time.drain = false unless a case sets it
cases=(
  "fat-tree D-mod-K HS10-1|experiments/seed002/base-432.ini|topology.k=4 time.warmup=10us time.measure=30us time.interval=5us traffic.scenario=hs10-1"
  "fat-tree adaptive HS25-1|experiments/seed002/base-432.ini|topology.k=4 time.warmup=10us time.measure=30us time.interval=5us routing.algorithm=ADAP-TH-1S-K traffic.scenario=hs25-1"
  "vFtree-SD 2TH VOQ|experiments/seed002/base-432.ini|topology.k=4 time.warmup=10us time.measure=30us time.interval=5us routing.algorithm=ADAP-2TH-S-K queuing.scheme=vftree-sd switch.vcs=3 switch.voq=true traffic.scenario=hs10-4"
  "vFtree-SD 2TH every view|experiments/seed002/base-432.ini|topology.k=4 time.warmup=10us time.measure=30us time.interval=5us routing.algorithm=ADAP-2TH-S-K queuing.scheme=vftree-sd switch.vcs=3 traffic.scenario=hs10-4 output.destmap=true output.links=true output.occupancy=true views.router_wait=true views.link_load=true views.port_counters=true views.latency=true views.top_pairs=5"
  "fat-tree adaptive, messages of 4 packets|experiments/seed002/base-432.ini|topology.k=4 time.warmup=10us time.measure=30us time.interval=5us routing.algorithm=ADAP-TH-1S-K traffic.scenario=hs10-1 traffic.message_size=16KB"
  "vFtree-SD Poisson, messages of 2 packets|experiments/seed002/base-432.ini|topology.k=4 time.warmup=10us time.measure=30us queuing.scheme=vftree-sd switch.vcs=3 routing.algorithm=ADAP-2TH-S-K traffic.process=poisson traffic.message_size=8KB link.delay=320ns"
  "torus Duato, messages of 1 and 5 packets|experiments/seed004/base.ini|time.warmup=2us time.measure=10us time.interval=2us routing.algorithm=duato switch.vcs=3 switch.buffer=480B load=0.6 traffic.long_fraction=0.5 traffic.long_size=200B"
  "torus Duato|experiments/seed004/base.ini|time.warmup=2us time.measure=10us time.interval=2us routing.algorithm=duato switch.vcs=3 switch.buffer=480B load=0.6"
  "torus bubble tornado|experiments/seed004/bubble-dor.ini|time.warmup=2us time.measure=10us time.interval=2us traffic.pattern=tornado load=1.0 link.delay=2ns routing.bubble=remote"
  "torus Duato, drained|experiments/seed004/base.ini|time.warmup=2us time.measure=10us time.interval=2us routing.algorithm=duato switch.vcs=3 switch.buffer=480B load=0.6 time.drain=true"
  "fat-tree D-mod-K HS10-1, drain to its bound|experiments/seed002/base-432.ini|topology.k=4 time.warmup=10us time.measure=30us time.interval=5us traffic.scenario=hs10-1 time.drain=true"
  "fat-tree load 0.001, all in at the window's end|experiments/seed002/base-432.ini|topology.k=4 time.warmup=10us time.measure=30us time.interval=5us traffic.scenario=none load=0.001 time.drain=true"
)
for c in "${cases[@]}"; do
    IFS='|' read -r name file sets <<<"$c"
    s=(); for kv in $sets; do s+=(-s "$kv"); done
    [[ $sets == *time.drain=* ]] || s+=(-s time.drain=false)
    rm -rf "$work/seq"
    "$ref_bin" run "$file" "${common[@]}" "${s[@]}" -o "$work/seq" || { bad "$name: the sequential run failed"; continue; }
    for np_parts in "2 2 1" "3 7 1" "2 5 2"; do   # ranks, parts, threads per rank
        read -r np parts threads <<<"$np_parts"
        rm -rf "$work/ranks"
        how="$np ranks, $parts parts, $threads thread(s) per rank"
        if ! out=$(mpirun --oversubscribe -np "$np" "$bin" run "$file" "${common[@]}" "${s[@]}" -s time.parts="$parts" \
                   -s time.threads="$threads" -o "$work/ranks" 2>&1); then
            bad "$name, $how: failed: $out"
        elif cmp -s <(results "$work/seq") <(results "$work/ranks"); then ok "$name: $how: the sequential run's results"
        else bad "$name, $how: results differ from the sequential run's"; fi
    done
done
# the packet pool grows in the exchange after the last window (found by review:
# a use-after-free when the threads' contexts were folded back with old pointers)
grow=(experiments/seed002/base-432.ini -s topology.k=4 -s time.warmup=10us -s time.measure=34.2us -s load=1.0
      -s link.delay=700ns -s traffic.message_size=16KB -s time.drain=false)
rm -rf "$work/grow-seq" "$work/grow"
"$ref_bin" run "${grow[@]}" "${common[@]}" -o "$work/grow-seq" >/dev/null
if out=$(mpirun --oversubscribe -np 2 "$bin" run "${grow[@]}" "${common[@]}" -s time.parts=6 -s time.threads=3 -o "$work/grow" 2>&1) \
   && cmp -s <(results "$work/grow-seq") <(results "$work/grow"); then
    ok "pools grown by the last exchange, 2 ranks x 6 parts x 3 threads: the sequential run's results"
else bad "pools grown by the last exchange, 2 ranks x 6 parts x 3 threads: $out"; fi
# a deadlock (DOR on a torus, one VC, tornado at full load) found over ranks:
# every rank stops at once, status 3, rank 0 writes the sequential run's results
dl=(experiments/seed004/base.ini -s routing.algorithm=dor -s switch.vcs=1 -s load=1.0 -s traffic.pattern=tornado
    -s time.warmup=2us -s time.measure=200us -s time.deadlock=5us -s link.delay=2ns -s time.drain=false)
set +e
out_seq=$("$ref_bin" run "${dl[@]}" "${common[@]}" -o "$work/dl-seq" 2>&1); rc_seq=$?
out=$(timeout 300 mpirun --oversubscribe -np 2 "$bin" run "${dl[@]}" "${common[@]}" -s time.parts=3 -o "$work/dl-ranks" 2>&1); rc=$?
set -e
# the report's time, packets in the network and time without progress: the sequential run's
figures() { grep -io "deadlock at t = [0-9.]* us: [0-9]* packets in the network, none moved for [0-9.]* us" | tr A-Z a-z; }
fig_seq=$(figures <<<"$out_seq") fig=$(figures <<<"$out")
if [ "$rc_seq" -eq 3 ] && [ "$rc" -eq 3 ] && [ -n "$fig_seq" ] && [ "$fig" = "$fig_seq" ] \
   && cmp -s <(results "$work/dl-seq") <(results "$work/dl-ranks"); then
    ok "a deadlock over 2 ranks: status 3, the sequential run's results and report figures"
else bad "a deadlock over 2 ranks: status $rc (sequential $rc_seq): $out"; fi
# a run over ranks without enough parts: status 2, the key named, nothing written
set +e
out=$(mpirun --oversubscribe -np 3 "$bin" run "${common[@]}" -s time.parts=2 -o "$work/few" 2>&1); rc=$?
set -e
if [ "$rc" -eq 2 ] && grep -q "time.parts.*3 MPI ranks" <<<"$out" && [ ! -e "$work/few" ]; then
    ok "3 ranks, 2 parts: status 2, time.parts named, nothing written"
else bad "3 ranks, 2 parts: status $rc: $out"; fi
# the invariant checks read the whole network: refused over ranks, status 2
set +e
out=$(mpirun --oversubscribe -np 2 "$bin" run "${common[@]}" -s time.parts=2 -s check.invariants=yes -o "$work/chk" 2>&1); rc=$?
set -e
if [ "$rc" -eq 2 ] && grep -q "check.invariants" <<<"$out" && [ ! -e "$work/chk" ]; then
    ok "check.invariants over 2 ranks: status 2, the key named, nothing written"
else bad "check.invariants over 2 ranks: status $rc: $out"; fi
# more threads per rank than the parts a rank runs: status 2, time.threads named
set +e
out=$(mpirun --oversubscribe -np 2 "$bin" run "${common[@]}" -s time.parts=3 -s time.threads=2 -o "$work/thr" 2>&1); rc=$?
set -e
if [ "$rc" -eq 2 ] && grep -q "time.threads.*a thread runs whole parts" <<<"$out" && [ ! -e "$work/thr" ]; then
    ok "2 ranks, 3 parts, 2 threads each: status 2, time.threads named, nothing written"
else bad "2 ranks, 3 parts, 2 threads each: status $rc: $out"; fi
# a point refused at set-up, under a launcher that lets the other ranks run on
# (srun without --kill-on-bad-exit): the job ends at once, naming the point
set +e
out=$(timeout 60 mpirun --oversubscribe --mca orte_abort_on_non_zero_status 0 -np 3 "$bin" sweep -q -s topology.k=2 \
      -s topology.stages=2 -s time.warmup=5us -s time.measure=15us -s load=0.1,0.2 -s routing.algorithm=dmodk,dor \
      -s output.plots=no -o "$work/refused" 2>&1); rc=$?
set -e
if [ "$rc" -eq 2 ] && grep -q "sweep point [13] failed with status 2 on rank" <<<"$out"; then
    ok "a point refused at set-up: the job ends with status 2, the point named"
else bad "a point refused at set-up: status $rc (124: the job hung): $out"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
