#!/usr/bin/env bash
# Sets up (Debian and npm packages), builds and runs every test:
#   1. GCC build: unit tests and the integration tests that start real agent processes.
#   2. Clang build with AddressSanitizer + UndefinedBehaviorSanitizer: the same tests, plus the
#      libFuzzer targets (tests/fuzz) for AZBENCH_FUZZ_SECONDS (default 10) each.
#      AZBENCH_SANITIZERS=0 skips it (a quicker local loop).
#   3. (AZBENCH_TSAN=1) Clang build with ThreadSanitizer: the same tests.
# Usage: bash scripts/test.sh      (see README "Tests")
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
JOBS=$(nproc)
# The test builds keep line tables only (enough for every backtrace and sanitizer report) and link
# with lld: full -g doubles gcc's compile time on the gRPC-heavy files, and ld.bfd takes 2 s per
# test binary where lld takes 0.4 s. Ninja compiles a target's files without waiting for the
# libraries under it to link, where make waits. A RelWithDebInfo build outside the tests keeps
# full -g.
FAST_BUILD=(-G Ninja -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld)

# A test that skipped because a tool scripts/setup.sh installs is missing (tests/testing/
# dependencies.h says "missing dependency: NAME at PATH (scripts/setup.sh installs it)") fails the
# run: setup.sh has just installed it, so the skip hides a broken lookup. Skips about the host (no
# O_DIRECT on tmpfs, not root) stay skips.
check_no_dependency_skips() {
  local log="$1/Testing/Temporary/LastTest.log"
  if grep -q "missing dependency: .* (scripts/setup.sh installs it)" "$log"; then
    echo "FAIL: tests skipped for a dependency scripts/setup.sh installs ($log):" >&2
    grep -o "missing dependency: .* (scripts/setup.sh installs it)" "$log" | sort | uniq -c >&2
    exit 1
  fi
}

echo "== pass 1: gcc, RelWithDebInfo"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${FAST_BUILD[@]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
cmake --build "$BUILD_DIR" -j"$JOBS"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$JOBS" --timeout 600
check_no_dependency_skips "$BUILD_DIR"

if [ "${AZBENCH_SANITIZERS:-1}" != 0 ]; then
  echo "== pass 2: clang, ASan + UBSan, fuzzers"
  CC=clang CXX=clang++ cmake -S . -B "$BUILD_DIR-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "${FAST_BUILD[@]}" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
    -DAZBENCH_SANITIZE=address,undefined -DAZBENCH_FUZZ=ON \
    -DAZBENCH_FUZZ_SECONDS="${AZBENCH_FUZZ_SECONDS:-10}"
  cmake --build "$BUILD_DIR-asan" -j"$JOBS"
  ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer \
  ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  LSAN_OPTIONS="suppressions=$PWD/tests/asan/lsan.supp" \
    ctest --test-dir "$BUILD_DIR-asan" --output-on-failure -j"$JOBS" --timeout 900
  check_no_dependency_skips "$BUILD_DIR-asan"
fi

if [ "${AZBENCH_TSAN:-0}" = 1 ]; then
  echo "== pass 3: clang, TSan"
  # Every executable carries the absl::Mutex annotations (tests/tsan/absl_sync_annotations.cc);
  # tests/tsan/tsan.supp lists the uninstrumented Debian libraries whose own calls TSan ignores.
  # The agents the integration tests start inherit TSAN_OPTIONS.
  CC=clang CXX=clang++ cmake -S . -B "$BUILD_DIR-tsan" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "${FAST_BUILD[@]}" -DAZBENCH_SANITIZE=thread
  cmake --build "$BUILD_DIR-tsan" -j"$JOBS"
  TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/tsan/tsan.supp" \
    ctest --test-dir "$BUILD_DIR-tsan" --output-on-failure -j"$JOBS" --timeout 900
  check_no_dependency_skips "$BUILD_DIR-tsan"
fi
