#!/usr/bin/env bash
# layer_check.sh must pass a tree whose includes point down and fail one with an include that
# points up (platform/ into sentry/) or sideways (bench/ into sentry/, the same layer).
set -euo pipefail
check="$PWD/tools/layer_check.sh"
layers="$PWD/tools/layers.bzl"
tree="$(mktemp -d "${TEST_TMPDIR:-/tmp}/layers.XXXXXX")"
cd "$tree"
mkdir -p abi platform sentry bench
echo '#include "abi/syscall_table.h"' > platform/platform.h
echo '#include "platform/platform.h"' > sentry/task.cc
echo 'int x;' > abi/syscall_table.h
echo 'int y;' > bench/run.cc
"$check" "$layers" abi/syscall_table.h platform/platform.h sentry/task.cc bench/run.cc

echo '#include "sentry/task.h"' >> platform/platform.h
if out=$("$check" "$layers" platform/platform.h 2>&1); then
  echo "FAIL: an upward include (platform -> sentry) passed"; exit 1
fi
grep -q 'platform/platform.h:2: includes sentry/task.h' <<<"$out" || { echo "FAIL: $out"; exit 1; }

echo '#include "sentry/task.h"' >> bench/run.cc
if "$check" "$layers" bench/run.cc >/dev/null 2>&1; then
  echo "FAIL: a sideways include (bench -> sentry) passed"; exit 1
fi
mkdir -p nowhere && echo 'int z;' > nowhere/a.cc
if "$check" "$layers" nowhere/a.cc >/dev/null 2>&1; then
  echo "FAIL: a file outside every layer passed"; exit 1
fi
echo "layer_check_selftest: ok"
