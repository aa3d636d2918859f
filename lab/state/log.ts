/** One HTTP request a simulated node answered. */
export interface RequestRecord {
  time: string;
  node: string;
  service: 'axl' | 'ris' | 'toolkit' | 'cupi' | 'phone' | 'serviceability';
  method: string;
  path: string;
  /** AXL or RIS operation, CUPI resource path; `<Service>.<operation>` for a serviceability API. */
  operation?: string;
  user?: string;
  status: number;
}

/** One VOS CLI command line typed into a shell. */
export interface CommandRecord {
  time: string;
  node: string;
  user: string;
  command: string;
  outcome: 'ok' | 'failed' | 'invalid' | 'cancelled';
}

/** One change a client made to a node's data (AXL write, SQL update, CUPI write, CLI setting). */
export interface WriteRecord {
  time: string;
  node: string;
  via: 'axl' | 'sql' | 'cupi' | 'cli';
  operation: string;
  target: string;
}

/**
 * What the lab received, in order, so a test can prove that a call reached a node (and which one) rather
 * than trusting the client's own report. `clear()` lets a test start from a clean log.
 */
export class LabLog {
  readonly requests: RequestRecord[] = [];
  readonly commands: CommandRecord[] = [];
  readonly writes: WriteRecord[] = [];

  request(entry: Omit<RequestRecord, 'time'>): void {
    this.requests.push({ time: new Date().toISOString(), ...entry });
  }

  command(entry: Omit<CommandRecord, 'time'>): void {
    this.commands.push({ time: new Date().toISOString(), ...entry });
  }

  write(entry: Omit<WriteRecord, 'time'>): void {
    this.writes.push({ time: new Date().toISOString(), ...entry });
  }

  clear(): void {
    this.requests.length = 0;
    this.commands.length = 0;
    this.writes.length = 0;
  }
}
