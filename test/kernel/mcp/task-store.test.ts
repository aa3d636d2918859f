import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { TaskLimitError } from '../../../kernel/errors/index.ts';
import { TaskStore, type TaskOutcome, type TaskWork } from '../../../kernel/mcp/tasks/task-store.ts';

/** Work that runs until `finish` is called or its signal aborts (then it rejects, as a tool would). */
function controllable(): { work: TaskWork; finish: (o: TaskOutcome) => void; aborted: () => boolean } {
  let finish: (o: TaskOutcome) => void = () => undefined;
  let signal: AbortSignal | undefined;
  const work: TaskWork = (s, status) => {
    signal = s;
    status('started');
    return new Promise<TaskOutcome>((resolve, reject) => {
      finish = resolve;
      s.addEventListener('abort', () => reject(s.reason as Error), { once: true });
    });
  };
  return { work, finish: (o) => finish(o), aborted: () => signal?.aborted ?? false };
}

const tick = () => new Promise((r) => setImmediate(r));
const OK: TaskOutcome = { result: { content: [{ type: 'text', text: 'done' }] } };

describe('the kernel task store', () => {
  let clock = 1_000_000;
  const stores: TaskStore[] = [];
  const store = (perClient = 2, total = 3, ttlMs = 60_000) => {
    const s = new TaskStore({ perClient, total, ttlMs, pollIntervalMs: 1000 }, () => clock);
    stores.push(s);
    return s;
  };
  after(() => {
    for (const s of stores) s.close();
  });

  it('a task belongs to its client: another client finds, waits on and cancels nothing', async () => {
    const s = store();
    const w = controllable();
    const t = s.start('alice', 'tool', w.work);
    assert.match(t.taskId, /^[A-Za-z0-9_-]{24}$/, '144 random bits, URL-safe');
    assert.notEqual(s.start('alice', 'tool', controllable().work).taskId, t.taskId);
    await tick();
    assert.equal(s.get('alice', t.taskId)?.statusMessage, 'started');
    assert.equal(s.get('bob', t.taskId), undefined);
    assert.equal(s.cancel('bob', t.taskId), undefined);
    assert.equal(await s.settled('bob', t.taskId), undefined);
    assert.deepEqual(s.list('bob'), []);
    assert.equal(w.aborted(), false);
    assert.equal(s.get('alice', t.taskId)?.status, 'working');
    w.finish(OK);
    const done = await s.settled('alice', t.taskId);
    assert.equal(done?.status, 'completed');
    assert.deepEqual(done?.outcome, OK);
  });

  it('cancel aborts the work and is final, whatever the work returns afterwards', async () => {
    const s = store();
    const w = controllable();
    const t = s.start('alice', 'tool', w.work);
    await tick();
    assert.equal(s.cancel('alice', t.taskId)?.status, 'cancelled');
    assert.equal(w.aborted(), true);
    w.finish(OK);
    await tick();
    const v = s.get('alice', t.taskId);
    assert.equal(v?.status, 'cancelled');
    assert.equal(v?.outcome, undefined);
  });

  it('at the per-client bound the oldest finished task makes room; all running: TASK_LIMIT', async () => {
    const s = store(2, 10);
    const a = controllable();
    const first = s.start('alice', 'tool', a.work);
    clock += 1;
    const second = s.start('alice', 'tool', controllable().work);
    clock += 1;
    assert.throws(() => s.start('alice', 'tool', controllable().work), TaskLimitError);
    // Another client is not held back by alice's tasks.
    s.start('bob', 'tool', controllable().work);
    await tick();
    a.finish(OK);
    await tick();
    const third = s.start('alice', 'tool', controllable().work);
    assert.equal(s.get('alice', first.taskId), undefined, 'the finished one was dropped');
    assert.ok(s.get('alice', second.taskId) && s.get('alice', third.taskId));
  });

  it('the server-wide bound holds over all clients', () => {
    const s = store(5, 2);
    s.start('a', 'tool', controllable().work);
    s.start('b', 'tool', controllable().work);
    assert.throws(
      () => s.start('c', 'tool', controllable().work),
      /TASK_LIMIT|this server already runs 2 tasks/,
    );
    assert.equal(s.count(), 2);
  });

  it('past its TTL a task is gone, and still running its work is aborted; a client may ask for less TTL', async () => {
    const s = store(5, 5, 10_000);
    const w = controllable();
    const t = s.start('alice', 'tool', w.work, 999_999_999);
    assert.equal(t.ttlMs, 10_000, 'capped at the setting');
    assert.equal(s.start('alice', 'tool', controllable().work, 500).ttlMs, 500);
    await tick();
    clock += 10_000;
    assert.equal(s.get('alice', t.taskId), undefined);
    assert.equal(w.aborted(), true);
    await tick();
    assert.equal(s.count(), 0);
  });
});
