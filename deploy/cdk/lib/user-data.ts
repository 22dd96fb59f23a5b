// The instances' boot scripts. Agents and the coordinator sit in isolated subnets: no internet,
// no Debian mirror. Everything they install comes from one bundle in the artifact bucket
// (scripts/make-bundle.sh: the azbench .debs plus their Debian dependencies and nfs-common),
// fetched through the S3 gateway endpoint. The bucket policy lets that endpoint read the bundle,
// so the fetch needs no AWS CLI and no signing (python3 is on every Debian cloud image).
import { MountSpec, MOUNT_ROOT } from './mounts';

export const BUNDLE_KEY = 'bundle/azbench-bundle.tar';
/** Where the bundle's TLS files (scripts/make-bundle.sh: `azbench certs init`) are unpacked. */
const TLS_DIR = '/var/tmp/azbench-bundle/tls';
/** The name in the agents' shared certificate; the campaign checks it (fleet.tls.server_name). */
export const AGENT_TLS_NAME = 'azbench-agent';

export interface BootstrapOptions {
  readonly bucketName: string;
  readonly region: string;
  /** Which .deb of the bundle to install: azbench-agent or azbench. */
  readonly packageName: 'azbench-agent' | 'azbench';
}

function fetchAndInstall(o: BootstrapOptions): string[] {
  const url = `https://${o.bucketName}.s3.${o.region}.amazonaws.com/${BUNDLE_KEY}`;
  return [
    'set -euo pipefail',
    'exec >>/var/log/azbench-bootstrap.log 2>&1',
    'echo "azbench bootstrap start $(date -u +%FT%TZ)"',
    // Upload the bundle after `cdk deploy` (docs/deployment.md): poll for it for up to an hour.
    `python3 - <<'PY'
import time, urllib.request, sys
url = "${url}"
for attempt in range(360):
    try:
        urllib.request.urlretrieve(url, "/var/tmp/azbench-bundle.tar")
        sys.exit(0)
    except Exception as e:
        print(f"bundle not there yet ({e}); retrying in 10 s", flush=True)
        time.sleep(10)
sys.exit("gave up waiting for the bundle at " + url)
PY`,
    'rm -rf /var/tmp/azbench-bundle && mkdir -p /var/tmp/azbench-bundle',
    'tar -xf /var/tmp/azbench-bundle.tar -C /var/tmp/azbench-bundle',
    // The bundle is a local apt repository (its Packages index): apt installs in order, honours
    // pre-dependencies and takes only what the image lacks or has older. Only the bundle is a
    // source here; the image's own lists are left alone.
    'echo "deb [trusted=yes] file:/var/tmp/azbench-bundle ./" >/var/tmp/azbench-bundle/bundle.list',
    'apt_opts=(-o Dir::Etc::SourceList=/var/tmp/azbench-bundle/bundle.list -o Dir::Etc::SourceParts=- -o APT::Get::List-Cleanup=0)',
    'apt-get "${apt_opts[@]}" update',
    `DEBIAN_FRONTEND=noninteractive apt-get "\${apt_opts[@]}" install -y --no-install-recommends -o Dpkg::Options::=--force-confold ${o.packageName} nfs-common awscli`,
  ];
}

function mountCommands(mounts: MountSpec[]): string[] {
  const lines: string[] = [];
  for (const m of mounts) {
    const dir = `${MOUNT_ROOT}/${m.name}`;
    lines.push(`mkdir -p ${dir}`);
    const fstab = `${m.source} ${dir} ${m.fstype} ${m.options} 0 0`;
    const mountIt = [
      `grep -qF " ${dir} " /etc/fstab || echo "${fstab}" >>/etc/fstab`,
      `mountpoint -q ${dir} || mount ${dir}`,
      // Each agent works in <target>/<agent_id>; the shared parent must be writable by every
      // agent's azbench user (uids may differ between instances): sticky and world-writable.
      `install -d -m 1777 ${dir}/azbench`,
    ];
    if (m.requiresHelper) {
      lines.push(`if [ -x ${m.requiresHelper} ]; then`);
      lines.push(...mountIt.map((l) => '  ' + l));
      lines.push('else');
      lines.push(`  echo "azbench: ${m.requiresHelper} is not installed: ${m.name} (${m.kind}) NOT mounted"`);
      lines.push('fi');
    } else {
      lines.push(...mountIt);
    }
  }
  return lines;
}

export interface AgentUserData extends BootstrapOptions {
  readonly agentId: string;
  readonly port: number;
  readonly mounts: MountSpec[];
}

export function agentUserData(o: AgentUserData): string[] {
  return [
    ...fetchAndInstall(o),
    ...mountCommands(o.mounts),
    // Mutual TLS: the bundle's CA and the one agent certificate every agent shares (its name is
    // AGENT_TLS_NAME; the coordinator dials IP addresses and checks that name instead).
    'install -d -m 0750 -g azbench /etc/azbench/tls',
    `install -m 0644 ${TLS_DIR}/ca.crt /etc/azbench/tls/ca.crt`,
    `install -m 0644 ${TLS_DIR}/agents/${AGENT_TLS_NAME}.crt /etc/azbench/tls/agent.crt`,
    `install -m 0600 -o azbench -g azbench ${TLS_DIR}/agents/${AGENT_TLS_NAME}.key /etc/azbench/tls/agent.key`,
    `cat >/etc/azbench/agent.yaml <<'YAML'
# Written by the azbench testbed user data. See azbench-agent check-config.
listen: 0.0.0.0:${o.port}
agent_id: ${o.agentId}
tls:
  cert_file: /etc/azbench/tls/agent.crt
  key_file: /etc/azbench/tls/agent.key
  ca_file: /etc/azbench/tls/ca.crt
allowed_roots: [${MOUNT_ROOT}]
min_free_space: 1g
log_level: info
log_levels: {grpc: warn}
max_concurrent_runs: 4
YAML`,
    'azbench-agent check-config /etc/azbench/agent.yaml',
    'systemctl enable --now azbench-agent',
    'echo "azbench bootstrap done $(date -u +%FT%TZ)"',
  ];
}

export interface CoordinatorUserData extends BootstrapOptions {
  readonly hostsFile: string;
  readonly campaign: string;
}

export function coordinatorUserData(o: CoordinatorUserData): string[] {
  return [
    ...fetchAndInstall(o),
    // Session Manager users (ssm-user) run campaigns and write results here.
    'install -d -m 0755 /etc/azbench && install -d -m 1777 /var/lib/azbench',
    // The coordinator's client certificate; Session Manager users (ssm-user) run azbench.
    'install -d -m 0755 /etc/azbench/tls',
    `install -m 0644 ${TLS_DIR}/ca.crt ${TLS_DIR}/coordinator.crt /etc/azbench/tls/`,
    `install -m 0644 ${TLS_DIR}/coordinator.key /etc/azbench/tls/coordinator.key`,
    `cat >/etc/azbench/hosts.txt <<'HOSTS'\n${o.hostsFile}\nHOSTS`,
    `cat >/etc/azbench/campaign.yaml <<'CAMPAIGN'\n${o.campaign}\nCAMPAIGN`,
    'echo "azbench bootstrap done $(date -u +%FT%TZ)"',
  ];
}
