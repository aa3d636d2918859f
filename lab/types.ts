import type { Credential, LabCredentials, LabPasswordKind } from './credentials.ts';
import type { CucState } from './cuc/state.ts';
import type { AxlVersionWording } from './cucm/versions.ts';
import type { LabScale } from './scale/spec.ts';
import type { HostileOptions, HostileSwitches } from './hostile/index.ts';
import type { CucmState } from './cucm/state.ts';
import type { ImpState } from './imp/state.ts';
import type { PhoneState } from './phones/state.ts';
import type { LabLog } from './state/log.ts';

export type LabProfile = 'weak' | 'hardened';
export type LabProduct = 'cucm' | 'imp' | 'cuc' | 'phone';

export interface LabOptions {
  /** Address every listener binds to. Default 127.0.0.1. */
  host?: string;
  /** First of consecutive fixed ports (see README for the order); default 0: every port ephemeral. */
  basePort?: number;
  /** Persistent host keys and the lab CA. Default `LAB_STATE_DIR`, else `<os tmpdir>/uc-mcp-lab`. */
  stateDir?: string;
  /** Seeded weaknesses ('weak', the default) or none ('hardened'). */
  profile?: LabProfile;
  /**
   * Exactly these weaknesses (ids from lab/weaknesses/), overriding the profile: any combination, for
   * the audit tests. Default `LAB_WEAKNESSES` when set, else the profile's.
   */
  weaknesses?: readonly string[];
  /**
   * VOS CLI speed: `realistic` takes a real node's time (login 8 s, the slow commands seconds: see
   * lab/vos/timing.ts); `fast` (default) answers at once. Default `LAB_TIMING`, else fast.
   */
  timing?: 'fast' | 'realistic';
  /** VOS CLI: time between "starting up" and the prompt. Default 300 ms (8 s with realistic timing). */
  loginDelayMs?: number;
  /** VOS CLI: extra time before a command answers, by command prefix (`'*'` for every command). */
  commandDelaysMs?: Record<string, number>;
  /** Serve AXLAPI.wsdl/AXLSoap.xsd/AXLEnums.xsd from here in the toolkit zip. Default `LAB_AXL_SCHEMA_DIR`. */
  axlSchemaDir?: string;
  /** RisPort requests allowed per minute (the enterprise parameter). Default 15. */
  risRateLimitPerMinute?: number;
  /** PerfmonService requests allowed per minute and node (the node's rate control). Default 80. */
  perfmonRateLimitPerMinute?: number;
  /** CDRonDemandService requests allowed per minute on the CDR Repository node. Default 10. */
  cdrRateLimitPerMinute?: number;
  /** The port CDRonDemand get_file pushes files to (a real node: 22). Default 22. */
  cdrPushPort?: number;
  /** LogCollectionPortTypeService requests allowed per minute and node. Default 15. */
  logCollectionRateLimitPerMinute?: number;
  /** Devices per RisPort answer before StateInfo paging. Default 1000. */
  risMaxDevicesPerAnswer?: number;
  /** 'cucm15' wraps SelectCmDeviceResult in selectCmDeviceReturn (default); 'legacy' does not. */
  risResponseShape?: 'cucm15' | 'legacy';
  /** Registered phones seeded besides the demo phones (a benchmark can ask for 5,000). Default 0. */
  extraPhones?: number;
  /**
   * How big the clusters are: `small` (the demo), `site` (2,000 phones and users) or `enterprise`
   * (25,000 phones, 20,000 users, 3 subscribers...; lab/scale/spec.ts). Default `LAB_SCALE`, else small.
   */
  scale?: LabScale;
  /** Seed of the scale data: the same seed gives the same data. Default `LAB_SEED`, else a fixed one. */
  seed?: string;
  /**
   * Release of each CUCM node by name (`cucm-pub`, `cucm14-pub`...), e.g. `14.0.1.13900-155`: it sets the
   * AXL schemas the node serves (versions.ts) and what getCCMVersion and the CLI report.
   */
  versions?: Record<string, string>;
  /**
   * The second cluster's publisher `cucm14-pub` on CUCM 14.0 with its own AXL listener. Default: on in
   * the site and enterprise scales, off in small.
   */
  legacyCluster?: boolean;
  /** How the AXL HTTP 599 page words the versions a node serves. Default `and`. */
  axlVersionWording?: AxlVersionWording;
  /** AXL answers larger than this are the "Query request too large" fault. Default 8 MB. */
  axlMaxResponseBytes?: number;
  /** Time the AXL service takes before answering each POST, as a busy publisher would. Default 0. */
  axlServiceTimeMs?: number;
  /** More AXL writes than `maxWrites` within `windowMs` get HTTP 503. Default off. */
  axlWriteThrottle?: { maxWrites: number; windowMs: number };
  /**
   * Passwords the nodes accept instead of the demo ones (AXL application user, VOS CLI administrator,
   * CUPI administrator, the phones' end user jsmith); `info.nodes[].credentials` shows them. Default: the demo ones.
   */
  passwords?: Partial<Record<LabPasswordKind, string>>;
  /** Hostile mode: the nodes attack their client (see lab/hostile/); `state.hostile` changes it live. Default off. */
  hostile?: HostileOptions;
  /**
   * Who signs the nodes' HTTPS (Tomcat) certificates: each node itself, as a node fresh from install
   * ('self-signed'), or the lab CA, as after an administrator installed CA-signed ones ('lab-ca').
   * Default `LAB_CERTIFICATES`, else per product: self-signed when its self-signed weakness is seeded
   * (every product in the weak profile), CA-signed when not (the hardened profile).
   */
  certificates?: LabCertificates;
}

