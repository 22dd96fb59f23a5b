#!/usr/bin/env bash
# Installs every Debian package azbench needs to build, test and benchmark. Idempotent.
# Usage: sudo scripts/setup.sh
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake pkg-config clang-format git
  # the tests' builds link with lld (scripts/test.sh): 4-5x faster than ld.bfd on the test binaries;
  # ninja schedules their 600 steps without make's per-target dependency scans
  lld ninja-build
  # sanitizer and libFuzzer builds (scripts/test.sh pass 2): clang, its runtimes, llvm-symbolizer
  clang libclang-rt-14-dev llvm-14
  # wire contract
  protobuf-compiler libprotobuf-dev protobuf-compiler-grpc libgrpc++-dev libgrpc-dev
  # common libraries
  libabsl-dev libspdlog-dev libfmt-dev libyaml-cpp-dev nlohmann-json3-dev libsqlite3-dev zlib1g-dev
  libcurl4-openssl-dev libssl-dev libsystemd-dev
  # I/O engines (libnfs: ioengine=nfs)
  liburing-dev libaio-dev libnfs-dev
  # tests, benchmarks and `azbench lab` (fio-examples: fio 3.33's own job files, run beside fio
  # by tests/integration/fio_examples_test.cc; nfs-ganesha, its VFS back end and rpcbind: the NFS
  # server fixture, tests/testing/nfs_server_fixture.h, and the lab's server; libnfs-utils:
  # nfs-ls/nfs-cp to look at it by hand)
  libgtest-dev libgmock-dev fio fio-examples iproute2 procps sqlite3
  nfs-ganesha nfs-ganesha-vfs rpcbind libnfs-utils
  # fio's fio_generate_plots draws azbench's fio log files with gnuplot
  # (tests/integration/one_shot_fio_logs_test.cc)
  gnuplot-nox
  # HTML report browser test (tests/integration/html_report_browser_test.cc): headless Chromium
  # driven over the DevTools pipe by a dependency-free node script
  chromium nodejs fonts-dejavu-core
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi

# Test-only S3-protocol server (npm's s3rver, pinned in tests/s3server/package-lock.json) for the S3
# client and visibility-probe tests. Debian's nodejs + npm, unless a node with npm is already there.
if ! command -v npm >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm
fi
s3server_dir="$(cd "$(dirname "$0")/.." && pwd)/tests/s3server"
if [ ! -x "$s3server_dir/node_modules/.bin/s3rver" ]; then
  echo "setup: installing s3rver (tests/s3server)"
  (cd "$s3server_dir" && npm ci --prefer-offline --no-audit --no-fund --loglevel=error)
else
  echo "setup: s3rver present"
fi

# npm packages of the CDK testbed (deploy/cdk), pinned by its package-lock.json.
bash "$(dirname "$0")/../deploy/cdk/scripts/install-deps.sh"

# Deployment tests: `cloud-init schema` checks deploy/cloud-init/agent.yaml (Debian's cloud-init;
# it does nothing at boot on a machine whose init is not systemd).
if ! dpkg-query -W -f='${Status}' cloud-init 2>/dev/null | grep -q "install ok installed"; then
  echo "setup: installing cloud-init"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends cloud-init
fi
