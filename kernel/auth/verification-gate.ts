import type { IpBlacklist } from './ip-blacklist.ts';

export interface VerificationLimits {
  /** Secret verifications running at once, whoever asked (bcrypt runs on libuv's shared thread pool). */
  global: number;
  /** Secret verifications running at once for one address. */
  perIp: number;
}

/** Why a verification was not run; each is answered 429 with Retry-After. */
export type GateRefusal = 'ip_blocked' | 'failure_threshold' | 'address_busy' | 'server_busy';

export type SecretCheck =
  | { outcome: 'valid' }
  /** Already counted toward the blacklist: report it with `counted: true`. */
  | { outcome: 'invalid' }
  | { outcome: 'refused'; reason: GateRefusal; retryAfterSeconds: number; message: string };

const MESSAGES: Record<GateRefusal, string> = {
  ip_blocked: 'too many authentication failures from this address; try again later',
  failure_threshold: 'too many authentication attempts from this address; try again later',
  address_busy: 'another authentication from this address is in progress; try again shortly',
  server_busy: 'the server is checking too many credentials at once; try again shortly',
};

/**
 * The one way a client secret is checked (token endpoint, login form). A bcrypt comparison costs tens
 * to hundreds of milliseconds of a thread-pool thread, so it is the thing a flood aims at. Before it
 * runs: the address must not be listed, its failure is reserved in the blacklist (so parallel guesses
 * stop at the threshold, on every instance together), and the global and per-address bounds (this
 * instance's threads) must have room. What does not fit is
 * refused at once, never queued: a queue would only move the flood into memory.
 */
export class SecretVerificationGate {
  private running = 0;
  private readonly runningPerIp = new Map<string, number>();

  constructor(
    private readonly verifier: { verify(presented: string, hash: string | undefined): Promise<boolean> },
    private readonly blacklist: IpBlacklist,
    private readonly limits: VerificationLimits,
  ) {}

  /** Checks `presented` against `hash` (undefined: an unknown client, still compared at full cost). */
  async check(ip: string, presented: string, hash: string | undefined): Promise<SecretCheck> {
    const reservation = await this.blacklist.reserve(ip);
    if (!reservation.ok)
      return refused(
        reservation.why === 'blocked' ? 'ip_blocked' : 'failure_threshold',
        reservation.retryAfterSeconds,
      );
    const mine = this.runningPerIp.get(ip) ?? 0;
    const busy: GateRefusal | null =
      this.running >= this.limits.global ? 'server_busy' : mine >= this.limits.perIp ? 'address_busy' : null;
    if (busy) {
      await reservation.settle('succeeded');
      return refused(busy, 1);
    }
    this.running++;
    this.runningPerIp.set(ip, mine + 1);
    let outcome: 'valid' | 'invalid' | 'error' = 'error';
    try {
      outcome = (await this.verifier.verify(presented, hash)) ? 'valid' : 'invalid';
    } finally {
      this.running--;
      const left = (this.runningPerIp.get(ip) ?? 1) - 1;
      if (left > 0) this.runningPerIp.set(ip, left);
      else this.runningPerIp.delete(ip);
      // A verifier fault is the server's, not a guess: the reservation is given back. Awaited: the
      // caller's recordFailure({ counted: true }) must find this failure in the window.
      await reservation.settle(outcome === 'invalid' ? 'failed' : 'succeeded');
    }
    return { outcome };
  }
}

function refused(reason: GateRefusal, retryAfterSeconds: number): SecretCheck {
  return { outcome: 'refused', reason, retryAfterSeconds, message: MESSAGES[reason] };
}
