import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bundleLoadable, bundleStatus, verifyTree } from '../../../kernel/integrity/verify.ts';
import { signBundle } from '../../../kernel/vendor/bundle.ts';
import { signManifest } from '../../../kernel/vendor/manifest.ts';
import { flipByte, makeTree, testKey, type Tree } from './fixture.ts';

const sha512 = (b: Buffer): string => createHash('sha512').update(b).digest('hex');
const vendor = testKey('vendor');
const acme = testKey('acme');

/** A release signed by 'vendor' that trusts publisher 'acme', plus acme's own signed bundle. */
async function releaseWithVendorBundle(): Promise<Tree> {
  const tree = makeTree();
  tree.write('manifests/publishers/acme.pem', acme.publicPem);
  await signManifest({
    root: tree.root,
    privateKey: vendor.privateKey,
    publisher: 'vendor',
    installPublic: true,
  });
  tree.write('plugins/acme-reports/index.ts', 'export default { id: "acme-reports" };\n');
  tree.write('plugins/acme-reports/tools/report.ts', 'export const tool = "acme_report";\n');
  await signBundle({
    dir: join(tree.root, 'plugins/acme-reports'),
    privateKey: acme.privateKey,
    publisher: 'acme',
    version: '1.2.0',
  });
  return tree;
}

