// The testbed's parameters: read from CDK context (`cdk synth -c azbench:agentsPerAz=2`), checked,
// with the errors naming the key and what is allowed.
import { Node } from 'constructs';

export interface TestbedConfig {
  /** Availability Zones used, 2 or 3. Without `azs` the stack stays environment-agnostic. */
  readonly azCount: number;
  /** Explicit AZ names (e.g. ap-northeast-1a,ap-northeast-1c); needs a region-bound stack. */
  readonly azs?: string[];
  readonly agentsPerAz: number;
  readonly agentInstanceType: string;
  readonly coordinatorInstanceType: string;
  /** SSM public parameter naming the AMI (Debian 12: the packages are built for it). */
  readonly amiParameter: string;
  readonly agentPort: number;
  readonly openZfsThroughputMBps: number;
  readonly openZfsStorageGiB: number;
  /** Index (into the AZs) of the subnet holding OpenZFS's active file server. */
  readonly openZfsPreferredAzIndex: number;
  readonly lustre: boolean;
  readonly s3Files: boolean;
  readonly vpcCidr: string;
}

export const DEFAULTS: TestbedConfig = {
  azCount: 2,
  agentsPerAz: 1,
  agentInstanceType: 'm5.xlarge',
  coordinatorInstanceType: 't3.medium',
  amiParameter: '/aws/service/debian/release/12/latest/amd64',
  agentPort: 7480,
  openZfsThroughputMBps: 160,
  openZfsStorageGiB: 1000,
  openZfsPreferredAzIndex: 0,
  lustre: false,
  s3Files: false,
  vpcCidr: '10.42.0.0/16',
};

// FSx for OpenZFS Multi-AZ (MULTI_AZ_1) throughput capacities, MB/s.
export const OPENZFS_MULTI_AZ_THROUGHPUTS = [160, 320, 640, 1280, 2560, 3840, 5120, 7680, 10240];

function fail(key: string, message: string): never {
  throw new Error(`context azbench:${key}: ${message}`);
}

function int(node: Node, key: keyof TestbedConfig, min: number, max: number): number {
  const raw = node.tryGetContext(`azbench:${key}`);
  if (raw === undefined) return DEFAULTS[key] as number;
  const value = typeof raw === 'number' ? raw : Number(String(raw));
  if (!Number.isInteger(value) || value < min || value > max) {
    fail(key, `must be an integer in ${min}..${max}, got '${raw}'`);
  }
  return value;
}

function bool(node: Node, key: keyof TestbedConfig): boolean {
  const raw = node.tryGetContext(`azbench:${key}`);
  if (raw === undefined) return DEFAULTS[key] as boolean;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  return fail(key, `must be true or false, got '${raw}'`);
}

function str(node: Node, key: keyof TestbedConfig, pattern: RegExp, what: string): string {
  const raw = node.tryGetContext(`azbench:${key}`);
  if (raw === undefined) return DEFAULTS[key] as string;
  const value = String(raw);
  if (!pattern.test(value)) fail(key, `must be ${what}, got '${value}'`);
  return value;
}

export function readConfig(node: Node): TestbedConfig {
  const azsRaw = node.tryGetContext('azbench:azs');
  const azs =
    azsRaw === undefined
      ? undefined
      : (Array.isArray(azsRaw) ? azsRaw.map(String) : String(azsRaw).split(','))
          .map((s) => s.trim())
          .filter((s) => s.length > 0);
  const azCount = azs ? azs.length : int(node, 'azCount', 2, 3);
  if (azs && (azs.length < 2 || azs.length > 3)) fail('azs', `must name 2 or 3 AZs, got ${azs.length}`);
  if (azs && azs.some((az) => !/^[a-z]{2}(-[a-z]+)+-\d[a-z]$/.test(az))) {
    fail('azs', `must be AZ names such as ap-northeast-1a, got '${azs.join(',')}'`);
  }
  const throughput = int(node, 'openZfsThroughputMBps', 160, 10240);
  if (!OPENZFS_MULTI_AZ_THROUGHPUTS.includes(throughput)) {
    fail('openZfsThroughputMBps', `must be one of ${OPENZFS_MULTI_AZ_THROUGHPUTS.join(', ')} for Multi-AZ, got ${throughput}`);
  }
  const config: TestbedConfig = {
    azCount,
    azs,
    agentsPerAz: int(node, 'agentsPerAz', 1, 32),
    agentInstanceType: str(node, 'agentInstanceType', /^[a-z][a-z0-9-]*\.[a-z0-9]+$/, 'an instance type such as m5.xlarge'),
    coordinatorInstanceType: str(node, 'coordinatorInstanceType', /^[a-z][a-z0-9-]*\.[a-z0-9]+$/, 'an instance type such as t3.medium'),
    amiParameter: str(node, 'amiParameter', /^\/[A-Za-z0-9_.\/-]+$/, 'an SSM parameter path'),
    agentPort: int(node, 'agentPort', 1024, 65535),
    openZfsThroughputMBps: throughput,
    openZfsStorageGiB: int(node, 'openZfsStorageGiB', 64, 524288),
    openZfsPreferredAzIndex: int(node, 'openZfsPreferredAzIndex', 0, 2),
    lustre: bool(node, 'lustre'),
    s3Files: bool(node, 's3Files'),
    vpcCidr: str(node, 'vpcCidr', /^\d+\.\d+\.\d+\.\d+\/(1[6-9]|2[0-2])$/, 'an IPv4 CIDR /16../22'),
  };
  if (config.openZfsPreferredAzIndex >= azCount) {
    fail('openZfsPreferredAzIndex', `must be below the AZ count ${azCount}`);
  }
  return config;
}
