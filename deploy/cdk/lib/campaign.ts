// The campaign skeleton the stack outputs (and writes on the coordinator): study A's fio cases
// (write/read, 4 MiB blocks, buffered and O_DIRECT) against every file system of the testbed.
import { MountSpec, MOUNT_ROOT } from './mounts';
import { AGENT_TLS_NAME } from './user-data';

export interface HostEntry {
  readonly agentId: string;
  readonly availabilityZone: string;
  /** The private IP (a CloudFormation token in the stack). */
  readonly address: string;
}

/** The hosts file `azbench` reads (`fleet: {hosts_file: ...}`): a comment and host:port per agent. */
export function hostsFile(hosts: HostEntry[], port: number): string {
  return hosts.map((h) => `# ${h.agentId} in ${h.availabilityZone}\n${h.address}:${port}`).join('\n');
}

export function campaignSkeleton(mounts: MountSpec[], hostsFilePath: string): string {
  const targets = mounts
    .map((m) => `  - {name: ${m.name}, path: ${MOUNT_ROOT}/${m.name}/azbench, kind: ${m.kind}}`)
    .join('\n');
  const workloads: string[] = [];
  for (const rw of ['write', 'read']) {
    for (const direct of [0, 1]) {
      workloads.push(
        `  - name: ${rw}-4m-${direct ? 'direct' : 'buffered'}\n` +
          `    options: {rw: ${rw}, bs: 4m, size: 4g, numjobs: 1, iodepth: 1, ioengine: libaio, ` +
          `direct: ${direct}, runtime: 60s, time_based: 1}`,
      );
    }
  }
  return [
    '# azbench campaign skeleton from the CDK testbed: study A on every file system of the stack.',
    '# azbench plan /etc/azbench/campaign.yaml && azbench run /etc/azbench/campaign.yaml',
    'name: testbed-study-a',
    'fleet:',
    `  hosts_file: ${hostsFilePath}`,
    '  tls: {ca_file: /etc/azbench/tls/ca.crt, cert_file: /etc/azbench/tls/coordinator.crt,',
    `        key_file: /etc/azbench/tls/coordinator.key, server_name: ${AGENT_TLS_NAME}}`,
    'targets:',
    targets,
    'workloads:',
    ...workloads,
    'matrix:',
    '  nodes: [1, all]',
    'repeats: 3',
    'keep: median',
    'cooldown: 5s',
    'results: /var/lib/azbench/testbed-study-a.db',
  ].join('\n');
}
