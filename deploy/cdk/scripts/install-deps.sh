#!/usr/bin/env bash
# Installs the CDK testbed's npm packages exactly as pinned in package-lock.json (npm ci), unless
# node_modules already matches it. Called by scripts/setup.sh. Needs Node.js >= 20 (aws-cdk-lib).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "setup: node/npm not found: the CDK testbed (deploy/cdk) cannot be built or tested" >&2
  exit 0
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "setup: Node.js $(node --version) is too old for aws-cdk-lib (needs >= 20): deploy/cdk skipped" >&2
  exit 0
fi
# The stamp is the package-lock.json that the last successful `npm ci` installed.
if cmp -s package-lock.json node_modules/.azbench-installed-lock.json 2>/dev/null; then
  echo "setup: deploy/cdk npm packages present"
  exit 0
fi
echo "setup: npm ci in deploy/cdk"
npm ci --no-audit --no-fund --loglevel=error
cp package-lock.json node_modules/.azbench-installed-lock.json
