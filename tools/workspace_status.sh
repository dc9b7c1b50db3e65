#!/usr/bin/env bash
# Bazel workspace status: the git revision snare reports in `snare bench` results.
rev=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [[ $rev != unknown ]] && ! git diff --quiet HEAD -- 2>/dev/null; then rev="$rev-dirty"; fi
echo "STABLE_GIT_REVISION $rev"
