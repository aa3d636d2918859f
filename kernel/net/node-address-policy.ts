// Where the server may connect to reach a managed node (NODE_ALLOWED_NETWORKS), decided on the
// addresses themselves, after name resolution, inside the resolution the socket uses: what was checked
// is what is connected to, with no second lookup a rebinding DNS server could answer differently.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import { NodeAddressDeniedError } from '../errors/index.ts';
import { deniedAddress, deniedName, normalName, type DeniedRule } from './denied-addresses.ts';
import {
  formatIp,
  inRange,
  parseIp,
  parseRange,
  unmapped,
  type IpAddress,
  type IpRange,
} from './ip-address.ts';

/**
 * The node address policy as plugins see it (`ctx.kernel.nodeAddresses`). Every connection toward a
 * managed node takes its options from `dialOptions`; a credential is checked with `checkStorable`.
 */
export interface NodeAddressGuard {
  /**
   * Options to spread into net.connect, tls.connect or an http(s) request toward host:port: a `lookup`
   * that resolves once and hands the socket only the addresses the policy allows. Throws
   * NodeAddressDeniedError at once for a literal address (in any notation) or a name that is refused.
   */
  dialOptions(host: string, port: number): { lookup: LookupFunction };
  /**
   * Refuses (NodeAddressDeniedError) a credential whose address is already known to be refused: a
   * literal, a refused name, or a name whose every address is. A name that does not resolve (yet) passes.
   */
  checkStorable(host: string, port: number): Promise<void>;
}

/** The resolution a connection uses: every address of the name, as dns.lookup with `all` gives them. */
export type NodeResolver = (
  host: string,
  options: { family?: number; hints?: number },
) => Promise<LookupAddress[]>;