export type LabCertificates = 'self-signed' | 'lab-ca';

export interface LabPorts {
  https?: number;
  ssh?: number;
  http?: number;
  /** Unity Connection serves CUPI on 443 as well as 8443: the lab's second HTTPS listener. */
  https443?: number;
}

export interface LabNodeCredentials {
  axl?: Credential;
  os?: Credential;
  cupi?: Credential;
  phone?: Credential;
}

/** One simulated node, as a client configures it. Plain JSON. */
export interface LabNodeInfo {
  product: LabProduct;
  name: string;
  /** The address listeners bind to (127.0.0.1 by default). */
  host: string;
  /** `host:port` of the node's main service (HTTPS, or HTTP for a phone): what the server stores as the host. */
  address: string;
  ports: LabPorts;
  urls: Record<string, string>;
  credentials: LabNodeCredentials;
  /** OpenSSH form `SHA256:<base64 without padding>` of the VOS CLI host key. */
  sshHostKeyFingerprint?: string;
  /** The HTTPS (Tomcat) certificate the node presents, PEM: what a client pins as `cert_pem`. */
  certPem?: string;
  /** Its SHA-256 fingerprint, `AB:CD:...` as `openssl x509 -fingerprint -sha256` prints it. */
  certFingerprint?: string;
  /**
   * Whether that certificate is self-signed (pin `certPem`) rather than issued by the lab CA (pin
   * `LabInfo.caCertPem`). Set for every node serving HTTPS; phones serve plain HTTP.
   */
  selfSigned?: boolean;
  version?: string;
  /**
   * A publisher's other nodes (CUCM subscribers, the IM&P subscriber, Unity Connection's secondary server
   * at the site and enterprise scales), each with its own HTTPS listener and certificate serving Tomcat's
   * serviceability APIs (PerfMon, ControlCenterServices...) with its own state; AXL stays the publisher's,
   * and their CLI is not simulated (no SSH port). Store a credential under each one's `name` with its
   * `address`, as for the publisher.
   */
  subscribers?: LabNodeInfo[];
  /** Phones: model and screenshot format. */
  model?: string;
  screenshotFormat?: 'png' | 'bmp';
}

export interface LabInfo {
  profile: LabProfile;
  host: string;
  startedAt: string;
  /** The scale the lab was generated at, and from which seed. */
  scale: LabScale;
  seed: string;
  /**
   * Who signed the nodes' HTTPS certificates (see LabOptions.certificates): every node alike, or
   * 'mixed' when only some products' self-signed weaknesses are seeded (each node's `selfSigned` says).
   */
  certificates: LabCertificates | 'mixed';
  /** The lab CA: it signs the HTTPS certificate of every node whose `selfSigned` is false. */
  caCertPem: string;
  /** The weakness ids the lab seeded (lab/weaknesses/): the profile's, or exactly LAB_WEAKNESSES. */
  weaknesses: string[];
  nodes: LabNodeInfo[];
}

/** Direct access to what the nodes hold and what they received. */
export interface LabState {
  log: LabLog;
  cucm: CucmState;
  /** The 14.0 cluster's publisher, when the lab has one (`legacyCluster`). */
  cucm14?: CucmState;
  imp: ImpState;
  cuc: CucState;
  phones: PhoneState[];
  /** The hostile mode's live switches and what the attacks did. */
  hostile: HostileSwitches;
  /** What the nodes accept, live: a test changes a password here as an administrator would on the node. */
  credentials: LabCredentials;
}

export interface Lab {
  info: LabInfo;
  state: LabState;
  /** Closes every listener and connection. */
  stop(): Promise<void>;
}
