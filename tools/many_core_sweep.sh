#!/usr/bin/env bash
# The measurements that need many cores, for a machine that has them but no Bazel: the
# contention sweep and the seed workloads over 1..nproc tasks, and the getppid ladder, run
# with snare and snare-workload built elsewhere (BIN holds both, and libbenchmark's shared
# library when that machine lacks it). Writes into OUT: facts.txt (the machine), many-core.db
# (every run, for snare report), contention.md, ladder.md and workloads.md (their reports)
# and bench.err.
#   tools/many_core_sweep.sh BIN OUT
set -u
BIN=${1:?usage: many_core_sweep.sh BIN OUT}
OUT=${2:?usage: many_core_sweep.sh BIN OUT}
mkdir -p "$OUT" || exit 2
export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
db="$OUT/many-core.db"
{
  date -u
  uname -a
  echo "online CPUs: $(nproc)"
  grep -m1 "model name" /proc/cpuinfo
  grep -E "^(Seccomp|NoNewPrivs|CapEff):" /proc/self/status
  echo "user namespaces: $(cat /proc/sys/user/max_user_namespaces 2>/dev/null || echo ?)"
  ls -l /dev/kvm 2>&1
  command -v qemu-system-x86_64 || echo "no qemu-system-x86_64"
  "$BIN/snare-workload" contention sibling-ns 2 0.1 || echo "sibling-ns probe failed: $?"
} > "$OUT/facts.txt" 2>&1
# Each run goes on where the one before failed, and each is time-limited, so that what
# finished comes back.
bench() {
  local name=$1 limit=$2
  shift 2
  echo "== $name" >> "$OUT/bench.err"
  timeout "$limit" "$BIN/snare" bench "$@" --db="$db" > "$OUT/$name.md" 2>> "$OUT/bench.err"
  echo "$name: exit $?" >> "$OUT/facts.txt"
}
bench contention "${CONTENTION_LIMIT_S:-200}" --suites=contention --reps=3
bench ladder "${LADDER_LIMIT_S:-90}" --suites=ladder --syscalls=getppid \
  --rungs=native,signal-floor,handoff-floor,inproc,systrap,systrap-futex,systrap-patch
bench workloads "${WORKLOADS_LIMIT_S:-220}" --quick --reps=2 --suites=workloads
