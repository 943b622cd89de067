#!/usr/bin/env bash
# Fault injection on sweeps: a file size limit, a sweep killed at random
# moments (mid-write included), and damaged point results. After each fault
# a rerun must give the summary.csv of an uninterrupted sweep, and reuse
# every point that was complete. Prints "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${ICNSIM:-./icnsim}
bin=$(realpath "$bin")
work=$(mktemp -d /tmp/icnsim-fault.XXXXXX)
trap 'rm -rf "$work"' EXIT
pass=0; fail=0
ok()  { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

base=(-s topology.k=2 -s topology.stages=2 -s time.warmup=10us -s load=0.2:0.2:1.0 -s traffic.scenario=none,hs10-1)
args=("${base[@]}" -s time.measure=3ms)
sweep() { "$bin" sweep -q "${args[@]}" -j 2 -o "$1"; }
sweep "$work/ref" >/dev/null
ref="$work/ref/summary.csv"
same() { cmp -s "$ref" "$1/summary.csv"; }

# 1. a file size limit: the sweep fails naming a path, then resumes
set +e
out=$( (ulimit -f 2; sweep "$work/fsize") 2>&1 ); rc=$?
set -e
if [ "$rc" -eq 1 ] && grep -q "File too large" <<<"$out"; then ok "size limit: sweep fails with the path and reason"
else bad "size limit: status $rc: $out"; fi
if sweep "$work/fsize" >/dev/null && same "$work/fsize"; then ok "size limit: the rerun gives the uninterrupted result"
else bad "size limit: rerun differs"; fi

# 2. SIGKILL to the whole sweep at several moments, then a rerun each time
for delay in 0.1 0.3 0.6 1.0; do
    d="$work/kill-$delay"
    setsid "$bin" sweep "${args[@]}" -j 2 -o "$d" >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -KILL -- -"$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    if sweep "$d" >/dev/null && same "$d"; then ok "killed after ${delay}s: the rerun gives the uninterrupted result"
    else bad "killed after ${delay}s: rerun differs"; fi
done

# 3. SIGTERM to the parent alone: no worker may go on computing
# (points of several seconds each, so that workers are mid-point)
d="$work/term"
"$bin" sweep -q "${base[@]}" -s time.measure=200ms -j 2 -o "$d" >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
sleep 0.2
if pgrep -f -- "-o $d" >/dev/null; then bad "SIGTERM to the parent left workers running"; pkill -f -- "-o $d" || true
else ok "SIGTERM to the parent stops its workers"; fi

# 4. one worker killed by a signal: the sweep says so and exits 1 (not 2,
# which means a bad configuration); the rerun completes the sweep
d="$work/worker"
"$bin" sweep -q "${base[@]}" -s time.measure=200ms -j 2 -o "$d" >"$work/worker.log" 2>&1 &
pid=$!
child=""
for _ in $(seq 50); do child=$(pgrep -P "$pid" | head -n 1 || true); [ -n "$child" ] && break; sleep 0.05; done
[ -n "$child" ] && kill -KILL "$child"
set +e; wait "$pid"; rc=$?; set -e
if [ "$rc" -eq 1 ] && grep -q "killed by signal 9" "$work/worker.log"; then ok "a worker killed by a signal is reported as such, status 1"
else bad "worker killed: status $rc: $(cat "$work/worker.log")"; fi

# 5. damaged points: each damage makes that point (and only it) run again
damage() {   # name, then a command run in the point directory
    local name=$1; shift
    local d="$work/dmg-$name"
    cp -r "$work/ref" "$d"
    (cd "$d/points/0003" && eval "$*")
    local out
    out=$("$bin" sweep "${args[@]}" -j 2 -o "$d" 2>&1 | head -n 1)
    if same "$d" && grep -q "(9 reused" <<<"$out"; then ok "damage '$name': only that point reran, result unchanged"
    else bad "damage '$name': $out"; fi
}
damage no-final-newline 'truncate -s -1 summary.csv'
damage garbage-summary 'echo garbage > summary.csv'
damage empty-summary ': > summary.csv'
damage summary-missing 'rm summary.csv'
damage marker-missing 'rm complete'
damage config-changed "sed -i 's/^load = .*/load = 0.9/' config.ini"
damage crash-between-writes 'rm complete; echo "run,x" > summary.csv'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
