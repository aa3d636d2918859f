// The gate and the blacklist's reservations with a verifier the test settles by hand, so "in flight"
// is exact: which checks run, which are refused, and what each outcome leaves counted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { IpBlacklist } from '../../../kernel/auth/ip-blacklist.ts';
import { SecretVerificationGate, type SecretCheck } from '../../../kernel/auth/verification-gate.ts';
import { MemoryDocumentStore } from '../../../kernel/store/document-store.ts';
import { MemorySlidingWindowStore } from '../../../kernel/store/sliding-window.ts';

/** A verifier whose answers the test gives, in any order. */
function manualVerifier() {
  const waiting: { presented: string; resolve: (v: boolean) => void; reject: (e: Error) => void }[] = [];
  return {
    waiting,
    verify: (presented: string) =>
      new Promise<boolean>((resolve, reject) => waiting.push({ presented, resolve, reject })),
    answer(presented: string, valid: boolean | Error): void {
      const i = waiting.findIndex((w) => w.presented === presented);
      const [w] = waiting.splice(i, 1);
      if (!w) throw new Error(`${presented} is not waiting`);
      if (valid instanceof Error) w.reject(valid);
      else w.resolve(valid);
    },
  };
}

function setup(opts: { threshold: number; global?: number; perIp?: number }) {
  const records: Record<string, unknown>[] = [];
  const audit = { write: (e: Record<string, unknown>) => records.push(e) } as unknown as AuditLog;
  const blacklist = new IpBlacklist(new MemoryDocumentStore({}), new MemorySlidingWindowStore(), audit, {
    threshold: opts.threshold,
    windowMs: 60_000,
    durationMs: 600_000,
  });
  const verifier = manualVerifier();
  const gate = new SecretVerificationGate(verifier, blacklist, {
    global: opts.global ?? 100,
    perIp: opts.perIp ?? 100,
  });
  return { blacklist, verifier, gate, records };
}

const tick = () => new Promise((r) => setImmediate(r));
const refusal = (c: SecretCheck) => (c.outcome === 'refused' ? c.reason : c.outcome);

describe('secret verification gate', () => {
  it('runs at most `threshold` checks of an address at once; the rest are refused before they run', async () => {
    const { gate, verifier, blacklist, records } = setup({ threshold: 3 });
    const checks = ['a', 'b', 'c', 'd', 'e'].map((s) => gate.check('198.51.100.1', s, 'hash'));
    await tick();
    assert.deepEqual(
      verifier.waiting.map((w) => w.presented),
      ['a', 'b', 'c'],
    );
    const [d, e] = await Promise.all(checks.slice(3));
    for (const r of [d, e] as SecretCheck[]) {
      assert.equal(refusal(r), 'failure_threshold');
      assert.equal(r.outcome === 'refused' && r.retryAfterSeconds, 1, 'in flight: soon decided');
    }
    for (const s of ['a', 'b', 'c']) verifier.answer(s, false);
    assert.deepEqual((await Promise.all(checks.slice(0, 3))).map(refusal), ['invalid', 'invalid', 'invalid']);
    // Counted already: the next one is refused for the whole block, then the listing is decided.
    const next = await gate.check('198.51.100.1', 'f', 'hash');
    assert.equal(refusal(next), 'failure_threshold');
    assert.equal(next.outcome === 'refused' && next.retryAfterSeconds, 600);
    assert.equal(await blacklist.recordFailure('198.51.100.1', undefined, { counted: true }), true);
    assert.equal(refusal(await gate.check('198.51.100.1', 'g', 'hash')), 'ip_blocked');
    assert.equal(records.filter((r) => r.status === 'IP_BLACKLISTED').length, 1);
    // Another address is not concerned.
    const other = gate.check('198.51.100.2', 'h', 'hash');
    await tick();
    verifier.answer('h', true);
    assert.equal(refusal(await other), 'valid');
  });

  it('a valid secret gives its reserved failure back', async () => {
    const { gate, verifier } = setup({ threshold: 2 });
    for (let round = 0; round < 5; round++) {
      const c = gate.check('198.51.100.1', `ok${round}`, 'hash');
      await tick();
      verifier.answer(`ok${round}`, true);
      assert.equal(refusal(await c), 'valid');
    }
    const fail = gate.check('198.51.100.1', 'bad', 'hash');
    await tick();
    verifier.answer('bad', false);
    assert.equal(refusal(await fail), 'invalid');
    const again = gate.check('198.51.100.1', 'ok', 'hash');
    await tick();
    assert.equal(verifier.waiting.length, 1, 'one failure of two: still checked');
    verifier.answer('ok', true);
    await again;
  });

  it('bounds checks per address and in total; a busy refusal costs the caller no failure', async () => {
    const { gate, verifier } = setup({ threshold: 2, global: 2, perIp: 1 });
    const a = gate.check('198.51.100.1', 'a', 'hash');
    assert.equal(refusal(await gate.check('198.51.100.1', 'b', 'hash')), 'address_busy');
    assert.equal(refusal(await gate.check('198.51.100.1', 'b', 'hash')), 'address_busy');
    const c = gate.check('198.51.100.2', 'c', 'hash');
    const busy = await gate.check('198.51.100.3', 'd', 'hash');
    assert.equal(refusal(busy), 'server_busy');
    assert.equal(busy.outcome === 'refused' && busy.retryAfterSeconds, 1);
    await tick();
    assert.equal(verifier.waiting.length, 2);
    verifier.answer('a', false);
    verifier.answer('c', true);
    await Promise.all([a, c]);
    // Two busy refusals did not count: one failure so far, threshold 2, so this one still runs.
    const b = gate.check('198.51.100.1', 'b', 'hash');
    await tick();
    assert.equal(verifier.waiting.length, 1);
    verifier.answer('b', false);
    assert.equal(refusal(await b), 'invalid');
  });

  it('a verifier fault frees its slots and is not counted against the caller', async () => {
    const { gate, verifier } = setup({ threshold: 1, global: 1, perIp: 1 });
    const a = gate.check('198.51.100.1', 'a', 'hash');
    await tick();
    verifier.answer('a', new Error('thread pool on fire'));
    await assert.rejects(a, /on fire/);
    const b = gate.check('198.51.100.1', 'b', 'hash');
    await tick();
    assert.equal(verifier.waiting.length, 1, 'threshold 1 and no failure counted: checked');
    verifier.answer('b', true);
    assert.equal(refusal(await b), 'valid');
  });

  it('failures that race the listing list the address once', async () => {
    const { blacklist, records } = setup({ threshold: 2 });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => blacklist.recordFailure('198.51.100.9', undefined)),
    );
    assert.equal(results.filter(Boolean).length, 1);
    assert.equal(records.filter((r) => r.status === 'IP_BLACKLISTED').length, 1);
    assert.equal((await blacklist.check('198.51.100.9')).blocked, true);
  });
});
