// Synthesises the testbed with no AWS account (environment-agnostic) and checks the template:
// resources, security group rules, subnets, outputs, and that cdk-nag passes (and would fail on
// an unacknowledged finding). Run: npm test (node:test).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as cdk from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { buildTestbedApp } from '../lib/build';
import { NFS41_OPTIONS } from '../lib/mounts';

type Resources = Record<string, { Type: string; Properties?: any }>;

function synth(context: Record<string, unknown> = {}) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'azbench-cdk-'));
  try {
    const { app, stack } = buildTestbedApp({ context, outdir });
    app.synth(); // throws on an unacknowledged cdk-nag finding
    const template = Template.fromStack(stack);
    return { template, stack, resources: template.toJSON().Resources as Resources };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

function ofType(resources: Resources, type: string) {
  return Object.entries(resources).filter(([, r]) => r.Type === type);
}

function logicalIdOfSg(resources: Resources, description: RegExp): string {
  const found = ofType(resources, 'AWS::EC2::SecurityGroup').filter(([, r]) => description.test(r.Properties.GroupDescription));
  assert.equal(found.length, 1, `one security group matching ${description}`);
  return found[0][0];
}

// CloudFormation's Fn::Join of strings and tokens, flattened with tokens as <Ref>/<Attr> markers.
function flatten(value: any): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(flatten).join('');
  if (value && value['Fn::Join']) return value['Fn::Join'][1].map(flatten).join(value['Fn::Join'][0]);
  if (value && value['Fn::Base64']) return flatten(value['Fn::Base64']);
  if (value && value.Ref) return `<${value.Ref}>`;
  if (value && value['Fn::GetAtt']) return `<${value['Fn::GetAtt'].join('.')}>`;
  return JSON.stringify(value);
}

test('default testbed: two AZs, isolated subnets only, SSM and S3 endpoints', () => {
  const { template, resources } = synth();
  const subnets = ofType(resources, 'AWS::EC2::Subnet');
  assert.equal(subnets.length, 2);
  for (const [, s] of subnets) assert.equal(s.Properties.MapPublicIpOnLaunch, false);
  template.resourceCountIs('AWS::EC2::InternetGateway', 0);
  template.resourceCountIs('AWS::EC2::NatGateway', 0);
  const endpoints = ofType(resources, 'AWS::EC2::VPCEndpoint').map(([, r]) => r.Properties);
  const names = endpoints.map((e) => flatten(e.ServiceName));
  for (const service of ['.s3', '.ssm', '.ssmmessages', '.ec2messages']) {
    assert.ok(names.some((n) => n.endsWith(service)), `endpoint for ${service} in ${names}`);
  }
  const s3 = endpoints.find((e) => flatten(e.ServiceName).endsWith('.s3'))!;
  assert.equal(s3.VpcEndpointType, 'Gateway');
  assert.equal(s3.RouteTableIds.length, 2, 'S3 gateway endpoint on every subnet route table');
  for (const e of endpoints.filter((x) => x.VpcEndpointType === 'Interface')) assert.equal(e.PrivateDnsEnabled, true);
  template.resourceCountIs('AWS::EC2::FlowLog', 1);
});

test('agents per AZ and instance types are settable; IMDSv2 and encrypted volumes', () => {
  const { resources } = synth({ 'azbench:agentsPerAz': 3, 'azbench:agentInstanceType': 'c6in.2xlarge' });
  const instances = ofType(resources, 'AWS::EC2::Instance').map(([, r]) => r.Properties);
  const agents = instances.filter((i) => i.InstanceType === 'c6in.2xlarge');
  assert.equal(agents.length, 6, '3 agents in each of 2 AZs');
  assert.equal(instances.length, 7, 'plus one coordinator');
  const subnetsUsed = new Set(agents.map((a) => JSON.stringify(a.SubnetId)));
  assert.equal(subnetsUsed.size, 2, 'agents spread over both AZ subnets');
  for (const [, lt] of ofType(resources, 'AWS::EC2::LaunchTemplate')) {
    assert.equal(lt.Properties.LaunchTemplateData.MetadataOptions.HttpTokens, 'required');
  }
  for (const i of instances) assert.equal(i.BlockDeviceMappings[0].Ebs.Encrypted, true);
});

