#!/usr/bin/env bash
# The CDK testbed in CI, without AWS credentials: TypeScript compiles, the template tests pass
# (node:test, deploy/cdk/test), `cdk synth` with the cdk-nag checks succeeds, and the campaign
# skeleton and hosts file the stack outputs are accepted by the real `azbench plan`.
# Exit 0 pass, 1 fail, 77 skipped (reason on stderr). Usage: cdk_test.sh DEPLOY_CDK_DIR AZBENCH_BIN
set -uo pipefail
cd "$1" || exit 1
azbench=$2
command -v node >/dev/null || { echo "SKIP: node is not installed" >&2; exit 77; }
if ! cmp -s package-lock.json node_modules/.azbench-installed-lock.json; then
  echo "SKIP: deploy/cdk npm packages are not installed as pinned: run scripts/setup.sh" >&2
  exit 77
fi
out=$(mktemp -d /var/tmp/azbench-cdk-XXXXXX)
trap 'rm -rf "$out"' EXIT
# No credentials, no account lookups: the stack is environment-agnostic.
export AWS_ACCESS_KEY_ID= AWS_SECRET_ACCESS_KEY= AWS_PROFILE= AWS_EC2_METADATA_DISABLED=true
# Nothing leaves the machine: no CLI telemetry, no notices.
export CDK_DISABLE_CLI_TELEMETRY=true
npx tsc -p . || { echo "FAIL: tsc"; exit 1; }
node --test dist/test/ || { echo "FAIL: template tests"; exit 1; }
npx cdk synth --quiet --no-notices --output "$out/cdk.out" >"$out/synth.log" 2>&1 ||
  { cat "$out/synth.log"; echo "FAIL: cdk synth (cdk-nag findings above?)"; exit 1; }
grep -q '"AWS::FSx::FileSystem"' "$out/cdk.out/AzbenchTestbed.template.json" || { echo "FAIL: no template"; exit 1; }
# The skeleton over every kind of file system the stack can make, with the hosts file format of
# the HostsFile output, through the coordinator's own campaign parser and planner.
node -e '
const { campaignSkeleton, hostsFile } = require("./dist/lib/campaign");
const m = require("./dist/lib/mounts");
const fs = require("fs");
const out = process.argv[1];
fs.writeFileSync(out + "/hosts.txt", hostsFile([
  { agentId: "agent-az0-1", availabilityZone: "ap-northeast-1a", address: "10.42.0.10" },
  { agentId: "agent-az1-1", availabilityZone: "ap-northeast-1c", address: "10.42.1.10" }], 7480) + "\n");
fs.writeFileSync(out + "/campaign.yaml", campaignSkeleton([m.efsMount("fs-1.efs"), m.openZfsMount("fs-2.fsx"),
  m.lustreMount("fs-3.fsx", "abcdef"), m.s3FilesMount("fs-4")], out + "/hosts.txt"));
' "$out" || { echo "FAIL: cannot render the campaign skeleton"; exit 1; }
"$azbench" plan "$out/campaign.yaml" >"$out/plan.txt" 2>&1 || { cat "$out/plan.txt"; echo "FAIL: azbench plan rejects the skeleton"; exit 1; }
grep -q "target=s3files" "$out/plan.txt" && grep -q "10.42.1.10:7480" "$out/plan.txt" ||
  { cat "$out/plan.txt"; echo "FAIL: plan misses targets or hosts"; exit 1; }
echo "PASS: tsc, template tests, cdk synth + cdk-nag, azbench plan of the skeleton"
