import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openRegisteredApps } from '../../../kernel/auth/registered-apps.ts';
import { runNamed } from '../../../kernel/cli/dispatch.ts';
import { readAudit } from '../../helpers/kernel.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { fakeIo } from './fake-io.ts';

describe('oauth_apps (operator command)', () => {
  const temp = tempStateDir();
  after(() => temp.cleanup());
  const run = async (...args: string[]) => {
    const io = fakeIo();
    const code = await runNamed('oauth_apps', [...args, '--state-dir', temp.dir], io);
    return { code, out: io.stdout, err: io.stderr };
  };

  it('lists nothing on a fresh installation', async () => {
    assert.deepEqual(await run('list'), { code: 0, out: 'No registered applications.\n', err: '' });
    const json = await run('list', '--json');
    assert.deepEqual(JSON.parse(json.out), []);
  });

  it('lists registrations (names quoted as data) and removes one, audited', async () => {
    const apps = openRegisteredApps(join(temp.dir, 'secrets', 'oauth_apps.json'), {
      max: 10,
      idleMs: 86_400_000,
    });
    const a = await apps.register(
      {
        client_name: 'Host "A"\nfake line',
        redirect_uris: ['http://127.0.0.1/cb'],
        grant_types: ['authorization_code'],
      },
      '127.0.0.9',
    );
    const b = await apps.register(
      { client_name: null, redirect_uris: ['https://b.example/cb'], grant_types: ['authorization_code'] },
      '127.0.0.9',
    );
    assert.ok(a.ok && b.ok);
    const text = await run('list');
    assert.equal(text.code, 0);
    assert.ok(text.out.includes(`${a.app.client_id}  "Host \\"A\\"\\nfake line"`), text.out);
    assert.ok(text.out.includes(`${b.app.client_id}  (no name)`));
    assert.match(text.out, /from 127\.0\.0\.9; last used .*; expires .* unless used/);
    assert.match(text.out, /redirect https:\/\/b\.example\/cb/);
    const json = JSON.parse((await run('list', '--json')).out) as { client_id: string; expires_at: string }[];
    assert.deepEqual(
      json.map((r) => r.client_id),
      [a.app.client_id, b.app.client_id],
    );

    const removed = await run('remove', a.app.client_id);
    assert.equal(removed.code, 0, removed.err);
    assert.equal(apps.get(a.app.client_id), undefined);
    assert.ok(apps.get(b.app.client_id));
    const record = readAudit(temp.dir).at(-1);
    assert.deepEqual(
      [record?.event, record?.status, record?.azp, record?.by],
      ['AUTH', 'APP_REMOVED', a.app.client_id, 'operator'],
    );
    const again = await run('remove', a.app.client_id);
    assert.equal(again.code, 1);
    assert.match(again.err, /no registered application/);
  });

  it('answers usage errors with exit code 2', async () => {
    for (const args of [
      [],
      ['purge'],
      ['remove'],
      ['remove', 'noc-agent'],
      ['list', 'extra'],
      ['remove', 'app.x', 'y'],
    ]) {
      const r = await run(...args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.err, /oauth_apps: /);
    }
  });
});