test('security groups: agent port only from the coordinator, NFS only from the agents', () => {
  const { resources } = synth({ 'azbench:agentPort': 7999 });
  const agentSg = logicalIdOfSg(resources, /^azbench agents/);
  const coordinatorSg = logicalIdOfSg(resources, /^azbench coordinator/);
  const storageSg = logicalIdOfSg(resources, /^file systems under test/);
  const ingress = ofType(resources, 'AWS::EC2::SecurityGroupIngress').map(([, r]) => r.Properties);
  const into = (sg: string) => ingress.filter((r) => r.GroupId['Fn::GetAtt'][0] === sg);
  assert.deepEqual(
    into(agentSg).map((r) => [r.IpProtocol, r.FromPort, r.ToPort, r.SourceSecurityGroupId['Fn::GetAtt'][0]]),
    [['tcp', 7999, 7999, coordinatorSg]],
  );
  assert.deepEqual(
    into(storageSg).map((r) => [r.IpProtocol, r.FromPort, r.ToPort, r.SourceSecurityGroupId['Fn::GetAtt'][0]]),
    [['tcp', 2049, 2049, agentSg]],
  );
  // Nothing anywhere is open to the internet.
  for (const [, sg] of ofType(resources, 'AWS::EC2::SecurityGroup')) {
    for (const rule of sg.Properties.SecurityGroupIngress ?? []) {
      assert.notEqual(rule.CidrIp, '0.0.0.0/0');
    }
  }
  for (const r of ingress) assert.notEqual(r.CidrIp, '0.0.0.0/0');
});

test('EFS Elastic with a mount target per AZ; FSx for OpenZFS Multi-AZ as configured', () => {
  const { template, resources } = synth({
    'azbench:openZfsThroughputMBps': 320,
    'azbench:openZfsStorageGiB': 2048,
    'azbench:openZfsPreferredAzIndex': 1,
  });
  template.hasResourceProperties('AWS::EFS::FileSystem', { ThroughputMode: 'elastic', Encrypted: true });
  const mountTargets = ofType(resources, 'AWS::EFS::MountTarget').map(([, r]) => JSON.stringify(r.Properties.SubnetId));
  assert.equal(new Set(mountTargets).size, 2, 'one EFS mount target in each AZ subnet');
  const subnetIds = ofType(resources, 'AWS::EC2::Subnet').map(([id]) => id);
  template.hasResourceProperties('AWS::FSx::FileSystem', {
    FileSystemType: 'OPENZFS',
    StorageCapacity: 2048,
    OpenZFSConfiguration: Match.objectLike({
      DeploymentType: 'MULTI_AZ_1',
      ThroughputCapacity: 320,
      PreferredSubnetId: { Ref: subnetIds[1] },
      RootVolumeConfiguration: Match.objectLike({ DataCompressionType: 'LZ4' }),
    }),
  });
  template.resourceCountIs('AWS::FSx::FileSystem', 1); // no Lustre unless asked
  template.resourceCountIs('AWS::S3Files::FileSystem', 0);
});

test('optional FSx for Lustre and S3 Files (L1 constructs), mount targets per AZ', () => {
  const { template, resources } = synth({ 'azbench:lustre': true, 'azbench:s3Files': 'true' });
  template.hasResourceProperties('AWS::FSx::FileSystem', {
    FileSystemType: 'LUSTRE',
    LustreConfiguration: Match.objectLike({ DeploymentType: 'PERSISTENT_2', PerUnitStorageThroughput: 125 }),
  });
  template.resourceCountIs('AWS::S3Files::FileSystem', 1);
  assert.equal(ofType(resources, 'AWS::S3Files::MountTarget').length, 2);
  template.hasResourceProperties('AWS::S3::Bucket', { VersioningConfiguration: { Status: 'Enabled' } });
  template.hasResourceProperties('AWS::IAM::Role', {
    AssumeRolePolicyDocument: Match.objectLike({
      Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'elasticfilesystem.amazonaws.com' } })]),
    }),
  });
});

test('three named AZs in a region-bound stack', () => {
  const { resources } = synth({ 'azbench:azs': 'ap-northeast-1a,ap-northeast-1c,ap-northeast-1d', 'azbench:region': 'ap-northeast-1' });
  const azs = ofType(resources, 'AWS::EC2::Subnet').map(([, r]) => r.Properties.AvailabilityZone).sort();
  assert.deepEqual(azs, ['ap-northeast-1a', 'ap-northeast-1c', 'ap-northeast-1d']);
  assert.equal(ofType(resources, 'AWS::EFS::MountTarget').length, 3);
});

