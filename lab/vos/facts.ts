import { CUCM_PUBLISHER, CUCM_SUBSCRIBER, IMP_NODE } from '../cucm/topology.ts';
import type { Database } from '../informix/database.ts';
import type { LabSeeding, Weaknesses } from '../weaknesses/index.ts';
import { serviceSpec } from './service-catalogue.ts';
import type { NodeServices, ServiceLine } from './services.ts';
import { nodeServices } from './services.ts';
import type { VosProduct } from './state.ts';

/** A node as `show network cluster` lists it (role and the product's service name there). */
export interface ClusterNode {
  name: string;
  ip: string;
  role: 'Publisher' | 'Subscriber';
  product: 'callmanager' | 'cups' | 'cuc';
}

/** A device as the node's RIS database holds it (`show risdb query phone`). */
export interface RisPhone {
  name: string;
  description: string;
  ip: string;
  model: string;
  protocol: string;
  user: string;
  status: string;
  statusReason: number;
  node: string;
  timestamp: number;
}

/** What `show hardware` reports: the virtual machine of the OVA. */
export interface Hardware {
  cpus: number;
  cpuType: string;
  cpuMhz: number;
  memoryMb: number;
  diskGb: number;
}

/** What a node's CLI reports about itself. Values differ by product and by profile. */
export interface NodeFacts {
  product: VosProduct;
  hostname: string;
  productName: string;
  activeVersion: string;
  inactiveVersion: string;
  ip: string;
  gateway: string;
  dns: string;
  domain: string;
  /** The node's services, live: the CLI and ControlCenterServices read and change the same table. */
  services: NodeServices;
  /** Own certificates: name and description for `show cert list own`. */
  certs: [string, string][];
  /** Servers `utils dbreplication runtimestate` lists: name and IP (read when asked, like `cluster`). */
  replicationServers(): [string, string][];
  /** The cluster's nodes, publisher first, read when asked (so a topology change shows). */
  cluster(): ClusterNode[];
  hardware: Hardware;
  /** Core dumps `utils core active list` shows: size in KB, when, file name. */
  coreFiles: [number, Date, string][];
  /** CUCM: the RIS database's devices, read when asked. */
  risPhones?(): RisPhone[];
  uptimeDays: number;
  /** Files `file list <partition> <dir>` shows, by partition and directory; undefined: no such folder. */
  listFiles?(partition: string, dir: string, now: Date): LabFile[] | undefined;
  /** The backups `utils disaster_recovery history backup` lists (lab/vos/drf.ts keeps them and the logs agreeing). */
  drfHistory?(now: Date): BackupRecord[];
  /** The last job `utils disaster_recovery status backup` reports, from the same runs. */
  drfLastJob?(now: Date): DrfJob | undefined;
  /** The schedules `utils disaster_recovery schedule list` shows. */
  drfSchedules?(now: Date): DrfSchedule[];
  /** Unity Connection: the unitydirdb views `show cuc dbview list` and `run cuc dbquery` read (lab/cuc/unitydirdb.ts). */
  unitydirdb?: UnityDirDb;
}

/** Rows as a database view prints them: column names, then values (null prints as `null`). */
export interface DbRows {
  columns: string[];
  rows: (string | null)[][];
}

/** Read-only views of a database, computed when the CLI asks (so they follow changes made elsewhere). */
export interface UnityDirDb {
  views(): string[];
  view(name: string): DbRows | undefined;
  /** The views as tables of one query's database (`run cuc dbquery`), built when asked. */
  database(): Database;
}

/** One row of `utils disaster_recovery history backup`. */
export interface BackupRecord {
  tar: string;
  completed: Date;
  result: 'SUCCESS' | 'ERROR';
  type: 'SCHEDULED' | 'MANUAL';
}

/** The last backup job as the DRF master keeps it: one row per component, each with its log. */
export interface DrfJob {
  /** The tar's name without `.tar`, as the status prints it. */
  tar: string;
  result: 'SUCCESS' | 'ERROR';
  components: { server: string; component: string; result: 'SUCCESS' | 'ERROR'; at: Date; log: string }[];
}

export interface DrfSchedule {
  name: string;
  device: string;
  enabled: boolean;
}

/** One file in a `file list` answer. */
export interface LabFile {
  name: string;
  size: number;
  modified: Date;
}

