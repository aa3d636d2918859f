// The receive-only SFTP endpoint of cucm_cdr_get, driven by the lab node's own SFTP push over loopback:
// the one expected file arrives whole; a wrong password, another path, a file over the size cap and a
// transfer that never comes are all refused, and the listener is gone afterwards.
import assert from 'node:assert/strict';
import { createConnection } from 'node:net';
import { describe, it } from 'node:test';
import { sftpPush } from '../../../lab/serviceability/cdr/push.ts';
import {
  oneAtATime,
  RECEIVE_DIRECTORY,
  startReceiver,
} from '../../../plugins/_shared/serviceability/cdr/receiver.ts';

const NAME = 'cdr_StandAloneCluster_01_202611261000_42';
const opts = { bindAddress: '127.0.0.1', port: 0, fileName: NAME, maxBytes: 10_000, timeoutMs: 5_000 };

const target = (
  r: { port: number; user: string; password: string },
  over: Partial<Parameters<typeof sftpPush>[0]> = {},
) => ({
  host: '127.0.0.1',
  port: r.port,
  user: r.user,
  password: r.password,
  directory: RECEIVE_DIRECTORY,
  name: NAME,
  ...over,
});

const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

describe('CDR file receiver', () => {
  it('takes the one file, whole, then stops listening', async () => {
    const r = await startReceiver(opts);
    assert.match(r.user, /^cdr[0-9a-f]{12}$/);
    assert.ok(r.password.length >= 32);
    const data = '"cdrRecordType"\nINTEGER\n1\n'.repeat(50);
    await sftpPush(target(r), data);
    assert.equal((await r.file).toString('utf8'), data);
    r.close();
    assert.equal(await listening(r.port), false);
  });

  it('refuses a wrong password and any other path', async () => {
    const r = await startReceiver(opts);
    await assert.rejects(sftpPush(target(r, { password: 'guess' }), 'x'), /authentication/i);
    await assert.rejects(sftpPush(target(r, { directory: '/etc' }), 'x'), /denied/i);
    await assert.rejects(sftpPush(target(r, { name: 'cdr_other_01_202611261000_1' }), 'x'), /denied/i);
    r.close();
    await assert.rejects(r.file, /abandoned/);
  });

  it('a file over the size cap is refused with a coded error', async () => {
    const r = await startReceiver({ ...opts, maxBytes: 1000 });
    await assert.rejects(sftpPush(target(r), 'x'.repeat(5000)));
    await assert.rejects(r.file, { code: 'SERVICEABILITY_ERROR', message: /more than 1000 bytes/ });
  });

  it('a transfer that never comes ends at the timeout', async () => {
    const r = await startReceiver({ ...opts, timeoutMs: 200 });
    await assert.rejects(r.file, { code: 'SERVICEABILITY_ERROR', message: /did not deliver/ });
    assert.equal(await listening(r.port), false);
  });
});

describe('CDR transfers on one port', () => {
  it('two transfers started together take turns on the port instead of failing to listen', async () => {
    const probe = await startReceiver(opts);
    const port = probe.port;
    probe.close();
    const transfer = (name: string, data: string) =>
      oneAtATime(`127.0.0.1:${port}`, async () => {
        const r = await startReceiver({ ...opts, port, fileName: name });
        try {
          await sftpPush(target(r, { name }), data);
          return (await r.file).toString('utf8');
        } finally {
          r.close();
        }
      });
    const [a, b] = await Promise.all([transfer(NAME, 'first'), transfer(`${NAME}0`, 'second')]);
    assert.deepEqual([a, b], ['first', 'second']);
  });
});
