import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openRegisteredApps, REGISTERED_APP_ID } from '../../../kernel/auth/registered-apps.ts';
import { StartupError } from '../../../kernel/errors/index.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const META = {
  client_name: 'Host',
  redirect_uris: ['http://127.0.0.1/cb'],
  grant_types: ['authorization_code' as const],
};
const HOUR = 3_600_000;

describe('registered applications (secrets/oauth_apps.json)', () => {
  const temp = tempStateDir();
  after(() => temp.cleanup());
  let n = 0;
  const file = () => join(temp.dir, `apps-${++n}.json`);

  it('are bounded: a registration when full is refused and nothing is evicted', async () => {
    const apps = openRegisteredApps(file(), { max: 2, idleMs: 24 * HOUR }, () => 1_000);
    const a = await apps.register(META, '127.0.0.1');
    const b = await apps.register(META, '127.0.0.1');
    assert.ok(a.ok && b.ok);
    const c = await apps.register(META, '127.0.0.1');
    assert.deepEqual(c, { ok: false, reason: 'full', count: 2, expired: [] });
    assert.equal(apps.size, 2);
    assert.match(a.app.client_id, REGISTERED_APP_ID);
    assert.notEqual(a.app.client_id, b.app.client_id);
    assert.ok(apps.get(a.app.client_id) && apps.get(b.app.client_id));
  });

  it('expire when unused for the idle period; use (written at most hourly) keeps them', async () => {
    let now = 0;
    const path = file();
    const apps = openRegisteredApps(path, { max: 10, idleMs: 24 * HOUR }, () => now);
    const used = await apps.register(META, '127.0.0.1');
    const idle = await apps.register(META, '127.0.0.1');
    assert.ok(used.ok && idle.ok);
    const writes = () => readFileSync(path, 'utf8');
    now = 30 * 60_000;
    const before = writes();
    await apps.touch(used.app.client_id);
    assert.equal(writes(), before, 'used within the hour: not written again');
    now = 12 * HOUR;
    await apps.touch(used.app.client_id);
    assert.notEqual(writes(), before);
    now = 24 * HOUR;
    assert.ok(apps.get(used.app.client_id));
    assert.equal(apps.get(idle.app.client_id), undefined, 'expired: no longer found');
    assert.equal(apps.size, 2, 'until purged');
    const purged = await apps.purgeIdle();
    assert.deepEqual(
      purged.map((a) => a.client_id),
      [idle.app.client_id],
    );
    assert.deepEqual(await apps.purgeIdle(), []);
    assert.equal(apps.size, 1);
  });

  it('a registration that needs room takes it from expired ones, reporting them', async () => {
    let now = 0;
    const apps = openRegisteredApps(file(), { max: 1, idleMs: HOUR }, () => now);
    const old = await apps.register(META, '127.0.0.1');
    now = 2 * HOUR;
    const fresh = await apps.register(META, '127.0.0.1');
    assert.ok(old.ok && fresh.ok);
    assert.deepEqual(
      fresh.expired.map((a) => a.client_id),
      [old.app.client_id],
    );
  });

  it('see changes made by another process (the operator command) at once', async () => {
    const path = file();
    const server = openRegisteredApps(path, { max: 10, idleMs: 24 * HOUR });
    const r = await server.register(META, '127.0.0.1');
    assert.ok(r.ok);
    const operator = openRegisteredApps(path, { max: 10, idleMs: 24 * HOUR });
    assert.equal((await operator.remove(r.app.client_id))?.client_id, r.app.client_id);
    assert.equal(server.get(r.app.client_id), undefined, 'the running server no longer finds it');
    const again = await server.register(META, '127.0.0.1');
    assert.ok(again.ok);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(path, 'utf8')) as object), [again.app.client_id]);
  });

  it('a damaged file stops startup; damaged later, the last good content stays in force', async () => {
    const path = file();
    writeFileSync(path, '{"app.short": {}}');
    assert.throws(() => openRegisteredApps(path, { max: 10, idleMs: HOUR }), StartupError);
    writeFileSync(path, '{}');
    const apps = openRegisteredApps(path, { max: 10, idleMs: 24 * HOUR });
    const r = await apps.register(META, '127.0.0.1');
    assert.ok(r.ok);
    writeFileSync(path, 'not json at all');
    assert.ok(apps.get(r.app.client_id), 'still known');
    assert.match(apps.problem ?? '', /not json|Unexpected token|JSON/i);
  });
});
