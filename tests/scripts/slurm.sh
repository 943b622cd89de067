#!/usr/bin/env bash
# A sweep as a real Slurm array job (tools/slurm-sweep.sh) on this machine:
# starts munged, slurmctld and slurmd of its own (one node, localhost, in a
# temporary directory, on free loopback ports), and stops them on exit. The array
# plus its merge job must give the summary.csv of a -j 1 sweep byte for byte;
# with one array task cancelled, the resubmitted task must compute only its
# own points and the merge reuse every point. With mpicc and mpirun, an MPI
# sweep submitted as one job must give that summary too. Installs nothing:
# without the daemons (Debian: slurm-wlm munge), not as root, or if they do
# not start, it prints SKIPPED. Prints "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
skip() { echo "slurm: SKIPPED: $*"; exit 0; }
for c in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
    command -v "$c" >/dev/null || skip "$c is not installed (Debian: slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root"
make -s -j2 >/dev/null
bin=$(realpath ./icnsim)
work=$(mktemp -d /tmp/icnsim-slurm.XXXXXX)
S=$work/slurm
mkdir -p "$S/state" "$S/spool" "$S/log" "$S/munge"
chmod 700 "$S/munge"
export SLURM_CONF=$S/slurm.conf

stop() {
    if [ -s "$S/slurmctld.pid" ]; then scontrol shutdown >/dev/null 2>&1 || true; fi
    for p in slurmd.pid slurmctld.pid munge/munged.pid; do
        [ -s "$S/$p" ] || continue
        pid=$(cat "$S/$p")
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; kill "$pid" 2>/dev/null || true; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap stop EXIT

head -c 1024 /dev/urandom > "$S/munge/munge.key"
chmod 400 "$S/munge/munge.key"
munged --force --socket="$S/munge/munge.socket" --key-file="$S/munge/munge.key" --pid-file="$S/munge/munged.pid" \
    --log-file="$S/munge/munged.log" --seed-file="$S/munge/munged.seed" || skip "munged did not start"
# Free loopback ports picked at random: a Slurm already on this machine
# (6817, 6818) and this test run twice at once each keep their own.
free_port() {
    local p
    for _ in $(seq 100); do
        p=$((20000 + RANDOM % 20000))
        [ "$p" != "${1:-}" ] && ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && { echo "$p"; return 0; }
    done
    return 1
}
ctld_port=$(free_port) || skip "no free port"
slurmd_port=$(free_port "$ctld_port") || skip "no free port"
cat > "$SLURM_CONF" <<EOF
ClusterName=icnsim-test
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge/munge.socket
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" || skip "slurmctld did not start ($(tail -n 3 "$S/log/slurmctld.log" 2>/dev/null))"
slurmd -f "$SLURM_CONF" -N localhost || skip "slurmd did not start ($(tail -n 3 "$S/log/slurmd.log" 2>/dev/null))"
up=0
for _ in $(seq 100); do
    if [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ]; then up=1; break; fi
    sleep 0.2
done
[ "$up" -eq 1 ] || skip "the node did not come up: $(tail -n 3 "$S/log/slurmctld.log" "$S/log/slurmd.log")"
echo "slurm: $(slurmctld -V), node localhost idle (ports $ctld_port, $slurmd_port)"

pass=0; fail=0
ok()  { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
wait_jobs() {   # until the queue is empty (60 s at most)
    for _ in $(seq 300); do [ -z "$(squeue -h)" ] && return 0; sleep 0.2; done
    return 1
}

args=(-s topology.k=2 -s topology.stages=2 -s time.warmup=10us -s time.measure=3ms
      -s load=0.1:0.1:1.0 -s traffic.scenario=none,hs10-1)
"$bin" sweep -q "${args[@]}" -j 1 -o "$work/ref"
ref=$work/ref/summary.csv
merge() { sbatch --parsable "$@" -o "$work/merge.out" --wrap "$bin sweep ${args[*]} -o $work/study"; }

# 1. the documented workflow: an array of 4 shards, then the merge after it
cd "$work"
jid=$(N=4 ICNSIM=$bin sbatch --parsable --array=0-3 -o "$work/task-%a.out" "$OLDPWD/tools/slurm-sweep.sh" "${args[@]}" -o "$work/study")
merge --dependency=afterok:"$jid" >/dev/null
wait_jobs || bad "array job: still queued after 60 s: $(squeue)"
if cmp -s "$ref" "$work/study/summary.csv" && grep -q "(20 reused" "$work/merge.out"; then
    ok "sbatch --array=0-3 then the merge: summary.csv identical to -j 1, every point reused by the merge"
else bad "array job: $(cat "$work"/task-*.out "$work/merge.out" 2>&1 | head -n 20)"; fi

# 2. a failed array task: task 2 cancelled before it ran; resubmitting it
# computes its 5 points only, and the merge reuses all 20
rm -rf "$work/study" "$work"/*.out
jid=$(N=4 ICNSIM=$bin sbatch --parsable --hold --array=0-3 -o "$work/task-%a.out" "$OLDPWD/tools/slurm-sweep.sh" "${args[@]}" -o "$work/study")
scancel "${jid}_2"
scontrol release "$jid"
wait_jobs || bad "held array: still queued after 60 s"
missing=$(for p in $(seq 0 19); do [ -e "$work/study/points/$(printf %04d "$p")/complete" ] || echo "$p"; done | xargs)
[ "$missing" = "2 6 10 14 18" ] && ok "task 2 cancelled: exactly its points (2 6 10 14 18) are missing" \
    || bad "task 2 cancelled: missing points: '$missing'"
complete() { find "$work/study/points" -name complete -printf '%h %T@\n' | sort; }
complete > "$work/before"
N=4 ICNSIM=$bin sbatch --parsable --array=2 -o "$work/task-%a.out" "$OLDPWD/tools/slurm-sweep.sh" "${args[@]}" -o "$work/study" >/dev/null
wait_jobs || bad "resubmitted task: still queued after 60 s"
merge >/dev/null
wait_jobs || bad "merge: still queued after 60 s"
if cmp -s "$ref" "$work/study/summary.csv" && grep -q "(20 reused" "$work/merge.out" && [ -z "$(comm -23 "$work/before" <(complete))" ]; then
    ok "task 2 resubmitted, then the merge: summary.csv identical to -j 1, nothing computed twice"
else bad "resume: $(cat "$work"/task-*.out "$work/merge.out" 2>&1 | head -n 20)"; fi

# 3. an MPI sweep as one Slurm job: mpirun takes its ranks from the
# allocation (3 tasks on 2 CPUs: -O overcommits); needs the MPI build
cd "$OLDPWD"
if command -v mpicc >/dev/null && command -v mpirun >/dev/null && make -s -j2 MPI=1 >/dev/null; then
    cd "$work"
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 sbatch --parsable -n 3 -O -o "$work/mpi.out" \
        --wrap "mpirun --oversubscribe $OLDPWD/build-mpi/icnsim sweep ${args[*]} -o $work/mpi" >/dev/null
    wait_jobs || bad "MPI job: still queued after 60 s"
    if cmp -s "$ref" "$work/mpi/summary.csv" && grep -q "(0 reused" "$work/mpi.out"; then
        ok "sbatch -n 3 of mpirun build-mpi/icnsim sweep: summary.csv identical to -j 1"
    else bad "MPI job: $(head -n 20 "$work/mpi.out" 2>&1)"; fi
    cd "$OLDPWD"
else echo "slurm: the MPI job SKIPPED: no mpicc and mpirun"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
