#!/usr/bin/env bash
# make test-cluster: a real SLURM cluster on localhost, end to end.
#   1. brings up munged, slurmctld and slurmd from tests/cluster/slurm.conf.in in a temporary folder
#      (cluster.sh; no systemd, no cgroups) and stops them by PID on exit;
#   2. runs the configs below unsharded, locally, as the reference;
#   3. submits them as one sweep with `dpforest slurm --tasks 4`, and while it runs submits a second
#      job on an occupied shard (it must compute nothing twice), shows `dpforest status`, cancels one
#      array task mid-run with scancel (SIGTERM: its claims go, no partial file stays) and kills
#      another with SIGKILL (its claims stay, stale), then resubmits both tasks;
#   4. waits for the finishing job and checks: it succeeded, the merged tables equal the reference in
#      every column but timing and host, and the figure and the table were drawn.
# Usage: tests/cluster/run.sh [path/to/dpforest]. KEEP=1 keeps the temporary folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
DPF=$(cd "$root" && realpath "${1:-build/dpforest}")
CONFIGS=(configs/dipreme/table-1.yaml configs/dipreme-v1/figure-1.yaml)
TASKS=4
cd "$root"
t0=$SECONDS
say() { echo "test-cluster [$((SECONDS - t0)) s]: $*"; }
die() { echo "test-cluster: FAILED: $*" >&2; exit 1; }
for tool in munged slurmctld slurmd sbatch squeue scancel scontrol; do
  command -v "$tool" >/dev/null || die "$tool not found (experiments/tools/deps.sh cluster installs slurm-wlm and munge)"
done

