#!/bin/bash
# Host-side smoke test of the lab's in-guest program: builds it statically and runs it
# by hand (not PID 1, so it neither mounts nor powers off), then checks the protocol:
# every stdout line is a SNARE-LAB-* line with valid JSON, BEGIN first, END last, all
# checks pass, one depth RESULT per depth. Meant to run as root, as in the guest (it also
# passes unprivileged where unprivileged user namespaces are allowed).
# Usage: kernel/guest/smoke_test.sh [extra --KEY=VALUE ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
g++ -std=c++2b -O2 -Wall -Wextra -Werror -static -I. -o "$out/lab-init" \
  $(ls kernel/guest/*.cc | grep -v '_test\.cc$')
"$out/lab-init" --variant=host --mode=all --traps=20000 --maxdepth=4 --reps=3 "$@" \
  >"$out/stdout" || true
cat "$out/stdout"
python3 - "$out/stdout" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines, "no output"
kinds = []
for line in lines:
    tag, _, body = line.partition(" ")
    assert tag.startswith("SNARE-LAB-"), "stray line: " + line
    kinds.append((tag, json.loads(body)))
assert kinds[0][0] == "SNARE-LAB-BEGIN" and kinds[-1][0] == "SNARE-LAB-END"
checks = [b for t, b in kinds if t == "SNARE-LAB-CHECK"]
failed = [c for c in checks if not c["pass"]]
end = kinds[-1][1]
assert end == {"checks_passed": len(checks) - len(failed), "checks_failed": len(failed)}, end
depths = [b["params"]["depth"] for t, b in kinds
          if t == "SNARE-LAB-RESULT" and b["suite"] == "depth"]
maxdepth = kinds[0][1]["maxdepth"]
assert depths == list(range(maxdepth + 1)), depths
assert not failed, "failed checks: " + ", ".join(c["name"] for c in failed)
print("smoke test: OK (%d checks, %d depths)" % (len(checks), len(depths)))
PY
