#!/usr/bin/env bash
# Fails when a source file includes a header from its own layer's other packages or from a
# layer above it (tools/layers.bzl lists the layers, bottom first).
#
#   layer_check.sh LAYERS_BZL FILE...        check; prints each upward include
#   layer_check.sh --edges FILE...           list include edges between top-level folders
#
# FILEs are paths relative to the workspace root (Bazel passes the sources of every layer).
set -euo pipefail

if [[ "${1:-}" == "--edges" ]]; then
  shift
  # Only folders that hold given sources count (not gtest/, nlohmann/ ...).
  tops=" $(printf '%s\n' "$@" | cut -d/ -f1 | sort -u | tr '\n' ' ')"
  for f in "$@"; do
    grep -oE '^#include "[a-z_0-9]+/' "$f" | sed -E "s|#include \"||; s|/\$||; s|^|${f%%/*} -> |" || true
  done | awk -v tops="$tops" '{split($0, p, " -> "); if (p[1] != p[2] && index(tops, " " p[2] " ")) print}' |
    sort | uniq -c | awk '{printf "%s -> %s (%d includes)\n", $2, $4, $1}'
  exit 0
fi

layers="$1"
shift
[[ $# -gt 0 ]] || { echo "layer_check: no source files given" >&2; exit 2; }

awk -v layers="$layers" '
  BEGIN {
    rank = -1
    while ((getline line < layers) > 0) {
      if (line ~ /^LAYERS = \[/) { inside = 1; continue }
      if (inside && line ~ /^\]/) break
      if (!inside || line !~ /"\/\//) continue
      ++rank
      while (match(line, /"\/\/[a-z_0-9\/]+"/)) {
        pkg = substr(line, RSTART + 3, RLENGTH - 4)
        layer[pkg] = rank
        line = substr(line, RSTART + RLENGTH)
      }
    }
    if (rank < 0) { print "layer_check: no LAYERS in " layers > "/dev/stderr"; exit 2 }
  }
  # The package a path belongs to: its longest prefix that is a layered package.
  function package_of(path,    best, p) {
    best = ""
    for (p in layer) {
      if (index(path, p "/") == 1 && length(p) > length(best)) best = p
    }
    return best
  }
  FNR == 1 {
    src = package_of(FILENAME)
    if (src == "") {
      printf "%s: its package is in no layer of tools/layers.bzl\n", FILENAME
      bad = 1
    }
  }
  src != "" && /^#include "/ {
    header = $0
    sub(/^#include "/, "", header)
    sub(/".*/, "", header)
    dst = package_of(header)
    if (dst == "" || dst == src) next
    if (layer[dst] >= layer[src]) {
      printf "%s:%d: includes %s: //%s (layer %d) may only include lower layers, not //%s (layer %d)\n",
             FILENAME, FNR, header, src, layer[src], dst, layer[dst]
      bad = 1
    }
  }
  END { exit bad }
' "$@"
