#!/usr/bin/env bash
# snare_test's runner (defs.bzl): SNARE PLATFORM PROFILE POLICY|- ALLOW_REFUSED TEST [ARGS...]
set -u
snare=$1 platform=$2 profile=$3 policy=$4 allow_refused=$5 test=$6
shift 6
if [[ "$platform" == native ]]; then
  exec "$test" "$@"
fi
out=${TEST_UNDECLARED_OUTPUTS_DIR:-}
if [[ -z "$out" ]]; then
  out=$(mktemp -d "${TEST_TMPDIR:-/tmp}/snare-test.XXXXXX")
fi
trace="$out/snare-trace.txt"
stats="$out/snare-stats.json"
flags=("--platform=${platform%-patch}" "--profile=$profile" "--trace-file=$trace"
       "--stats=json" "--stats-file=$stats")
[[ "$platform" == systrap-patch ]] && flags+=(--patch)
[[ "$platform" == systrap ]] && flags+=(--no-patch)
[[ "$policy" != - ]] && flags+=(--policy "$policy")
"$snare" run "${flags[@]}" -- "$test" "$@"
status=$?
if [[ "$allow_refused" != 1 && -f "$trace" ]]; then
  refused=$(grep -E ' <(denied|killed)>$' "$trace")
  if [[ -n "$refused" ]]; then
    count=$(printf '%s\n' "$refused" | wc -l)
    echo "snare_test: the test made $count call(s) its policy refuses (under $platform):" >&2
    printf '%s\n' "$refused" | head -20 >&2
    # Where the user finds it once Bazel has zipped the outputs: //pkg:name ->
    # bazel-testlogs/pkg/name/test.outputs/outputs.zip.
    target="${TEST_TARGET:-}"
    target="${target#//}"
    target="${target/://}"
    target="${target#/}"
    echo "snare_test: the whole trace is snare-trace.txt in" \
      "bazel-testlogs/${target:-TARGET}/test.outputs/outputs.zip (unzip -p FILE snare-trace.txt);" \
      "allow_refused = True keeps such calls from failing the test" >&2
    [[ $status == 0 ]] && status=1
  fi
fi
exit $status
