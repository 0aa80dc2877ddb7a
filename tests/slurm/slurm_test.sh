#!/usr/bin/env bash
# slurm_test.sh LEXLINK SOURCE_DIR: scripts/slurm/lexlink-slurm on a real Slurm cluster of one
# machine. Installs slurm-wlm and munge from Debian (apt) when they are missing, starts munged,
# slurmctld and two slurmd nodes (n1, n2) on localhost by hand, marks up a few hundred documents
# built from corpora/ as a sharded job array, kills node n2 while it is in the middle of a shard
# (slurmd, slurmstepd and the task, frozen then killed at once, as a machine dies), and proves
# that Slurm requeued that task alone, that it redid only the rest of its shard, that every
# document has exactly one output and that the outputs are byte-identical to a serial run.
#
# Exit 77 (SKIP_RETURN_CODE in tests/CMakeLists.txt) when not root, when the packages cannot be
# installed (no apt, repository unreachable) or when LEXLINK_SKIP_SLURM_TEST=1. Everything it
# starts is found by its pid files or by the test's own SLURM_CONF in the process environment, and
# is killed, and the temporary directory removed, whatever happens: on exit, on a signal, and by a
# detached watchdog if this script is killed outright. Bounded: LEXLINK_SLURM_TEST_BUDGET seconds
# (default 170) for the whole run.
set -euo pipefail
export LC_ALL=C
trap 'echo "FAIL: $0 line $LINENO: $BASH_COMMAND exited with status $?" >&2' ERR

SKIP=77
skip() { echo "SKIPPED: $*"; exit $SKIP; }
note() { echo "[$(date +%T)] $*"; }

[ $# -eq 2 ] || { echo "usage: $0 LEXLINK SOURCE_DIR" >&2; exit 2; }
LEXLINK=$(realpath -- "$1")
SRC=$(realpath -- "$2")
SHARDER="$SRC/scripts/slurm/lexlink-slurm"
BUDGET=${LEXLINK_SLURM_TEST_BUDGET:-170}
START=$SECONDS

[ "${LEXLINK_SKIP_SLURM_TEST:-0}" = 0 ] || skip "LEXLINK_SKIP_SLURM_TEST is set"
[ "$(id -u)" -eq 0 ] || skip "the Slurm test needs root (it installs slurm-wlm and munge with apt and runs their daemons); run ctest as root, e.g. in CI"
[ "$(uname -s)" = Linux ] || skip "Linux only"
[ -x "$LEXLINK" ] || { echo "FAIL: $LEXLINK is not executable" >&2; exit 1; }

# ---- packages ---------------------------------------------------------------------------------
have_all() {
  local c
  for c in munged mungekey slurmctld slurmd slurmstepd sbatch squeue scontrol sinfo flock; do
    command -v "$c" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin:/sbin" command -v "$c" >/dev/null 2>&1 || return 1
  done
}
export PATH="$PATH:/usr/sbin:/sbin"
if ! have_all; then
  command -v apt-get >/dev/null || skip "slurm-wlm/munge are not installed and there is no apt-get"
  note "installing slurm-wlm and munge from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt_opts=(-y -qq --no-install-recommends -o DPkg::Lock::Timeout=60 -o Acquire::Retries=1
            -o Acquire::http::Timeout=20)
  if ! timeout 150 apt-get install "${apt_opts[@]}" slurm-wlm munge >/dev/null 2>&1; then
    timeout 120 apt-get update -qq -o Acquire::Retries=1 -o Acquire::http::Timeout=20 >/dev/null 2>&1 ||
      skip "cannot install slurm-wlm and munge: apt-get update failed (package repository unreachable?)"
    timeout 150 apt-get install "${apt_opts[@]}" slurm-wlm munge >/dev/null 2>&1 ||
      skip "cannot install slurm-wlm and munge with apt-get"
  fi
  have_all || skip "slurm-wlm and munge installed, but a command is still missing"
fi

