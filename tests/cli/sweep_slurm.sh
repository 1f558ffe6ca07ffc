#!/bin/bash
# collsim sweep --runner slurm on a real Slurm: this test starts a munged,
# a slurmctld and a slurmd of its own (a generated munge key and slurm.conf
# in a temporary folder, this host as controller and only node, free ports,
# process tracking and tasks without cgroups), then
#  - a local sweep of a small experiment gives the reference CSV;
#  - --plan --runner slurm --throttle 1 submits it as a job array; the test
#    cancels one task with scancel while it runs;
#  - --gather exits 1 naming that point, its exit record missing and its
#    Slurm log line (CANCELLED);
#  - --gather --resubmit --wait runs that task alone again (a new array of
#    one task), follows it and gathers: exit 0, and the CSV is the local
#    sweep's byte for byte but for wall_s;
#  - bad input: --gather into a folder that holds another experiment's
#    plan, an sbatch option that does not exist: one line, exit 2, nothing
#    submitted.
# Every daemon it started is stopped on exit (trap).  Where slurmd cannot
# run (not root, no munge, a container that forbids what slurmd needs) it
# says why in one SKIP line and exits 77.
set -u
. "$(dirname "$0")/../lib/collsim-env.sh"
collsim=$(cd "$(dirname "$collsim")" && pwd)/$(basename "$collsim")

skip() {
  echo "SKIP: sweep_slurm.sh: $*"
  exit 77
}
fail() {
  echo "FAIL: sweep_slurm.sh: $*" >&2
  exit 1
}

for program in munged slurmctld slurmd sbatch squeue scancel scontrol parallel; do
  command -v "$program" >/dev/null 2>&1 || skip "$program is not installed (scripts/install-deps.sh installs slurm-wlm, munge)"
done
[ "$(id -u)" = 0 ] || skip "not root: slurmd must run as root to start jobs, and this user ($(id -un)) is not"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/collsim-slurm.XXXXXX")
daemon_pids=()
cleanup() {
  for pid in "${daemon_pids[@]}"; do
    kill "$pid" 2>/dev/null
  done
  for pid in "${daemon_pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap cleanup EXIT

# two free TCP ports
free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 30000))
    ss -ltn 2>/dev/null | awk '{print $4}' | grep -q ":$port\$" || { echo "$port"; return; }
  done
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
[ "$ctld_port" != "$slurmd_port" ] || slurmd_port=$((ctld_port + 1))

# munge with a generated key, on a socket of ours
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged -F --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/seed" \
  >"$tmp/log/munged.out" 2>&1 &
daemon_pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$tmp/munge/munge.socket" ] || skip "munged did not start: $(tail -n 1 "$tmp/log/munged.out" "$tmp/log/munged.log" 2>/dev/null | grep . | tail -n 1)"

node=$(hostname -s)
cpus=$(nproc)
mem_mib=$(awk '/MemTotal/ {printf "%d", $2 / 1024 * 0.8}' /proc/meminfo)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=collsimtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_interval=1
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mib State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i >"$tmp/log/slurmctld.out" 2>&1 &
daemon_pids+=($!)
slurmd -D -N "$node" >"$tmp/log/slurmd.out" 2>&1 &
daemon_pids+=($!)
why_not() { # the daemons' last error lines
  cat "$tmp/log/slurmd.out" "$tmp/log/slurmd.log" "$tmp/log/slurmctld.out" "$tmp/log/slurmctld.log" 2>/dev/null |
    grep -i -E "error|fatal" | tail -n 1
}
up=
for _ in $(seq 100); do
  state=$(sinfo -h -N -o %t 2>/dev/null | head -n 1)
  case "$state" in idle*|mix*|alloc*) up=1; break ;; esac
  for pid in "${daemon_pids[@]}"; do kill -0 "$pid" 2>/dev/null || break 2; done
  sleep 0.2
done
[ -n "$up" ] || skip "slurmd/slurmctld did not come up (node state '${state:-none}'): $(why_not)"

cd "$tmp" || exit 1
cat >exp.yaml <<'EOF'
name: slurm-test
platform:
  torus: auto
  cores: 4
