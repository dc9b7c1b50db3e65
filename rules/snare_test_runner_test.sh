#!/usr/bin/env bash
# snare_test's runner fails a test that made a refused call, names the call, and leaves the
# trace and stats in the outputs; allow_refused keeps the test's own status.
set -u
runner=$1 snare=$2 policy=$3
export TEST_UNDECLARED_OUTPUTS_DIR=$(mktemp -d "${TEST_TMPDIR:-/tmp}/runner.XXXXXX")
fail() { echo "FAIL: $*" >&2; exit 1; }

# The guest ignores mkdir's failure: only the runner can notice.
script='cd "$TEST_TMPDIR" && mkdir made-by-test 2>/dev/null; echo done; exit 0'
err=$("$runner" "$snare" systrap trace "$policy" 0 /bin/sh -c "$script" 2>&1 >/dev/null)
status=$?
[[ $status == 1 ]] || fail "refused call: status $status, want 1 ($err)"
grep -q "made 1 call(s) its policy refuses (under systrap)" <<<"$err" || fail "message: $err"
grep -q 'mkdir("made-by-test", 0x1ff) = -1 EACCES (Permission denied) <denied>' <<<"$err" ||
  fail "the refused call is not named: $err"
[[ -s "$TEST_UNDECLARED_OUTPUTS_DIR/snare-trace.txt" ]] || fail "no trace in the outputs"
[[ -s "$TEST_UNDECLARED_OUTPUTS_DIR/snare-stats.json" ]] || fail "no stats in the outputs"

"$runner" "$snare" systrap trace "$policy" 1 /bin/sh -c "$script" >/dev/null 2>&1 ||
  fail "allow_refused: status $?, want 0"
"$runner" "$snare" native trace - 0 /bin/sh -c 'exit 3'
[[ $? == 3 ]] || fail "native: the test's own status"
"$runner" "$snare" inproc trace - 0 /bin/sh -c 'exit 4'
[[ $? == 4 ]] || fail "inproc: the test's own status"
echo PASS
