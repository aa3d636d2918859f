import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExportGate } from '../../../plugins/common/reports/export-gate.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('export admission', () => {
  it('runs at most the slots at once, one per client, and a flooding client never holds two', async () => {
    const gate = new ExportGate(2);
    const running = new Map<string, number>();
    const releases: (() => void)[] = [];
    let peak = 0;
    const job = (client: string) =>
      gate.run(client, async () => {
        running.set(client, (running.get(client) ?? 0) + 1);
        const total = [...running.values()].reduce((a, b) => a + b, 0);
        peak = Math.max(peak, total);
        assert.ok((running.get(client) ?? 0) <= 1, `${client} runs two exports at once`);
        await new Promise<void>((resolve) => releases.push(resolve));
        running.set(client, (running.get(client) ?? 0) - 1);
        return client;
      });
    const flood = Array.from({ length: 10 }, () => job('mallory'));
    const alice = job('alice');
    await tick();
    // mallory holds one slot, alice the other: alice is running although mallory queued ten.
    assert.equal(running.get('alice'), 1);
    assert.equal(running.get('mallory'), 1);
    const bob = job('bob');
    while (releases.length > 0) {
      (releases.shift() as () => void)();
      await tick();
      await tick();
    }
    assert.deepEqual(await Promise.all([alice, bob, ...flood]), [
      'alice',
      'bob',
      ...flood.map(() => 'mallory'),
    ]);
    assert.equal(peak, 2);
  });

  it('a failed export frees its slot, and a cancelled one never starts', async () => {
    const gate = new ExportGate(1);
    await assert.rejects(
      gate.run('a', () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    const ac = new AbortController();
    ac.abort(new Error('cancelled'));
    let started = false;
    await assert.rejects(
      gate.run(
        'a',
        async () => {
          started = true;
        },
        ac.signal,
      ),
      /cancelled/,
    );
    assert.equal(started, false);
    assert.equal(await gate.run('b', async () => 'ran'), 'ran');
  });

  it('an export cancelled while it renders hands no PDF on (nothing to write), and frees its slot', async () => {
    const gate = new ExportGate(1);
    const ac = new AbortController();
    const rendering = gate.run(
      'a',
      async () => {
        // The render is not interrupted; the client cancels while it runs.
        ac.abort(new Error('cancelled while rendering'));
        await tick();
        return Buffer.from('%PDF-');
      },
      ac.signal,
    );
    await assert.rejects(rendering, /cancelled while rendering/);
    assert.equal(await gate.run('b', async () => 'ran'), 'ran');
  });
});
