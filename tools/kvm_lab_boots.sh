#!/usr/bin/env bash
# The kernel lab's boots under KVM on a machine that has /dev/kvm and many CPUs but neither
# the kernel source nor Bazel that `snare lab` needs: boots prebuilt lab kernels with the
# lab-init initramfs, first the contention suite on CPUS vCPUs (default: online CPUs), then
# the A/B bench on one, and leaves each console in OUT/NAME-MODE.log (its SNARE-LAB-* lines
# are what snare lab would store) and a line per boot in OUT/summary.txt.
#   tools/kvm_lab_boots.sh INITRD OUT NAME=BZIMAGE...
# From the environment: QEMU (default qemu-system-x86_64), QEMU_FIRMWARE (its -L folder),
# QEMU_ACCEL (default "-accel kvm -cpu host"), CPUS, BUDGET_S (default 400: no boot starts
# with under 30 s of it left), MODES (default "contention bench"; empty: the probe alone) and
# CONTENTION_ARGS (more lab.KEY=VALUE words for the contention boots, e.g. lab.ctraps=20000).
set -u
initrd=${1:?usage: kvm_lab_boots.sh INITRD OUT NAME=BZIMAGE...}
out=${2:?usage: kvm_lab_boots.sh INITRD OUT NAME=BZIMAGE...}
shift 2
[ $# -gt 0 ] || { echo "kvm_lab_boots.sh: name at least one kernel as NAME=BZIMAGE" >&2; exit 2; }
qemu=${QEMU:-qemu-system-x86_64}
cpus=${CPUS:-$(nproc)}
deadline=$((SECONDS + ${BUDGET_S:-400}))
mkdir -p "$out" || exit 2

# boot NAME BZIMAGE MODE VCPUS LIMIT_S LAB_ARGS
boot() {
  local name=$1 image=$2 mode=$3 smp=$4 limit=$5 args=$6
  local left=$((deadline - SECONDS))
  if [ "$left" -lt 30 ]; then
    echo "$name $mode: not booted (time budget spent)" >> "$out/summary.txt"
    return 1
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  local start=$SECONDS
  timeout "$limit" "$qemu" ${QEMU_FIRMWARE:+-L "$QEMU_FIRMWARE"} -nographic -no-reboot \
    -nic none -m 1024 -smp "$smp" ${QEMU_ACCEL:--accel kvm -cpu host} -kernel "$image" -initrd "$initrd" \
    -append "console=ttyS0 loglevel=5 panic=-1 lab.variant=$name $args" \
    < /dev/null > "$out/$name-$mode.log" 2>&1
  local rc=$?
  echo "$name $mode: exit $rc after $((SECONDS - start)) s, $(grep -c '^SNARE-LAB-RESULT' \
    "$out/$name-$mode.log") results, $(grep -c '"pass":false' "$out/$name-$mode.log") failed checks" \
    >> "$out/summary.txt"
  return $rc
}

first=${1%%=*}
first_image=${1#*=}
if ! boot "$first" "$first_image" probe 1 30 "lab.mode=probe"; then
  echo "KVM did not boot $first within 30 s: nothing more tried" >> "$out/summary.txt"
  exit 1
fi
# Contention first: it is what needs the CPUs.
for mode in ${MODES-contention bench}; do
  for k in "$@"; do
    case $mode in
      contention)
        boot "${k%%=*}" "${k#*=}" contention "$cpus" 150 \
          "lab.mode=contention lab.contention=1 ${CONTENTION_ARGS:-}"
        ;;
      bench)
        boot "${k%%=*}" "${k#*=}" bench 1 120 \
          "lab.mode=bench lab.traps=1000000 lab.maxdepth=32 lab.reps=5"
        ;;
    esac
  done
done
