// Addresses the server never connects to, whatever NODE_ALLOWED_NETWORKS says: a managed node is never
// there, and what is there (the cloud's instance metadata with its credentials, the host's own
// services reached through a wildcard address, every host of a multicast group) must not be reachable
// by storing a credential. Usable on its own (deny list only) by anything else that fetches a URL.
import { embeddedIPv4, formatIp, inRange, parseRange, unmapped, type IpAddress } from './ip-address.ts';

export interface DeniedRule {
  /** The range as written, e.g. `169.254.0.0/16`. */
  range: string;
  /** Why, for the error message. */
  why: string;
}

function rules(list: [string, string][]): { range: ReturnType<typeof parseRange>; rule: DeniedRule }[] {
  return list.map(([range, why]) => ({ range: parseRange(range), rule: { range, why } }));
}

/*
 * Cloud metadata and platform services, by provider (checked 2025):
 * - AWS EC2 instance metadata: 169.254.169.254 and, on Nitro instances, fd00:ec2::254
 *   https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-data-retrieval.html
 *   ECS task metadata 169.254.170.2; EKS Pod Identity agent 169.254.170.23 and fd00:ec2::23
 *   https://docs.aws.amazon.com/eks/latest/userguide/pod-id-how-it-works.html ; name instance-data
 * - Google Cloud: metadata.google.internal (also `metadata`, metadata.goog) = 169.254.169.254, and
 *   fd20:ce::254 for IPv6 https://cloud.google.com/compute/docs/metadata/querying-metadata
 * - Azure: instance metadata 169.254.169.254
 *   https://learn.microsoft.com/azure/virtual-machines/instance-metadata-service ; WireServer
 *   168.63.129.16, a public address that answers only inside Azure (VM agent, DNS, DHCP)
 *   https://learn.microsoft.com/azure/virtual-network/what-is-ip-address-168-63-129-16
 * - Alibaba Cloud ECS: 100.100.100.200 (inside 100.64.0.0/10, not link-local)
 *   https://www.alibabacloud.com/help/en/ecs/user-guide/view-instance-metadata
 * - Oracle Cloud: 169.254.169.254 https://docs.oracle.com/iaas/Content/Compute/Tasks/gettingmetadata.htm
 *   and 192.0.0.192 on Oracle Cloud Classic
 * - Tencent Cloud: metadata.tencentyun.com (169.254.0.23); OpenStack, DigitalOcean, Hetzner, IBM
 *   Cloud, Huawei Cloud: 169.254.169.254; Scaleway 169.254.42.42 and fd00:42::42
 * - Equinix Metal (Packet): metadata.platformequinix.com / metadata.packet.net, public addresses that
 *   answer each machine with its own metadata: refused by name.
 * Collected lists: https://github.com/swisskyrepo/PayloadsAllTheThings (Server Side Request Forgery,
 * "SSRF URL for Cloud Instances").
 */
const DENIED = rules([
  ['0.0.0.0/8', 'the unspecified address ("this host": a connection to it reaches the server itself)'],
  ['169.254.0.0/16', 'link-local, where cloud metadata services answer (RFC 3927)'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'the broadcast address'],
  ['240.0.0.0/4', 'reserved (RFC 1112), never a host'],
  ['100.100.100.200/32', 'the Alibaba Cloud metadata service'],
  ['168.63.129.16/32', 'the Azure platform (WireServer) address'],
  ['192.0.0.192/32', 'the Oracle Cloud Classic metadata service'],
  ['::/128', 'the unspecified address (a connection to it reaches the server itself)'],
  ['fe80::/10', 'link-local'],
  ['ff00::/8', 'multicast'],
  ['fd00:ec2::254/128', 'the AWS instance metadata service (IPv6)'],
  ['fd00:ec2::23/128', 'the AWS EKS Pod Identity agent (IPv6)'],
  ['fd20:ce::254/128', 'the Google Cloud metadata service (IPv6)'],
  ['fd00:42::42/128', 'the Scaleway metadata service (IPv6)'],
]);

/** Names of metadata services, refused before any resolution (they resolve only inside the cloud). */
const DENIED_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
  'metadata.packet.net',
]);

/** Lower case, without the trailing dots a resolver ignores (`METADATA.google.internal.`). */
export function normalName(name: string): string {
  return name.toLowerCase().replace(/\.+$/, '');
}

/** The rule that refuses a host name outright, if any. */
export function deniedName(name: string): DeniedRule | undefined {
  const n = normalName(name);
  return DENIED_NAMES.has(n) ? { range: n, why: 'a cloud metadata service name' } : undefined;
}

/**
 * The rule that refuses `ip` whatever the allow list says, if any. An IPv4-mapped address is its IPv4
 * address; one that hands traffic to an IPv4 address (NAT64, 6to4, Teredo, SIIT) is refused with it;
 * the deprecated IPv4-compatible ::a.b.c.d (RFC 4291) is never a node.
 */
export function deniedAddress(address: IpAddress): DeniedRule | undefined {
  const ip = unmapped(address);
  const direct = DENIED.find((d) => d.range && inRange(ip, d.range))?.rule;
  if (direct) return direct;
  if (ip.family === 6 && ip.value >> 32n === 0n && ip.value > 1n)
    return { range: '::/96', why: 'an IPv4-compatible IPv6 address (deprecated, RFC 4291)' };
  const inner = embeddedIPv4(ip);
  const carried = inner && DENIED.find((d) => d.range && inRange(inner, d.range))?.rule;
  if (inner && carried)
    return { range: carried.range, why: `${carried.why}, reached through ${formatIp(inner)}` };
  return undefined;
}
