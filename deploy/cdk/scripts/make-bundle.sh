#!/usr/bin/env bash
# Makes the install bundle the testbed's instances fetch (they sit in isolated subnets, without a
# Debian mirror): a local apt repository with the azbench-agent and azbench packages plus every
# Debian package they need (and nfs-common and awscli), and fresh TLS files for the fleet. Run it on Debian 12 amd64, the same
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
# Everything apt would install for them on a machine with nothing installed: its resolver picks
# one provider per alternative (`apt-cache depends --recurse` lists every provider, and conflicting
# ones such as libelogind0 next to libsystemd0 made the install fail), and packages the image
# already has are included too, because a dependency may need a newer one (perl needs its exact
# perl-base). The instances install from the bundle as a local apt repository (Packages index
# below; deploy/cdk/lib/user-data.ts), so apt orders the installation, honours pre-dependencies
# and takes from the bundle only what the image lacks or has older. Run `apt-get update` before
# this script, so the bundle is not older than the image.
: >"$work/empty-status"
apt-get -s -o Dir::State::status="$work/empty-status" -o APT::Install-Recommends=false \
  install $roots | sed -n 's/^Inst \([^ ]*\) .*/\1/p' | sort -u >"$work/closure"
(cd "$work/bundle/deps" && xargs -a "$work/closure" apt-get download -qq)
(cd "$work/bundle" && dpkg-scanpackages --multiversion . /dev/null >Packages 2>/dev/null)
# TLS for the testbed: a CA, the coordinator's client certificate and one server certificate all
# agents share (named azbench-agent; the campaign checks that name). The CA key stays out of the
# bundle; the bucket admits only the VPC's S3 endpoint.
"$build/coordinator/azbench" certs init --dir "$work/bundle/tls" --agent azbench-agent --days 90 >/dev/null
rm -f "$work/bundle/tls/ca.key"
tar -cf "$out" -C "$work/bundle" .
echo "bundle: $out ($(ls "$work/bundle/deps" | wc -l) dependency packages)"
echo "upload: aws s3 cp $out s3://<ArtifactBucket output>/bundle/azbench-bundle.tar"
