#!/usr/bin/env bash
# The compiler's W=1 warnings a variant's patches add, in a defconfig-sized kernel
# (x86_64_defconfig + kernel/config/lab.config): builds, with W=1, every object the patches
# change a .c file of and the users of the headers they change that the patches are about
# (signal delivery, fork/exit, ptrace, posix timers, user namespaces, exec), once on the
# plain tree and once patched, and compares the warnings (file and text, not line numbers).
# Prints the new ones; exit 1 when there are any. Takes a few minutes on 2 cores.
# With --full it builds the whole patched kernel (bzImage) with W=1 instead, then the
# objects that warned again on the plain tree, and compares those (an hour or more).
# Usage: kernel/lab/w1_warnings.sh [--full] VARIANT [WORKDIR]   (WORKDIR is removed unless given)
set -euo pipefail
full=0
if [[ ${1:-} == --full ]]; then
  full=1
  shift
fi
variant=${1:?usage: $0 [--full] VARIANT [WORKDIR]}
kdir=$(cd "$(dirname "$0")/.." && pwd)
patches=()
for p in "$kdir/patches/6.12/$variant"/*.patch; do
  [[ $(basename "$p") == 0000-* ]] || patches+=("$p")
done
((${#patches[@]})) || { echo "w1_warnings: no patches in $kdir/patches/6.12/$variant" >&2; exit 2; }
tarball=/usr/src/linux-source-6.12.tar.xz
[[ -f $tarball ]] || { echo "w1_warnings: $tarball is missing (tools/setup.sh)" >&2; exit 2; }
if [[ -n ${2:-} ]]; then
  work=$2
  mkdir -p "$work"
else
  work=$(mktemp -d /var/tmp/snare-w1.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
src=$work/src
rm -rf "$src" && mkdir -p "$src"
echo "w1_warnings: unpacking into $src" >&2
tar -xJf "$tarball" -C "$src" --strip-components=1
cd "$src"
make -s x86_64_defconfig
scripts/kconfig/merge_config.sh -m .config "$kdir/config/lab.config" >/dev/null
# defconfig builds with -Werror: W=1's warnings elsewhere in the tree would stop the build.
scripts/config --file .config --disable WERROR
make -s olddefconfig

objects=(kernel/signal.o kernel/fork.o kernel/exit.o kernel/ptrace.o kernel/sys.o
  kernel/ucount.o kernel/user_namespace.o kernel/cred.o kernel/time/posix-timers.o
  kernel/time/itimer.o arch/x86/kernel/signal.o fs/exec.o)
for p in "${patches[@]}"; do
  for f in $(sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "$p"); do
    [[ " ${objects[*]} " == *" $f "* ]] || objects+=("$f")
  done
done
jobs=$(nproc)
# "file: warning text", without line and column: a patch moves lines.
# (kernel-doc's warnings have a line and no column.)
warnings() { grep -E '(warning|error):' "$1" | sed -E 's|^([^: ]+):[0-9]+(:[0-9]+)?:|\1:|' | sort; }

if ((full)); then
  for p in "${patches[@]}"; do patch -s -p1 --forward --batch -i "$p"; done
  echo "w1_warnings: W=1 build of the whole kernel, $variant" >&2
  make -j"$jobs" W=1 bzImage >"$work/patched.log" 2>&1 ||
    { grep -E 'error' "$work/patched.log" | head -20 >&2; echo "w1_warnings: $variant does not build" >&2; exit 1; }
  # The objects that warned (for a header's warning, the .c files gcc names as including
  # it), rebuilt plain.
  mapfile -t warned < <({
    grep -E '^[^ :]+\.c:[0-9]+(:[0-9]+)?: (warning|error):' "$work/patched.log" | cut -d: -f1
    sed -nE 's/^In file included from ([^ :]+\.c):[0-9]+.*/\1/p' "$work/patched.log"
  } | sed -E 's|^\./||; s|\.c$|.o|' | sort -u)
  for p in $(printf '%s\n' "${patches[@]}" | tac); do patch -s -p1 -R --batch -i "$p"; done
  : >"$work/plain.log"
  if ((${#warned[@]})); then
    rm -f "${warned[@]}"
    make -j"$jobs" W=1 "${warned[@]}" >"$work/plain.log" 2>&1 || true
  fi
  new=$(comm -13 <(warnings "$work/plain.log") <(warnings "$work/patched.log"))
  echo "w1_warnings: $variant: whole kernel (bzImage) with W=1; $(warnings "$work/patched.log" | wc -l) warnings in ${#warned[@]} objects, the same objects plain $(warnings "$work/plain.log" | wc -l), new $( [[ -z $new ]] && echo 0 || echo "$new" | wc -l)"
  if [[ -n $new ]]; then
    echo "$new"
    exit 1
  fi
  exit 0
fi

echo "w1_warnings: W=1 build of ${#objects[@]} objects, plain tree" >&2
make -j"$jobs" W=1 "${objects[@]}" >"$work/plain.log" 2>&1 ||
  { tail -20 "$work/plain.log" >&2; echo "w1_warnings: the plain tree does not build" >&2; exit 2; }
for p in "${patches[@]}"; do patch -s -p1 --forward --batch -i "$p"; done
rm -f "${objects[@]}"
echo "w1_warnings: W=1 build of the same objects, $variant" >&2
make -j"$jobs" W=1 "${objects[@]}" >"$work/patched.log" 2>&1 ||
  { grep -E 'error' "$work/patched.log" | head -20 >&2; echo "w1_warnings: $variant does not build" >&2; exit 1; }
new=$(comm -13 <(warnings "$work/plain.log") <(warnings "$work/patched.log"))
echo "w1_warnings: $variant: ${#objects[@]} objects (${objects[*]}); warnings plain $(warnings "$work/plain.log" | wc -l), patched $(warnings "$work/patched.log" | wc -l), new $( [[ -z $new ]] && echo 0 || echo "$new" | wc -l)"
if [[ -n $new ]]; then
  echo "$new"
  exit 1
fi