const SYSTEM_SERVICES: ServiceLine[] = [
  ['System SSH', 'STARTED'],
  ['Cluster Manager', 'STARTED'],
  ['A Cisco DB', 'STARTED'],
  ['A Cisco DB Replicator', 'STARTED'],
  ['Cisco AMC Service', 'STARTED'],
  ['Cisco Audit Event Service', 'STARTED'],
  ['Cisco CDP', 'STARTED'],
  ['Cisco CDP Agent', 'STARTED'],
  ['Cisco Certificate Change Notification', 'STARTED'],
  ['Cisco Certificate Expiry Monitor', 'STARTED'],
  ['Cisco DRF Local', 'STARTED'],
  ['Cisco DRF Master', 'STARTED'],
  ['Cisco Database Layer Monitor', 'STARTED'],
  ['Cisco Log Partition Monitoring Tool', 'STARTED'],
  ['Cisco RIS Data Collector', 'STARTED'],
  ['Cisco RTMT Reporter Servlet', 'STARTED'],
  ['Cisco Syslog Agent', 'STARTED'],
  ['Cisco Tomcat', 'STARTED'],
  ['Cisco Tomcat Stats Servlet', 'STARTED'],
  ['Cisco Trace Collection Service', 'STARTED'],
  ['Host Resources Agent', 'STARTED'],
  ['MIB2 Agent', 'STARTED'],
  ['Platform Administrative Web Service', 'STARTED'],
  ['SNMP Master Agent', 'STARTED'],
];

function cucmServices(w: Weaknesses): ServiceLine[] {
  const weak = w.has('cucm-security-services-off');
  return [
    // The audit log is written by the Cisco Audit Event Service: stopped, nothing is audited.
    ...SYSTEM_SERVICES.map((s): ServiceLine =>
      s[0] === 'Cisco Audit Event Service' && w.has('cucm-audit-log-off')
        ? [s[0], 'STOPPED', 'Commanded Out of Service']
        : s,
    ),
    ['Cisco AXL Web Service', 'STARTED'],
    ['Cisco Bulk Provisioning Service', 'STARTED'],
    ['Cisco CAR DB', 'STARTED'],
    ['Cisco CAR Scheduler', 'STARTED'],
    ['Cisco CTIManager', 'STARTED'],
    ['Cisco CallManager', 'STARTED'],
    ['Cisco CallManager Admin', 'STARTED'],
    ['Cisco CallManager Cisco IP Phone Services', 'STARTED'],
    ['Cisco CallManager Serviceability', 'STARTED'],
    ['Cisco CallManager Serviceability RTMT', 'STARTED'],
    // CAPF issues the phones' certificates. The cluster runs tokenless mixed mode (utils ctl), which does
    // not use the CTL Provider (it served the USB-token CTL Client), so it is not activated either way.
    weak
      ? ['Cisco Certificate Authority Proxy Function', 'STOPPED', 'Service Not Activated']
      : ['Cisco Certificate Authority Proxy Function', 'STARTED'],
    ['Cisco CTL Provider', 'STOPPED', 'Service Not Activated'],
    ['Cisco DirSync', 'STOPPED', 'Service Not Activated'],
    ['Cisco Extension Mobility', 'STARTED'],
    ['Cisco Tftp', 'STARTED'],
    ['Cisco Trust Verification Service', 'STARTED'],
    ['Cisco UXL Web Service', 'STARTED'],
  ];
}

/** IM&P: XMPP federation is in use; the weak profile also runs two services nothing here needs. */
const impServices = (w: Weaknesses): ServiceLine[] => {
  const weak = w.has('imp-unneeded-services');
  return [
    ...SYSTEM_SERVICES,
    ['Cisco AXL Web Service', 'STARTED'],
    ['Cisco Client Profile Agent', 'STARTED'],
    ['Cisco Config Agent', 'STARTED'],
    ['Cisco Intercluster Sync Agent', 'STARTED'],
    ['Cisco Login Datastore', 'STARTED'],
    ['Cisco Presence Datastore', 'STARTED'],
    ['Cisco Presence Engine', 'STARTED'],
    ['Cisco Route Datastore', 'STARTED'],
    ['Cisco SIP Proxy', 'STARTED'],
    ['Cisco SIP Registration Datastore', 'STARTED'],
    ['Cisco Sync Agent', 'STARTED'],
    ['Cisco XCP Authentication Service', 'STARTED'],
    ['Cisco XCP Connection Manager', 'STARTED'],
    weak
      ? ['Cisco XCP Directory Service', 'STARTED']
      : ['Cisco XCP Directory Service', 'STOPPED', 'Service Not Activated'],
    ['Cisco XCP File Transfer Manager', 'STOPPED', 'Service Not Activated'],
    ['Cisco XCP Router', 'STARTED'],
    weak
      ? ['Cisco XCP SIP Federation Connection Manager', 'STARTED']
      : ['Cisco XCP SIP Federation Connection Manager', 'STOPPED', 'Service Not Activated'],
    ['Cisco XCP Text Conference Manager', 'STOPPED', 'Service Not Activated'],
    ['Cisco XCP XMPP Federation Connection Manager', 'STARTED'],
  ];
};

