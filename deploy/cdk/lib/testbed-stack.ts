// The multi-AZ testbed of study A, parameterised (lib/config.ts): a VPC over 2-3 AZs with isolated
// subnets only (SSM and S3 reached through VPC endpoints), N agents per AZ, one coordinator, EFS
// (Elastic throughput, a mount target per AZ, so each agent mounts in its own AZ), FSx for
// OpenZFS Multi-AZ (active file server in a chosen subnet, so cross-AZ access is deliberate),
// optionally FSx for Lustre and S3 Files. Security groups: the agent port is open only to the
// coordinator's group; NFS only from the agents.
import * as cdk from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as efs from 'aws-cdk-lib/aws-efs';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3files from 'aws-cdk-lib/aws-s3files';
import { Construct } from 'constructs';
import { campaignSkeleton, HostEntry, hostsFile as formatHostsFile } from './campaign';
import { TestbedConfig } from './config';
import { efsMount, lustreMount, MountSpec, openZfsMount, s3FilesMount } from './mounts';
import { agentUserData, BUNDLE_KEY, coordinatorUserData } from './user-data';

// Every cdk-nag finding this stack accepts, with the reason, in one call per construct.
function acknowledge(constructs: Construct | Construct[], findings: { id: string; reason: string }[]): void {
  for (const construct of Array.isArray(constructs) ? constructs : [constructs]) {
    for (const finding of findings) cdk.Validations.of(construct).acknowledge(finding);
  }
}

export interface TestbedStackProps extends cdk.StackProps {
  readonly config: TestbedConfig;
}

export class TestbedStack extends cdk.Stack {
  public readonly vpc: ec2.Vpc;
  public readonly agents: ec2.Instance[] = [];

  /** The logical ID of a construct's CloudFormation resource, as cdk-nag findings name it. */
  private logicalIdOf(construct: Construct): string {
    return this.getLogicalId(construct.node.defaultChild as cdk.CfnElement);
  }

