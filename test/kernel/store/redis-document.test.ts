// Shared JSON documents (kernel/store/backend/redis-document.ts) against a real redis-server, each instance
// standing for one server instance with its own pair of connections: a change made through one is seen
// by the other within milliseconds; concurrent updates from both lose nothing; an outage makes reads and
// updates refuse (fail closed) and, once the store is back, reads show what changed meanwhile; a local
// file seeds an empty store; a bad value in the store is not taken.
import assert from 'node:assert/strict';
import type { KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { StartupError, StateStoreUnavailableError } from '../../../kernel/errors/index.ts';
import { RedisConnection } from '../../../kernel/store/backend/redis-connection.ts';
import { RedisDocumentStore } from '../../../kernel/store/backend/redis-document.ts';
import type { DocumentOptions } from '../../../kernel/store/backend/state-backend.ts';
import { redisAvailable, startRedis, type RedisHandle } from '../../helpers/redis-server.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const skip = redisAvailable();
if (skip) console.log(`# skipping the redis document tests: ${skip}`);

type List = { items: string[] };
const options = (file?: string): DocumentOptions<List> => ({
  initial: () => ({ items: [] }),
  validate: (raw) => {
    const items = (raw as { items?: unknown })?.items;
    if (!Array.isArray(items) || !items.every((i) => typeof i === 'string'))
      throw new Error('does not have the expected shape (items: string[])');
    return { items };
  },
  ...(file ? { file } : {}),
});

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (ok()) return performance.now() - t0;
    if (performance.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

function readable(doc: RedisDocumentStore<List>): boolean {
  try {
    doc.read();
    return true;
  } catch {
    return false;
  }
}

describe('RedisDocumentStore (real redis-server)', { skip }, () => {
  let redis: RedisHandle;
  let one: RedisConnection;
  let two: RedisConnection;
  const docs: RedisDocumentStore<unknown>[] = [];
  const state = tempStateDir();
  let n = 0;

  const connect = (): Promise<RedisConnection> =>
    RedisConnection.open({
      url: redis.url,
      passwordEnc: '',
      caFile: '',
      timeoutMs: 1000,
      privateKey: undefined as unknown as KeyObject,
    });

  /** The same document opened through both instances. */
  async function pair(file?: string): Promise<[RedisDocumentStore<List>, RedisDocumentStore<List>, string]> {
    const name = `test-${++n}`;
    const a = await RedisDocumentStore.open(one, name, options(file), { pollMs: 100 });
    const b = await RedisDocumentStore.open(two, name, options(file), { pollMs: 100 });
    docs.push(a as RedisDocumentStore<unknown>, b as RedisDocumentStore<unknown>);
    return [a, b, name];
  }

  before(async () => {
    redis = await startRedis();
    one = await connect();
    two = await connect();
  });
  after(async () => {
    for (const d of docs) d.close();
    await one?.close();
    await two?.close();
    await redis?.cleanup();
    state.cleanup();
  });

  it('an update through one instance is read by the other within 1 s (measured)', async () => {
    const [a, b] = await pair();
    const delays: number[] = [];
    for (let i = 0; i < 20; i++) {
      await a.update((l) => ({ items: [...l.items, `x${i}`] }));
      assert.deepEqual(a.read().items.at(-1), `x${i}`, 'resolved means the writer reads it');
      delays.push(await until('seen by the other', () => b.read().items.includes(`x${i}`), 1000));
    }
    delays.sort((x, y) => x - y);
    console.log(
      `# visible on the other instance after: median ${delays[10]?.toFixed(1)} ms, max ${delays.at(-1)?.toFixed(1)} ms`,
    );
    assert.ok((delays.at(-1) ?? Infinity) < 1000);
  });

  it('a change whose notice was lost is still seen, by the version poll', async () => {
    const [a, b, name] = await pair();
    await a.update(() => ({ items: ['one'] }));
    await until('seen', () => b.read().items.length === 1);
    // A write that publishes nothing (as if the notice had been lost on the way).
    redis.cli(
      'EVAL',
      "redis.call('SET', KEYS[1], ARGV[1]); return redis.call('INCR', KEYS[2])",
      '2',
      `ucmcp:doc:${name}`,
      `ucmcp:doc:${name}:version`,
      JSON.stringify({ items: ['one', 'two'] }),
    );
    const ms = await until(
      'seen without a notice',
      () => b.read().items.length === 2 && a.read().items.length === 2,
      2000,
    );
    console.log(
      `# seen without a notice after ${ms.toFixed(0)} ms (poll every 100 ms here, 500 ms by default)`,
    );
  });

  it('50 concurrent updates from each instance lose none', async () => {
    const [a, b] = await pair();
    const runs: Promise<List>[] = [];
    for (let i = 0; i < 50; i++) {
      runs.push(a.update((l) => ({ items: [...l.items, `a${i}`] })));
      runs.push(b.update((l) => ({ items: [...l.items, `b${i}`] })));
    }
    await Promise.all(runs);
    await until(
      'both mirrors have all 100',
      () => a.read().items.length === 100 && b.read().items.length === 100,
    );
    assert.equal(new Set(a.read().items).size, 100);
    assert.deepEqual(a.read(), b.read());
  });

  it('a file seeds an empty store, and only an empty one', async () => {
    const file = join(state.dir, 'seed.json');
    writeFileSync(file, JSON.stringify({ items: ['revoked-before-the-upgrade'] }));
    const [a, b, name] = await pair(file);
    assert.deepEqual(a.read().items, ['revoked-before-the-upgrade']);
    assert.deepEqual(b.read().items, ['revoked-before-the-upgrade']);
    await a.update((l) => ({ items: [...l.items, 'later'] }));
    writeFileSync(file, JSON.stringify({ items: ['other'] }));
    const c = await RedisDocumentStore.open(one, name, options(file));
    docs.push(c as RedisDocumentStore<unknown>);
    assert.deepEqual(c.read().items, ['revoked-before-the-upgrade', 'later']);

    writeFileSync(join(state.dir, 'bad.json'), '{"items": [1]}');
    await assert.rejects(
      RedisDocumentStore.open(one, `test-${++n}`, options(join(state.dir, 'bad.json'))),
      (err) => err instanceof StartupError && /bad\.json.*expected shape/.test(err.message),
    );
  });

  it('a corrupt value in the store is not taken: the last good one stays, and the problem is told', async () => {
    const problems: string[] = [];
    const name = `test-${++n}`;
    const a = await RedisDocumentStore.open(one, name, options(), { pollMs: 100 });
    const b = await RedisDocumentStore.open(two, name, options(), {
      pollMs: 100,
      onProblem: (p) => problems.push(p),
    });
    docs.push(a as RedisDocumentStore<unknown>, b as RedisDocumentStore<unknown>);
    await a.update(() => ({ items: ['good'] }));
    await until('seen', () => b.read().items.length === 1);
    for (const bad of ['not json', '{"items": [42]}']) {
      redis.cli('SET', `ucmcp:doc:${name}`, bad);
      redis.cli('INCR', `ucmcp:doc:${name}:version`);
      await until('problem noticed', () => b.problem !== null);
      assert.deepEqual(b.read().items, ['good']);
      assert.match(b.problem ?? '', bad === 'not json' ? /does not parse/ : /expected shape/);
      // An update starts from the last good value and repairs the store.
      await b.update((l) => ({ items: [...l.items, 'after'] }));
      assert.deepEqual(JSON.parse(redis.cli('GET', `ucmcp:doc:${name}`)), { items: ['good', 'after'] });
      await until('repaired value taken', () => a.read().items.length === 2 && b.problem === null);
      await b.update(() => ({ items: ['good'] }));
    }
    assert.equal(problems.length, 2);
    // At startup there is no last good value to keep: the start stops, naming the document.
    redis.cli('SET', `ucmcp:doc:${name}`, 'garbage');
    await assert.rejects(
      RedisDocumentStore.open(one, name, options()),
      (err) => err instanceof StartupError && err.message.includes(name),
    );
  });

  it('store stopped: read and update refuse; back: reads show what changed while this instance was away', async () => {
    const [a, b, name] = await pair();
    await a.update(() => ({ items: ['before'] }));
    await until('seen', () => b.read().items.length === 1);

    await redis.stop();
    await until('both refuse reads', () => !readable(a) && !readable(b), 5000);
    assert.throws(() => a.read(), StateStoreUnavailableError);
    assert.throws(() => b.read(), StateStoreUnavailableError);
    await assert.rejects(
      a.update((l) => l),
      StateStoreUnavailableError,
    );

    // The store returns empty (no persistence): the first instance back writes its last copy again, so
    // nothing acknowledged is forgotten; b changes the document as soon as it is back, a notices it.
    await redis.start();
    await until('b back', () => readable(b), 10_000);
    await b.update((l) => ({ items: [...l.items, 'while-a-was-away'] }));
    await until(
      'a back and current',
      () => readable(a) && a.read().items.includes('while-a-was-away'),
      10_000,
    );
    assert.deepEqual(a.read().items, ['before', 'while-a-was-away']);
    assert.equal(redis.cli('EXISTS', `ucmcp:doc:${name}`), '1');
  });
});
