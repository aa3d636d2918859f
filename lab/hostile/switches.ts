// The hostile lab mode: switches that turn the simulated nodes against their client, set at start
// (`startLab({ hostile })`) or live (`lab.state.hostile.set(...)`), for every node or for named ones.
// Each switch stands for one attack a compromised or broken managed node could mount; the client must
// refuse or bound every one with a coded error. What the nodes did is counted in `stats`.

/** Where an XML attack sits: a DOCTYPE whose entities read a file or a URL, or expand without bound. */
export type XmlAttack =
  /** `<!ENTITY xxe SYSTEM "file:...">` used in the answer: a parser resolving it reads a local file. */
  | 'external-file'
  /** The same pointing at a URL: a parser resolving it opens a connection (SSRF). */
  | 'external-url'
  /** `%remote;` parameter entity naming `xmlTarget`, resolved while reading the DTD itself. */
  | 'parameter-entity'
  /** Ten nested entities of ten each: 10^9 "lol" if expanded. */
  | 'billion-laughs'
  /** One 9,999-character entity referenced 50,000 times: half a gigabyte if expanded (no nesting). */
  | 'quadratic-blowup';

/** What `/plugins/axlsqltoolkit.zip` serves instead of the toolkit (each otherwise a complete schema). */
export type ToolkitAttack =
  /** An entry `../../hostile-canary.txt`. */
  | 'traversal'
  /** An entry `/tmp/hostile-canary.txt`. */
  | 'absolute-path'
  /** An entry `schema\..\..\hostile-canary.txt` (a Windows-style separator). */
  | 'backslash-path'
  /** A symlink entry `schema/15.0/AXLEnums.xsd` pointing at `/etc/passwd`. */
  | 'symlink'
  /** A schema entry that honestly declares 1 GiB uncompressed (about 1 MiB in the zip). */
  | 'bomb-declared'
  /** A schema entry that declares 1,000 bytes and inflates to 256 MiB. */
  | 'bomb-lying'
  /** 100,000 tiny entries beside the schema. */
  | 'many-entries'
  /** AXLSoap.xsd starts with the DOCTYPE of the `xml` attack (external-file unless set). */
  | 'schema-doctype'
  /** AXLSoap.xsd includes `xmlTarget` (a URL or a local path) instead of AXLEnums.xsd. */
  | 'schema-import';

/** VOS CLI over SSH: the login succeeds and the shell opens, then nothing comes back. */
export type SshAttack =
  /** The start-up banner, then never the `admin:` prompt. */
  | 'no-prompt'
  /** Commands are read and never answered (no output, no prompt). */
  | 'no-answer';

/** The HTTPS certificate changes under the client (new connections see it; idle ones are closed). */
export type CertificateAttack =
  /**
   * A renewal by the served certificate's signer: a new key and certificate from the lab CA (or an
   * attacker holding the CA); with self-signed nodes, a regenerated self-signed one for the same name.
   */
  | 'same-ca'
  /** A new self-signed key and certificate (an impostor). */
  | 'self-signed'
  /** Another self-signed one, different from `self-signed`. */
  | 'self-signed-2';

export interface HugeAnswer {
  /** Bytes streamed; default endless (the lab stops at 64 GiB or when the client hangs up). */
  bytes?: number;
  /** Send `content-length` (a client can refuse at once); default chunked, no length. */
  declareLength?: boolean;
  /** Only answers to paths starting with this (e.g. `/plugins/`); default every path. */
  pathPrefix?: string;
}

export interface HostileOptions {
  /**
   * SOAP answers of AXL (CUCM, IM&P), RisPort70 and the serviceability services (PerfMon...), and the
   * RisPort70 WSDL, carry this DOCTYPE; with
   * `toolkit: 'schema-doctype'` only the toolkit's schema does.
   */
  xml?: XmlAttack;
  /** The XML attack in a SOAP fault (HTTP 500) instead of a successful answer. */
  xmlInFault?: boolean;
  /** What external entities and `schema-import` name. Default `file:///etc/hostname`. */
  xmlTarget?: string;
  toolkit?: ToolkitAttack;
  /** Every HTTPS (and phone HTTP) answer of the node is this stream, built chunk by chunk, never whole. */
  hugeAnswer?: HugeAnswer;
  ssh?: SshAttack;
  certificate?: CertificateAttack;
}

export interface HostileStats {
  /** Answers carrying an XML or toolkit attack. */
  attacksServed: number;
  /** Huge answers started, and those the client hung up on before the end. */
  hugeAnswers: number;
  hugeAnswersCut: number;
  /** Bytes of huge answers written so far. */
  hugeBytesSent: number;
  /** SSH shells now held without a prompt or an answer; back to 0 once every client hung up. */
  sshStuckOpen: number;
  /** SSH shells the attack ever held. */
  sshStuckTotal: number;
}

const NONE: Readonly<HostileOptions> = Object.freeze({});

/** The live switches: `set` replaces the attacks of every node (no `nodes`) or of the nodes named. */
export class HostileSwitches {
  #all: HostileOptions;
  readonly #byNode = new Map<string, HostileOptions>();
  readonly #certificateListeners = new Map<string, (attack: CertificateAttack | undefined) => void>();
  readonly stats: HostileStats = {
    attacksServed: 0,
    hugeAnswers: 0,
    hugeAnswersCut: 0,
    hugeBytesSent: 0,
    sshStuckOpen: 0,
    sshStuckTotal: 0,
  };

  constructor(initial: HostileOptions = {}) {
    this.#all = { ...initial };
  }

  /** The attacks a node mounts now. */
  for(node: string): Readonly<HostileOptions> {
    return this.#byNode.get(node) ?? this.#all ?? NONE;
  }

  /** Replaces the attacks of the named nodes, or of every node (clearing per-node ones). */
  set(options: HostileOptions, nodes?: string[]): void {
    if (nodes === undefined) {
      this.#all = { ...options };
      this.#byNode.clear();
    } else for (const n of nodes) this.#byNode.set(n, { ...options });
    for (const [node, listener] of this.#certificateListeners) listener(this.for(node).certificate);
  }

  /** Every node back to normal. */
  clear(): void {
    this.set({});
  }

  /** The node's HTTPS listener: told the certificate attack now and at every change. */
  onCertificate(node: string, listener: (attack: CertificateAttack | undefined) => void): void {
    this.#certificateListeners.set(node, listener);
    listener(this.for(node).certificate);
  }
}