describe('integrity: plugin bundles signed on their own', () => {
  it("a vendor's extra bundle with a valid bundle.sig is valid and loadable", async () => {
    const tree = await releaseWithVendorBundle();
    try {
      const { report } = await verifyTree(tree.root);
      assert.equal(report.status, 'valid', report.reason);
      assert.deepEqual(report.bundles['acme-reports'], {
        id: 'acme-reports',
        status: 'valid',
        source: 'bundle',
        publisher: 'acme',
        version: '1.2.0',
        files: [],
      });
      assert.equal(bundleLoadable(report, 'acme-reports', 'enforce'), true);
      // Signing the release again leaves the separately signed bundle out of the main manifest.
      await signManifest({ root: tree.root, privateKey: vendor.privateKey, publisher: 'vendor' });
      const again = (await verifyTree(tree.root)).report;
      assert.equal(again.status, 'valid');
      assert.equal(again.bundles['acme-reports']?.source, 'bundle');
    } finally {
      tree.cleanup();
    }
  });

  it('that bundle tampered: modified with both hashes, refused in enforce mode, others still load', async () => {
    const tree = await releaseWithVendorBundle();
    try {
      const rel = 'plugins/acme-reports/tools/report.ts';
      const expected = sha512(tree.read(rel));
      flipByte(tree, rel);
      const { report } = await verifyTree(tree.root);
      assert.equal(report.status, 'modified');
      assert.deepEqual(report.bundles['acme-reports']?.files, [
        { path: rel, state: 'modified', expected, actual: sha512(tree.read(rel)), bundle: 'acme-reports' },
      ]);
      assert.deepEqual(report.files, report.bundles['acme-reports']?.files);
      assert.equal(bundleLoadable(report, 'acme-reports', 'enforce'), false);
      assert.equal(bundleLoadable(report, 'acme-reports', 'warn'), true);
      assert.equal(bundleLoadable(report, 'infra', 'enforce'), true);
    } finally {
      tree.cleanup();
    }
  });

  it('an extra file in a signed bundle is modified (unlisted)', async () => {
    const tree = await releaseWithVendorBundle();
    try {
      tree.write('plugins/acme-reports/tools/extra.ts', 'export {};\n');
      // Named like Object.prototype members: must not pass as listed.
      tree.write('plugins/acme-reports/constructor', 'x');
      tree.write('plugins/acme-reports/toString', 'x');
      const { report } = await verifyTree(tree.root);
      assert.equal(bundleStatus(report, 'acme-reports'), 'modified');
      assert.deepEqual(
        report.files.map((f) => [f.path, f.state]),
        [
          ['plugins/acme-reports/constructor', 'unlisted'],
          ['plugins/acme-reports/toString', 'unlisted'],
          ['plugins/acme-reports/tools/extra.ts', 'unlisted'],
        ],
      );
    } finally {
      tree.cleanup();
    }
  });

  it('signed by a key that is not the named publisher, or by an untrusted publisher: invalid', async () => {
    const tree = await releaseWithVendorBundle();
    const dir = join(tree.root, 'plugins/acme-reports');
    try {
      // Claims to be acme, signed with the attacker's key.
      await signBundle({ dir, privateKey: testKey('attacker').privateKey, publisher: 'acme' });
      let bundle = (await verifyTree(tree.root)).report.bundles['acme-reports'];
      assert.equal(bundle?.status, 'invalid');
      assert.match(bundle?.reason ?? '', /does not verify with the key of publisher "acme"/);

      await signBundle({ dir, privateKey: testKey('attacker').privateKey, publisher: 'attacker' });
      bundle = (await verifyTree(tree.root)).report.bundles['acme-reports'];
      assert.equal(bundle?.status, 'invalid');
      assert.match(bundle?.reason ?? '', /"attacker" is not a trusted publisher/);

      // Dropping the attacker's key into manifests/publishers does not make it trusted.
      tree.write('manifests/publishers/attacker.pem', testKey('attacker').publicPem);
      const { report } = await verifyTree(tree.root);
      assert.equal(report.bundles['acme-reports']?.status, 'invalid');
      assert.equal(report.status, 'modified');
      assert.ok(
        report.files.some((f) => f.path === 'manifests/publishers/attacker.pem' && f.state === 'unlisted'),
      );
    } finally {
      tree.cleanup();
    }
  });

  it('an unsigned extra bundle (no bundle.json, or no bundle.sig) is unsigned; the tree is modified', async () => {
    const tree = await releaseWithVendorBundle();
    try {
      tree.write('plugins/dropped/index.ts', 'export default {};\n');
      const { report } = await verifyTree(tree.root);
      assert.equal(report.status, 'modified');
      assert.equal(report.bundles.dropped?.status, 'unsigned');
      assert.equal(report.bundles.dropped?.source, 'none');
      assert.deepEqual(
        report.files.map((f) => [f.path, f.state, f.bundle]),
        [['plugins/dropped/index.ts', 'unlisted', 'dropped']],
      );
      assert.equal(bundleLoadable(report, 'dropped', 'enforce'), false);

      tree.remove('plugins/acme-reports/bundle.sig');
      assert.equal(bundleStatus((await verifyTree(tree.root)).report, 'acme-reports'), 'unsigned');
    } finally {
      tree.cleanup();
    }
  });

  it('a signed bundle copied under another folder name is invalid (the id is signed)', async () => {
    const tree = await releaseWithVendorBundle();
    try {
      cpSync(join(tree.root, 'plugins/acme-reports'), join(tree.root, 'plugins/infra2'), { recursive: true });
      const bundle = (await verifyTree(tree.root)).report.bundles.infra2;
      assert.equal(bundle?.status, 'invalid');
      assert.match(bundle?.reason ?? '', /for bundle "acme-reports"/);
    } finally {
      tree.cleanup();
    }
  });

  it('without a valid main manifest a well-signed bundle is no better than unsigned', async () => {
    const tree = await releaseWithVendorBundle();
    try {
      tree.remove('manifests/manifest.sig');
      const { report } = await verifyTree(tree.root);
      assert.equal(report.status, 'unsigned');
      assert.equal(report.bundles['acme-reports']?.status, 'unsigned');
      assert.match(report.bundles['acme-reports']?.reason ?? '', /not vouched for/);
      assert.equal(bundleLoadable(report, 'acme-reports', 'enforce'), false);
      assert.equal(bundleLoadable(report, 'acme-reports', 'warn'), true);
      // Still, tampering is found even then.
      flipByte(tree, 'plugins/acme-reports/index.ts');
      assert.equal(bundleStatus((await verifyTree(tree.root)).report, 'acme-reports'), 'modified');
    } finally {
      tree.cleanup();
    }
  });

  it('a bundle the check never saw counts as unsigned', async () => {
    const tree = makeTree();
    try {
      const { report } = await verifyTree(tree.root);
      assert.equal(bundleStatus(report, 'nonexistent'), 'unsigned');
      assert.equal(bundleLoadable(report, 'nonexistent', 'enforce'), false);
    } finally {
      tree.cleanup();
    }
  });
});
