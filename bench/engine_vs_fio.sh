#!/usr/bin/env bash
# engine_vs_fio.sh: azbench's engines side by side with fio and with a bare loop (the physical
# ceiling). See bench/README.md for what each case measures and the targets.
#
#   bash bench/engine_vs_fio.sh              # full run: PAIRS=30 rounds of RUNTIME=1 s per tool per case
#   QUICK=1 bash bench/engine_vs_fio.sh      # smoke test: 2 rounds of 2 s
#   CASES='psync|null' bash bench/engine_vs_fio.sh   # only the cases whose id matches the regex
#
# Environment: PAIRS, RUNTIME (seconds), QUICK, CASES (regex on case ids), BUILD_DIR (default
# <repo>/build-bench), TMPFS_DIR (default /dev/shm), DISK_DIR (default /var/tmp, must be a local
# disk file system that accepts O_DIRECT), KEEP_RAW=1 (keep the raw JSON outputs; their directory is
# printed), SKIP_BUILD=1 (use the binaries already built).
#
# Method (reference/benchmarking.md): every case runs PAIRS rounds; a round runs fio, azbench and the
# bare loop once each, in an order that rotates from round to round. The table gives medians and
# min-max over the rounds, and the median of the per-round ratios azbench/fio and azbench/bare.
# Latency columns are medians over rounds of each run's total latency (fio's lat_ns, never clat_ns
# for async engines: trap 4).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
QUICK="${QUICK:-0}"
if [[ "$QUICK" == 1 ]]; then
  PAIRS="${PAIRS:-2}"
  RUNTIME="${RUNTIME:-2}"
else
  # Many short rounds rather than a few long ones: the VM's disk and host drift by several percent
  # between runs seconds apart, and the more alternations, the more alike each tool's share of that
  # drift (bench/README.md, "Method").
  PAIRS="${PAIRS:-30}"
  RUNTIME="${RUNTIME:-1}"
fi
CASES="${CASES:-.}"
BUILD_DIR="${BUILD_DIR:-$REPO/build-bench}"
TMPFS_DIR="${TMPFS_DIR:-/dev/shm}"
DISK_DIR="${DISK_DIR:-/var/tmp}"
KEEP_RAW="${KEEP_RAW:-0}"
SKIP_BUILD="${SKIP_BUILD:-0}"

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { echo "engine_vs_fio.sh: $*" >&2; exit 1; }

[[ "$PAIRS" =~ ^[0-9]+$ && "$PAIRS" -ge 1 ]] || die "PAIRS must be a positive integer (got '$PAIRS')"
[[ "$RUNTIME" =~ ^[0-9]+$ && "$RUNTIME" -ge 1 ]] || die "RUNTIME must be a positive integer of seconds (got '$RUNTIME')"