/**
 * Unity Connection. Weak: the audit event service stopped, and the Platform Administrative Web Service
 * (only Prime Collaboration Deployment needs it) left running; hardened: audit on, that service off.
 */
const cucServices = (w: Weaknesses): ServiceLine[] => [
  ...SYSTEM_SERVICES.map((s): ServiceLine =>
    s[0] === 'Cisco Audit Event Service' && w.has('cuc-audit-stopped')
      ? [s[0], 'STOPPED', 'Commanded Out of Service']
      : s[0] === 'Platform Administrative Web Service' && !w.has('cuc-paws-running')
        ? [s[0], 'STOPPED', 'Service Not Activated']
        : s,
  ),
  ['Connection Administration', 'STARTED'],
  ['Connection Conversation Manager', 'STARTED'],
  ['Connection DB Event Publisher', 'STARTED'],
  ['Connection Digital Networking Replication Agent', 'STARTED'],
  ['Connection File Syncer', 'STARTED'],
  ['Connection IMAP Server', 'STARTED'],
  ['Connection Jetty', 'STARTED'],
  ['Connection Message Transfer Agent', 'STARTED'],
  ['Connection Mixer', 'STARTED'],
  ['Connection Notifier', 'STARTED'],
  ['Connection REST Service', 'STARTED'],
  ['Connection SpeechView Processor', 'STOPPED', 'Service Not Activated'],
];

/** Which weakness makes each product's tomcat (and, on IM&P, XMPP) certificates self-signed. */
export const SELF_SIGNED_WEAKNESS: Record<VosProduct, string> = {
  cucm: 'cucm-tomcat-cert-self-signed',
  imp: 'imp-self-signed-identity-certs',
  cuc: 'cuc-tomcat-self-signed',
};

function certs(product: VosProduct, w: Weaknesses): [string, string][] {
  const tomcat = w.has(SELF_SIGNED_WEAKNESS[product])
    ? 'Self-signed certificate generated by system'
    : 'Certificate Signed by UC MCP Lab CA';
  const own: [string, string][] = [
    ['tomcat/tomcat.pem', tomcat],
    ['tomcat-ECDSA/tomcat-ECDSA.pem', 'Self-signed certificate generated by system'],
    ['ipsec/ipsec.pem', 'Self-signed certificate generated by system'],
    ['ITLRecovery/ITLRecovery.pem', 'Self-signed certificate generated by system'],
  ];
  if (product === 'cucm') {
    own.push(
      ['CallManager/CallManager.pem', 'Self-signed certificate generated by system'],
      ['CAPF/CAPF.pem', 'Self-signed certificate generated by system'],
      ['TVS/TVS.pem', 'Self-signed certificate generated by system'],
    );
  }
  if (product === 'imp') {
    // The XMPP client and federation certificates are CA-signed once hardened (clients and partners check them).
    own.push(
      ['cup/cup.pem', 'Self-signed certificate generated by system'],
      ['cup-xmpp/cup-xmpp.pem', tomcat],
      ['cup-xmpp-s2s/cup-xmpp-s2s.pem', tomcat],
    );
  }
  return own;
}

/**
 * The lab's address plan: the main cluster's publisher .1, subscribers .2 upward, IM&P .5, Unity
 * Connection .8 (its secondary .9); another CUCM cluster (the 14.0 one) in 10.10.40.0/24.
 */
export function callManagerIp(index: number, main = true): string {
  if (!main) return `10.10.40.${1 + index}`;
  return index < 4 ? `10.10.20.${1 + index}` : `10.10.21.${index}`;
}

