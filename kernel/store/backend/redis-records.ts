import type { RedisConnection } from './redis-connection.ts';
import type { RecordStore } from './state-backend.ts';

/** Most keys one SCAN step returns: a sweep never blocks the store for long. */
const SCAN_COUNT = 500;

/**
 * Records in the shared store: one string key each under the prefix, with the store's own expiry
 * (PX), so an instance that dies leaves nothing that outlives its time to live.
 */
export class RedisRecordStore implements RecordStore {
  constructor(private readonly conn: RedisConnection) {}

  async get(key: string): Promise<string | undefined> {
    const v = await this.conn.run((c) => c.get(this.conn.key(`r:${key}`)));
    return v ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.conn.run((c) => c.set(this.conn.key(`r:${key}`), value, 'PX', ttl(ttlMs)));
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    const r = await this.conn.run((c) => c.set(this.conn.key(`r:${key}`), value, 'PX', ttl(ttlMs), 'NX'));
    return r === 'OK';
  }

  async take(key: string): Promise<string | undefined> {
    // GETDEL (Redis 6.2+, Valkey): of several instances taking the same record, one gets it.
    const v = await this.conn.run((c) => c.getdel(this.conn.key(`r:${key}`)));
    return v ?? undefined;
  }

  async delete(key: string): Promise<void> {
    await this.conn.run((c) => c.del(this.conn.key(`r:${key}`)));
  }

  async keys(prefix: string): Promise<string[]> {
    const head = this.conn.key('r:');
    const pattern = `${head}${globEscape(prefix)}*`;
    return this.conn.run(async (c) => {
      const found = new Set<string>();
      let cursor = '0';
      do {
        const [next, batch] = await c.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
        for (const k of batch) found.add(k.slice(head.length));
        cursor = next;
      } while (cursor !== '0');
      return [...found];
    });
  }
}

/** PX must be a positive integer. */
function ttl(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}

/** A caller's prefix taken literally in a MATCH pattern. */
function globEscape(s: string): string {
  return s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