test('outputs: hosts file of every agent and a campaign skeleton over every file system', () => {
  const { template } = synth({ 'azbench:agentsPerAz': 2 });
  const outputs = template.toJSON().Outputs;
  const hosts = flatten(outputs.HostsFile.Value);
  const hostLines = hosts.split('\n').filter((l) => !l.startsWith('#'));
  assert.equal(hostLines.length, 4);
  for (const line of hostLines) assert.match(line, /^<Agent\w+\.PrivateIp>:7480$/);
  const campaign = flatten(outputs.CampaignSkeleton.Value);
  assert.match(campaign, /^fleet:\n  hosts_file: \/etc\/azbench\/hosts.txt$/m);
  assert.match(campaign, /^  tls: \{ca_file: \/etc\/azbench\/tls\/ca.crt, cert_file: /m);
  assert.match(campaign, /server_name: azbench-agent\}$/m);
  assert.match(campaign, /\{name: efs, path: \/mnt\/azbench\/efs\/azbench, kind: efs\}/);
  assert.match(campaign, /\{name: fsx, path: \/mnt\/azbench\/fsx\/azbench, kind: fsx-openzfs\}/);
  assert.match(campaign, /rw: write, bs: 4m, size: 4g, numjobs: 1, iodepth: 1, ioengine: libaio, direct: 1/);
  assert.ok(outputs.ArtifactBucket && outputs.CoordinatorInstanceId && outputs.OpenZfsDnsName);
});

test('agent user data installs the bundle, mounts with study A options, enables the service', () => {
  const { resources } = synth();
  const agent = ofType(resources, 'AWS::EC2::Instance').find(([id]) => id.startsWith('Agent'))!;
  const script = flatten(agent[1].Properties.UserData);
  assert.ok(script.includes(`nfs4 ${NFS41_OPTIONS} 0 0`), 'EFS/FSx fstab lines with the NFS 4.1 options');
  assert.match(NFS41_OPTIONS, /nfsvers=4\.1,rsize=1048576,wsize=1048576,hard,timeo=600/);
  assert.match(script, /<OpenZfs\.DNSName>:\/fsx \/mnt\/azbench\/fsx nfs4/);
  assert.match(script, /deb \[trusted=yes\] file:\/var\/tmp\/azbench-bundle/);
  assert.match(script, /apt-get "\$\{apt_opts\[@\]\}" install -y --no-install-recommends .* azbench-agent nfs-common awscli/);
  assert.match(script, /azbench-agent check-config \/etc\/azbench\/agent.yaml/);
  assert.match(script, /^  ca_file: \/etc\/azbench\/tls\/ca.crt$/m);
  assert.match(script, /install -m 0600 -o azbench -g azbench \S+\/agents\/azbench-agent.key \/etc\/azbench\/tls\/agent.key/);
  assert.match(script, /systemctl enable --now azbench-agent/);
  assert.match(script, /agent_id: agent-az0-1/);
});

test('bad parameters are refused with the key and what is allowed', () => {
  assert.throws(() => synth({ 'azbench:openZfsThroughputMBps': 100 }), /azbench:openZfsThroughputMBps: must be an integer in 160\.\.10240/);
  assert.throws(() => synth({ 'azbench:openZfsThroughputMBps': 200 }), /must be one of 160, 320/);
  assert.throws(() => synth({ 'azbench:azCount': 4 }), /azbench:azCount: must be an integer in 2\.\.3/);
  assert.throws(() => synth({ 'azbench:lustre': 'yes' }), /azbench:lustre: must be true or false/);
  assert.throws(() => synth({ 'azbench:azs': 'ap-northeast-1a,ap-northeast-1c' }), /needs a region/);
});

test('cdk-nag is active: an unacknowledged finding fails synthesis', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'azbench-cdk-'));
  try {
    const { app } = buildTestbedApp({ outdir });
    const bad = new cdk.Stack(app, 'Open');
    const sg = new ec2.SecurityGroup(bad, 'Sg', { vpc: ec2.Vpc.fromVpcAttributes(bad, 'V', { vpcId: 'vpc-1', availabilityZones: ['a'] }) });
    sg.addIngressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(22));
    assert.throws(() => app.synth(), /Validation failed/);
    const report = fs.readFileSync(path.join(outdir, 'validation-report.json'), 'utf8');
    assert.match(report, /AwsSolutions-EC23/);
    assert.doesNotMatch(report, /"constructPath": "AzbenchTestbed\//, 'the testbed itself has no finding');
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
});
