import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AUDIT_MAX_FILES, IntegrityChecker } from '../../../kernel/integrity/checker.ts';
import { IntegrityError } from '../../../kernel/errors/index.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { flipByte, makeTree, signedTree, testKey, testLogs, type Tree } from './fixture.ts';

const sha512 = (b: Buffer): string => createHash('sha512').update(b).digest('hex');

async function withChecker(
  tree: Tree,
  mode: 'enforce' | 'warn',
  fn: (c: IntegrityChecker, logs: ReturnType<typeof testLogs>) => Promise<void>,
): Promise<void> {
  const state = tempStateDir();
  const logs = testLogs(state.dir);
  try {
    await fn(new IntegrityChecker({ root: tree.root, mode, audit: logs.audit, log: logs.log }), logs);
  } finally {
    await logs.close();
    state.cleanup();
    tree.cleanup();
  }
}

describe('IntegrityChecker: startup, on-demand and watchdog checks', () => {
  it('a valid tree: SERVER INTEGRITY_PASS with the number of files checked', async () => {
    await withChecker(await signedTree(), 'enforce', async (checker, logs) => {
      assert.equal(checker.last(), null);
      assert.equal(checker.bundleLoadable('cucm'), false, 'nothing loads before the first check');
      const report = await checker.check();
      assert.equal(report.status, 'valid');
      assert.equal(checker.last(), report);
      const rec = logs.auditRecords().at(-1);
      assert.equal(rec?.event, 'SERVER');
      assert.equal(rec?.status, 'INTEGRITY_PASS');
      assert.equal(rec?.files_checked, 13);
      assert.equal(rec?.severity, undefined);
      assert.deepEqual(
        checker.trustedPublisherKeys().map((k) => k.id),
        ['vendor'],
      );
      assert.equal(checker.bundleLoadable('cucm'), true);
    });
  });

  it('one byte changed: CRITICAL audit record and app.log fatal line list the file with both hashes', async () => {
    const tree = await signedTree();
    const rel = 'plugins/cucm/index.ts';
    const expected = sha512(tree.read(rel));
    await withChecker(tree, 'enforce', async (checker, logs) => {
      await checker.check();
      flipByte(tree, rel, 3);
      const actual = sha512(tree.read(rel));
      const report = await checker.check();
      assert.equal(report.status, 'modified');

      const rec = logs.auditRecords().at(-1);
      assert.equal(rec?.event, 'SERVER');
      assert.equal(rec?.status, 'INTEGRITY_FAIL');
      assert.equal(rec?.severity, 'CRITICAL');
      assert.equal(rec?.integrity_status, 'modified');
      assert.deepEqual(rec?.files, [{ path: rel, state: 'modified', expected, actual, bundle: 'cucm' }]);
      assert.deepEqual(rec?.bundles, { cucm: 'modified', infra: 'valid' });

      const fatal = logs.appRecords().find((r) => r.level === 60);
      assert.ok(fatal, 'a fatal line in app.log');
      assert.equal(fatal.severity, 'CRITICAL');
      const integrity = fatal.integrity as { files: unknown[] };
      assert.deepEqual(integrity.files, [{ path: rel, state: 'modified', expected, actual, bundle: 'cucm' }]);
      assert.match(String(fatal.msg), new RegExp(`${rel} modified expected=${expected} actual=${actual}`));
      const refusal = logs.appRecords().find((r) => r.bundle === 'cucm');
      assert.match(String(refusal?.msg), /plugin bundle cucm is modified .*: it will not be loaded/);

      assert.equal(checker.bundleLoadable('cucm'), false);
      assert.equal(checker.bundleLoadable('infra'), true, 'the server keeps serving infra');
      assert.deepEqual(checker.bundleVerdict('infra', join(tree.root, 'plugins', 'infra')), { ok: true });
      const refused = checker.bundleVerdict('cucm', join(tree.root, 'plugins', 'cucm'));
      assert.equal(refused.ok, false);
      assert.match(
        !refused.ok ? refused.reason : '',
        /integrity modified: 1 modified \(INTEGRITY_MODE=enforce\)/,
      );
      const outside = checker.bundleVerdict('infra', '/somewhere/else/infra');
      assert.match(!outside.ok ? outside.reason : '', /outside the verified tree/);
    });
  });

  it('an unsigned development checkout: CRITICAL unsigned; warn mode loads and trusts the keys on disk', async () => {
    const tree = makeTree();
    tree.write('manifests/publishers/vendor.pem', testKey('vendor').publicPem);
    await withChecker(tree, 'warn', async (checker, logs) => {
      const report = await checker.check();
      assert.equal(report.status, 'unsigned');
      const rec = logs.auditRecords().at(-1);
      assert.equal(rec?.status, 'INTEGRITY_FAIL');
      assert.equal(rec?.severity, 'CRITICAL');
      assert.equal(rec?.integrity_status, 'unsigned');
      assert.equal(rec?.mode, 'warn');
      assert.equal(checker.bundleLoadable('cucm'), true);
      assert.deepEqual(checker.bundleVerdict('fixture', '/somewhere/else/fixture'), { ok: true });
      assert.deepEqual(
        checker.trustedPublisherKeys().map((k) => [k.id, k.vouched]),
        [['vendor', false]],
      );
      assert.match(
        String(logs.appRecords().find((r) => r.bundle === 'cucm')?.msg),
        /loaded anyway because INTEGRITY_MODE=warn/,
      );
    });
  });

  it('enforce mode on an unsigned tree: no bundle loads and no publisher key is trusted', async () => {
    const tree = makeTree();
    await withChecker(tree, 'enforce', async (checker) => {
      await checker.check();
      assert.equal(checker.bundleLoadable('infra'), false);
      assert.deepEqual(checker.trustedPublisherKeys(), []);
    });
  });

  it('the audit record is capped, app.log keeps every file', async () => {
    const tree = await signedTree();
    await withChecker(tree, 'enforce', async (checker, logs) => {
      for (let i = 0; i < AUDIT_MAX_FILES + 5; i++) tree.write(`kernel/junk/f${i}.ts`, `${i}\n`);
      await checker.check();
      const rec = logs.auditRecords().at(-1);
      assert.equal((rec?.files as unknown[]).length, AUDIT_MAX_FILES);
      assert.equal(rec?.files_total, AUDIT_MAX_FILES + 5);
      const fatal = logs.appRecords().find((r) => r.level === 60);
      assert.equal((fatal?.integrity as { files: unknown[] }).files.length, AUDIT_MAX_FILES + 5);
    });
  });

  it('concurrent on-demand calls share one check; listeners hear every report', async () => {
    await withChecker(await signedTree(), 'enforce', async (checker, logs) => {
      const heard: string[] = [];
      checker.onReport((r) => heard.push(r.status));
      const [a, b] = await Promise.all([checker.check(), checker.check()]);
      assert.equal(a, b);
      assert.deepEqual(heard, ['valid']);
      assert.equal(logs.auditRecords().filter((r) => r.status === 'INTEGRITY_PASS').length, 1);
    });
  });

  it('the watchdog: named integrity, period from the setting, fails when the tree is not valid', async () => {
    const tree = await signedTree();
    const state = tempStateDir();
    const logs = testLogs(state.dir);
    try {
      const checker = new IntegrityChecker({
        root: tree.root,
        mode: 'enforce',
        audit: logs.audit,
        log: logs.log,
        intervalHours: 6,
      });
      const dog = checker.watchdog();
      assert.equal(dog.name, 'integrity');
      assert.equal(dog.intervalMs, 6 * 3_600_000);
      const signal = new AbortController().signal;
      await dog.run(signal);
      flipByte(tree, 'kernel/main.ts');
      await assert.rejects(dog.run(signal), IntegrityError);
      assert.equal(
        new IntegrityChecker({
          root: tree.root,
          mode: 'enforce',
          audit: logs.audit,
          log: logs.log,
        }).watchdog().intervalMs,
        24 * 3_600_000,
      );
    } finally {
      await logs.close();
      state.cleanup();
      tree.cleanup();
    }
  });
});
