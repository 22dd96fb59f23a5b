#!/usr/bin/env bash
# nfs_vs_bare.sh: azbench's nfs engine (libnfs, no kernel mount) side by side with a bare libnfs
# loop at the same depth (bench/bare_nfs.c, the ceiling), from each AZ of the lab. See
# bench/README.md ("NFS engine") for the method, the target and the latest results.
#
#   sudo azbench lab up && sudo bash bench/nfs_vs_bare.sh     # the lab's server, from lab-1a and lab-1b
#   NFS_URL='nfs://host/export?version=3' NETNS= bash bench/nfs_vs_bare.sh   # any server, from here
#
# Environment: NFS_URL (an export directory's URL; default the lab's, as `azbench lab up` prints
# it), NETNS (network namespaces to run both tools in, one case each; default "azlab-a azlab-b":
# the server's AZ and another; empty: this namespace), DEPTHS (default "1 16"), PAIRS (rounds per
# case, default 10), RUNTIME (seconds per run, default 2), BUILD_DIR (default <repo>/build-bench),
# SKIP_BUILD=1 (use the agent already built there).
#
# fio is not in the table: Debian's fio 3.33 is built without its nfs engine.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NFS_URL="${NFS_URL:-nfs://10.100.0.2/var/tmp/azbench-lab/export?version=3&nfsport=2049&mountport=20048}"
NETNS="${NETNS-azlab-a azlab-b}"
DEPTHS="${DEPTHS:-1 16}"
PAIRS="${PAIRS:-10}"
RUNTIME="${RUNTIME:-2}"
BUILD_DIR="${BUILD_DIR:-$REPO/build-bench}"
SKIP_BUILD="${SKIP_BUILD:-0}"
FILE_NAME="azbench-nfs-bench-$$.dat"

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { echo "nfs_vs_bare.sh: $*" >&2; exit 1; }

