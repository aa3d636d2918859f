import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LicenseError } from '../../../kernel/errors/index.ts';
import { LicenseGate } from '../../../kernel/license/gate.ts';
import type { LicenseStatus } from '../../../kernel/runtime.ts';
import { issueLicense } from '../../../kernel/vendor/license.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { publisherKey, testKey, testLogs, type TestLogs } from '../integrity/fixture.ts';

const vendor = testKey('vendor');
const HOST = 'uc-mcp.test';
const EXP = Date.parse('2030-06-01T00:00:00Z');
const DAY = 86_400_000;

function license(products = ['cucm', 'imp'], key = vendor.privateKey): Promise<string> {
  return issueLicense({
    privateKey: key,
    publisher: 'vendor',
    customer: 'ACME',
    hostname: HOST,
    products,
    tier: 'standard',
    expiresAt: new Date(EXP),
    graceDays: 10,
    issuedAt: new Date(EXP - 100 * DAY),
  });
}

interface Harness {
  gate: LicenseGate;
  logs: TestLogs;
  file: string;
  clock: { now: number };
  changes: [string | null, string][];
  cleanup(): Promise<void>;
}

function harness(): Harness {
  const state = tempStateDir();
  const logs = testLogs(state.dir);
  const file = join(state.dir, 'secrets', 'license.jwt');
  mkdirSync(join(state.dir, 'secrets'), { mode: 0o700 });
  const clock = { now: EXP - 5 * DAY };
  const gate = new LicenseGate({
    path: file,
    keys: () => [publisherKey(vendor)],
    audit: logs.audit,
    log: logs.log,
    clock: () => clock.now,
    hostname: HOST,
    checkSeconds: 60,
    debounceMs: 100,
  });
  const changes: [string | null, string][] = [];
  gate.onChange((prev, next) => changes.push([prev?.state ?? null, next.state]));
  return {
    gate,
    logs,
    file,
    clock,
    changes,
    async cleanup() {
      await gate.close();
      await logs.close();
      state.cleanup();
    },
  };
}

const stateChanges = (logs: TestLogs) =>
  logs
    .auditRecords()
    .filter((r) => r.status === 'LICENSE_STATE_CHANGE')
    .map((r) => ({ previous: r.previous, new: r.new, expiry: r.expiry }));

async function until(what: () => boolean, ms: number): Promise<number> {
  const start = Date.now();
  while (!what()) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - start;
}