T=$(mktemp -d /tmp/dpf-test-cluster.XXXXXX)
export CLUSTER_DIR=$T/cluster
CLUSTER_PIDS=
# shellcheck source=cluster.sh
. "$here/cluster.sh"
cleanup() {
  local rc=$?
  [ -n "${SLURM_CONF:-}" ] && scancel --user="$(id -un)" >/dev/null 2>&1 || true
  cluster_down
  if [ "${KEEP:-0}" = 1 ] || [ $rc -ne 0 ]; then echo "test-cluster: kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
cluster_up

say "reference: unsharded local runs"
for c in "${CONFIGS[@]}"; do nice "$DPF" run "$c" --results "$T/local" --threads 2 --quiet | tail -n 1; done
say "reference done"

say "submitting ${CONFIGS[*]} with dpforest slurm --tasks $TASKS"
"$DPF" slurm "${CONFIGS[@]}" --tasks $TASKS --cpus-per-task 1 --results "$T/results" --job-name dpftest | tee "$T/submit.txt"
sub=$(ls -d "$T"/results/slurm/dpftest-*)
array=$(sed -n 's/^array_job=//p' "$sub/submitted.txt")
finish=$(sed -n 's/^finish_job=//p' "$sub/submitted.txt")
[ -n "$array" ] && [ -n "$finish" ] || die "no job ids in $sub/submitted.txt"
cells=$T/results/dipreme/table-1/cells

# A second job on shard 1 while the first one runs: every unit it finds claimed is skipped.
dup=$(sbatch --parsable --array=1 "$sub/array.sbatch")
say "duplicate job $dup on shard 1"

# The first shard to claim a unit of table-1 is cancelled (SIGTERM) mid-run, the next one killed.
claim_job() { { cat "$cells"/*.claim 2>/dev/null || true; } | sed -n "s/.* job=${array}_\([0-9]*\) .*/\1/p" | sort -u; }
victims=
for i in $(seq 1 240); do
  victims=$(claim_job | head -n 2 | tr '\n' ' ')
  [ "$(echo $victims | wc -w)" -ge 2 ] && break
  sleep 0.5
done
set -- $victims
[ $# -ge 2 ] || die "no two array tasks claimed a unit within 2 minutes"
term=$1 kill9=$2
sleep 2
say "dpforest status while it runs:"
"$DPF" status "${CONFIGS[0]}" --results "$T/results" | tee "$T/status-running.txt"
grep -q "in progress: [1-9]" "$T/status-running.txt" || die "status shows nothing in progress"
grep -q "job ${array}_" "$T/status-running.txt" || die "status does not name the claiming job"

# SIGKILL: what an out-of-memory kill or a crashed node leaves: the process of task $kill9 (its pid
# is in its claim) dies at once, its claims stay behind and are stale (their process is gone).
kill9_pid=$({ cat "$cells"/*.claim 2>/dev/null || true; } | sed -n "s/.* job=${array}_$kill9 pid=\([0-9]*\) .*/\1/p" | head -n 1)
say "scancel ${array}_$term (SIGTERM) and kill -KILL $kill9_pid (task $kill9)"
scancel "${array}_$term"
[ -n "$kill9_pid" ] && kill -KILL "$kill9_pid"
for i in $(seq 1 60); do
  left=$(squeue -h -j "${array}_$term,${array}_$kill9" -o %i 2>/dev/null | wc -l)
  [ "$left" -eq 0 ] && break
  sleep 0.5
done
[ "$left" -eq 0 ] || die "the cancelled tasks are still in the queue"
log_term=$(ls "$sub"/logs/*_"$term".out)
grep -q "SIGTERM: claims released" "$log_term" || { cat "$log_term"; die "task $term did not report a clean SIGTERM"; }
if cat "$T"/results/*/*/cells/*.claim 2>/dev/null | grep "job=${array}_$term "; then die "task $term left claims after SIGTERM"; fi
if find "$T/results" -name '*.tmp.*' | grep .; then die "partial files were left behind"; fi
"$DPF" status "${CONFIGS[@]}" --results "$T/results" > "$T/status-killed.txt"
cat "$T/status-killed.txt"
if [ -n "$kill9_pid" ]; then
  grep -q "job ${array}_$kill9, pid $kill9_pid.*STALE" "$T/status-killed.txt" || die "the killed task's claim is not shown as stale"
  say "task $kill9 (SIGKILL) left its claim, shown as stale"
fi

say "resubmitting tasks $term and $kill9"
again=$(sbatch --parsable --array="$term,$kill9" "$sub/array.sbatch")
state=$(squeue -h -j "$finish" -o %T)
[ "$state" = PENDING ] || die "the finishing job is $state, expected PENDING"
scontrol update JobId="$finish" Dependency="afterany:$array:$dup:$again"

say "waiting for the finishing job $finish"
for i in $(seq 1 1200); do
  [ -z "$(squeue -h -j "$finish" -o %T 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h -j "$finish" -o %T 2>/dev/null)" ] || die "the finishing job did not end in 10 minutes"
cat "$sub"/logs/dpftest-finish-*.out
# flight-delay is not in the offline mirror: its cells are skipped by the reference run too, so the
# finishing job reports them missing (status 4); any other missing cell is a failure.
if ! grep -q "status 0" "$sub/finish.status"; then
  grep -q "status 4" "$sub/finish.status" || die "finishing job: $(cat "$sub/finish.status" 2>/dev/null)"
  missing=$(grep "^  missing: " "$sub"/logs/dpftest-finish-*.out | sort -u || true)
  echo "$missing"
  if echo "$missing" | grep -v "on flight-delay " | grep -q .; then die "cells other than flight-delay's are missing"; fi
fi

# Nothing computed twice on shard 1: the two jobs' units add up to the shard's units, per config.
for exp in dipreme/table-1 dipreme-v1/figure-1; do
  lines=$(grep -h "^$exp shard 1/$TASKS" "$sub"/logs/dpftest-*_1.out || true)
  units=$(echo "$lines" | head -n 1 | sed -n 's/.*cells, \([0-9]*\) units.*/\1/p')
  computed=0
  for n in $(echo "$lines" | sed -n 's/.*): \([0-9]*\) computed.*/\1/p'); do computed=$((computed + n)); done
  say "$exp shard 1: $units units, computed $computed by the two jobs together"
  [ -n "$units" ] && [ "$computed" -le "$units" ] || die "shard 1 of $exp computed $computed of $units units"
done

say "comparing with the unsharded reference"
python3 "$here/compare.py" "$T/local" "$T/results" dipreme/table-1 dipreme-v1/figure-1
[ -s "$T/results/dipreme-v1/figure-1/figure-1.png" ] || die "figure-1.png was not drawn"
[ -s "$T/results/dipreme/table-1/table-1.md" ] || die "table-1.md was not drawn"
say "PASSED (wall time $((SECONDS - t0)) s)"