/**
 * The CUCM cluster as its processnode table holds it: the CallManager nodes (publisher first) and the
 * IM&P node, which joins the CUCM cluster as a subscriber of its own database (product `cups`).
 */
export function cucmCluster(callManagers: readonly string[]): ClusterNode[] {
  const main = callManagers.includes(CUCM_PUBLISHER);
  return [
    ...callManagers.map((name, i): ClusterNode => ({
      name,
      ip: callManagerIp(i, main),
      role: i === 0 ? 'Publisher' : 'Subscriber',
      product: 'callmanager',
    })),
    // IM&P joined the main cluster (the one whose publisher is CUCM_PUBLISHER), not another one.
    ...(main
      ? [{ name: IMP_NODE, ip: '10.10.20.5', role: 'Subscriber', product: 'cups' } satisfies ClusterNode]
      : []),
  ];
}

const DEFAULT_CALLMANAGERS = [CUCM_PUBLISHER, CUCM_SUBSCRIBER];

/** The medium OVA every product here is deployed from (the start-up banner says the same). */
const HARDWARE: Hardware = {
  cpus: 2,
  cpuType: 'Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz',
  cpuMhz: 2500,
  memoryMb: 8192,
  diskGb: 110,
};

/**
 * `callManagers`: the CallManager node names, publisher first, read when the CLI asks (CUCM passes its
 * RIS node list, so the cluster follows the lab's topology). Default: the topology's publisher and subscriber.
 */
export function nodeFacts(
  product: VosProduct,
  hostname: string,
  seeding: LabSeeding,
  callManagers: () => readonly string[] = () => DEFAULT_CALLMANAGERS,
): NodeFacts {
  const w = seeding.weaknesses;
  const base = {
    product,
    hostname,
    gateway: '10.10.20.254',
    dns: '10.10.20.250',
    domain: 'lab.example.com',
    certs: certs(product, w),
    uptimeDays: 12,
    hardware: HARDWARE,
  };
  const cluster = (): ClusterNode[] => cucmCluster(callManagers());
  const bootedAt = Date.now() - base.uptimeDays * 86_400_000;
  const services = (p: VosProduct, lines: ServiceLine[]): NodeServices =>
    nodeServices(p, lines, serviceSpec, bootedAt);
  // The weak publisher's CallManager service crashed once (a core dump waits for TAC); elsewhere none.
  // Not a security weakness: it follows the profile.
  const coreAt = new Date(Date.UTC(2025, 10, 3, 14, 22, 41));
  const cucmCores: [number, Date, string][] =
    seeding.profile === 'weak'
      ? [[355_732, coreAt, `core.24157.6.ccm.${Math.floor(coreAt.getTime() / 1000)}`]]
      : [];
  switch (product) {
    case 'cucm':
      return {
        ...base,
        productName: 'Cisco Unified Communications Manager',
        activeVersion: '15.0.1.11900-40',
        inactiveVersion: '14.0.1.13900-155',
        ip: cluster().find((n) => n.name === hostname)?.ip ?? '10.10.20.1',
        services: services('cucm', cucmServices(w)),
        replicationServers: () =>
          cluster()
            .filter((n) => n.product === 'callmanager')
            .map((n): [string, string] => [n.name, n.ip]),
        cluster,
        coreFiles: cucmCores,
      };
    case 'imp':
      return {
        ...base,
        productName: 'Cisco Unified Communications Manager IM and Presence',
        activeVersion: '15.0.1.10000-12',
        inactiveVersion: '14.0.1.13900-7',
        ip: '10.10.20.5',
        services: services('imp', impServices(w)),
        replicationServers: () => [[hostname, '10.10.20.5']],
        cluster,
        coreFiles: [],
      };
    case 'cuc':
      return {
        ...base,
        productName: 'Cisco Unity Connection',
        activeVersion: '15.0.1.10000-1',
        inactiveVersion: '14.0.1.13900-11',
        ip: '10.10.20.8',
        services: services('cuc', cucServices(w)),
        replicationServers: () => [[hostname, '10.10.20.8']],
        // Unity Connection is a cluster of its own: its publisher (lab/cuc/start.ts adds the secondary
        // server of the site and enterprise scales).
        cluster: () => [{ name: hostname, ip: '10.10.20.8', role: 'Publisher', product: 'cuc' }],
        coreFiles: [],
      };
  }
}
