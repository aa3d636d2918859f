import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startTestKernel } from '../../helpers/kernel.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const FILES = [
  'secrets/tls_cert.pem',
  'secrets/tls_key.pem',
  'secrets/rsa_private.pem',
  'secrets/rsa_public.pem',
];

describe('first start in an empty state directory', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('creates certificate, keys and logs, then a second start reuses them unchanged', async () => {
    const first = await startTestKernel({ stateDir: state.dir, seedKeys: false });
    const created = Object.fromEntries(FILES.map((f) => [f, readFileSync(join(state.dir, f), 'utf8')]));
    assert.deepEqual(
      first.kernel.steps.map((s) => s.step),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
      'the 11 startup steps run in order',
    );
    const byName = Object.fromEntries(first.kernel.steps.map((s) => [s.name, s]));
    assert.equal(byName['tls-certificate']?.detail?.source, 'generated');
    assert.equal(byName['rsa-keys']?.detail?.source, 'generated');
    for (const s of first.kernel.steps.filter((x) => x.name !== 'integrity'))
      assert.ok(s.ms >= 0 && ['ok', 'deferred'].includes(s.outcome), s.name);
    // A development checkout is unsigned, and the test kernel runs in warn mode: a warning, not "ok".
    assert.equal(byName.integrity?.outcome, 'warn');
    const res = await first.fetch(`${first.url}/health`);
    assert.equal(await res.text(), 'ok');
    await first.stop();

    for (const f of ['secrets/tls_key.pem', 'secrets/rsa_private.pem']) {
      assert.equal(statSync(join(state.dir, f)).mode & 0o777, 0o600, `${f} is 0600`);
    }
    assert.ok(statSync(join(state.dir, 'logs/app.log')).size > 0);
    assert.ok(statSync(join(state.dir, 'logs/audit.log')).size > 0);

    const second = await startTestKernel({ stateDir: state.dir, seedKeys: false });
    const steps = Object.fromEntries(second.kernel.steps.map((s) => [s.name, s]));
    assert.equal(steps['tls-certificate']?.detail?.source, 'reused');
    assert.equal(steps['rsa-keys']?.detail?.source, 'verified');
    await second.stop();
    for (const f of FILES)
      assert.equal(readFileSync(join(state.dir, f), 'utf8'), created[f], `${f} unchanged`);

    const app = readFileSync(join(state.dir, 'logs/app.log'), 'utf8').split('\n').filter(Boolean);
    const stepLines = app
      .map((l) => JSON.parse(l) as { startup?: { step: number; ms: number } })
      .filter((r) => r.startup);
    assert.equal(stepLines.length, 22, 'each step of both starts is logged with its duration and outcome');
    const audit = readFileSync(join(state.dir, 'logs/audit.log'), 'utf8').split('\n').filter(Boolean);
    const startups = audit
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r.status === 'STARTUP_COMPLETE');
    assert.equal(startups.length, 2);
    assert.equal(startups[0]?.event, 'SERVER');
    assert.ok(typeof startups[0]?.version === 'string' && Array.isArray(startups[0]?.modules));
    assert.equal(typeof startups[0]?.client_count, 'number');
  });
});
