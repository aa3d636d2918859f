import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { verifyTree } from '../../../kernel/integrity/verify.ts';
import { signDetached } from '../../../kernel/vendor/sign.ts';
import { flipByte, makeTree, signedTree, testKey } from './fixture.ts';

const sha512 = (b: Buffer | string): string => createHash('sha512').update(b).digest('hex');

describe('integrity: the main manifest', () => {
  it('a freshly signed tree is valid, every file checked, every bundle valid', async () => {
    const tree = await signedTree();
    try {
      const { report, trust } = await verifyTree(tree.root);
      assert.equal(report.status, 'valid', report.reason);
      assert.equal(report.publisher, 'vendor');
      assert.deepEqual(report.files, []);
      // 12 fixture files + the installed publisher key.
      assert.equal(report.filesChecked, 13);
      assert.deepEqual(
        Object.values(report.bundles).map((b) => [b.id, b.status, b.source]),
        [
          ['cucm', 'valid', 'manifest'],
          ['infra', 'valid', 'manifest'],
        ],
      );
      assert.equal(trust.keys.find((k) => k.id === 'vendor')?.vouched, true);
      assert.ok(!Number.isNaN(Date.parse(report.checkedAt)));
    } finally {
      tree.cleanup();
    }
  });

  it('one byte changed in a plugin file: modified, with the expected and the actual hash', async () => {
    const tree = await signedTree();
    try {
      const rel = 'plugins/cucm/tools/get-version.ts';
      const before = sha512(tree.read(rel));
      flipByte(tree, rel, 5);
      const { report } = await verifyTree(tree.root);
      assert.equal(report.status, 'modified');
      assert.deepEqual(report.files, [
        { path: rel, state: 'modified', expected: before, actual: sha512(tree.read(rel)), bundle: 'cucm' },
      ]);
      assert.equal(report.bundles.cucm?.status, 'modified');
      assert.equal(report.bundles.infra?.status, 'valid', 'the other bundles stay loadable');
    } finally {
      tree.cleanup();
    }
  });

  it('an unlisted file inside a plugin bundle, or in kernel/, makes the tree modified', async () => {
    const tree = await signedTree();
    try {
      tree.write('plugins/infra/extra.ts', 'export const sneaky = 1;\n');
      tree.write('kernel/backdoor.ts', 'export {};\n');
      const { report } = await verifyTree(tree.root);
      assert.equal(report.status, 'modified');
      const byPath = Object.fromEntries(report.files.map((f) => [f.path, f]));
      assert.equal(byPath['plugins/infra/extra.ts']?.state, 'unlisted');
      assert.equal(byPath['plugins/infra/extra.ts']?.actual, sha512('export const sneaky = 1;\n'));
      assert.equal(byPath['plugins/infra/extra.ts']?.expected, undefined);
      assert.equal(byPath['kernel/backdoor.ts']?.state, 'unlisted');
      assert.equal(report.bundles.infra?.status, 'modified');
      assert.equal(report.bundles.cucm?.status, 'valid');
    } finally {
      tree.cleanup();
    }
  });

  it('a deleted listed file is missing, with its expected hash', async () => {
    const tree = await signedTree();
    try {
      const expected = sha512(tree.read('kernel/lib/util.ts'));
      tree.remove('kernel/lib/util.ts');
      const { report } = await verifyTree(tree.root);
      assert.equal(report.status, 'modified');
      assert.deepEqual(report.files, [{ path: 'kernel/lib/util.ts', state: 'missing', expected }]);
    } finally {
      tree.cleanup();
    }
  });

  it('a whole bundle removed is reported file by file', async () => {
    const tree = await signedTree();
    try {
      tree.remove('plugins/cucm');
      const { report } = await verifyTree(tree.root);
      assert.equal(report.status, 'modified');
      assert.equal(report.bundles.cucm?.status, 'modified');
      assert.deepEqual(report.files.map((f) => f.state).sort(), ['missing', 'missing']);
    } finally {
      tree.cleanup();
    }
  });

  it('no manifest, or no signature: unsigned', async () => {
    const bare = makeTree();
    const tree = await signedTree();
    try {
      const none = (await verifyTree(bare.root)).report;
      assert.equal(none.status, 'unsigned');
      assert.match(none.reason ?? '', /no manifests\/manifest\.json/);
      assert.equal(none.bundles.cucm?.status, 'unsigned');
      assert.deepEqual(none.files, [], 'an unsigned checkout is not listed file by file');

      tree.remove('manifests/manifest.sig');
      const unsigned = (await verifyTree(tree.root)).report;
      assert.equal(unsigned.status, 'unsigned');
      assert.match(unsigned.reason ?? '', /no manifests\/manifest\.sig/);
    } finally {
      bare.cleanup();
      tree.cleanup();
    }
  });

  it("a signature by the attacker's key, or over other bytes: invalid", async () => {
    const tree = await signedTree();
    try {
      const manifest = tree.read('manifests/manifest.json');
      tree.write('manifests/manifest.sig', signDetached(testKey('attacker').privateKey, manifest));
      const forged = (await verifyTree(tree.root)).report;
      assert.equal(forged.status, 'invalid');
      assert.match(forged.reason ?? '', /does not verify/);
      assert.equal(forged.bundles.cucm?.status, 'invalid', 'no bundle is trusted through a forged manifest');

      // Re-signed correctly, then one byte of the manifest itself changed (e.g. a hash edited by hand).
      tree.write('manifests/manifest.sig', signDetached(testKey('vendor').privateKey, manifest));
      assert.equal((await verifyTree(tree.root)).report.status, 'valid');
      tree.write('manifests/manifest.json', manifest.toString().replace('"format": 1', '"format": 1 '));
      assert.equal((await verifyTree(tree.root)).report.status, 'invalid');
    } finally {
      tree.cleanup();
    }
  });

  it('the publisher key swapped for the attacker key without re-signing: invalid', async () => {
    const tree = await signedTree();
    try {
      tree.write('manifests/publishers/vendor.pem', testKey('attacker').publicPem);
      assert.equal((await verifyTree(tree.root)).report.status, 'invalid');
    } finally {
      tree.cleanup();
    }
  });

  it('a malformed manifest is invalid, whatever signs it', async () => {
    const tree = await signedTree();
    const key = testKey('vendor').privateKey;
    try {
      const cases: [string, RegExp][] = [
        ['not json', /not JSON/],
        [
          JSON.stringify({
            format: 2,
            publisher: 'vendor',
            generated_at: new Date().toISOString(),
            files: {},
          }),
          /format/,
        ],
        [
          JSON.stringify({
            format: 1,
            publisher: 'vendor',
            generated_at: new Date().toISOString(),
            files: { '../outside.txt': 'a'.repeat(128) },
          }),
          /relative POSIX/,
        ],
        [
          JSON.stringify({
            format: 1,
            publisher: 'vendor',
            generated_at: new Date().toISOString(),
            files: { 'kernel/main.ts': 'XYZ' },
          }),
          /SHA-512/,
        ],
      ];
      for (const [text, reason] of cases) {
        tree.write('manifests/manifest.json', text);
        tree.write('manifests/manifest.sig', signDetached(key, Buffer.from(text)));
        const { report } = await verifyTree(tree.root);
        assert.equal(report.status, 'invalid', text);
        assert.match(report.reason ?? '', reason);
      }
    } finally {
      tree.cleanup();
    }
  });

  it('an extra publisher key dropped into manifests/publishers is unlisted and not vouched', async () => {
    const tree = await signedTree();
    try {
      tree.write('manifests/publishers/attacker.pem', testKey('attacker').publicPem);
      const { report, trust } = await verifyTree(tree.root);
      assert.equal(report.status, 'modified');
      assert.deepEqual(
        report.files.map((f) => [f.path, f.state]),
        [['manifests/publishers/attacker.pem', 'unlisted']],
      );
      assert.equal(trust.keys.find((k) => k.id === 'attacker')?.vouched, false);
      assert.equal(trust.keys.find((k) => k.id === 'vendor')?.vouched, true);
    } finally {
      tree.cleanup();
    }
  });

  it('a symbolic link in a covered area is reported, not followed', async () => {
    const tree = await signedTree();
    try {
      // The target lies in the tree's root, outside every covered area: nothing would hash it.
      writeFileSync(join(tree.root, 'outside-target.ts'), 'export {};\n');
      symlinkSync('../outside-target.ts', join(tree.root, 'kernel', 'linked.ts'));
      const { report } = await verifyTree(tree.root);
      assert.equal(report.status, 'modified');
      assert.deepEqual(report.files, [
        { path: 'kernel/linked.ts', state: 'unlisted', actual: 'symlink -> ../outside-target.ts' },
      ]);
    } finally {
      tree.cleanup();
    }
  });

  it('a FIFO in a covered area is reported as a special file, without hanging the check', async (t) => {
    const tree = await signedTree();
    try {
      try {
        execFileSync('mkfifo', [join(tree.root, 'plugins', 'cucm', 'pipe')]);
      } catch {
        t.skip('mkfifo is not available here');
        return;
      }
      const { report } = await verifyTree(tree.root);
      assert.deepEqual(report.files, [
        { path: 'plugins/cucm/pipe', state: 'unlisted', actual: 'special file', bundle: 'cucm' },
      ]);
    } finally {
      tree.cleanup();
    }
  });

  it('checkedAt follows the injected clock', async () => {
    const tree = await signedTree();
    try {
      const { report } = await verifyTree(tree.root, { clock: () => Date.parse('2031-05-06T07:08:09Z') });
      assert.equal(report.checkedAt, '2031-05-06T07:08:09.000Z');
    } finally {
      tree.cleanup();
    }
  });
});