# ---------------------------------------------------------------------------------------------
# Clean-up of everything this script creates (files, raw outputs), however it ends.
WORK_DIR="$(mktemp -d "${TMPDIR:-/tmp}/azbench-bench.XXXXXX")"
TMPFS_FILE="$TMPFS_DIR/azbench-bench-$$.dat"
DISK_FILE="$DISK_DIR/azbench-bench-$$.dat"
cleanup() {
  rm -f "$TMPFS_FILE" "$DISK_FILE"
  if [[ "$KEEP_RAW" == 1 ]]; then
    echo "raw outputs kept in $WORK_DIR" >&2
  else
    rm -rf "$WORK_DIR"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------------------------
# Tools.
if ! command -v fio >/dev/null 2>&1; then
  log "installing fio (Debian package)"
  SUDO=""
  [[ "$(id -u)" == 0 ]] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq fio
fi
FIO="$(command -v fio)"

AGENT="$BUILD_DIR/agent/azbench-agent"
BARE_PREAD="$WORK_DIR/bare_pread"
BARE_URING="$WORK_DIR/bare_uring"
if [[ "$SKIP_BUILD" != 1 ]]; then
  log "building azbench-agent (Release) in $BUILD_DIR"
  cmake -S "$REPO" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DAZBENCH_BUILD_TESTS=OFF >"$WORK_DIR/cmake.log" 2>&1 ||
    { cat "$WORK_DIR/cmake.log" >&2; die "cmake configure failed"; }
  cmake --build "$BUILD_DIR" --target azbench-agent -j2 >>"$WORK_DIR/cmake.log" 2>&1 ||
    { tail -50 "$WORK_DIR/cmake.log" >&2; die "building azbench-agent failed"; }
fi
[[ -x "$AGENT" ]] || die "no agent binary at $AGENT"
cc -O2 -Wall -o "$BARE_PREAD" "$REPO/bench/bare_pread.c" || die "cannot build bare_pread"
cc -O2 -Wall -o "$BARE_URING" "$REPO/bench/bare_uring.c" -luring || die "cannot build bare_uring (liburing-dev?)"

# ---------------------------------------------------------------------------------------------
# Files: 1 GiB of random data on tmpfs and on the local disk (the latter written through to the
# disk, so the O_DIRECT cases read real blocks, and then kept in the page cache for cached cases).
for d in "$TMPFS_DIR" "$DISK_DIR"; do
  [[ -d "$d" && -w "$d" ]] || die "$d is not a writable directory"
  avail_kib="$(df -Pk "$d" | awk 'NR==2 {print $4}')"
  [[ "$avail_kib" -gt $((1024 * 1024 + 65536)) ]] || die "$d has less than 1 GiB free"
done
log "creating $TMPFS_FILE and $DISK_FILE (1 GiB each)"
dd if=/dev/urandom of="$TMPFS_FILE" bs=1M count=1024 status=none
dd if=/dev/urandom of="$DISK_FILE" bs=1M count=1024 conv=fsync status=none
# Build both tools' idea of "already laid out": same size as --size, so neither re-lays it out.

warm_disk_file() { cat "$DISK_FILE" >/dev/null; }

# The block device under DISK_DIR, whose own accounting (/sys/class/block/DEV/stat: reads completed,
# time spent on them in ms) gives the device's mean read latency during each O_DIRECT run, the
# reference both tools' figures are checked against. Empty when it cannot be found (the table then
# shows "-").
DISK_STAT=""
disk_source="$(findmnt -no SOURCE -T "$DISK_DIR" 2>/dev/null || true)"
if [[ "$disk_source" == /dev/* && -r "/sys/class/block/$(basename "$disk_source")/stat" ]]; then
  DISK_STAT="/sys/class/block/$(basename "$disk_source")/stat"
fi

# ---------------------------------------------------------------------------------------------
# Cases. Fields (separated by '|'):
#   id | description | warm (1: re-read the disk file through the page cache before every run;
#   2: read it once with O_DIRECT before the case, so the virtio disk's backing store is as warm
#   for the first round as for the last) | rw kind (read/write) |
#   options for both tools | extra fio options | bare loop command (empty: none)
CASES_FILE="$WORK_DIR/cases"
# --lat_percentiles=1: both tools report percentiles of the total latency (fio's default is clat's).
COMMON="--bs=4k --size=1g --runtime=$RUNTIME --time_based --invalidate=0 --lat_percentiles=1"
{
  echo "psync-tmpfs|4k randread, psync, 1 GiB tmpfs file|0|read|--rw=randread $COMMON --ioengine=psync --filename=$TMPFS_FILE||$BARE_PREAD -t $RUNTIME $TMPFS_FILE"
  for target in tmpfs cached; do
    # The bare loop pauses 2 us before a wait as azbench's io_uring engine does (bare_uring -w): on
    # tmpfs the reads complete in io-wq and the pause batches them; page-cached reads complete
    # inside the submit call, so there it never pauses.
    if [[ "$target" == tmpfs ]]; then file="$TMPFS_FILE"; warm=0; where="tmpfs"; else file="$DISK_FILE"; warm=1; where="page-cached ext4"; fi
    for depth in 1 16 64; do
      batch="--iodepth_batch_submit=$depth --iodepth_batch_complete_max=$depth"
      base="--rw=randread $COMMON --ioengine=io_uring --iodepth=$depth --filename=$file"
      echo "uring-$target-qd$depth-batch|4k randread, io_uring qd$depth, $where, both batch_submit=$depth complete_max=$depth|$warm|read|$base $batch||$BARE_URING -u -w 2000 -q $depth -t $RUNTIME $file"
      echo "uring-$target-qd$depth-default|4k randread, io_uring qd$depth, $where, each tool's default batching|$warm|read|$base||$BARE_URING -u -w 2000 -q $depth -t $RUNTIME $file"
    done
  done
  echo "direct-psync|4k randread, O_DIRECT, psync, ext4 on the virtio disk|2|read|--rw=randread $COMMON --ioengine=psync --direct=1 --filename=$DISK_FILE||$BARE_PREAD -d -t $RUNTIME $DISK_FILE"
  direct_uring="--rw=randread $COMMON --ioengine=io_uring --iodepth=16 --direct=1 --filename=$DISK_FILE"
  # The O_DIRECT cases compare what both tools measure on one device, so both take the same kernel
  # path: azbench registers its buffers and file with the ring by default, fio only when asked
  # (without it fio pins every buffer per I/O, ~10% fewer IOPS here; bench/README.md).
  fio_direct_uring="--fixedbufs --registerfiles"
  echo "direct-uring-qd16-batch|4k randread, O_DIRECT, io_uring qd16, ext4 on the virtio disk, both batch_submit=16 complete_max=16|2|read|$direct_uring --iodepth_batch_submit=16 --iodepth_batch_complete_max=16|$fio_direct_uring|$BARE_URING -d -q 16 -t $RUNTIME $DISK_FILE"
  echo "direct-uring-qd16-default|4k randread, O_DIRECT, io_uring qd16, ext4 on the virtio disk, each tool's default batching|2|read|$direct_uring|$fio_direct_uring|$BARE_URING -d -q 16 -t $RUNTIME $DISK_FILE"
  echo "seq-read-4m|4 MiB sequential read, psync, tmpfs|0|read|--rw=read --bs=4m --size=1g --runtime=$RUNTIME --time_based --invalidate=0 --ioengine=psync --filename=$TMPFS_FILE||$BARE_PREAD -s -b 4194304 -t $RUNTIME $TMPFS_FILE"
  echo "seq-write-4m|4 MiB sequential write, psync, tmpfs|0|write|--rw=write --bs=4m --size=1g --runtime=$RUNTIME --time_based --invalidate=0 --ioengine=psync --filename=$TMPFS_FILE||$BARE_PREAD -s -w -b 4194304 -t $RUNTIME $TMPFS_FILE"
  echo "null|4k randread, null engine (no I/O: the framework's own cost)|0|read|--rw=randread $COMMON --ioengine=null||"
} >"$CASES_FILE"

# ---------------------------------------------------------------------------------------------
# Runs.
run_tool() {  # tool case_id round options extra_fio bare warm
  local tool="$1" id="$2" round="$3" opts="$4" extra="$5" bare="$6" warm="$7"
  local out="$WORK_DIR/raw/$id/$tool.$round"
  [[ "$warm" == 1 ]] && warm_disk_file
  local rc=0
  [[ "$warm" == 2 && -n "$DISK_STAT" ]] && cat "$DISK_STAT" >"$out.disk"
  # The option strings are meant to split into words.
  # shellcheck disable=SC2086
  case "$tool" in
    fio) "$FIO" --name=bench $opts $extra --output-format=json >"$out.json" 2>"$out.err" || rc=$? ;;
    azbench) "$AGENT" run --name=bench $opts --output-format=json >"$out.json" 2>"$out.err" || rc=$? ;;
    bare) $bare >"$out.txt" 2>"$out.err" || rc=$? ;;
  esac
  [[ "$warm" == 2 && -n "$DISK_STAT" ]] && cat "$DISK_STAT" >>"$out.disk"
  if [[ "$rc" != 0 ]]; then
    log "  $tool failed (rc $rc) in $id round $round: $(head -c 300 "$out.err")"
    echo "$rc" >"$out.failed"
  fi
}

{
  echo "nproc: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "kernel: $(uname -r)"
  echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?')"
  echo "fio: $("$FIO" --version)"
  echo "liburing: $(dpkg-query -W -f='${Version}' liburing-dev 2>/dev/null || echo '?')"
  echo "disk file system ($DISK_DIR): $(stat -f -c %T "$DISK_DIR") on ${disk_source:-?} (device accounting: ${DISK_STAT:-none})"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "rounds per case: $PAIRS, runtime per run: ${RUNTIME}s"
} >"$WORK_DIR/machine"
cat "$WORK_DIR/machine" >&2

ids=()
while IFS="|" read -r id desc warm _kind opts extra bare; do
  [[ "$id" =~ $CASES ]] || continue
  ids+=("$id")
  mkdir -p "$WORK_DIR/raw/$id"
  log "case $id: $desc"
  load_before="$(cut -d' ' -f1 /proc/loadavg)"
  if [[ "$warm" == 2 ]]; then
    dd if="$DISK_FILE" of=/dev/null bs=1M iflag=direct status=none
  fi
  tools=(fio azbench)
  [[ -n "$bare" ]] && tools+=(bare)
  for ((round = 1; round <= PAIRS; ++round)); do
    n=${#tools[@]}
    for ((k = 0; k < n; ++k)); do
      tool="${tools[$(((k + round - 1) % n))]}"
      run_tool "$tool" "$id" "$round" "$opts" "$extra" "$bare" "$warm"
    done
  done
  echo "$id $load_before $(cut -d' ' -f1 /proc/loadavg)" >>"$WORK_DIR/load"
done <"$CASES_FILE"
[[ ${#ids[@]} -gt 0 ]] || die "no case matches CASES='$CASES'"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$WORK_DIR/machine"

# ---------------------------------------------------------------------------------------------
# Table and target check.
python3 - "$WORK_DIR" "$PAIRS" "${ids[@]}" <<'EOF'
import json, os, re, statistics, sys

work, pairs, ids = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
cases = {}
with open(os.path.join(work, "cases")) as f:
    for line in f:
        cid, desc, warm, kind, opts, extra, bare = line.rstrip("\n").split("|")
        cases[cid] = dict(desc=desc, kind=kind, bare=bare)

def load_json(path):
    try:
        text = open(path).read()
        return json.loads(text[text.index("{"):])  # fio may print notes before the JSON
    except (OSError, ValueError):
        return None

def job_figures(doc, kind):
    d = doc["jobs"][0][kind]
    lat = d.get("lat_ns", {})
    pct = lat.get("percentile") or d.get("clat_ns", {}).get("percentile") or {}
    # lat_ns.percentile is the total latency (both tools get --lat_percentiles=1); clat_ns's is
    # the fallback for a document without it.
    job = doc["jobs"][0]
    iops = float(d["iops"])
    # CPU per op of the job's thread (one thread per job here): usr_cpu / sys_cpu are percent of
    # the job's runtime, in both tools.
    def per_op(key):
        return float(job[key]) / 100.0 * 1e9 / iops if key in job and iops > 0 else None
    return dict(iops=iops, mean=float(lat.get("mean", 0.0)),
                p50=float(pct["50.000000"]) if "50.000000" in pct else None,
                usr_op=per_op("usr_cpu"), sys_op=per_op("sys_cpu"))

def device_mean_ns(path):
    """Mean read latency the block device accounted during one run: (read ms) / (reads completed),
    from /sys/class/block/DEV/stat sampled before and after (fields 1 and 4)."""
    try:
        lines = open(path).read().split("\n")
        before, after = lines[0].split(), lines[1].split()
        reads = int(after[0]) - int(before[0])
        ms = int(after[3]) - int(before[3])
        return ms * 1e6 / reads if reads > 0 else None
    except (OSError, IndexError, ValueError):
        return None

def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None

def fmt_iops(x):
    if x is None: return "-"
    if x >= 1e6: return f"{x/1e6:.2f}M"
    if x >= 1e3: return f"{x/1e3:.1f}k"
    return f"{x:.0f}"

def fmt_lat(ns):
    if ns is None: return "-"
    if ns >= 1e6: return f"{ns/1e6:.2f} ms"
    if ns >= 1e3: return f"{ns/1e3:.2f} us"
    return f"{ns:.0f} ns"

def fmt_ratio(r): return "-" if r is None else f"{r:.2f}x"

rows, summary = [], {}
for cid in ids:
    c = cases[cid]
    per = {"fio": {}, "azbench": {}, "bare": {}}
    for r in range(1, pairs + 1):
        for tool in ("fio", "azbench"):
            base = os.path.join(work, "raw", cid, f"{tool}.{r}")
            if os.path.exists(base + ".failed"): continue
            doc = load_json(base + ".json")
            if doc is None: continue
            try:
                per[tool][r] = job_figures(doc, c["kind"])
            except (KeyError, IndexError, TypeError, ValueError):
                pass
        base = os.path.join(work, "raw", cid, f"bare.{r}")
        if c["bare"] and not os.path.exists(base + ".failed"):
            try:
                text = open(base + ".txt").read()
                m = re.search(r"iops=([0-9.]+)", text)
                if m: per["bare"][r] = dict(iops=float(m.group(1)))
                u = re.search(r"usr_ns_per_op=([0-9.]+) sys_ns_per_op=([0-9.]+)", text)
                if m and u:
                    per["bare"][r].update(usr_op=float(u.group(1)), sys_op=float(u.group(2)))
            except OSError:
                pass
        for tool in ("fio", "azbench"):
            if r in per[tool]:
                per[tool][r]["dev_mean"] = device_mean_ns(os.path.join(work, "raw", cid, f"{tool}.{r}.disk"))
    def stat(tool, key):
        return [f[key] for f in per[tool].values()]
    def rng(tool):
        v = stat(tool, "iops")
        if not v: return "FAILED"
        return f"{fmt_iops(med(v))} ({fmt_iops(min(v))}-{fmt_iops(max(v))})"
    af = [per["azbench"][r]["iops"] / per["fio"][r]["iops"] for r in per["azbench"] if r in per["fio"]]
    ab = [per["azbench"][r]["iops"] / per["bare"][r]["iops"] for r in per["azbench"] if r in per["bare"]]
    both = [r for r in per["azbench"] if r in per["fio"]]
    mean_ratio = [per["azbench"][r]["mean"] / per["fio"][r]["mean"] for r in both if per["fio"][r]["mean"]]
    p50_ratio = [per["azbench"][r]["p50"] / per["fio"][r]["p50"] for r in both
                 if per["fio"][r]["p50"] and per["azbench"][r]["p50"] is not None]
    # The same ratios without the device's drift between the two runs of a round: a tool's
    # latency is the device's plus what the tool adds, so each run's device mean is subtracted and
    # the gap between the two tools' additions is taken as a share of fio's figure.
    def dev_norm(key):
        out = []
        for r in both:
            a, f = per["azbench"][r], per["fio"][r]
            if a.get(key) and f.get(key) and a.get("dev_mean") and f.get("dev_mean"):
                out.append(1.0 + ((a[key] - a["dev_mean"]) - (f[key] - f["dev_mean"])) / f[key])
        return med(out)
    s = dict(fio=med(stat("fio", "iops")), mean_ratio=med(mean_ratio), p50_ratio=med(p50_ratio),
             mean_ratio_dev=dev_norm("mean"), p50_ratio_dev=dev_norm("p50"), az=med(stat("azbench", "iops")), bare=med(stat("bare", "iops")),
             az_fio=med(af), az_bare=med(ab),
             fio_mean=med(stat("fio", "mean")), az_mean=med(stat("azbench", "mean")),
             fio_p50=med(stat("fio", "p50")), az_p50=med(stat("azbench", "p50")),
             fio_usr=med(stat("fio", "usr_op")), fio_sys=med(stat("fio", "sys_op")),
             az_usr=med(stat("azbench", "usr_op")), az_sys=med(stat("azbench", "sys_op")),
             bare_usr=med([f["usr_op"] for f in per["bare"].values() if "usr_op" in f]),
             bare_sys=med([f["sys_op"] for f in per["bare"].values() if "sys_op" in f]),
             fio_dev=med([f.get("dev_mean") for f in per["fio"].values()]),
             az_dev=med([f.get("dev_mean") for f in per["azbench"].values()]),
             fio_over=med([f["mean"] - f["dev_mean"] for f in per["fio"].values() if f.get("dev_mean")]),
             az_over=med([f["mean"] - f["dev_mean"] for f in per["azbench"].values() if f.get("dev_mean")]),
             n_fio=len(per["fio"]), n_az=len(per["azbench"]))
    summary[cid] = s
    rows.append([cid, rng("fio"), rng("azbench"), fmt_iops(s["bare"]), fmt_ratio(s["az_fio"]),
                 fmt_ratio(s["az_bare"]), fmt_lat(s["fio_mean"]), fmt_lat(s["az_mean"]),
                 fmt_lat(s["fio_p50"]), fmt_lat(s["az_p50"])])

print()
print("## Machine")
print()
for line in open(os.path.join(work, "machine")):
    print(f"- {line.rstrip()}")
print()
print("## Results (medians over rounds; ratios are medians of per-round ratios)")
print()
head = ["case", "fio IOPS median (min-max)", "azbench IOPS median (min-max)", "bare IOPS",
        "azbench/fio", "azbench/bare", "fio mean lat", "azbench mean lat", "fio p50", "azbench p50"]
print("| " + " | ".join(head) + " |")
print("|" + "|".join("---" for _ in head) + "|")
for row in rows:
    print("| " + " | ".join(row) + " |")
print()
cpu_rows = [cid for cid in ids if None not in (summary[cid]["fio_usr"], summary[cid]["az_usr"])]
if cpu_rows:
    print("CPU time per op of the job's thread, split into user (the tool) and system (the kernel:")
    print("syscalls, the file system, the copy), from each tool's usr_cpu / sys_cpu; medians over")
    print("rounds; the bare loop's from getrusage of its thread. The last column is the most any")
    print("tool on one thread could gain over fio: fio's whole cost per op over the kernel's cost")
    print("per op in azbench's runs.")
    print()
    head = ["case", "fio usr/op", "fio sys/op", "azbench usr/op", "azbench sys/op", "bare usr/op",
            "bare sys/op", "fio total / azbench sys"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for cid in cpu_rows:
        s = summary[cid]
        bound = (s["fio_usr"] + s["fio_sys"]) / s["az_sys"] if s["az_sys"] else None
        print(f"| {cid} | {fmt_lat(s['fio_usr'])} | {fmt_lat(s['fio_sys'])} | {fmt_lat(s['az_usr'])} | "
              f"{fmt_lat(s['az_sys'])} | {fmt_lat(s['bare_usr'])} | {fmt_lat(s['bare_sys'])} | "
              f"{fmt_ratio(bound)} |")
    print()
dev_rows = [cid for cid in ids if summary[cid]["fio_dev"] is not None or summary[cid]["az_dev"] is not None]
if dev_rows:
    print("The device's own accounting in the O_DIRECT cases (/sys/class/block/DEV/stat, sampled")
    print("around each run): its mean read latency, and how far above it each tool's mean lat is")
    print("(submission, completion and reaping outside the block layer; medians over rounds).")
    print()
    head = ["case", "device mean (fio runs)", "fio mean - device", "device mean (azbench runs)",
            "azbench mean - device"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for cid in dev_rows:
        s = summary[cid]
        print(f"| {cid} | {fmt_lat(s['fio_dev'])} | {fmt_lat(s['fio_over'])} | {fmt_lat(s['az_dev'])} | {fmt_lat(s['az_over'])} |")
    print()
loads = {}
try:
    for line in open(os.path.join(work, "load")):
        cid, a, b = line.split()
        loads[cid] = f"1-min load average {a} before, {b} after"
except OSError:
    pass
for cid in ids:
    print(f"- `{cid}`: {cases[cid]['desc']} ({loads.get(cid, 'load ?')})")

# The targets bench/README.md states.
print()
print("## Targets")
print()
def check(label, ok, detail):
    state = "n/a" if ok is None else ("MET" if ok else "MISSED")
    print(f"- {state}: {label} ({detail})")
def get(cid, key):
    return summary.get(cid, {}).get(key)
def ge(x, bound): return None if x is None else x >= bound

x = get("psync-tmpfs", "az_fio"); check("psync on tmpfs: azbench >= 1.05x fio", ge(x, 1.05), f"{fmt_ratio(x)}")
x = get("psync-tmpfs", "az_bare"); check("psync on tmpfs: azbench >= 0.93x the bare loop", ge(x, 0.93), f"{fmt_ratio(x)}")
x = get("null", "az_fio"); check("null engine: azbench >= 1.5x fio", ge(x, 1.5), f"{fmt_ratio(x)}")
for target in ("cached", "tmpfs"):
    for d in (16, 64):
        x = get(f"uring-{target}-qd{d}-batch", "az_fio")
        check(f"io_uring qd{d} on {target}, same batching: azbench >= 1.0x fio", ge(x, 1.0), fmt_ratio(x))
for d in (16, 64):
    x = get(f"uring-cached-qd{d}-default", "az_fio")
    b = get(f"uring-cached-qd{d}-default", "bare"); f = get(f"uring-cached-qd{d}-default", "fio")
    ceiling = f"; the bare loop is {fmt_ratio(b / f)} fio's defaults" if b and f else ""
    check(f"io_uring qd{d} page-cached, defaults vs defaults: azbench >= 2x fio", ge(x, 2.0), fmt_ratio(x) + ceiling)
for cid in ("direct-psync", "direct-uring-qd16-batch", "direct-uring-qd16-default"):
    x = get(cid, "az_fio"); check(f"{cid}: IOPS >= 1.0x fio", ge(x, 1.0), fmt_ratio(x))
    for what, key in (("mean", "mean"), ("p50", "p50")):
        r = get(cid, key + "_ratio")
        a, f = get(cid, "az_" + key), get(cid, "fio_" + key)
        rd = get(cid, key + "_ratio_dev")
        norm = ("" if rd is None else
                f"; with each run's device mean subtracted: {100 * (rd - 1):+.1f}%")
        check(f"{cid}: {what} latency within 3% of fio's", None if r is None else abs(r - 1.0) <= 0.03,
              f"median of per-round ratios {'-' if r is None else f'{100 * (r - 1):+.1f}%'}; "
              f"medians {fmt_lat(a)} vs {fmt_lat(f)}{norm}")
EOF
