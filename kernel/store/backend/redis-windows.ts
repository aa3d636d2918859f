import type { Redis } from 'ioredis';
import { StateStoreUnavailableError } from '../../errors/index.ts';
import type { SlidingWindowStore, WindowResult } from '../sliding-window.ts';
import { STORE_RETRY_AFTER_SECONDS } from './redis-connection.ts';

/**
 * The check and the record of a hit in one step on the server: a sorted set per key whose scores are the
 * events' times. Scripts run one at a time on the server, so of several instances taking the last slot
 * of a window exactly one gets it. An event at exactly now - window has left (the range is inclusive),
 * as in MemorySlidingWindowStore. When the window is full, the slot that frees first is the one `limit`
 * places from the newest (all of them when the limit was lowered below what the window holds).
 */
const HIT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n >= limit then
  local at = n - limit
  if at < 0 then at = 0 end
  local oldest = now
  local first = redis.call('ZRANGE', KEYS[1], at, at, 'WITHSCORES')
  if first[2] then oldest = tonumber(first[2]) end
  local wait = oldest + window - now
  if wait < 1 then wait = 1 end
  return {0, n, wait}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window + 1000)
return {1, n + 1, 0}
`;

const COUNT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
return redis.call('ZCARD', KEYS[1])
`;

/** The scripts as commands of the client (ioredis sends EVALSHA, and the script itself once on NOSCRIPT). */
interface WindowCommands {
  ucmcpWindowHit(
    key: string,
    now: number,
    windowMs: number,
    limit: number,
    member: string,
  ): Promise<number[]>;
  ucmcpWindowCount(key: string, now: number, windowMs: number): Promise<number>;
}

/**
 * Sliding windows in a Redis 7 or Valkey 8 server shared by every instance: rate limits, failure counts
 * and node budgets hold for all instances together. Times are the caller's clock (`now`), so the
 * instances' clocks must agree (NTP) within a small part of the shortest window.
 *
 * Fail closed: when the server cannot be reached (the client is created without an offline queue, so a
 * command fails at once while disconnected, or after its command timeout) every method rejects with
 * StateStoreUnavailableError; nothing is counted in this instance's memory instead.
 */
export class RedisSlidingWindowStore implements SlidingWindowStore {
  readonly #client: Redis;
  readonly #commands: WindowCommands;
  readonly #prefix: string;
  readonly #instance: string;
  /** Makes each event a distinct member: two events at the same millisecond must both count. */
  #sequence = 0;

  /**
   * @param client  an ioredis client (enableOfflineQueue: false, a commandTimeout), shared with the
   *                backend's other stores; the scripts are defined on it here.
   * @param prefix  prepended to every key, e.g. "ucmcp:win:".
   * @param instance  this instance's name, which keeps the members of different instances apart.
   */
  constructor(client: Redis, prefix: string, instance: string) {
    this.#client = client;
    this.#prefix = prefix;
    this.#instance = instance;
    client.defineCommand('ucmcpWindowHit', { numberOfKeys: 1, lua: HIT });
    client.defineCommand('ucmcpWindowCount', { numberOfKeys: 1, lua: COUNT });
    this.#commands = client as unknown as WindowCommands;
  }

  async hit(key: string, windowMs: number, limit: number, now = Date.now()): Promise<WindowResult> {
    const member = `${this.#instance}:${now}:${(this.#sequence = (this.#sequence + 1) % 1e9)}`;
    const r = await this.#run(() =>
      this.#commands.ucmcpWindowHit(this.#prefix + key, now, windowMs, limit, member),
    );
    const admitted = r[0] === 1;
    return {
      admitted,
      count: Number(r[1]),
      retryAfterMs: Number(r[2]),
      // The member is the event's name in the set: unique across instances, so it is the ticket.
      ...(admitted ? { ticket: member } : {}),
    };
  }

  async release(key: string, ticket: string): Promise<void> {
    await this.#run(() => this.#client.zrem(this.#prefix + key, ticket));
  }

  async count(key: string, windowMs: number, now = Date.now()): Promise<number> {
    return Number(await this.#run(() => this.#commands.ucmcpWindowCount(this.#prefix + key, now, windowMs)));
  }

  async reset(key: string): Promise<void> {
    await this.#run(() => this.#client.del(this.#prefix + key));
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (err) {
      throw unavailable(err);
    }
  }
}

/**
 * The coded 503 for a failed command. The reason names the kind of failure only (a connection error's
 * code, a timeout, the server's error word such as NOPERM), never the client's options or a password.
 */
export function unavailable(err: unknown): StateStoreUnavailableError {
  if (err instanceof StateStoreUnavailableError) return err;
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  const message = typeof e.message === 'string' ? e.message : '';
  const reason =
    typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)
      ? e.code
      : /timed out/i.test(message)
        ? 'command timed out'
        : /enableOfflineQueue|not writeable|Connection is closed/i.test(message)
          ? 'not connected'
          : e.name === 'ReplyError' && /^[A-Z]+\b/.test(message)
            ? `server error ${/^[A-Z]+/.exec(message)?.[0]}`
            : 'unexpected error';
  const coded = new StateStoreUnavailableError(`the shared state store cannot be used now (${reason})`);
  // As the backend's other stores say (RedisConnection.run): the client reconnects on its own.
  coded.retryAfterSeconds = STORE_RETRY_AFTER_SECONDS;
  return coded;
}
