#!/usr/bin/env bash
# A sweep as a Slurm array job: task I of N runs `icnsim sweep ... --shard I/N`
# into the shared results directory; a last job, which depends on the array,
# runs the same sweep without --shard and merges every point. Resubmitting
# after a failed task reruns only the points that have no valid `complete`
# marker (docs/CLUSTER.md).
#
#   N=16 sbatch --array=0-15 tools/slurm-sweep.sh my.ini -s load=0.1:0.1:1.0 -s seed=1,2,3 -o results/study
#   sbatch --dependency=afterok:<array job id> --wrap "icnsim sweep my.ini -s load=0.1:0.1:1.0 -s seed=1,2,3 -o results/study"
#
#SBATCH --job-name=icnsim-sweep
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
set -euo pipefail
: "${SLURM_ARRAY_TASK_ID:?run me as a Slurm array task (sbatch --array=0-<N-1>)}"
N=${N:-${SLURM_ARRAY_TASK_COUNT:?set N to the number of array tasks}}
exec "${ICNSIM:-icnsim}" sweep "$@" -q --shard "$SLURM_ARRAY_TASK_ID/$N"