algorithms: [centralized, rank-hash]
n: [8192, 64]
f: [1.0]
k: [3]
EOF
other_experiment other.yaml

"$collsim" sweep exp.yaml --out local.csv --quiet || fail "the local sweep failed"

# submit, then cancel task 1 (rank-hash n=8192, a few seconds) while it runs
"$collsim" sweep exp.yaml --plan plan --runner slurm --throttle 1 --quiet 2>submit.err ||
  fail "--runner slurm: exit $? ($(cat submit.err))"
[ -f plan/job.sh ] && [ -s plan/slurm-jobs ] || fail "no job.sh or slurm-jobs in the plan: $(ls plan)"
grep -q -- '^#SBATCH --mem=[0-9]*M$' plan/job.sh && grep -q -- '^#SBATCH --time=[0-9]*$' plan/job.sh ||
  fail "job.sh has no --mem or --time from the estimates: $(grep SBATCH plan/job.sh)"
job=$(cut -f 1 plan/slurm-jobs | head -n 1)
cancelled=
for _ in $(seq 300); do
  if squeue -h -j "${job}_1" -t R -o %i 2>/dev/null | grep -q .; then
    scancel "${job}_1" && cancelled=1
    break
  fi
  sleep 0.1
done
[ -n "$cancelled" ] || fail "task ${job}_1 never ran (squeue: $(squeue -h 2>&1 | head -n 3)); $(why_not)"
for _ in $(seq 600); do
  squeue -h -j "$job" -o %i 2>/dev/null | grep -q . || break
  sleep 0.1
done

# gather: point 1 has no row; its Slurm log says it was cancelled
"$collsim" sweep exp.yaml --gather plan --out slurm.csv --quiet 2>gather.err
status=$?
[ "$status" = 1 ] || fail "--gather with a cancelled task: exit $status, expected 1 ($(cat gather.err))"
grep -q "point 1 (task 1) left no row" gather.err || fail "--gather does not name point 1: $(cat gather.err)"
grep -q "CANCELLED" gather.err || fail "--gather does not show the task's log line (CANCELLED): $(cat gather.err)"
[ "$(wc -l <slurm.csv)" = 4 ] || fail "slurm.csv after the first gather: $(wc -l <slurm.csv) lines, expected 4"

# bad input: another experiment's plan, an sbatch option that does not exist
"$collsim" sweep other.yaml --gather plan --out other.csv 2>bad.err
status=$?
[ "$status" = 2 ] && [ "$(wc -l <bad.err)" = 1 ] && grep -q "another experiment" bad.err && [ ! -e other.csv ] ||
  fail "--gather of another experiment's plan: exit $status, $(cat bad.err)"
jobs_before=$(wc -l <plan/slurm-jobs)
"$collsim" sweep exp.yaml --plan plan2 --runner slurm --runner-arg=--no-such-option=1 2>bad.err
status=$?
[ "$status" = 2 ] && [ "$(wc -l <bad.err)" = 1 ] && [ ! -e plan2 ] ||
  fail "an unknown sbatch option: exit $status, $(cat bad.err); plan2: $(ls plan2 2>&1)"

# resubmit the missing point alone, wait, gather
"$collsim" sweep exp.yaml --gather plan --out slurm.csv --resubmit --wait --quiet 2>resubmit.err ||
  fail "--gather --resubmit --wait: exit $? ($(cat resubmit.err))"
[ "$(wc -l <plan/slurm-jobs)" = $((jobs_before + 1)) ] && tail -n 1 plan/slurm-jobs | grep -q $'\t1$' ||
  fail "the resubmission is not an array of task 1 alone: $(cat plan/slurm-jobs)"

without_wall() { # the CSV without its wall_s column
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") w = i }
           { out = ""; for (i = 1; i <= NF; i++) if (i != w) out = out (out == "" ? "" : ",") $i; print out }' "$1"
}
cmp <(without_wall local.csv) <(without_wall slurm.csv) ||
  fail "the gathered CSV differs from the local sweep's: $(diff <(without_wall local.csv) <(without_wall slurm.csv) | head -n 5)"
echo "sweep_slurm.sh: ok (job $job, cancelled task 1, resubmitted, CSV equal to a local sweep's)"
