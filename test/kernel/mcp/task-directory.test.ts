// MCP tasks across instances (kernel/mcp/tasks/task-directory.ts) against a real redis-server: a task
// started on one instance (its work runs there) is seen, awaited, listed and cancelled through another;
// another client's lookup finds nothing; with the local backend the directory is the task store alone.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { RedisBackend } from '../../../kernel/store/backend/redis-backend.ts';
import { RedisConnection } from '../../../kernel/store/backend/redis-connection.ts';
import { TaskDirectory } from '../../../kernel/mcp/tasks/task-directory.ts';
import { TaskStore, type TaskOutcome } from '../../../kernel/mcp/tasks/task-store.ts';
import { redisAvailable, startRedis, type RedisHandle } from '../../helpers/redis-server.ts';

const skip = redisAvailable();
if (skip) console.log(`# skipping the shared task tests: ${skip}`);

const LIMITS = { perClient: 4, total: 16, ttlMs: 60_000, pollIntervalMs: 50 };

/** Work that ends when the test says so (or is aborted). */
function gate() {
  let finish!: (o: TaskOutcome) => void;
  const done = new Promise<TaskOutcome>((r) => (finish = r));
  let aborted = false;
  const work = (signal: AbortSignal, status: (m: string) => void) => {
    status('halfway');
    signal.addEventListener('abort', () => {
      aborted = true;
      finish({ error: { code: -32603, message: 'aborted' } });
    });
    return done;
  };
  return { work, finish: (o: TaskOutcome) => finish(o), aborted: () => aborted };
}

describe('MCP tasks across instances', { skip }, () => {
  let redis: RedisHandle;
  const backends: RedisBackend[] = [];
  const dirs: TaskDirectory[] = [];
  before(async () => {
    redis = await startRedis();
    for (const id of ['t1', 't2']) {
      const conn = await RedisConnection.open({
        url: redis.url,
        passwordEnc: '',
        caFile: '',
        timeoutMs: 2000,
        privateKey: generateKeyPairSync('ed25519').privateKey,
      });
      const b = new RedisBackend(conn, id);
      backends.push(b);
      dirs.push(new TaskDirectory(new TaskStore(LIMITS), b));
    }
  });
  after(async () => {
    for (const d of dirs) d.close();
    await Promise.all(backends.map((b) => b.close()));
    await redis?.cleanup();
  });

  it('started on one, its status, result and listing are seen through the other; another client sees nothing', async () => {
    const [one, two] = dirs as [TaskDirectory, TaskDirectory];
    const g = gate();
    const started = one.start('alice', 'cucm_download_axl_toolkit', g.work);
    // Status messages reach the store at most once a second.
    await new Promise((r) => setTimeout(r, 1200));
    const seen = await two.get('alice', started.taskId);
    assert.equal(seen?.status, 'working');
    assert.equal(seen?.statusMessage, 'halfway');
    assert.equal(await two.get('mallory', started.taskId), undefined);
    assert.deepEqual(
      (await two.list('alice')).map((t) => t.taskId),
      [started.taskId],
    );
    assert.deepEqual(await two.list('mallory'), []);
    const waiting = two.settled('alice', started.taskId);
    g.finish({ result: { content: [{ type: 'text', text: 'done' }] } });
    const settled = await waiting;
    assert.equal(settled?.status, 'completed');
    assert.deepEqual(settled?.outcome, { result: { content: [{ type: 'text', text: 'done' }] } });
  });

  it('cancelled through the other instance: the work stops where it runs', async () => {
    const [one, two] = dirs as [TaskDirectory, TaskDirectory];
    const g = gate();
    const started = one.start('alice', 'common_export_report_pdf', g.work);
    await new Promise((r) => setTimeout(r, 100));
    const after = await two.cancel('alice', started.taskId);
    assert.equal(after?.status, 'cancelled');
    assert.ok(g.aborted(), 'the work was aborted on the instance running it');
    assert.equal(one.store.get('alice', started.taskId)?.status, 'cancelled');
    assert.equal(await two.cancel('mallory', started.taskId), undefined);
  });

  it('the local backend: the directory is the store alone (nothing shared)', async () => {
    const local = new TaskDirectory(new TaskStore(LIMITS));
    const other = new TaskDirectory(new TaskStore(LIMITS));
    try {
      const g = gate();
      const t = local.start('alice', 'x', g.work);
      assert.equal((await local.get('alice', t.taskId))?.status, 'working');
      assert.equal(await other.get('alice', t.taskId), undefined);
      g.finish({ result: {} });
      assert.equal((await local.settled('alice', t.taskId))?.status, 'completed');
    } finally {
      local.close();
      other.close();
    }
  });
});