export const systemResolver: NodeResolver = (host, options) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { ...options, all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

type AllowEntry =
  { kind: 'range'; range: IpRange } | { kind: 'name'; name: string } | { kind: 'suffix'; suffix: string };

const NAME =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** One NODE_ALLOWED_NETWORKS entry: a CIDR or address, a host name, or `*.domain` (any name below it). */
export function parseAllowEntry(text: string): AllowEntry | undefined {
  const range = parseRange(text);
  if (range) return { kind: 'range', range };
  const t = normalName(text.trim());
  if (t.startsWith('*.') && NAME.test(t.slice(2))) return { kind: 'suffix', suffix: t.slice(1) };
  // A name made only of digits and dots would be read as an IPv4 address by the resolver.
  if (NAME.test(t) && parseIp(t) === undefined) return { kind: 'name', name: t };
  return undefined;
}

export interface NodeAddressPolicyOptions {
  /** NODE_ALLOWED_NETWORKS, parsed by the config schema; empty: every address not always refused. */
  allowed: readonly string[];
  resolver?: NodeResolver;
  /** Longest wait for the store-time resolution; past it the name counts as not resolving. Default 5 s. */
  storeLookupMs?: number;
}

interface Refusal {
  address: string;
  why: string;
}

export class NodeAddressPolicy implements NodeAddressGuard {
  readonly #allowed: AllowEntry[];
  readonly #resolve: NodeResolver;
  readonly #storeLookupMs: number;
  readonly #listeners: { ip: IpAddress; port: number }[] = [];

  constructor(o: NodeAddressPolicyOptions) {
    this.#allowed = o.allowed.map((text) => {
      const entry = parseAllowEntry(text);
      if (!entry) throw new Error(`not a CIDR, address or host name: ${text}`);
      return entry;
    });
    this.#resolve = o.resolver ?? systemResolver;
    this.#storeLookupMs = o.storeLookupMs ?? 5000;
  }

  /**
   * The server's own listener (from server.address()), refused at its port: a credential pointing
   * there would make the server call itself. A wildcard address stands for every local address.
   */
  addListener(address: string, port: number): void {
    const ip = parseIp(address);
    if (ip) this.#listeners.push({ ip: unmapped(ip), port });
  }

  dialOptions(host: string, port: number): { lookup: LookupFunction } {
    const sync = this.#refuseOutright(host, port);
    if (sync) throw denial(host, port, sync);
    return { lookup: this.#lookup(port) };
  }

  async checkStorable(host: string, port: number): Promise<void> {
    const sync = this.#refuseOutright(host, port);
    if (sync) throw denial(host, port, sync);
    if (parseIp(host)) return;
    let addresses: LookupAddress[];
    try {
      addresses = await withTimeout(this.#resolve(host, {}), this.#storeLookupMs);
    } catch {
      return;
    }
    const refusals = addresses.map((a) => this.#classify(a.address, port, host));
    const first = refusals[0];
    if (first && refusals.every((r) => r !== undefined)) throw denial(host, port, first);
  }

  /** Why `ip` (an address the connection would use for `host`) is refused at `port`, if it is. */
  #classify(address: string, port: number, host: string): Refusal | undefined {
    const parsed = parseIp(address);
    if (!parsed) return { address, why: 'not an IP address' };
    const ip = unmapped(parsed);
    const shown = formatIp(ip);
    const rule = deniedAddress(ip);
    if (rule) return { address: shown, why: alwaysWhy(rule) };
    if (this.#isOwnListener(ip, port))
      return {
        address: shown,
        why: "this server's own listening address and port (SERVER_HOST:SERVER_PORT)",
      };
    if (this.#allowed.length === 0 || this.#nameAllowed(host)) return undefined;
    if (this.#allowed.some((e) => e.kind === 'range' && inRange(ip, e.range))) return undefined;
    return { address: shown, why: 'outside NODE_ALLOWED_NETWORKS' };
  }

  /** A refused name, or a literal address (any notation) that is refused: no resolution needed. */
  #refuseOutright(host: string, port: number): Refusal | undefined {
    const name = deniedName(host);
    if (name) return { address: normalName(host), why: alwaysWhy(name) };
    return parseIp(host) ? this.#classify(host, port, host) : undefined;
  }

  #nameAllowed(host: string): boolean {
    if (parseIp(host)) return false;
    const n = normalName(host);
    return this.#allowed.some(
      (e) => (e.kind === 'name' && e.name === n) || (e.kind === 'suffix' && n.endsWith(e.suffix)),
    );
  }

  #isOwnListener(ip: IpAddress, port: number): boolean {
    return this.#listeners.some((l) => {
      if (l.port !== port) return false;
      if (l.ip.value !== 0n) return l.ip.family === ip.family && l.ip.value === ip.value;
      // 0.0.0.0 or ::: every loopback address and every address of every interface reach it.
      if (inRange(ip, LOOPBACK4) || inRange(ip, LOOPBACK6)) return true;
      return localAddresses().some((a) => a.family === ip.family && a.value === ip.value);
    });
  }

  /**
   * The connection's own resolution: a literal (any notation) is taken as is, a name is resolved once;
   * refused addresses are dropped and the socket gets only the rest, or NodeAddressDeniedError.
   */
  #lookup(port: number): LookupFunction {
    return (hostname, options, callback) => {
      const outright = this.#refuseOutright(hostname, port);
      if (outright) {
        callback(denial(hostname, port, outright), []);
        return;
      }
      const literal = parseIp(hostname);
      const resolved: Promise<LookupAddress[]> = literal
        ? Promise.resolve([{ address: formatIp(unmapped(literal)), family: unmapped(literal).family }])
        : this.#resolve(hostname, {
            ...(familyOf(options.family) ? { family: familyOf(options.family) } : {}),
            ...(options.hints ? { hints: options.hints } : {}),
          });
      resolved.then(
        (addresses) => {
          const allowed = addresses.filter((a) => !this.#classify(a.address, port, hostname));
          const first = allowed[0];
          if (!first) {
            const refusal = addresses[0] && this.#classify(addresses[0].address, port, hostname);
            callback(
              refusal
                ? denial(hostname, port, refusal)
                : Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }),
              [],
            );
          } else if (options.all) callback(null, allowed);
          else callback(null, first.address, first.family);
        },
        (err: NodeJS.ErrnoException) => callback(err, []),
      );
    };
  }

  /** Never printed whole (it is spread into endpoint objects that may be logged). */
  toJSON(): string {
    return '[node address policy]';
  }
}

const LOOPBACK4 = parseRange('127.0.0.0/8') as IpRange;
const LOOPBACK6 = parseRange('::1/128') as IpRange;

function familyOf(f: number | string | undefined): number | undefined {
  if (f === 4 || f === 'IPv4') return 4;
  if (f === 6 || f === 'IPv6') return 6;
  return undefined;
}

function localAddresses(): IpAddress[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((i) => parseIp(i.address))
    .filter((ip): ip is IpAddress => ip !== undefined)
    .map(unmapped);
}

function alwaysWhy(rule: DeniedRule): string {
  return `${rule.why} (${rule.range}), refused whatever NODE_ALLOWED_NETWORKS says`;
}

function denial(host: string, port: number, r: Refusal): NodeAddressDeniedError {
  const where = host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
  const via = normalName(host) === r.address ? '' : ` (${r.address})`;
  return new NodeAddressDeniedError(`the node address policy refuses ${where}${via}: ${r.why}`);
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('resolution timed out')), ms);
    t.unref();
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** The deny list alone: what any connection gets when no policy was handed to it. */
export const DENY_LIST_ONLY: NodeAddressGuard = new NodeAddressPolicy({ allowed: [] });