describe('LicenseGate', () => {
  it('VALID -> GRACE -> EXPIRED with a controllable clock, each change audited with previous, new, expiry', async () => {
    const h = harness();
    try {
      writeFileSync(h.file, await license());
      assert.equal(h.gate.current().state, 'INVALID', 'not evaluated yet');
      assert.equal((await h.gate.load()).state, 'VALID');
      await h.gate.load();
      assert.equal(stateChanges(h.logs).length, 1, 'no record when nothing changed');

      h.clock.now = EXP + DAY;
      assert.equal((await h.gate.load()).state, 'GRACE');
      h.clock.now = EXP + 10 * DAY;
      assert.equal((await h.gate.load()).state, 'EXPIRED');

      const expiry = '2030-06-01T00:00:00.000Z';
      assert.deepEqual(stateChanges(h.logs), [
        { previous: 'UNKNOWN', new: 'VALID', expiry },
        { previous: 'VALID', new: 'GRACE', expiry },
        { previous: 'GRACE', new: 'EXPIRED', expiry },
      ]);
      const records = h.logs.auditRecords().filter((r) => r.status === 'LICENSE_STATE_CHANGE');
      assert.ok(records.every((r) => r.event === 'SERVER'));
      assert.equal(records[0]?.severity, undefined);
      assert.equal(records[2]?.severity, 'WARNING');
      assert.deepEqual(h.changes, [
        [null, 'VALID'],
        ['VALID', 'GRACE'],
        ['GRACE', 'EXPIRED'],
      ]);
    } finally {
      await h.cleanup();
    }
  });

  it('assertProduct: LicenseError (503) unless VALID or GRACE and the product is licensed', async () => {
    const h = harness();
    try {
      const refused = (product: string, message: RegExp) =>
        assert.throws(
          () => h.gate.assertProduct(product),
          (err: unknown) => err instanceof LicenseError && err.status === 503 && message.test(err.message),
        );
      refused('cucm', /license is INVALID/);
      writeFileSync(h.file, await license());
      await h.gate.load();
      h.gate.assertProduct('cucm');
      h.gate.assertProduct('imp');
      refused('cuc', /product cuc is not licensed/);
      assert.equal(h.gate.isLicensed('cuc'), false);
      h.clock.now = EXP + DAY;
      await h.gate.load();
      h.gate.assertProduct('cucm');
      h.clock.now = EXP + 11 * DAY;
      await h.gate.load();
      refused('cucm', /license is EXPIRED: product modules are unavailable/);
    } finally {
      await h.cleanup();
    }
  });

  it('a missing, unreadable or forged file is INVALID; new terms in the same state are LICENSE_UPDATED', async () => {
    const h = harness();
    try {
      assert.equal((await h.gate.load()).reason, 'no license file');
      writeFileSync(h.file, await license(['cucm'], testKey('attacker').privateKey));
      const forged = await h.gate.load();
      assert.equal(forged.state, 'INVALID');
      assert.match(forged.reason, /signature does not verify/);
      assert.equal(stateChanges(h.logs).length, 1, 'INVALID -> INVALID is no state change');

      writeFileSync(h.file, await license(['cucm']));
      await h.gate.load();
      writeFileSync(h.file, await license(['cucm', 'cuc']));
      const more: LicenseStatus = await h.gate.load();
      assert.deepEqual(more.products, ['cucm', 'cuc']);
      const updated = h.logs.auditRecords().filter((r) => r.status === 'LICENSE_UPDATED');
      assert.equal(updated.length, 1);
      assert.deepEqual(updated[0]?.products, ['cucm', 'cuc']);
      assert.deepEqual(h.changes.at(-1), ['VALID', 'VALID'], 'listeners hear new terms');

      rmSync(h.file);
      mkdirSync(h.file);
      const unreadable = await h.gate.load();
      assert.equal(unreadable.state, 'INVALID');
      assert.match(unreadable.reason, /cannot be read/);
    } finally {
      await h.cleanup();
    }
  });

  it('replacing the license file changes the state within 2 s through the file watch', async () => {
    const h = harness();
    try {
      await h.gate.load();
      await h.gate.watchFile();
      // Replaced the careful way (rename over), as an operator's tooling would.
      writeFileSync(`${h.file}.new`, await license());
      renameSync(`${h.file}.new`, h.file);
      const ms = await until(() => h.gate.current().state === 'VALID', 2000);
      assert.ok(ms < 2000, `took ${ms} ms`);
      // Rewritten in place with a license for another host.
      writeFileSync(
        h.file,
        await issueLicense({
          privateKey: vendor.privateKey,
          publisher: 'vendor',
          customer: 'ACME',
          hostname: 'elsewhere',
          products: ['cucm'],
          tier: 'standard',
          expiresAt: new Date(EXP),
          graceDays: 0,
        }),
      );
      await until(() => h.gate.current().state === 'INVALID', 2000);
      rmSync(h.file);
      await until(() => h.gate.current().reason === 'no license file', 2000);
      assert.deepEqual(
        stateChanges(h.logs).map((c) => `${String(c.previous)}->${String(c.new)}`),
        ['UNKNOWN->INVALID', 'INVALID->VALID', 'VALID->INVALID'],
      );
    } finally {
      await h.cleanup();
    }
  });

  it('the watchdog: named license, period from the setting, starts the file watch and stops it on abort', async () => {
    const h = harness();
    try {
      const dog = h.gate.watchdog();
      assert.equal(dog.name, 'license');
      assert.equal(dog.intervalMs, 60_000);
      assert.equal(dog.runOnStart, true);
      const ac = new AbortController();
      await dog.run(ac.signal);
      assert.equal(h.gate.current().state, 'INVALID');
      writeFileSync(h.file, await license());
      await until(() => h.gate.current().state === 'VALID', 2000);
      ac.abort();
      await new Promise((r) => setTimeout(r, 50));
      h.clock.now = EXP + 20 * DAY;
      rmSync(h.file);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(h.gate.current().state, 'VALID', 'no file events after the runner stopped');
    } finally {
      await h.cleanup();
    }
  });
});
