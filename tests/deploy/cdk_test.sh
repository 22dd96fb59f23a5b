#!/usr/bin/env bash
# The CDK testbed in CI, without AWS credentials: TypeScript compiles, the template tests pass
# (node:test, deploy/cdk/test), and `cdk synth` with the cdk-nag checks succeeds.
# Exit 0 pass, 1 fail, 77 skipped (reason on stderr). Usage: cdk_test.sh DEPLOY_CDK_DIR
set -uo pipefail
cd "$1" || exit 1
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
echo "PASS: tsc, template tests, cdk synth + cdk-nag"
