import { randomUUID } from 'node:crypto';
import type { RedisConnection } from './redis-connection.ts';
import type { LeaseStore } from './state-backend.ts';

// Extends the lease only if this instance holds it (else takes it if free): one step in the store, so
// two instances never both believe they hold it.
const ACQUIRE = `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if v then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

// Deletes it only if it is still ours: a lease that expired and was taken by another stays theirs.
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Leases in the shared store: the value names the holding process (its instance name and a token of
 * this process, so two processes misconfigured with one INSTANCE_ID still never share a lease), the
 * expiry is the store's own.
 */
export class RedisLeaseStore implements LeaseStore {
  private readonly holder: string;
  constructor(
    private readonly conn: RedisConnection,
    instance: string,
  ) {
    this.holder = `${instance}/${randomUUID()}`;
  }

  async acquire(name: string, ttlMs: number): Promise<boolean> {
    const r = await this.conn.run((c) =>
      c.eval(ACQUIRE, 1, this.conn.key(`lease:${name}`), this.holder, Math.max(1, Math.ceil(ttlMs))),
    );
    return r === 1;
  }

  async release(name: string): Promise<void> {
    await this.conn.run((c) => c.eval(RELEASE, 1, this.conn.key(`lease:${name}`), this.holder));
  }
}