  constructor(scope: Construct, id: string, props: TestbedStackProps) {
    super(scope, id, props);
    const c = props.config;

    // --- network: isolated subnets only; endpoints for SSM (Session Manager) and S3 ---
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      ipAddresses: ec2.IpAddresses.cidr(c.vpcCidr),
      ...(c.azs ? { availabilityZones: c.azs } : { maxAzs: c.azCount }),
      natGateways: 0,
      subnetConfiguration: [{ name: 'isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 }],
      restrictDefaultSecurityGroup: false,
    });
    const flowLogGroup = new logs.LogGroup(this, 'FlowLogs', {
      retention: logs.RetentionDays.ONE_WEEK,
      removalPolicy: cdk.RemovalPolicy.DESTROY,
    });
    this.vpc.addFlowLog('FlowLog', { destination: ec2.FlowLogDestination.toCloudWatchLogs(flowLogGroup) });
    const subnets = this.vpc.isolatedSubnets;

    const s3Endpoint = this.vpc.addGatewayEndpoint('S3', { service: ec2.GatewayVpcEndpointAwsService.S3 });
    const endpointSg = new ec2.SecurityGroup(this, 'EndpointSg', {
      vpc: this.vpc,
      description: 'VPC interface endpoints: HTTPS from inside the VPC',
      allowAllOutbound: false,
    });
    endpointSg.addIngressRule(ec2.Peer.ipv4(c.vpcCidr), ec2.Port.tcp(443), 'HTTPS from the VPC');
    for (const [name, service] of [
      ['Ssm', ec2.InterfaceVpcEndpointAwsService.SSM],
      ['SsmMessages', ec2.InterfaceVpcEndpointAwsService.SSM_MESSAGES],
      ['Ec2Messages', ec2.InterfaceVpcEndpointAwsService.EC2_MESSAGES],
    ] as const) {
      this.vpc.addInterfaceEndpoint(name, { service, securityGroups: [endpointSg], privateDnsEnabled: true, open: false });
    }

    // --- security groups ---
    const coordinatorSg = new ec2.SecurityGroup(this, 'CoordinatorSg', {
      vpc: this.vpc,
      description: 'azbench coordinator',
      allowAllOutbound: true,
    });
    const agentSg = new ec2.SecurityGroup(this, 'AgentSg', {
      vpc: this.vpc,
      description: 'azbench agents: gRPC from the coordinator only',
      allowAllOutbound: true,
    });
    agentSg.addIngressRule(coordinatorSg, ec2.Port.tcp(c.agentPort), 'azbench gRPC from the coordinator');
    const storageSg = new ec2.SecurityGroup(this, 'StorageSg', {
      vpc: this.vpc,
      description: 'file systems under test: NFS from the agents only',
      allowAllOutbound: false,
    });
    storageSg.addIngressRule(agentSg, ec2.Port.tcp(2049), 'NFS from the agents');

    // --- artifact bucket: the install bundle (read through the S3 endpoint) and results ---
    const artifacts = new s3.Bucket(this, 'Artifacts', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      removalPolicy: cdk.RemovalPolicy.DESTROY,
      autoDeleteObjects: false,
    });
    // Instances fetch the bundle without credentials (no AWS CLI on the image): only requests that
    // come through this VPC's S3 endpoint may read it. Not public: the condition pins the endpoint.
    artifacts.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'BundleReadThroughTheVpcEndpoint',
        principals: [new iam.AnyPrincipal()],
        actions: ['s3:GetObject'],
        resources: [artifacts.arnForObjects(BUNDLE_KEY)],
        conditions: { StringEquals: { 'aws:SourceVpce': s3Endpoint.vpcEndpointId } },
      }),
    );

    // --- file systems under test ---
    const mounts: MountSpec[] = [];
    const fileSystem = new efs.FileSystem(this, 'Efs', {
      vpc: this.vpc,
      vpcSubnets: { subnets },
      securityGroup: storageSg,
      throughputMode: efs.ThroughputMode.ELASTIC,
      performanceMode: efs.PerformanceMode.GENERAL_PURPOSE,
      encrypted: true,
      // Agents mount with plain NFS (no IAM through efs-utils, which Debian does not package).
      allowAnonymousAccess: true,
      removalPolicy: cdk.RemovalPolicy.DESTROY,
    });
    mounts.push(efsMount(`${fileSystem.fileSystemId}.efs.${this.region}.${this.urlSuffix}`));

    const preferred = subnets[c.openZfsPreferredAzIndex];
    const standby = subnets[c.openZfsPreferredAzIndex === 0 ? 1 : 0];
    const openZfs = new fsx.CfnFileSystem(this, 'OpenZfs', {
      fileSystemType: 'OPENZFS',
      storageCapacity: c.openZfsStorageGiB,
      storageType: 'SSD',
      subnetIds: [preferred.subnetId, standby.subnetId],
      securityGroupIds: [storageSg.securityGroupId],
      openZfsConfiguration: {
        deploymentType: 'MULTI_AZ_1',
        throughputCapacity: c.openZfsThroughputMBps,
        preferredSubnetId: preferred.subnetId,
        routeTableIds: subnets.map((s) => s.routeTable.routeTableId),
        automaticBackupRetentionDays: 0,
        rootVolumeConfiguration: {
          dataCompressionType: 'LZ4',
          nfsExports: [
            {
              clientConfigurations: [
                { clients: c.vpcCidr, options: ['rw', 'crossmnt', 'root_squash'] },
              ],
            },
          ],
        },
      },
    });
    mounts.push(openZfsMount(openZfs.attrDnsName));

    if (c.lustre) {
      const lustreSg = new ec2.SecurityGroup(this, 'LustreSg', {
        vpc: this.vpc,
        description: 'FSx for Lustre: LNet from the agents and between its servers',
        allowAllOutbound: false,
      });
      for (const peer of [agentSg, lustreSg]) {
        lustreSg.addIngressRule(peer, ec2.Port.tcp(988), 'Lustre LNet');
        lustreSg.addIngressRule(peer, ec2.Port.tcpRange(1018, 1023), 'Lustre LNet');
      }
      const lustre = new fsx.LustreFileSystem(this, 'Lustre', {
        vpc: this.vpc,
        vpcSubnet: preferred,
        securityGroup: lustreSg,
        storageCapacityGiB: 1200,
        lustreConfiguration: {
          deploymentType: fsx.LustreDeploymentType.PERSISTENT_2,
          perUnitStorageThroughput: 125,
          dataCompressionType: fsx.LustreDataCompressionType.NONE,
        },
        removalPolicy: cdk.RemovalPolicy.DESTROY,
      });
      mounts.push(lustreMount(lustre.dnsName, lustre.mountName));
    }

    if (c.s3Files) {
      // aws-cdk-lib has only L1 constructs (CfnFileSystem, CfnMountTarget) for S3 Files.
      const bucket = new s3.Bucket(this, 'S3FilesBucket', {
        versioned: true, // S3 Files requires a versioned bucket
        encryption: s3.BucketEncryption.S3_MANAGED,
        blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
        enforceSSL: true,
        removalPolicy: cdk.RemovalPolicy.DESTROY,
      });
      // S3 Files is built on EFS: its role trusts the EFS service principal.
      const role = new iam.Role(this, 'S3FilesRole', {
        assumedBy: new iam.ServicePrincipal('elasticfilesystem.amazonaws.com', {
          conditions: {
            StringEquals: { 'aws:SourceAccount': this.account },
            ArnLike: { 'aws:SourceArn': `arn:${this.partition}:s3files:${this.region}:${this.account}:file-system/*` },
          },
        }),
        description: 'S3 Files synchronisation between the file system and its bucket',
      });
      role.addToPolicy(
        new iam.PolicyStatement({
          actions: ['s3:ListBucket', 's3:GetBucketLocation', 's3:GetBucketVersioning', 's3:ListBucketVersions', 's3:ListBucketMultipartUploads'],
          resources: [bucket.bucketArn],
        }),
      );
      role.addToPolicy(
        new iam.PolicyStatement({
          actions: ['s3:GetObject', 's3:GetObjectVersion', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
          resources: [bucket.arnForObjects('*')],
        }),
      );
      role.addToPolicy(
        new iam.PolicyStatement({
          actions: ['events:PutRule', 'events:DeleteRule', 'events:PutTargets', 'events:RemoveTargets', 'events:DescribeRule'],
          resources: [`arn:${this.partition}:events:${this.region}:${this.account}:rule/DO-NOT-DELETE-S3-Files*`],
        }),
      );
      const s3fs = new s3files.CfnFileSystem(this, 'S3Files', {
        bucket: bucket.bucketArn,
        roleArn: role.roleArn,
        acceptBucketWarning: true,
      });
      s3fs.node.addDependency(role);
      subnets.forEach((subnet, i) => {
        new s3files.CfnMountTarget(this, `S3FilesMountTarget${i}`, {
          fileSystemId: s3fs.attrFileSystemId,
          subnetId: subnet.subnetId,
          securityGroups: [storageSg.securityGroupId],
        });
      });
      mounts.push(s3FilesMount(s3fs.attrFileSystemId));
      acknowledge(bucket, [
        { id: 'AwsSolutions-S1', reason: 'Benchmark scratch bucket behind S3 Files, deleted with the testbed; access logs would only add cost and noise to the synchronisation measurements.' },
      ]);
      acknowledge(role, [
        { id: `AwsSolutions-IAM5[Resource::<${this.logicalIdOf(bucket)}.Arn>/*]`, reason: 'S3 Files synchronises every object of its own bucket.' },
        { id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:events:<AWS::Region>:<AWS::AccountId>:rule/DO-NOT-DELETE-S3-Files*]', reason: 'S3 Files synchronises every object of its own bucket (object ARN wildcard) and manages its own EventBridge rules, whose names it chooses under the DO-NOT-DELETE-S3-Files prefix.' },
      ]);
    }

    // --- instances ---
    const machineImage = ec2.MachineImage.fromSsmParameter(c.amiParameter, { os: ec2.OperatingSystemType.LINUX });
    const instanceRole = (name: string) => {
      const role = new iam.Role(this, name, {
        assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com'),
        managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('AmazonSSMManagedInstanceCore')],
      });
      acknowledge(role, [
        { id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/AmazonSSMManagedInstanceCore]', reason: 'AmazonSSMManagedInstanceCore is the AWS-maintained minimum for Session Manager access to instances without SSH or internet.' },
      ]);
      return role;
    };
    const agentRole = instanceRole('AgentRole');
    const coordinatorRole = instanceRole('CoordinatorRole');
    // The coordinator uploads results (azbench .db and reports) for collection.
    coordinatorRole.addToPolicy(
      new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [artifacts.arnForObjects('results/*')] }),
    );
    acknowledge(coordinatorRole, [
      { id: `AwsSolutions-IAM5[Resource::<${this.logicalIdOf(artifacts)}.Arn>/results/*]`, reason: 'The coordinator writes result files under results/ of the testbed artifact bucket; their names are chosen at run time.' },
    ]);

    const instanceProps = (type: string, subnet: ec2.ISubnet, sg: ec2.ISecurityGroup, role: iam.IRole) => ({
      vpc: this.vpc,
      vpcSubnets: { subnets: [subnet] },
      instanceType: new ec2.InstanceType(type),
      machineImage,
      securityGroup: sg,
      role,
      requireImdsv2: true,
      detailedMonitoring: true,
      blockDevices: [{ deviceName: '/dev/xvda', volume: ec2.BlockDeviceVolume.ebs(16, { encrypted: true, volumeType: ec2.EbsDeviceVolumeType.GP3 }) }],
    });

    const hosts: HostEntry[] = [];
    subnets.forEach((subnet, az) => {
      for (let n = 1; n <= c.agentsPerAz; ++n) {
        const agentId = `agent-az${az}-${n}`;
        const userData = ec2.UserData.forLinux();
        userData.addCommands(...agentUserData({ bucketName: artifacts.bucketName, region: this.region, packageName: 'azbench-agent', agentId, port: c.agentPort, mounts }));
        const agent = new ec2.Instance(this, `Agent${az}x${n}`, {
          ...instanceProps(c.agentInstanceType, subnet, agentSg, agentRole),
          userData,
        });
        cdk.Tags.of(agent).add('Name', `azbench-${agentId}`);
        cdk.Tags.of(agent).add('azbench:agent-id', agentId);
        // The file systems must accept mounts before the agents boot.
        agent.node.addDependency(fileSystem.mountTargetsAvailable, openZfs);
        this.agents.push(agent);
        hosts.push({ agentId, availabilityZone: subnet.availabilityZone, address: agent.instancePrivateIp });
      }
    });
    const hostsFile = formatHostsFile(hosts, c.agentPort);
    const campaign = campaignSkeleton(mounts, '/etc/azbench/hosts.txt');

    const coordinatorData = ec2.UserData.forLinux();
    coordinatorData.addCommands(...coordinatorUserData({ bucketName: artifacts.bucketName, region: this.region, packageName: 'azbench', hostsFile, campaign }));
    const coordinator = new ec2.Instance(this, 'Coordinator', {
      ...instanceProps(c.coordinatorInstanceType, subnets[subnets.length - 1], coordinatorSg, coordinatorRole),
      userData: coordinatorData,
    });
    cdk.Tags.of(coordinator).add('Name', 'azbench-coordinator');

    acknowledge([...this.agents, coordinator], [
      { id: 'AwsSolutions-EC29', reason: 'A disposable benchmark testbed: instances are meant to be destroyed with the stack, so termination protection and an Auto Scaling group would get in the way.' },
    ]);
    acknowledge(artifacts, [
      { id: 'AwsSolutions-S1', reason: 'Holds only the install bundle and result files of a disposable testbed; server access logs would need a second bucket and add cost without a reader.' },
    ]);

    // --- outputs ---
    new cdk.CfnOutput(this, 'ArtifactBucket', { value: artifacts.bucketName, description: `Upload the bundle to s3://<this>/${BUNDLE_KEY}; results go to results/` });
    new cdk.CfnOutput(this, 'HostsFile', { value: hostsFile, description: 'azbench hosts file (also /etc/azbench/hosts.txt on the coordinator)' });
    new cdk.CfnOutput(this, 'CampaignSkeleton', { value: campaign, description: 'Campaign skeleton (also /etc/azbench/campaign.yaml on the coordinator)' });
    new cdk.CfnOutput(this, 'CoordinatorInstanceId', { value: coordinator.instanceId, description: 'aws ssm start-session --target <this>' });
    new cdk.CfnOutput(this, 'EfsFileSystemId', { value: fileSystem.fileSystemId });
    new cdk.CfnOutput(this, 'OpenZfsDnsName', { value: openZfs.attrDnsName, description: `Active file server in ${preferred.availabilityZone}` });
    new cdk.CfnOutput(this, 'Mounts', { value: mounts.map((m) => `${m.name}: ${m.fstype} ${m.options}`).join('; ') });
  }
}
