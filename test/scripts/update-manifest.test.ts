import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { IntegrityReport } from '../../kernel/integrity/types.ts';
import { verifyTree } from '../../kernel/integrity/verify.ts';
import { flipByte, makeTree, runScript, signedTree, testKey } from '../kernel/integrity/fixture.ts';

const vendor = testKey('vendor');
const sha512 = (b: Buffer): string => createHash('sha512').update(b).digest('hex');

describe('scripts/update_manifest.ts', () => {
  it('--help documents the exit codes and the pre-commit hook line', async () => {
    const r = await runScript('update_manifest.ts', ['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Exit codes:/);
    assert.match(r.stdout, /pre-commit/);
    assert.equal((await runScript('update_manifest.ts', ['--bogus'])).code, 2);
  });

  it('--check: exit 1 for an unsigned tree, exit 0 once signed through the script with --key', async () => {
    const tree = makeTree();
    try {
      tree.write('manifests/publishers/vendor.pem', vendor.publicPem);
      const unsigned = await runScript('update_manifest.ts', ['--check', '--root', tree.root]);
      assert.equal(unsigned.code, 1);
      assert.match(unsigned.stdout, /^integrity: unsigned/);

      // At the tree's root, outside every covered area, and removed with the tree.
      const keyFile = join(tree.root, 'vendor.private.pem');
      writeFileSync(keyFile, vendor.privatePem, { mode: 0o600 });
      const signed = await runScript('update_manifest.ts', ['--root', tree.root, '--key', keyFile]);
      assert.equal(signed.code, 0, signed.stderr);
      assert.match(signed.stdout, /manifest signed by vendor: 13 files; verification: valid/);
      assert.match(signed.stderr, /hashing 13\/13/, 'progress is a count');

      const check = await runScript('update_manifest.ts', ['--check', '--root', tree.root]);
      assert.equal(check.code, 0);
      assert.match(check.stdout, /^integrity: valid/);
      assert.equal((await verifyTree(tree.root)).report.status, 'valid');
    } finally {
      tree.cleanup();
    }
  });

  it('signs with the PEM given in UPDATE_MANIFEST_KEY (a CI secret), the publisher found from the key', async () => {
    const tree = await signedTree();
    try {
      tree.write('kernel/new-feature.ts', 'export const x = 1;\n');
      assert.equal((await verifyTree(tree.root)).report.status, 'modified');
      const r = await runScript('update_manifest.ts', ['--root', tree.root], {
        UPDATE_MANIFEST_KEY: vendor.privatePem,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal((await verifyTree(tree.root)).report.status, 'valid');
    } finally {
      tree.cleanup();
    }
  });

  it('exit 2 with a clear message when no key is available, or the key is not an installed publisher', async () => {
    const tree = await signedTree();
    try {
      const none = await runScript('update_manifest.ts', ['--root', tree.root]);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /no signing key\. Give --key <private\.pem> or set UPDATE_MANIFEST_KEY/);

      const stranger = await runScript('update_manifest.ts', ['--root', tree.root], {
        UPDATE_MANIFEST_KEY: testKey('attacker').privatePem,
      });
      assert.equal(stranger.code, 2);
      assert.match(stranger.stderr, /matches no installed manifests\/publishers/);
      assert.equal((await verifyTree(tree.root)).report.status, 'valid', 'nothing was written');
    } finally {
      tree.cleanup();
    }
  });

  it('--check lists a modified file with both hashes and exits 1; --json gives the report', async () => {
    const tree = await signedTree();
    try {
      const rel = 'plugins/cucm/index.ts';
      const expected = sha512(tree.read(rel));
      flipByte(tree, rel);
      const actual = sha512(tree.read(rel));
      const r = await runScript('update_manifest.ts', ['--check', '--root', tree.root]);
      assert.equal(r.code, 1);
      assert.match(r.stdout, /^integrity: modified/);
      assert.match(r.stdout, new RegExp(`modified +${rel}`));
      assert.match(r.stdout, new RegExp(`expected ${expected}`));
      assert.match(r.stdout, new RegExp(`actual +${actual}`));

      const j = await runScript('update_manifest.ts', ['--check', '--json', '--root', tree.root]);
      assert.equal(j.code, 1);
      const report = JSON.parse(j.stdout) as IntegrityReport;
      assert.deepEqual(report.files, [{ path: rel, state: 'modified', expected, actual, bundle: 'cucm' }]);
    } finally {
      tree.cleanup();
    }
  });
});
