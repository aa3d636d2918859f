import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BadRequestError } from '../errors/index.ts';
import { fixedKey, type HmacKeySource } from '../keys/shared-hmac-keys.ts';

/** Largest state a tool may hand back for its next round. */
export const MAX_TOOL_STATE_BYTES = 4096;
/** Largest sealed state accepted from a client (the tool's state, its binding and the MAC, base64url). */
const MAX_SEALED_CHARS = 8192;
const VERSION = 'v1';

/** Who a sealed state was issued to: it is good for that tool and that client only. */
export interface StateBinding {
  /** Absent: any tool of this client (the MCP layer's early check, which does not see the tool). */
  tool?: string;
  client: string;
}

/**
 * The multi-round-trip `requestState` a tool returns travels through the client and comes back as
 * attacker-controlled input. The kernel seals it (HMAC-SHA256 over the tool's state, the tool, the
 * client and an expiry) and opens it on the next round: a state that was altered, has expired, or was
 * issued to another tool or client is refused, so a tool only ever sees state it wrote itself for this
 * caller. Signed, not encrypted: tools never put secrets in it.
 */
export class RequestStateSeal {
  private readonly keys: HmacKeySource;

  /**
   * `key`: one key of this process (a restart voids outstanding states), or the keys every instance
   * shares (several instances: the next round may land on another one).
   */
  constructor(
    key: Buffer | HmacKeySource = randomBytes(32),
    private readonly ttlMs = 600_000,
    private readonly now: () => number = Date.now,
  ) {
    if (Buffer.isBuffer(key) && key.length < 32)
      throw new RangeError('the request-state key must be at least 32 bytes');
    this.keys = Buffer.isBuffer(key) ? fixedKey(key) : key;
  }

  seal(binding: Required<StateBinding>, state: string): string {
    if (Buffer.byteLength(state) > MAX_TOOL_STATE_BYTES)
      throw new Error(`${binding.tool} returned a request state over ${MAX_TOOL_STATE_BYTES} bytes`);
    const body = Buffer.from(
      JSON.stringify({ t: binding.tool, c: binding.client, s: state, e: this.now() + this.ttlMs }),
    ).toString('base64url');
    return `${VERSION}.${body}.${this.mac(this.keys.signing(), body)}`;
  }

  /** The tool's state, or BadRequestError when the sealed value is not one this server issued to `binding`. */
  open(binding: StateBinding, sealed: unknown): string {
    const refuse = (why: string): never => {
      throw new BadRequestError(
        `the request state is invalid or expired (${why}); call the tool again from the start`,
      );
    };
    if (typeof sealed !== 'string' || sealed.length > MAX_SEALED_CHARS) return refuse('malformed');
    const [version, body, mac, ...rest] = sealed.split('.');
    if (version !== VERSION || !body || !mac || rest.length > 0) return refuse('malformed');
    if (!this.verifies(body, mac)) return refuse('signature');
    let decoded: { t?: unknown; c?: unknown; s?: unknown; e?: unknown };
    try {
      decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof decoded;
    } catch {
      return refuse('malformed');
    }
    if (typeof decoded.e !== 'number' || decoded.e < this.now()) return refuse('expired');
    if (decoded.c !== binding.client || (binding.tool !== undefined && decoded.t !== binding.tool))
      return refuse('issued for another call');
    return typeof decoded.s === 'string' ? decoded.s : refuse('malformed');
  }

  /** Under any live key; a miss looks once more for a key another instance has just created. */
  private verifies(body: string, mac: string): boolean {
    const got = Buffer.from(mac);
    const match = () =>
      this.keys.verifying().some((k) => {
        const want = Buffer.from(this.mac(k, body));
        return want.length === got.length && timingSafeEqual(want, got);
      });
    return match() || (this.keys.refresh() && match());
  }

  private mac(key: Buffer, body: string): string {
    return createHmac('sha256', key).update(`mcp.requestState.${VERSION}.${body}`).digest('base64url');
  }
}
