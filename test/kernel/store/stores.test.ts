import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { writeFileAtomic } from '../../../kernel/store/atomic-file.ts';
import { FileDocumentStore, MemoryDocumentStore } from '../../../kernel/store/document-store.ts';
import { MemorySlidingWindowStore } from '../../../kernel/store/sliding-window.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

describe('state stores', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('writeFileAtomic replaces content whole and leaves no temporary file', () => {
    const p = join(state.dir, 'a.json');
    writeFileAtomic(p, 'one');
    writeFileAtomic(p, 'two');
    assert.equal(readFileSync(p, 'utf8'), 'two');
    assert.deepEqual(readdirSync(state.dir), ['a.json']);
  });

  it('FileDocumentStore serialises concurrent updates and persists each before resolving', async () => {
    const p = join(state.dir, 'doc.json');
    const validate = (raw: unknown) => raw as { n: number; seen: number[] };
    const store = new FileDocumentStore(p, () => ({ n: 0, seen: [] as number[] }), validate);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.update((d) => ({ n: d.n + 1, seen: [...d.seen, i] }))),
    );
    assert.equal(store.read().n, 50);
    const reopened = new FileDocumentStore(p, () => ({ n: -1, seen: [] }), validate);
    assert.equal(reopened.read().n, 50, 'what resolved is on disk');
  });

  it('a failed update changes neither memory nor disk, and later updates still run', async () => {
    const p = join(state.dir, 'doc2.json');
    const store = new FileDocumentStore(
      p,
      () => ({ v: 1 }),
      (r) => r as { v: number },
    );
    await assert.rejects(
      store.update(() => {
        throw new Error('boom');
      }),
    );
    assert.equal(store.read().v, 1);
    await store.update((d) => ({ v: d.v + 1 }));
    assert.equal(store.read().v, 2);
  });

  it('a state file that does not parse is an error, never silently reset', () => {
    const p = join(state.dir, 'broken.json');
    writeFileSync(p, '{"half":');
    assert.throws(
      () =>
        new FileDocumentStore(
          p,
          () => ({}),
          (r) => r,
        ),
      /does not parse/,
    );
    assert.equal(readFileSync(p, 'utf8'), '{"half":');
  });

  it('MemoryDocumentStore isolates callers from its internal value', async () => {
    const store = new MemoryDocumentStore({ list: [1] });
    await store.update((d) => ({ list: [...d.list, 2] }));
    assert.deepEqual(store.read().list, [1, 2]);
  });

  it('the sliding window admits `limit` events per window and says when the next slot frees', async () => {
    const w = new MemorySlidingWindowStore();
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) assert.equal((await w.hit('k', 60_000, 3, t0 + i * 1000)).admitted, true);
    const refused = await w.hit('k', 60_000, 3, t0 + 10_000);
    assert.equal(refused.admitted, false);
    assert.equal(refused.retryAfterMs, 50_000, 'the oldest event leaves the window 60 s after it happened');
    assert.equal(
      await w.count('k', 60_000, t0 + 60_500),
      2,
      'events age out one by one (sliding, not fixed)',
    );
    assert.equal((await w.hit('k', 60_000, 3, t0 + 60_500)).admitted, true);
    assert.equal(await w.count('other', 60_000, t0), 0);
  });

  it('the sliding window gives back the one event a ticket names (release), and only once', async () => {
    const w = new MemorySlidingWindowStore();
    const t0 = 1_000_000;
    const [a, b] = [await w.hit('k', 60_000, 2, t0), await w.hit('k', 60_000, 2, t0)];
    const refused = await w.hit('k', 60_000, 2, t0 + 1);
    assert.equal(refused.admitted, false);
    assert.equal(refused.ticket, undefined, 'nothing recorded, nothing to release');
    assert.ok(a.ticket && b.ticket && a.ticket !== b.ticket, 'two events at the same millisecond differ');
    await w.release('k', a.ticket);
    await w.release('k', a.ticket);
    await w.release('other', b.ticket);
    assert.equal(await w.count('k', 60_000, t0 + 1), 1, 'a released once; b untouched by another key');
    assert.equal((await w.hit('k', 60_000, 2, t0 + 2)).admitted, true, 'the slot is free again');
    await w.reset('k');
    await w.release('k', b.ticket);
    assert.equal(await w.count('k', 60_000, t0 + 2), 0);
  });
});
