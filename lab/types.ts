import type { Credential, LabCredentials, LabPasswordKind } from './credentials.ts';
import type { CucState } from './cuc/state.ts';
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
  /** VOS CLI: time between "starting up" and the prompt. Default 300 ms; a real node takes 8 s. */
  loginDelayMs?: number;
  /** VOS CLI: extra time before a command answers, by command prefix (`'*'` for every command). */
  commandDelaysMs?: Record<string, number>;
  /** Serve AXLAPI.wsdl/AXLSoap.xsd/AXLEnums.xsd from here in the toolkit zip. Default `LAB_AXL_SCHEMA_DIR`. */
  axlSchemaDir?: string;
  /** RisPort requests allowed per minute (the enterprise parameter). Default 15. */
  risRateLimitPerMinute?: number;
  /** Devices per RisPort answer before StateInfo paging. Default 1000. */
  risMaxDevicesPerAnswer?: number;
  /** 'cucm15' wraps SelectCmDeviceResult in selectCmDeviceReturn (default); 'legacy' does not. */
  risResponseShape?: 'cucm15' | 'legacy';
  /** Registered phones seeded besides the demo phones (a benchmark can ask for 5,000). Default 0. */
  extraPhones?: number;
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
}

export interface LabPorts {
  https?: number;
  ssh?: number;
  http?: number;
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
  version?: string;
  /** Phones: model and screenshot format. */
  model?: string;
  screenshotFormat?: 'png' | 'bmp';
}

export interface LabInfo {
  profile: LabProfile;
  host: string;
  startedAt: string;
  /** The lab CA: pin it to verify every node's HTTPS certificate. */
  caCertPem: string;
  nodes: LabNodeInfo[];
}

/** Direct access to what the nodes hold and what they received. */
export interface LabState {
  log: LabLog;
  cucm: CucmState;
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
