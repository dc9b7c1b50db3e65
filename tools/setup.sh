#!/usr/bin/env bash
# Installs every Debian package snare needs. Idempotent: packages already present are skipped.
set -euo pipefail

packages=(
  bazel-bootstrap        # Bazel 4.2.3, offline (see third_party/README.md)
  build-essential
  libseccomp-dev         # seccomp filter rules
  libboost-context-dev   # fibers (sentry tasks, inproc handler)
  libgtest-dev           # GoogleTest
  libbenchmark-dev       # Google Benchmark
  nlohmann-json3-dev     # JSON output
  libsqlite3-dev         # results store
  libsqlitecpp-dev       # results store: RAII over SQLite
  libcli11-dev           # command lines of every subcommand
  libfmt-dev             # tables and number formatting
  libboost-math-dev      # Student's t for confidence intervals
  libcap-dev             # dropping capabilities in the sandbox
  python3                # guests in the integration tests
  sqlite3 tar gzip gcc   # guests in the integration tests
  strace proot runsc     # peers in benchmarks (snare bench)
  gnuplot-nox            # snare report plots
  linux-source-6.12      # the kernel lab: source, build tools, qemu
  bc bison flex libelf-dev libssl-dev cpio xz-utils patch make
  ccache                 # the kernel lab: variants and configs share unchanged objects
  qemu-system-x86
  clang-format
  podman runc containerd # container engines snare-runtime is tested under
  uidmap                 # newuidmap/newgidmap: rootless podman
  busybox-static         # the containers' root in //tests:oci_runtime_test
  clang-16 libclang-rt-16-dev  # libFuzzer (--config=fuzz); clang-14 lacks std::expected
  stress-ng              # stressors run natively and under snare
  libpython3.11-testsuite  # CPython's regression suite run under snare
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup.sh: need root to install: ${missing[*]} (run: sudo $0)" >&2
    exit 1
  fi
  echo "setup.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The unprivileged user the integration tests run hostile guests as (//tests:hostile_guest_test
# skips without it).
if ! id snareuser >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]]; then
    useradd --create-home --shell /bin/bash snareuser
    echo "setup.sh: made the unprivileged user snareuser"
  else
    echo "setup.sh: no user snareuser (as root: useradd --create-home snareuser); some tests skip" >&2
  fi
fi
echo "setup.sh: all packages present"
