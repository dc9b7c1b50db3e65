#!/usr/bin/env bash
# The README's snare_test section, run as a user would: its WORKSPACE, .bazelrc and
# BUILD.bazel blocks (each after a `<!-- readme-workspace: FILE -->` line) copied into a
# workspace of their own, /path/to/snare replaced by this checkout, the test and the policy
# file from examples/bazel/ beside them, then `bazel test //...` there. The directory is
# fixed (SNARE_README_WORKSPACE overrides it) so that Bazel's output base stays warm between
# runs, and the invoker's own (under ~/.cache, not a shared /tmp where another user could
# have put a directory or a link first). Usage: bash tools/readme_workspace.sh [BAZEL TEST
# ARGS...]
set -euo pipefail
snare="$(cd "$(dirname "$0")/.." && pwd)"
home="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
dir="${SNARE_README_WORKSPACE:-${XDG_CACHE_HOME:-$home/.cache}/snare-readme-workspace}"
mkdir -p "$dir"
for file in WORKSPACE .bazelrc BUILD.bazel; do
  # The fenced block right after the marker, without its fences.
  awk -v marker="<!-- readme-workspace: $file -->" '
    $0 == marker { found = 1; next }
    found == 1 && /^```/ { found = 2; next }
    found == 2 && /^```/ { exit }
    found == 2 { print }
  ' "$snare/README.md" | sed "s|/path/to/snare|$snare|g" > "$dir/$file.new"
  if [ ! -s "$dir/$file.new" ]; then
    echo "readme_workspace.sh: README.md has no block after '<!-- readme-workspace: $file -->'" >&2
    rm -f "$dir/$file.new"
    exit 2
  fi
  mv "$dir/$file.new" "$dir/$file"
done
cp "$snare/examples/bazel/files_test.cc" "$snare/examples/bazel/no_mkdir.json" "$dir/"
cd "$dir"
exec bazel test //... "$@"
