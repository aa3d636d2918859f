// The one place a node's service state lives. `utils service list`, `utils service restart`, `utils
// diagnose` and ControlCenterServices (lab/serviceability/control-center/) all read and change this
// table, so a service stopped through the SOAP API shows stopped on the CLI and in the audits too.
import type { VosProduct } from './state.ts';

/** What Control Center says about a service (ControlCenterServices `ServiceSpecification`). */
export interface ServiceSpec {
  name: string;
  /** `ServiceTypes` of the WSDL: a process, or a web application in Tomcat. */
  type: 'Service' | 'Servlet';
  /**
   * A feature service (activated per node in Service Activation). Only these can be started, stopped or
   * restarted through the API ("Only deployable services can be started, stopped, or restarted",
   * developer.cisco.com, Control Center and Control Center Extended Overview); network services cannot.
   */
  deployable: boolean;
  group: string;
  dependents: string[];
}

export interface ServiceRow extends ServiceSpec {
  activated: boolean;
  running: boolean;
  /** Epoch ms when it last started (meaningful while running). */
  startedAt: number;
}

/** The CLI's line for a service: name, state, and the note `utils service list` prints after it. */
export type ServiceLine = [string, 'STARTED' | 'STOPPED', string?];

export type ControlType = 'Start' | 'Stop' | 'Restart';

/**
 * Reason codes of the Control Center answers. Names and numbers as a public Control Center client's
 * dictionary has them (phnowicki/serviceabilitytools, serviceabilitytools.pl, `reasondictionary`); no
 * Cisco document read here lists them, so the numbers are that tool's, not confirmed by Cisco.
 */
export const REASON = {
  success: { code: -1, text: 'Successful' },
  noSuchService: { code: -1010, text: 'No such service' },
  alreadyStarted: { code: -1039, text: 'Component already started' },
  alreadyStopped: { code: -1040, text: 'Component already stopped' },
  notSupported: { code: -1045, text: 'Operation not supported' },
  notActivated: { code: -1068, text: 'Service Not Activated' },
  commandedOut: { code: -1069, text: 'Commanded Out of Service' },
} as const;

export type Reason = (typeof REASON)[keyof typeof REASON];

export interface ControlOutcome {
  row?: ServiceRow;
  /** The service's reason code after the operation: success, or why nothing was done. */
  reason: Reason;
}

export class NodeServices {
  readonly #rows: ServiceRow[];
  readonly #now: () => number;

  constructor(rows: ServiceRow[], now: () => number = Date.now) {
    this.#rows = rows;
    this.#now = now;
  }

  list(): readonly ServiceRow[] {
    return this.#rows;
  }

  /** Names are matched whole; Control Center and the CLI both ignore case. */
  find(name: string): ServiceRow | undefined {
    const key = name.trim().toLowerCase();
    return this.#rows.find((r) => r.name.toLowerCase() === key);
  }

  /** What `utils service list` prints for each service. */
  lines(): ServiceLine[] {
    return this.#rows.map((r) => [r.name, r.running ? 'STARTED' : 'STOPPED', ...noteOf(r)] as ServiceLine);
  }

  /** Why a stopped service is stopped (undefined while running). */
  stoppedReason(row: ServiceRow): Reason | undefined {
    if (row.running) return undefined;
    return row.activated ? REASON.commandedOut : REASON.notActivated;
  }

  /**
   * Start, Stop or Restart. Refused (nothing changes) for an unknown name, a network service (not
   * deployable), a service not activated, or a start of a running / stop of a stopped service.
   */
  control(name: string, type: ControlType): ControlOutcome {
    const row = this.find(name);
    if (!row) return { reason: REASON.noSuchService };
    if (!row.deployable) return { row, reason: REASON.notSupported };
    if (!row.activated) return { row, reason: REASON.notActivated };
    if (type === 'Start' && row.running) return { row, reason: REASON.alreadyStarted };
    if (type === 'Stop' && !row.running) return { row, reason: REASON.alreadyStopped };
    if (type === 'Stop') row.running = false;
    else {
      row.running = true;
      row.startedAt = this.#now();
    }
    return { row, reason: REASON.success };
  }

  /**
   * `utils service restart`: the CLI restarts network services too, unlike the API, but not a service
   * that is not activated.
   */
  cliRestart(name: string): { row?: ServiceRow; restarted: boolean } {
    const row = this.find(name);
    if (!row || !row.activated) return { ...(row ? { row } : {}), restarted: false };
    row.running = true;
    row.startedAt = this.#now();
    return { row, restarted: true };
  }
}

function noteOf(r: ServiceRow): [string] | [] {
  if (r.running) return [];
  return [r.activated ? REASON.commandedOut.text : REASON.notActivated.text];
}

/**
 * Builds a node's table from its lines as `utils service list` shows them at start (the weaknesses
 * decide those) and the product's catalogue. A service stopped with another note than "Service Not
 * Activated" is activated but commanded out of service.
 */
export function nodeServices(
  product: VosProduct,
  initial: ServiceLine[],
  catalogue: (product: VosProduct, name: string) => Omit<ServiceSpec, 'name'>,
  bootedAt: number,
  now?: () => number,
): NodeServices {
  const rows = initial.map(([name, state, note]): ServiceRow => {
    const spec = catalogue(product, name);
    return {
      name,
      ...spec,
      activated: state === 'STARTED' || note !== REASON.notActivated.text,
      running: state === 'STARTED',
      startedAt: bootedAt,
    };
  });
  return new NodeServices(rows, now);
}
