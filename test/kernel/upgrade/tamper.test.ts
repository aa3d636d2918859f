// Packages that must be refused, and refused before anything is read from the archive or changed:
// a flipped byte, a manifest hash changed, a signature by an untrusted key, a missing signature, a wrong
// published checksum, and archives with paths or entries that could reach outside the installation.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPrivateKey } from 'node:crypto';
import {
  FILES_PREFIX,
  MANIFEST_ENTRY,
  checksumLine,
  type UpgradeManifest,
} from '../../../kernel/upgrade/format.ts';
import { runUpgrade, UpgradeRefused, type RefusalStage } from '../../../kernel/upgrade/index.ts';
import { readTarGz } from '../../../kernel/upgrade/tar-read.ts';
import { signDetached } from '../../../kernel/vendor/sign.ts';
import { buildUpgradePackage, type BuiltPackage } from '../../../kernel/vendor/upgrade-package.ts';
import { cachedRsaKeyPair } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import {
  installRelease,
  rawTarGz,
  release1,
  release2,
  snapshot,
  vendor,
  writeTree,
  type RawEntry,
} from './fixture.ts';

const attacker = createPrivateKey(cachedRsaKeyPair('attacker').privatePem);

describe('tampered and hostile packages are refused, the installation untouched', () => {
  const t = tempStateDir('ucmcp-upgrade-tamper-');
  let built: BuiltPackage;
  let install: string;
  let pristine: Record<string, string>;
  let n = 0;

  before(async () => {
    built = await buildUpgradePackage({
      from: writeTree(join(t.dir, 'release-1.1.0'), release2()),
      previous: writeTree(join(t.dir, 'release-1.0.0'), release1()),
      version: '1.1.0',
      privateKey: vendor.privateKey,
      out: join(t.dir, 'out'),
    });
    install = await installRelease(join(t.dir, 'install'));
    pristine = snapshot(install);
  });
  after(() => t.cleanup());

  /** A copy of the package under a new name: the archive bytes given, a signature by `key` (or none). */
  function variant(
    archive: Buffer,
    sig: 'keep' | 'none' | typeof attacker = 'keep',
    sidecar = false,
  ): string {
    const file = join(t.dir, `variant-${++n}`, 'uc-mcp-server-1.1.0.tar.gz');
    mkdirSync(join(t.dir, `variant-${n}`));
    writeFileSync(file, archive);
    if (sig === 'keep') copyFileSync(`${built.file}.sig`, `${file}.sig`);
    else if (sig !== 'none') writeFileSync(`${file}.sig`, signDetached(sig, archive));
    if (sidecar) copyFileSync(built.checksumFile, `${file}.sha512`);
    return file;
  }

  async function refused(
    file: string,
    stage: RefusalStage,
    why: RegExp,
    expectSha512?: string,
  ): Promise<void> {
    for (const dryRun of [true, false])
      await assert.rejects(
        runUpgrade({
          packageFile: file,
          root: install,
          env: {},
          dryRun,
          ...(expectSha512 ? { expectSha512 } : {}),
        }),
        (err: unknown) => {
          assert.ok(err instanceof UpgradeRefused, String(err));
          assert.equal(err.stage, stage, err.message);
          assert.match(err.message, why);
          return true;
        },
      );
    assert.deepEqual(snapshot(install), pristine, 'the installation is untouched');
    assert.equal(existsSync(join(install, 'upgrade', 'rollback')), false);
  }

  /** The package's entries, changed by `edit`, packed again (as an attacker or a faulty tool would). */
  async function repack(edit: (entries: Map<string, Buffer>) => void): Promise<Buffer> {
    const entries = await readTarGz(readFileSync(built.file), 1 << 30);
    edit(entries);
    return rawTarGz([...entries].map(([name, data]) => ({ name, type: '0', data })));
  }

  it('one byte flipped in the .tar.gz: the signature fails (and the .sha512 beside it already did)', async () => {
    const bytes = readFileSync(built.file);
    bytes[Math.floor(bytes.length / 2)] = (bytes[Math.floor(bytes.length / 2)] as number) ^ 1;
    await refused(
      variant(bytes),
      'signature',
      /does not verify with any trusted publisher key \(test-vendor\)/,
    );
    await refused(
      variant(bytes, 'keep', true),
      'checksum',
      /does not match uc-mcp-server-1\.1\.0\.tar\.gz\.sha512/,
    );
  });

  it('a file hash changed in the manifest: the signature fails; re-signed by the vendor, the hash check does', async () => {
    const changed = await repack((entries) => {
      const m = JSON.parse((entries.get(MANIFEST_ENTRY) as Buffer).toString('utf8')) as UpgradeManifest;
      const entry = m.files.find((f) => f.path === 'kernel/main.ts');
      if (entry?.action === 'write') entry.sha512 = 'a'.repeat(128);
      entries.set(MANIFEST_ENTRY, Buffer.from(JSON.stringify(m)));
    });
    await refused(variant(changed), 'signature', /not signed by a trusted publisher/);
    await refused(
      variant(changed, vendor.privateKey),
      'manifest',
      /kernel\/main\.ts does not match its manifest entry/,
    );
  });

  it('a file swapped inside the archive and re-signed by the vendor key is still caught by its hash', async () => {
    const swapped = await repack((entries) =>
      entries.set(`${FILES_PREFIX}kernel/main.ts`, Buffer.from('evil();\n')),
    );
    await refused(variant(swapped, vendor.privateKey), 'manifest', /kernel\/main\.ts does not match/);
  });

  it('a file added to the archive that the manifest does not list is refused', async () => {
    const extra = await repack((entries) =>
      entries.set(`${FILES_PREFIX}kernel/backdoor.ts`, Buffer.from('x')),
    );
    await refused(
      variant(extra, vendor.privateKey),
      'manifest',
      /files\/kernel\/backdoor\.ts is in the archive but not in the manifest/,
    );
  });

  it('signed by an untrusted key, or not signed at all: refused', async () => {
    const bytes = readFileSync(built.file);
    await refused(variant(bytes, attacker), 'signature', /not signed by a trusted publisher/);
    await refused(variant(bytes, 'none'), 'signature', /\.sig is missing/);
  });

  it('the published checksum given by the operator must match', async () => {
    const file = variant(readFileSync(built.file));
    await refused(file, 'checksum', /not the published value: STOP/, 'b'.repeat(128));
    await refused(file, 'checksum', /128 hex digits/, 'not-a-hash');
    // The right value passes (sha512sum output accepted as is).
    const ok = await runUpgrade({
      packageFile: file,
      root: install,
      env: {},
      dryRun: true,
      expectSha512: checksumLine(built.sha512, 'x').toUpperCase(),
    });
    assert.equal(ok.status, 'dry-run');
  });

  it('the signature is checked before the archive is read: a hostile archive signed by a stranger fails there', async () => {
    const hostile = rawTarGz([{ name: '../escape.txt', type: '0', data: 'x' }]);
    await refused(variant(hostile, attacker), 'signature', /not signed by a trusted publisher/);
    assert.equal(existsSync(join(t.dir, 'escape.txt')), false);
  });

  const hostile: [string, RawEntry[], RegExp][] = [
    [
      'a parent-folder path',
      [{ name: '../escape.txt', type: '0', data: 'x' }],
      /unsafe path.*\.\.\/escape\.txt/,
    ],
    [
      'a nested parent-folder path',
      [{ name: 'files/../../escape.txt', type: '0', data: 'x' }],
      /unsafe path/,
    ],
    [
      'an absolute path',
      [{ name: '/tmp/escape.txt', type: '0', data: 'x' }],
      /unsafe path.*\/tmp\/escape\.txt/,
    ],
    [
      'a symbolic link',
      [{ name: 'files/kernel/link.ts', type: '2', linkname: '/etc/passwd' }],
      /files\/kernel\/link\.ts: a SymbolicLink entry; a package holds regular files only/,
    ],
    [
      'a hard link',
      [{ name: 'files/kernel/hard.ts', type: '1', linkname: 'files/kernel/main.ts' }],
      /a Link entry/,
    ],
    [
      'the same name twice',
      [
        { name: 'files/a.txt', type: '0', data: '1' },
        { name: 'files/a.txt', type: '0', data: '2' },
      ],
      /files\/a\.txt appears twice/,
    ],
  ];
  for (const [what, entries, why] of hostile)
    it(`an archive with ${what}, even signed by the vendor key, is refused and nothing is written`, async () => {
      await refused(variant(rawTarGz(entries), vendor.privateKey), 'archive', why);
      assert.equal(existsSync(join(t.dir, 'escape.txt')), false);
      assert.equal(existsSync('/tmp/escape.txt'), false);
    });

  it('something that is not a gzip archive, or a truncated one, is refused', async () => {
    await refused(
      variant(Buffer.from('hello, not a package'), vendor.privateKey),
      'archive',
      /not a gzip archive/,
    );
    const whole = readFileSync(built.file);
    await refused(variant(whole.subarray(0, whole.length - 100), vendor.privateKey), 'archive', /./);
  });

  it('a package for another product is refused', async () => {
    const other = await repack((entries) => {
      const m = JSON.parse((entries.get(MANIFEST_ENTRY) as Buffer).toString('utf8')) as UpgradeManifest;
      m.product = 'other-product';
      entries.set(MANIFEST_ENTRY, Buffer.from(JSON.stringify(m)));
    });
    await refused(
      variant(other, vendor.privateKey),
      'manifest',
      /package\.json \(uc-mcp-server 1\.1\.0\) is not the product/,
    );
  });

  it('a manifest naming a path outside the areas an upgrade may change is refused', async () => {
    for (const path of [
      '.env',
      'secrets/rsa_private.pem',
      'clients/noc/client.json',
      'node_modules/x/index.js',
    ]) {
      const bad = await repack((entries) => {
        const m = JSON.parse((entries.get(MANIFEST_ENTRY) as Buffer).toString('utf8')) as UpgradeManifest;
        m.files.push({ path, action: 'delete' });
        entries.set(MANIFEST_ENTRY, Buffer.from(JSON.stringify(m)));
      });
      await refused(variant(bad, vendor.privateKey), 'manifest', /inside the areas an upgrade may change/);
    }
  });

  it('an installation that trusts no key (unsigned tree in enforce mode) verifies no package', async () => {
    const sig = readFileSync(join(install, 'manifests', 'manifest.sig'));
    rmSync(join(install, 'manifests', 'manifest.sig'));
    try {
      await assert.rejects(
        runUpgrade({ packageFile: built.file, root: install, env: {}, dryRun: true }),
        /trusts no publisher key/,
      );
      // In warn mode (a development checkout) the keys on disk are trusted, as the integrity check does.
      const r = await runUpgrade({
        packageFile: built.file,
        root: install,
        env: { INTEGRITY_MODE: 'warn' },
        dryRun: true,
      });
      assert.equal(r.status, 'dry-run');
    } finally {
      writeFileSync(join(install, 'manifests', 'manifest.sig'), sig);
    }
  });
});