[[ "$PAIRS" =~ ^[0-9]+$ && "$PAIRS" -ge 1 ]] || die "PAIRS must be a positive integer (got '$PAIRS')"
[[ "$RUNTIME" =~ ^[0-9]+$ && "$RUNTIME" -ge 1 ]] || die "RUNTIME must be a positive integer of seconds (got '$RUNTIME')"
[[ "$NFS_URL" == nfs://* ]] || die "NFS_URL must be an nfs:// URL (got '$NFS_URL')"

WORK_DIR="$(mktemp -d "${TMPDIR:-/tmp}/azbench-nfs-bench.XXXXXX")"
AGENT="$BUILD_DIR/agent/azbench-agent"
BARE="$WORK_DIR/bare_nfs"
# The bench file's URL: the export's URL with the file name before the query.
base="${NFS_URL%%\?*}"
query=""
[[ "$NFS_URL" == *\?* ]] && query="?${NFS_URL#*\?}"
FILE_URL="${base%/}/$FILE_NAME$query"

in_ns() {  # ns command...: runs the command in namespace ns (empty: here)
  local ns="$1"
  shift
  if [[ -n "$ns" ]]; then ip netns exec "$ns" "$@"; else "$@"; fi
}

cleanup() {
  if [[ -x "$BARE" ]]; then in_ns "${first_ns:-}" "$BARE" -r "$FILE_URL" || true; fi
  rm -rf "$WORK_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [[ "$SKIP_BUILD" != 1 ]]; then
  log "building azbench-agent (Release) in $BUILD_DIR"
  cmake -S "$REPO" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DAZBENCH_BUILD_TESTS=OFF >"$WORK_DIR/cmake.log" 2>&1 ||
    { cat "$WORK_DIR/cmake.log" >&2; die "cmake configure failed"; }
  cmake --build "$BUILD_DIR" --target azbench-agent -j2 >>"$WORK_DIR/cmake.log" 2>&1 ||
    { tail -50 "$WORK_DIR/cmake.log" >&2; die "building azbench-agent failed"; }
fi
[[ -x "$AGENT" ]] || die "no agent binary at $AGENT"
cc -O2 -Wall -o "$BARE" "$REPO/bench/bare_nfs.c" -lnfs || die "cannot build bare_nfs (libnfs-dev?)"

read -r -a namespaces <<<"$NETNS"
[[ ${#namespaces[@]} -gt 0 ]] || namespaces=("")
for ns in "${namespaces[@]}"; do
  [[ -z "$ns" || -e "/run/netns/$ns" ]] || die "no network namespace $ns (is the lab up? sudo azbench lab up)"
done
first_ns="${namespaces[0]}"

log "laying out $FILE_URL (256 MiB)"
in_ns "$first_ns" "$AGENT" run --name=layout --ioengine=nfs --nfs_url="$NFS_URL" --filename="$FILE_NAME" \
  --rw=write --bs=1m --size=256m >"$WORK_DIR/layout.txt" 2>&1 || { cat "$WORK_DIR/layout.txt" >&2; die "layout failed"; }

{
  echo "nproc: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "kernel: $(uname -r)"
  echo "libnfs: $(dpkg-query -W -f='${Version}' libnfs-dev 2>/dev/null || echo '?')"
  echo "server: $NFS_URL"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "rounds per case: $PAIRS, runtime per run: ${RUNTIME}s"
} >"$WORK_DIR/machine"
cat "$WORK_DIR/machine" >&2

ids=()
for ns in "${namespaces[@]}"; do
  for depth in $DEPTHS; do
    id="${ns:-here}-qd$depth"
    ids+=("$id")
    mkdir -p "$WORK_DIR/raw/$id"
    log "case $id: 4k randread, iodepth $depth"
    for ((round = 1; round <= PAIRS; ++round)); do
      # The order alternates so that a drift of the machine hits both tools alike.
      for tool in $(if ((round % 2)); then echo azbench bare; else echo bare azbench; fi); do
        out="$WORK_DIR/raw/$id/$tool.$round"
        rc=0
        if [[ "$tool" == azbench ]]; then
          in_ns "$ns" "$AGENT" run --name=bench --ioengine=nfs --nfs_url="$NFS_URL" --filename="$FILE_NAME" \
            --rw=randread --bs=4k --size=256m --iodepth="$depth" --runtime="$RUNTIME" --time_based \
            --output-format=json >"$out.json" 2>"$out.err" || rc=$?
        else
          in_ns "$ns" "$BARE" -q "$depth" -t "$RUNTIME" "$FILE_URL" >"$out.txt" 2>"$out.err" || rc=$?
        fi
        [[ "$rc" == 0 ]] || log "  $tool failed (rc $rc) in $id round $round: $(head -c 300 "$out.err")"
      done
    done
  done
done

python3 - "$WORK_DIR" "$PAIRS" "${ids[@]}" <<'EOF'
import json, os, re, statistics, sys

work, pairs, ids = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def med(v):
    return statistics.median(v) if v else None

def fmt_lat(ns):
    if ns is None: return "-"
    return f"{ns/1e6:.2f} ms" if ns >= 1e6 else f"{ns/1e3:.1f} us"

print()
print("## Machine")
print()
for line in open(os.path.join(work, "machine")):
    print(f"- {line.rstrip()}")
print()
print("| case | azbench IOPS | bare IOPS | azbench/bare IOPS | azbench mean lat | bare mean lat (Little) | azbench/bare lat |")
print("|---|---|---|---|---|---|---|")
verdicts = []
for cid in ids:
    iops_ratio, lat_ratio, az_iops, bare_iops, az_lat, bare_lat = [], [], [], [], [], []
    for r in range(1, pairs + 1):
        base = os.path.join(work, "raw", cid)
        try:
            text = open(os.path.join(base, f"azbench.{r}.json")).read()
            job = json.loads(text[text.index("{"):])["jobs"][0]["read"]
            a_iops, a_lat = float(job["iops"]), float(job["lat_ns"]["mean"])
            m = re.search(r"iops=([0-9.]+).*mean_lat_ns=([0-9.]+)",
                          open(os.path.join(base, f"bare.{r}.txt")).read())
            b_iops, b_lat = float(m.group(1)), float(m.group(2))
        except (OSError, ValueError, KeyError, IndexError, AttributeError):
            continue
        az_iops.append(a_iops); bare_iops.append(b_iops); az_lat.append(a_lat); bare_lat.append(b_lat)
        iops_ratio.append(a_iops / b_iops); lat_ratio.append(a_lat / b_lat)
    if not iops_ratio:
        print(f"| {cid} | FAILED | | | | | |")
        verdicts.append(f"{cid}: no complete round")
        continue
    ri, rl = med(iops_ratio), med(lat_ratio)
    print(f"| {cid} | {med(az_iops):.0f} | {med(bare_iops):.0f} | {ri:.3f}x | {fmt_lat(med(az_lat))} "
          f"| {fmt_lat(med(bare_lat))} | {rl:.3f}x |")
    ok = ri >= 0.95 and abs(rl - 1) <= 0.03
    verdicts.append(f"{cid}: IOPS {ri:.3f}x (target >= 0.95x), mean latency {rl:.3f}x (target within 3%): "
                    + ("met" if ok else "NOT met"))
print()
print("Medians over rounds; ratios are medians of per-round ratios. The bare loop's mean latency is")
print("depth x runtime / ops (it reads no clock per op); azbench's is its own lat_ns mean.")
print()
for v in verdicts:
    print(f"- {v}")
EOF
