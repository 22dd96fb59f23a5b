// Mount options, shared by the CDK user data and deploy/cloud-init (tests check they agree).
// Study A mounted both EFS and FSx for OpenZFS with NFS 4.1, rsize/wsize 1 MiB, hard, timeo=600;
// retrans=2 and noresvport are AWS's recommendations for EFS (a reconnect picks a new source port).
export const NFS41_OPTIONS =
  'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport,_netdev';

/** Where the agent's allowed root and the file systems under test live on every instance. */
export const MOUNT_ROOT = '/mnt/azbench';

export interface MountSpec {
  /** Directory name under MOUNT_ROOT, and the campaign target name. */
  readonly name: string;
  /** fstab line fields. */
  readonly source: string;
  readonly fstype: string;
  readonly options: string;
  /** Campaign `kind` (coordinator/campaign.h). */
  readonly kind: string;
  /** A helper the mount needs; when it is missing the mount is skipped with a log line. */
  readonly requiresHelper?: string;
}

export function efsMount(dnsName: string): MountSpec {
  return { name: 'efs', source: `${dnsName}:/`, fstype: 'nfs4', options: NFS41_OPTIONS, kind: 'efs' };
}

export function openZfsMount(dnsName: string): MountSpec {
  // The root volume of FSx for OpenZFS is exported as /fsx.
  return { name: 'fsx', source: `${dnsName}:/fsx`, fstype: 'nfs4', options: NFS41_OPTIONS, kind: 'fsx-openzfs' };
}

export function lustreMount(dnsName: string, mountName: string): MountSpec {
  return {
    name: 'lustre',
    source: `${dnsName}@tcp:/${mountName}`,
    fstype: 'lustre',
    options: 'relatime,flock,_netdev',
    kind: 'fsx-lustre',
    requiresHelper: '/sbin/mount.lustre',
  };
}

export function s3FilesMount(fileSystemId: string): MountSpec {
  // S3 Files mounts through efs-proxy (NFS 4.2 over TLS with IAM), i.e. amazon-efs-utils'
  // mount.s3files helper, which Debian does not package.
  return {
    name: 's3files',
    source: `${fileSystemId}:/`,
    fstype: 's3files',
    options: '_netdev',
    kind: 's3files',
    requiresHelper: '/sbin/mount.s3files',
  };
}
