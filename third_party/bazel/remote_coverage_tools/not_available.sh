#!/usr/bin/env bash
echo "remote_coverage_tools: not available offline (bazel coverage is unsupported here)" >&2
exit 1
