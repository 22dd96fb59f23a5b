#!/usr/bin/env bash
# deploy/cloud-init/agent.yaml: parses as YAML, passes `cloud-init schema` (Debian's cloud-init,
# when installed), and a structure test that cloud-init's schema does not do (it ignores unknown
# top-level keys): known modules only, the mounts use the same NFS options as the CDK testbed
# (deploy/cdk/lib/mounts.ts), the agent config it writes passes the real `azbench-agent
# check-config`, the service is enabled after the check.
# Exit 0 pass, 1 fail, 77 skipped. Usage: cloud_init_test.sh SOURCE_DIR AGENT_BINARY
set -uo pipefail
src=$1
agent=$2
file=$src/deploy/cloud-init/agent.yaml
command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null ||
  { echo "SKIP: python3 with PyYAML is needed (Debian: python3-yaml)" >&2; exit 77; }
work=$(mktemp -d /var/tmp/azbench-ci-XXXXXX)
trap 'rm -rf "$work"' EXIT

if command -v cloud-init >/dev/null; then
  cloud-init schema --config-file "$file" || { echo "FAIL: cloud-init schema"; exit 1; }
else
  echo "SKIPPED STEP: cloud-init is not installed: no schema check, structure test only"
fi

python3 - "$file" "$src/deploy/cdk/lib/mounts.ts" "$work/agent-config.yaml" <<'PY' || exit 1
import re, sys, yaml
path, mounts_ts, config_out = sys.argv[1:]
text = open(path).read()
def fail(msg):
    sys.exit(f"FAIL: {path}: {msg}")
if not text.startswith("#cloud-config\n"):
    fail("first line must be #cloud-config")
doc = yaml.safe_load(text)
known = {"package_update", "packages", "mounts", "write_files", "runcmd"}
unknown = set(doc) - known
if unknown:
    fail(f"unexpected top-level keys {sorted(unknown)} (expected {sorted(known)})")
if "nfs-common" not in doc["packages"]:
    fail("packages must include nfs-common (mount.nfs4)")
nfs_options = re.search(r"NFS41_OPTIONS =\s*'([^']+)'", open(mounts_ts).read()).group(1)
targets = {}
for m in doc["mounts"]:
    if len(m) != 6:
        fail(f"mount entry {m} must have 6 fields (fstab)")
    source, point, fstype, options = m[:4]
    if fstype != "nfs4" or options != nfs_options:
        fail(f"mount {point}: {fstype} {options} differs from the CDK testbed's nfs4 {nfs_options}")
    if not point.startswith("/mnt/azbench/"):
        fail(f"mount {point} is outside the agent's allowed root /mnt/azbench")
    targets[point] = source
for opt in ("nfsvers=4.1", "rsize=1048576", "wsize=1048576", "hard", "timeo=600"):
    if opt not in nfs_options.split(","):
        fail(f"study A's mount option {opt} is missing")
if not any(s.endswith(":/fsx") for s in targets.values()):
    fail("FSx for OpenZFS must be mounted from its root volume :/fsx")
files = {f["path"]: f for f in doc["write_files"]}
config = files.get("/etc/azbench/agent.yaml")
if config is None or config.get("defer") is not True:
    fail("write_files must write /etc/azbench/agent.yaml deferred (after packages)")
open(config_out, "w").write(config["content"])
cmds = [c if isinstance(c, str) else " ".join(c) for c in doc["runcmd"]]
def index_of(pattern):
    for i, c in enumerate(cmds):
        if re.search(pattern, c):
            return i
    fail(f"runcmd has no command matching {pattern!r}")
install = index_of(r"apt-get install .*force-confold .*azbench-agent")
check = index_of(r"^azbench-agent check-config /etc/azbench/agent.yaml$")
mount = index_of(r"mount -a -t nfs4")
enable = index_of(r"^systemctl enable --now azbench-agent$")
tls = index_of(r"/etc/azbench/tls")
if not install < check < enable or not mount < enable or not install < tls < check:
    fail("runcmd order must be: install, mount, TLS files, check-config, enable")
print(f"structure ok: {len(doc['mounts'])} mounts with '{nfs_options}', config written deferred")
PY

# The config names /etc/azbench/tls/*: check it against TLS files made here with openssl (a CA and
# an agent certificate signed by it), at the same names under $work/tls.
command -v openssl >/dev/null || { echo "SKIP: openssl is needed to make the TLS files" >&2; exit 77; }
mkdir -p "$work/tls"
(cd "$work/tls" &&
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.crt \
    -subj /CN=test-ca -days 1 2>/dev/null &&
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout agent.key -out agent.csr \
    -subj /CN=agent-1 2>/dev/null &&
  openssl x509 -req -in agent.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out agent.crt \
    -days 1 2>/dev/null && chmod 600 agent.key) || { echo "FAIL: openssl could not make test certificates"; exit 1; }
grep -q "cert_file: /etc/azbench/tls/agent.crt" "$work/agent-config.yaml" ||
  { echo "FAIL: the agent config does not use mutual TLS from /etc/azbench/tls"; exit 1; }
sed -i "s|/etc/azbench/tls/|$work/tls/|" "$work/agent-config.yaml"
"$agent" check-config "$work/agent-config.yaml" || { echo "FAIL: the config cloud-init writes is rejected"; exit 1; }
echo "PASS"
