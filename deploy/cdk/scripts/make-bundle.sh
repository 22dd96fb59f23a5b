#!/usr/bin/env bash
# Makes the install bundle the testbed's instances fetch (they sit in isolated subnets, without a
# Debian mirror): the azbench-agent and azbench packages plus every Debian package they need that
# a Debian 12 cloud image lacks (and nfs-common and awscli), and fresh TLS files for the fleet. Run it on Debian 12 amd64, the same
# release and architecture as the instances.
#
#   deploy/cdk/scripts/make-bundle.sh build azbench-bundle.tar
#   SSM_AGENT_DEB=amazon-ssm-agent.deb deploy/cdk/scripts/make-bundle.sh build azbench-bundle.tar
#
# SSM_AGENT_DEB: a downloaded amazon-ssm-agent .deb to include, for images without the SSM agent
# (Session Manager is the only way into the isolated instances).
set -euo pipefail
build=$(realpath "$1")
out=$(realpath -m "$2")
work=$(mktemp -d /var/tmp/azbench-bundle-XXXXXX)
chmod 755 "$work" # apt-get download runs as _apt
trap 'rm -rf "$work"' EXIT

(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkgs" >/dev/null)
mkdir -p "$work/bundle/deps"
cp "$work"/pkgs/azbench-agent_*.deb "$work"/pkgs/azbench_*.deb "$work/bundle/"
if [ -n "${SSM_AGENT_DEB:-}" ]; then cp "$SSM_AGENT_DEB" "$work/bundle/deps/"; fi

# Roots: the packages' Depends (first alternative), plus the mount helper and the AWS CLI.
roots=$(for d in "$work"/bundle/*.deb; do dpkg-deb -f "$d" Depends; done |
  tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/ //g' | grep -v '^$' | sort -u)
roots="$roots nfs-common awscli"
# Their closure, less what every Debian image has (Priority required or important).
apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances $roots | grep -E '^[a-z0-9]' | sort -u >"$work/closure"
while read -r p; do
  prio=$(apt-cache show --no-all-versions "$p" 2>/dev/null | sed -n 's/^Priority: //p' | head -1)
  case "$prio" in required | important) ;; *) echo "$p" ;; esac
done <"$work/closure" >"$work/download"
(cd "$work/bundle/deps" && xargs -a "$work/download" apt-get download -qq)
# TLS for the testbed: a CA, the coordinator's client certificate and one server certificate all
# agents share (named azbench-agent; the campaign checks that name). The CA key stays out of the
# bundle; the bucket admits only the VPC's S3 endpoint.
"$build/coordinator/azbench" certs init --dir "$work/bundle/tls" --agent azbench-agent --days 90 >/dev/null
rm -f "$work/bundle/tls/ca.key"
tar -cf "$out" -C "$work/bundle" .
echo "bundle: $out ($(ls "$work/bundle/deps" | wc -l) dependency packages)"
echo "upload: aws s3 cp $out s3://<ArtifactBucket output>/bundle/azbench-bundle.tar"
