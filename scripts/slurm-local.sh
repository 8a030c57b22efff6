#!/usr/bin/env bash
# A real single-node SLURM cluster on this machine, for trying `penumbra batch --slurm` and for
# its test: munge, slurmctld and slurmd (Debian's munge and slurm-wlm packages) with every
# file, socket and port of their own under DIR, so that it touches no system configuration and
# two of them (a test and a user's) can run side by side.
#
#   bash scripts/slurm-local.sh start DIR   # prints `export SLURM_CONF=DIR/slurm.conf`
#   export SLURM_CONF=DIR/slurm.conf        # sbatch, squeue, scancel... now talk to it
#   bash scripts/slurm-local.sh stop DIR
#
# The node has the machine's CPUs and its memory less 2 GiB; memory is a consumable resource
# (`--mem` is enforced by the scheduler's accounting, as on a real cluster).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)

stop() {
    for daemon in slurmd slurmctld munged; do
        local pidfile="$dir/$daemon.pid"
        if [ -f "$pidfile" ]; then
            local pid
            pid=$(cat "$pidfile")
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null || true
            rm -f "$pidfile"
        fi
    done
}

case "$action" in
stop)
    stop
    exit 0
    ;;
start) ;;
*) usage ;;
esac

for tool in munged slurmctld slurmd sbatch; do
    if ! command -v "$tool" >/dev/null; then
        echo "$0: $tool is not installed (apt-get install munge slurm-wlm; scripts/install-deps.sh does)" >&2
        exit 1
    fi
done
stop # a cluster left running in DIR by an earlier start
mkdir -p "$dir/state" "$dir/spool" "$dir/log"

if [ ! -f "$dir/munge.key" ]; then
    head -c 1024 /dev/urandom >"$dir/munge.key"
    chmod 400 "$dir/munge.key"
fi
munged --force --key-file="$dir/munge.key" --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munged.seed"

# Two free TCP ports for the controller and the node daemon.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')

cpus=$(nproc)
memory_mb=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 2048))
cat >"$dir/slurm.conf" <<EOF
# Written by penumbra's scripts/slurm-local.sh: one node, this machine.
ClusterName=penumbra-local
SlurmctldHost=localhost
SlurmUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MinJobAge=600
MpiDefault=none
NodeName=localhost CPUs=$cpus RealMemory=$memory_mb State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

export SLURM_CONF=$dir/slurm.conf
slurmctld
slurmd -N localhost
# Up when the node is idle (slurmd registered with the controller).
for _ in $(seq 100); do
    if sinfo -h -o %T 2>/dev/null | grep -q idle; then
        echo "export SLURM_CONF=$dir/slurm.conf"
        exit 0
    fi
    sleep 0.2
done
echo "$0: the node did not come up in 20 s; logs in $dir/log" >&2
tail -n 5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
exit 1