# ---- the cluster's home, cleanup and watchdog ---------------------------------------------------
T=$(mktemp -d /tmp/lexlink-slurm-test.XXXXXX)
chmod 755 "$T"
export SLURM_CONF="$T/etc/slurm.conf"

# pids of processes of this test's cluster (not zombies): the daemons by pid file, and every
# process whose environment holds this test's SLURM_CONF (slurmstepd and the job's tasks);
# with NODE, only slurmd NODE, the processes of the tasks on NODE and the slurmstepd above them.
cluster_pids() {
  local node=${1:-} f p e pp st
  for f in "$T"/run/*.pid; do
    [ -f "$f" ] || continue
    case "$f" in "$T/run/slurmd-"*) [ -z "$node" ] || [ "$f" = "$T/run/slurmd-$node.pid" ] || continue ;;
                 *) [ -z "$node" ] || continue ;; esac
    p=$(cat "$f" 2>/dev/null) && [ -n "$p" ] && echo "$p"
  done
  for e in /proc/[0-9]*; do
    p=${e#/proc/}
    [ "$p" != $$ ] || continue
    { mapfile -d '' -t env < "$e/environ"; } 2>/dev/null || continue
    local mine=0 onnode=0 v
    for v in "${env[@]}"; do
      [ "$v" = "SLURM_CONF=$SLURM_CONF" ] && mine=1
      [ -n "$node" ] && [ "$v" = "SLURMD_NODENAME=$node" ] && onnode=1
    done
    [ $mine -eq 1 ] || continue
    if [ -z "$node" ]; then echo "$p"; continue; fi
    [ $onnode -eq 1 ] || continue
    echo "$p"
    read -r _ _ _ pp _ < "$e/stat" 2>/dev/null || continue
    grep -q '^slurmstepd' "/proc/$pp/cmdline" 2>/dev/null && echo "$pp"
  done 2>/dev/null | sort -u | while read -r p; do
    read -r _ _ st _ < "/proc/$p/stat" 2>/dev/null && [ "$st" != Z ] && echo "$p"
  done || true
  return 0
}
# Stops, then kills, every process of the cluster, again until none is left (slurmd may have
# been forking a slurmstepd), then removes the directory.
reap_cluster() {
  local pids
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    pids=$(cluster_pids)
    [ -n "$pids" ] || break
    # shellcheck disable=SC2086
    kill -STOP $pids 2>/dev/null || true
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    sleep 0.2
  done
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $T"; else rm -rf "$T"; fi
}

cleanup_done=0
cleanup() {
  [ $cleanup_done -eq 0 ] || return 0
  cleanup_done=1
  [ -z "${WATCHDOG:-}" ] || kill "$WATCHDOG" 2>/dev/null || true
  reap_cluster
}
trap cleanup EXIT
trap 'echo "interrupted" >&2; exit 1' INT TERM HUP

# The watchdog outlives this script if it is killed outright (ctest's timeout): it waits for this
# shell to disappear (or turn zombie), then reaps the cluster.
WATCHDOG=$(setsid bash -c '
  T=$1; main=$2; SLURM_CONF=$3; eval "$4"
  while [ -d "/proc/$main" ] && ! grep -q "^[^ ]* ([^)]*) Z" "/proc/$main/stat" 2>/dev/null; do sleep 1; done
  [ -d "$T" ] && reap_cluster' watchdog "$T" $$ "$SLURM_CONF" "$(declare -f cluster_pids reap_cluster)" \
  </dev/null >/dev/null 2>&1 & echo $!)

fail() {
  echo "FAIL: $*" >&2
  local f
  for f in "$T"/log/*.log; do
    [ -f "$f" ] || continue
    echo "---- tail of $f" >&2; tail -n 15 "$f" >&2
  done
  exit 1
}
left() { echo $((BUDGET - (SECONDS - START))); }
# wait_for SECONDS WHAT COMMAND...: polls COMMAND every 0.2 s, fails after SECONDS or the budget.
wait_for() {
  local limit=$1 what=$2; shift 2
  local end=$((SECONDS + limit))
  until "$@"; do
    [ "$SECONDS" -lt "$end" ] || fail "timed out after ${limit}s waiting for $what"
    [ "$(left)" -gt 0 ] || fail "test budget of ${BUDGET}s spent waiting for $what"
    sleep 0.2
  done
}

# ---- start munge, slurmctld and two slurmd ---------------------------------------------------
mkdir -p "$T/etc" "$T/munge" "$T/run" "$T/log" "$T/state" "$T/spool/n1" "$T/spool/n2"
chmod 700 "$T/munge"
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
base=0
for _ in $(seq 1 50); do
  b=$((20000 + RANDOM % 30000))
  if port_free "$b" && port_free $((b + 1)) && port_free $((b + 2)); then base=$b; break; fi
done
[ "$base" -ne 0 ] || fail "no free TCP ports"
host=$(hostname -s)

mungekey -c -k "$T/munge/munge.key" >/dev/null 2>&1 ||
  dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$T/munge/munge.key"
munged -f --key-file="$T/munge/munge.key" --socket="$T/run/munge.socket" \
  --pid-file="$T/run/munged.pid" --log-file="$T/log/munged.log" --seed-file="$T/munge/seed" ||
  fail "munged did not start"
wait_for 10 "munged" test -S "$T/run/munge.socket"

cat > "$SLURM_CONF" <<EOF
# A one-machine cluster for tests/slurm/slurm_test.sh: two nodes on localhost, short timeouts.
ClusterName=lexlinktest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/run/munge.socket,cred_expire=5
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool/%n
SlurmctldPidFile=$T/run/slurmctld.pid
SlurmdPidFile=$T/run/slurmd-%n.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=4
SlurmctldTimeout=10
MessageTimeout=3
InactiveLimit=0
KillWait=2
MinJobAge=600
JobRequeue=1
NodeName=n1 NodeHostname=$host NodeAddr=127.0.0.1 Port=$((base + 1)) CPUs=1 RealMemory=1000 State=UNKNOWN
NodeName=n2 NodeHostname=$host NodeAddr=127.0.0.1 Port=$((base + 2)) CPUs=1 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -f "$SLURM_CONF" -i || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N n1 || fail "slurmd n1 did not start"
slurmd -f "$SLURM_CONF" -N n2 || fail "slurmd n2 did not start"
nodes_idle() { [ "$(sinfo -h -N -o '%N %t' 2>/dev/null | grep -c ' idle$')" -eq 2 ]; }
wait_for 30 "both nodes idle" nodes_idle
note "cluster up: slurmctld on $host:$base, slurmd n1 and n2 ($(($(left))) s of budget left)"

# ---- the documents ------------------------------------------------------------------------------
# Copies of every document of corpora/ (text, Markdown, XML) and an HTML version of every text,
# as many copies as make about 400 documents (at least 2); each copy differs from the others (a
# first line, or a comment after the XML root element), so an output written to the wrong name
# cannot pass the comparison.
D="$T/docs"
n_docs=0
sources=()
per_copy=0
for f in "$SRC"/corpora/*/text/*.txt "$SRC"/corpora/*/raw/*.md "$SRC"/corpora/*/raw/*.xml; do
  [ -f "$f" ] || continue
  sources+=("$f")
  per_copy=$((per_copy + 1))
  [[ "$f" != *.txt ]] || per_copy=$((per_copy + 1))
done
[ "$per_copy" -gt 0 ] || fail "no document under $SRC/corpora"
copies=$(((400 + per_copy - 1) / per_copy))
[ "$copies" -ge 2 ] || copies=2
for f in "${sources[@]}"; do
  corpus=${f%/*/*}; corpus=${corpus##*/}
  name=${f##*/}
  IFS= read -r -d '' body < "$f" || true
  html=""
  if [[ "$name" == *.txt ]]; then
    html=$(sed -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' -e 's|^\(.\)|<p>\1|; s|\(.\)$|\1</p>|' "$f")
  fi
  for ((c = 1; c <= copies; c++)); do
    dir="$D/copy$c/$corpus"
    [ -d "$dir" ] || mkdir -p "$dir"
    case "$name" in
      *.xml) printf '%s\n<!-- copy %s -->\n' "$body" "$c" > "$dir/$name" ;;
      *) printf 'Copy %s.\n%s' "$c" "$body" > "$dir/$name" ;;
    esac
    n_docs=$((n_docs + 1))
    if [ -n "$html" ]; then
      printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>%s, copy %s</title></head><body>\n%s\n</body></html>\n' \
        "$name" "$c" "$html" > "$dir/${name%.txt}.html"
      n_docs=$((n_docs + 1))
    fi
  done
done
[ "$n_docs" -ge 200 ] || fail "only $n_docs documents built from $SRC/corpora"
(cd "$D" && find . -type f | sed 's|^\./||' | sort) > "$T/docs.list"
note "$n_docs documents, $(du -sk "$D" | cut -f1) KB"

MARKUP_OPTS=(--jurisdiction auto)

# ---- the serial reference run -----------------------------------------------------------------
"$LEXLINK" markup --jobs 1 --progress none --out-dir "$T/serial" "${MARKUP_OPTS[@]}" "$D" \
  > "$T/log/serial.out" 2>&1 || fail "serial lexlink markup failed: $(tail -5 "$T/log/serial.out")"

# ---- the sharded job array ----------------------------------------------------------------------
# A task makes its outputs durable (syncfs) before it records them in its manifest, and syncfs
# waits for every dirty page of the filesystem: a backlog left by what ran before (the builds of
# .ci/run, a benchmark) made that take longer than the steps below wait for a record (a CI run on
# the shared VM: "no manifest record after 10 steps (14 outputs)"). Flush it first.
sync
OUT="$T/out"
shard_size=$(((n_docs + 5) / 6))
cat > "$T/lexlink" <<EOF
#!/bin/bash
# lexlink for the job array: the first task on n2 stops itself first (see below)
if [ "\${SLURMD_NODENAME:-}" = n2 ] && mkdir "$T/victim.lock" 2>/dev/null; then
  echo "\$\$ \${SLURM_ARRAY_TASK_ID:-}" > "$T/victim.tmp" && mv "$T/victim.tmp" "$T/victim"
  kill -STOP \$\$
  exec nice -n 19 "$LEXLINK" "\$@"
fi
exec "$LEXLINK" "\$@"
EOF
chmod +x "$T/lexlink"
"$SHARDER" prepare "$OUT" --shard-size "$shard_size" --lexlink "$T/lexlink" "$D" -- "${MARKUP_OPTS[@]}" \
  || fail "lexlink-slurm prepare failed"
n_shards=$(find "$OUT/.lexlink/shards" -type f | wc -l)
jid=$(cd "$T" && "$SHARDER" submit "$OUT" 2> "$T/log/submit.log") || fail "submit: $(cat "$T/log/submit.log")"
cid=$(sed -n 's/.*check job \([0-9]*\).*/\1/p' "$T/log/submit.log")
[ -n "$cid" ] || fail "no check job id in: $(cat "$T/log/submit.log")"
note "array job $jid ($n_shards shards of $shard_size), check job $cid"

# The node dies in the middle of a shard. The first task that runs on n2 stops itself (SIGSTOP)
# just before it becomes `lexlink markup` (a wrapper that then execs lexlink: same pid, same
# arguments). The test lets it go on until its first output is renamed into place, stops it,
# then, until the shard's manifest holds a record, leaves it stopped 2.2 s (lexlink appends its
# manifest records in groups, at the latest 2 s after a file is done) and lets it do one file:
# then the shard is part done, part recorded, part not written, and n2 dies (the task, its
# slurmstepd and slurmd are stopped, then killed together). The victim runs at nice 19, so that
# the test, which watches its progress, is not left behind on a busy machine.
count_outputs() {  # K: outputs of the victim's shard renamed into place
  local f
  K=0
  for f in "${vfiles[@]}"; do [ -e "$OUT/${f#"$D"/}" ] && K=$((K + 1)); done
  return 0
}
count_records() {  # M: complete records of the victim's manifest (not the header, not a torn line)
  local l lines=()
  M=0
  [ -f "$vman" ] && { mapfile lines < "$vman"; } 2>/dev/null
  for l in "${lines[@]}"; do [[ "$l" == *$'\n' && "$l" != '#'* ]] && M=$((M + 1)); done
  return 0
}
# run_until CONDITION: the stopped victim runs until CONDITION holds, and is stopped again.
run_until() {
  local limit=$((SECONDS + 30))
  PHASE=$1
  kill -CONT "$vpid"
  until "$@"; do
    [ -d "/proc/$vpid" ] && [ "$SECONDS" -lt "$limit" ] ||
      fail "the task on n2 ended or stalled before it made progress ($K outputs, $M records)"
  done
  kill -STOP "$vpid"
}
has_output() { count_outputs; [ "$K" -gt 0 ]; }
progress() { count_outputs; count_records; [ "$K" -gt "$K0" ] || [ "$M" -gt 0 ]; }
stopped() { [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = T ]; }
wait_for 60 "a task on n2" test -s "$T/victim"
read -r vpid vidx < "$T/victim"
wait_for 10 "the task on n2 to stop itself" stopped "$vpid"
vshard=$(printf '%s/.lexlink/shards/shard-%05d' "$OUT" "$vidx")
vman=$(printf '%s/.lexlink/manifest-shard-%05d' "$OUT" "$vidx")
mapfile -t vfiles < "$vshard"
K=0 M=0
run_until has_output
count_records
steps=0
while [ "$M" -eq 0 ]; do
  # Stopped 2.2 s, then one more file: the group of records is due and gets written. (The first
  # output may be on disk before lexlink counted it done: then it takes a second step.)
  # How many steps that takes varies (1 to 15 seen on the 2-core VM: the task's syncfs before it
  # records may outlast a step); the node must still die with files of the shard left to do.
  [ "$K" -lt $((${#vfiles[@]} - 3)) ] && [ "$(left)" -gt 60 ] ||
    fail "no manifest record after $steps steps ($K of ${#vfiles[@]} outputs, $(left) s of budget left)"
  sleep 2.2
  K0=$K
  run_until progress
  steps=$((steps + 1))
done
count_outputs
count_records
k=$K m=$M
[ "$k" -lt ${#vfiles[@]} ] ||
  fail "shard $vidx ran to its end before the node could die ($k outputs, $m records, in $PHASE)"
n2pids=$(cluster_pids n2)
# shellcheck disable=SC2086
kill -STOP $n2pids 2>/dev/null || true
# shellcheck disable=SC2086
kill -KILL $n2pids 2>/dev/null || true
note "node n2 killed (pids $(echo $n2pids)) in shard $vidx: $k of ${#vfiles[@]} outputs written, $m recorded, after $steps steps"

# Slurm notices the dead node, requeues the shard's task; the array and the check job complete.
job_gone() { [ -z "$(squeue -h -j "$jid,$cid" 2>/dev/null)" ] && scontrol show job "$cid" > /dev/null 2>&1; }
wait_for "$(left)" "the array and the check job to finish" job_gone
note "jobs finished; n2 is $(sinfo -h -n n2 -N -o '%t')"

# ---- the proofs ---------------------------------------------------------------------------------
scontrol show job "$jid" > "$T/log/jobs.txt"
scontrol show job "$cid" >> "$T/log/jobs.txt"
# job_field TASK FIELD: a field of array task TASK in scontrol's record.
job_field() {
  awk -v t="ArrayTaskId=$1" -v f="$2=" '
    /^JobId=/ { cur = ($0 ~ (t "( |$)")) } cur { for (i = 1; i <= NF; i++) if (index($i, f) == 1) { print substr($i, length(f) + 1); exit } }' \
    "$T/log/jobs.txt"
}
for ((i = 0; i < n_shards; i++)); do
  st=$(job_field "$i" JobState); rs=$(job_field "$i" Restarts)
  [ "$st" = COMPLETED ] || fail "array task $i ended $st"
  if [ "$i" -eq "$vidx" ]; then
    [ "$rs" -ge 1 ] || fail "array task $i (killed on n2) was not requeued (Restarts=$rs)"
  else
    [ "$rs" -eq 0 ] || fail "array task $i ran $((rs + 1)) times; only shard $vidx should have been redone"
  fi
done
grep -A3 "^JobId=$cid " "$T/log/jobs.txt" | grep -q 'JobState=COMPLETED' ||
  fail "check job: $(cat "$OUT"/.lexlink/logs/check-"$cid".out 2>/dev/null)"

# Each shard other than the victim's ran once and skipped nothing; the victim's first run left no
# statistics (killed), its rerun skipped exactly the files its manifest recorded and redid the rest.
stat_field() { grep -o "\"$2\"[[:space:]]*:[[:space:]]*[0-9]*" "$1" | head -1 | grep -o '[0-9]*$'; }
for ((i = 0; i < n_shards; i++)); do
  mapfile -t st < <(find "$OUT/.lexlink/stats" -name "shard-$(printf %05d "$i").*.json" | sort)
  if [ "$i" -ne "$vidx" ]; then
    [ ${#st[@]} -eq 1 ] || fail "shard $i has ${#st[@]} statistics files: ${st[*]}"
    [ "$(stat_field "${st[0]}" skipped)" = 0 ] || fail "shard $i skipped files: $(cat "${st[0]}")"
    continue
  fi
  [ ${#st[@]} -eq 1 ] && [[ "${st[0]}" == *-[1-9]*.json ]] ||
    fail "shard $i: expected the statistics of its requeued run alone: ${st[*]}"
  skipped=$(stat_field "${st[0]}" skipped || echo "")
  [ "$skipped" = "$m" ] ||
    fail "the requeued shard $vidx skipped '$skipped' files; its manifest recorded $m when n2 died: $(cat "${st[0]}")"
done
note "requeued shard $vidx skipped the $skipped recorded files and redid the other $(( ${#vfiles[@]} - skipped )); no other shard redone"

# Every document has exactly one output, and no other file is there (no leftover temporary).
(cd "$OUT" && find . -path ./.lexlink -prune -o -type f -print | sed 's|^\./||' | sort) > "$T/out.list"
if ! diff -u "$T/docs.list" "$T/out.list" > "$T/log/list.diff"; then
  fail "outputs do not match the documents one to one: $(head -20 "$T/log/list.diff")"
fi
"$SHARDER" check "$OUT" > "$T/log/check.out" || fail "lexlink-slurm check: $(cat "$T/log/check.out")"

# Byte-identical to the serial run.
(cd "$T/serial" && find . -path ./.lexlink-manifest -prune -o -type f -print | sed 's|^\./||' | sort) > "$T/serial.list"
diff -q "$T/docs.list" "$T/serial.list" > /dev/null || fail "the serial run's outputs do not match the documents"
while IFS= read -r f; do
  cmp -s "$T/serial/$f" "$OUT/$f" || fail "$f differs from the serial run's output"
done < "$T/docs.list"
linked=$(cat "$OUT"/copy1/*/* | grep -c 'data-lexlink\|<?lexlink?>' || true)
[ "$linked" -gt 0 ] || fail "no link in the outputs: the comparison proves nothing"

note "PASS: $n_docs documents, $n_shards shards, node n2 killed mid-shard; every document has one output, identical to the serial run ($((SECONDS - START)) s)"
