# Sourced by tests/cluster/run.sh: brings a single-node SLURM cluster up on localhost in $CLUSTER_DIR
# (munged, slurmctld, slurmd started directly as daemons, no systemd) and takes it down again by PID.
# Exports SLURM_CONF so sbatch, squeue and scancel talk to it.
cluster_up() {
  local here dir host cpus mem user
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  dir=$CLUSTER_DIR
  host=$(hostname -s)
  cpus=$(nproc)
  mem=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
  user=$(id -un)
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
  chmod 0700 "$dir/munge"
  # A fresh munge key for this cluster only (never the system's /etc/munge/munge.key).
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 0600 "$dir/munge/munge.key"
  sed -e "s|@HOST@|$host|g" -e "s|@DIR@|$dir|g" -e "s|@CPUS@|$cpus|g" -e "s|@MEM_MB@|$mem|g" \
      -e "s|@USER@|$user|g" -e "s|@CTLD_PORT@|${DPF_SLURMCTLD_PORT:-16817}|g" \
      -e "s|@SLURMD_PORT@|${DPF_SLURMD_PORT:-16818}|g" "$here/slurm.conf.in" > "$dir/slurm.conf"
  export SLURM_CONF=$dir/slurm.conf
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
         --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
         --seed-file="$dir/munge/munged.seed"
  wait_for_file "$dir/munge/munged.pid" munged
  CLUSTER_PIDS="$(cat "$dir/munge/munged.pid")"
  slurmctld -f "$SLURM_CONF"
  wait_for_file "$dir/slurmctld.pid" slurmctld
  CLUSTER_PIDS="$(cat "$dir/slurmctld.pid") $CLUSTER_PIDS"
  slurmd -f "$SLURM_CONF"
  wait_for_file "$dir/slurmd.pid" slurmd
  CLUSTER_PIDS="$(cat "$dir/slurmd.pid") $CLUSTER_PIDS"
  # The node is usable once sinfo reports it idle.
  local i
  for i in $(seq 1 60); do
    if sinfo -h -N -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
      echo "cluster: up on $host ($cpus CPUs), pids $CLUSTER_PIDS, SLURM_CONF=$SLURM_CONF"
      return 0
    fi
    sleep 1
  done
  echo "cluster: node never became idle:" >&2
  sinfo -N -l >&2 || true
  tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
  return 1
}

wait_for_file() {
  local i
  for i in $(seq 1 50); do
    [ -s "$1" ] && return 0
    sleep 0.2
  done
  echo "cluster: $2 did not start (no $1)" >&2
  tail -n 20 "$CLUSTER_DIR"/*.log "$CLUSTER_DIR"/munge/*.log >&2 2>/dev/null || true
  return 1
}

# Running and not a zombie (a daemon whose parent does not reap it stays <defunct> after exiting).
alive() {
  kill -0 "$1" 2>/dev/null || return 1
  [ "$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)" != Z ]
}

# Stops what cluster_up started, by PID (slurmd, slurmctld, munged), waiting for each to exit.
cluster_down() {
  local pid i
  for pid in $CLUSTER_PIDS; do
    kill -TERM "$pid" 2>/dev/null || continue
    for i in $(seq 1 50); do
      alive "$pid" || break
      sleep 0.2
    done
    alive "$pid" && kill -KILL "$pid" 2>/dev/null
  done
  CLUSTER_PIDS=
}
