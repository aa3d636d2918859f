import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { inspectLicense } from '../../kernel/license/evaluate.ts';
import { verifyTree } from '../../kernel/integrity/verify.ts';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { runUpgrade } from '../../kernel/upgrade/run.ts';
import { tempStateDir } from '../helpers/state-dir.ts';
import { installRelease, release1, release2, writeTree } from '../kernel/upgrade/fixture.ts';
import { makeTree, publisherKey, runScript, signedTree, testKey } from '../kernel/integrity/fixture.ts';

const vendor = testKey('vendor');

/** The private key as a file, the way the vendor tool takes it. */
function keyFile(dir: string, pem = vendor.privatePem): string {
  const path = join(dir, 'vendor.private.pem');
  writeFileSync(path, pem, { mode: 0o600 });
  return path;
}

describe('scripts/vendor.ts', () => {
  it('--help lists every command; an unknown command or option is a usage error (exit 2)', async () => {
    const help = await runScript('vendor.ts', ['--help']);
    assert.equal(help.code, 0);
    for (const c of ['keygen', 'sign-manifest', 'sign-bundle', 'issue-license', 'upgrade-package'])
      assert.match(help.stdout, new RegExp(c));
    const sub = await runScript('vendor.ts', ['issue-license', '--help']);
    assert.equal(sub.code, 0);
    assert.match(sub.stdout, /--expires/);
    assert.equal((await runScript('vendor.ts', ['frobnicate'])).code, 2);
    assert.equal((await runScript('vendor.ts', ['keygen', '--nope'])).code, 2);
    assert.equal((await runScript('vendor.ts', [])).code, 2);
  });

  it('keygen: RSA-4096 pair, private key 0600, never inside the project unless insisted, never overwritten', async () => {
    const inside = await runScript('vendor.ts', [
      'keygen',
      '--out',
      join(PROJECT_ROOT, 'secrets', 'vendor-keys'),
    ]);
    assert.equal(inside.code, 2);
    assert.match(inside.stderr, /inside the project/);
    assert.equal(existsSync(join(PROJECT_ROOT, 'secrets', 'vendor-keys')), false);

    const state = tempStateDir();
    try {
      const out = join(state.dir, 'keys');
      const r = await runScript('vendor.ts', ['keygen', '--out', out, '--id', 'acme']);
      assert.equal(r.code, 0, r.stderr);
      const priv = join(out, 'acme.private.pem');
      assert.equal(statSync(priv).mode & 0o777, 0o600);
      const key = createPrivateKey(readFileSync(priv));
      assert.equal(key.asymmetricKeyDetails?.modulusLength, 4096);
      const pub = createPublicKey(readFileSync(join(out, 'acme.pem')));
      assert.ok(
        pub
          .export({ type: 'spki', format: 'der' })
          .equals(createPublicKey(key).export({ type: 'spki', format: 'der' })),
      );
      const again = await runScript('vendor.ts', ['keygen', '--out', out, '--id', 'acme']);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /refusing to overwrite/);
    } finally {
      state.cleanup();
    }
  });

  it('issue-license: a PS512 license with kid = publisher that the server accepts as VALID', async () => {
    const state = tempStateDir();
    try {
      const out = join(state.dir, 'secrets', 'license.jwt');
      const r = await runScript('vendor.ts', [
        'issue-license',
        '--key',
        keyFile(state.dir),
        '--publisher',
        'vendor',
        '--customer',
        'ACME Telecom',
        '--hostname',
        'uc-mcp.example.net',
        '--products',
        'cucm,cuc',
        '--tier',
        'enterprise',
        '--expires',
        '+30d',
        '--grace-days',
        '14',
        '--out',
        out,
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(statSync(out).mode & 0o777, 0o600);
      const ev = await inspectLicense(
        readFileSync(out, 'utf8'),
        [publisherKey(vendor)],
        'uc-mcp.example.net',
        Date.now(),
      );
      assert.equal(ev.status.state, 'VALID', ev.status.reason);
      assert.deepEqual(ev.header, { alg: 'PS512', kid: 'vendor', typ: 'license+jwt' });
      assert.deepEqual(ev.claims?.products, ['cucm', 'cuc']);
      assert.equal(ev.claims?.grace_days, 14);
      assert.equal(ev.claims?.sub, 'ACME Telecom');
      const days = (Date.parse(ev.expiresAt ?? '') - Date.now()) / 86_400_000;
      assert.ok(days > 29.9 && days <= 30, `${days} days`);

      const printed = await runScript('vendor.ts', [
        'issue-license',
        '--key',
        keyFile(state.dir),
        '--publisher',
        'vendor',
        '--customer',
        'c',
        '--hostname',
        'h',
        '--products',
        'imp',
        '--tier',
        'standard',
        '--expires',
        '2099-12-31',
      ]);
      assert.equal(printed.code, 0, printed.stderr);
      const ev2 = await inspectLicense(printed.stdout, [publisherKey(vendor)], 'h', Date.now());
      assert.equal(ev2.expiresAt, '2099-12-31T00:00:00.000Z');
      assert.equal(ev2.claims?.grace_days, 30, 'grace defaults to 30 days');
    } finally {
      state.cleanup();
    }
  });

  it('issue-license with two hosts: one license VALID on each, INVALID on a third', async () => {
    const state = tempStateDir();
    try {
      const base = ['issue-license', '--key', keyFile(state.dir), '--publisher', 'vendor', '--customer', 'c'];
      const rest = ['--products', 'cucm', '--tier', 'standard', '--expires', '+30d'];
      const out = join(state.dir, 'license.jwt');
      const r = await runScript('vendor.ts', [
        ...base,
        '--hostname',
        'ucmcp-1',
        '--hostname',
        'ucmcp-2',
        ...rest,
        '--out',
        out,
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /hosts ucmcp-1, ucmcp-2/);
      const jwt = readFileSync(out, 'utf8');
      const at = (host: string) => inspectLicense(jwt, [publisherKey(vendor)], host, Date.now());
      const first = await at('ucmcp-1');
      assert.equal(first.status.state, 'VALID', first.status.reason);
      assert.equal(first.claims?.hostname, 'ucmcp-1', 'older servers read the first host');
      assert.deepEqual(first.claims?.hostnames, ['ucmcp-1', 'ucmcp-2']);
      assert.equal((await at('ucmcp-2')).status.state, 'VALID');
      const third = await at('ucmcp-3');
      assert.equal(third.status.state, 'INVALID');
      assert.match(third.status.reason, /bound to hosts "ucmcp-1", "ucmcp-2", not this host/);

      // A comma list says the same; repeats (any case) are dropped.
      const listed = await runScript('vendor.ts', [
        ...base,
        '--hostname',
        'a, b,A',
        '--hostname',
        'c',
        ...rest,
      ]);
      assert.equal(listed.code, 0, listed.stderr);
      const ev = await inspectLicense(listed.stdout, [publisherKey(vendor)], 'c', Date.now());
      assert.equal(ev.status.state, 'VALID', ev.status.reason);
      assert.deepEqual(ev.claims?.hostnames, ['a', 'b', 'c']);
      // One host stays a one-host license, exactly as before.
      const one = await runScript('vendor.ts', [...base, '--hostname', 'solo,SOLO', ...rest]);
      const ev1 = await inspectLicense(one.stdout, [publisherKey(vendor)], 'solo', Date.now());
      assert.equal(ev1.status.state, 'VALID', ev1.status.reason);
      assert.equal(ev1.claims?.hostnames, undefined);

      const empty = await runScript('vendor.ts', [...base, '--hostname', ' , ', ...rest]);
      assert.equal(empty.code, 2);
      assert.match(empty.stderr, /at least one host name is required/);
      const hosts = Array.from({ length: 65 }, (_, i) => `h${i}`).join(',');
      const tooMany = await runScript('vendor.ts', [...base, '--hostname', hosts, ...rest]);
      assert.equal(tooMany.code, 2);
      assert.match(tooMany.stderr, /at most 64 hosts/);
    } finally {
      state.cleanup();
    }
  });

  it('issue-license refuses unknown products, bad dates and missing options (exit 2)', async () => {
    const state = tempStateDir();
    try {
      const base = ['issue-license', '--key', keyFile(state.dir), '--publisher', 'vendor', '--customer', 'c'];
      const more = ['--hostname', 'h', '--tier', 'standard'];
      const bad = await runScript('vendor.ts', [
        ...base,
        ...more,
        '--products',
        'cucm,webex',
        '--expires',
        '+1d',
      ]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /unknown product\(s\) webex/);
      const date = await runScript('vendor.ts', [
        ...base,
        ...more,
        '--products',
        'cucm',
        '--expires',
        'next week',
      ]);
      assert.equal(date.code, 2);
      const missing = await runScript('vendor.ts', [...base, '--products', 'cucm', '--expires', '+1d']);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--hostname is required/);
    } finally {
      state.cleanup();
    }
  });

  it('sign-manifest --install-public makes a fresh tree valid; a key that is not installed is refused', async () => {
    const tree = makeTree();
    try {
      const key = keyFile(tree.root);
      const refused = await runScript('vendor.ts', [
        'sign-manifest',
        '--key',
        key,
        '--publisher',
        'vendor',
        '--root',
        tree.root,
      ]);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /not installed/);
      const r = await runScript('vendor.ts', [
        'sign-manifest',
        '--key',
        key,
        '--publisher',
        'vendor',
        '--root',
        tree.root,
        '--install-public',
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        readFileSync(join(tree.root, 'manifests/publishers/vendor.pem'), 'utf8'),
        vendor.publicPem,
      );
      assert.equal((await verifyTree(tree.root)).report.status, 'valid');
    } finally {
      tree.cleanup();
    }
  });

  it('sign-bundle: an extra bundle signed by a trusted publisher verifies as valid', async () => {
    const tree = await signedTree();
    try {
      tree.write('plugins/acme-tools/index.ts', 'export default {};\n');
      assert.equal((await verifyTree(tree.root)).report.bundles['acme-tools']?.status, 'unsigned');
      const r = await runScript('vendor.ts', [
        'sign-bundle',
        '--key',
        keyFile(tree.root),
        '--publisher',
        'vendor',
        '--version',
        '2.0.1',
        join(tree.root, 'plugins/acme-tools'),
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /signed bundle acme-tools 2\.0\.1 by vendor: 1 files/);
      const { report } = await verifyTree(tree.root);
      assert.equal(report.status, 'valid', report.reason);
      assert.equal(report.bundles['acme-tools']?.source, 'bundle');
    } finally {
      tree.cleanup();
    }
  });
  it('upgrade-package: a signed package the runner accepts; a tree of another version is refused', async () => {
    const state = tempStateDir();
    try {
      const from = writeTree(join(state.dir, 'release-1.1.0'), release2());
      const previous = writeTree(join(state.dir, 'release-1.0.0'), release1());
      const changelog = join(state.dir, 'CHANGES.md');
      writeFileSync(changelog, '- faster\n');
      const out = join(state.dir, 'out');
      const base = ['upgrade-package', '--from', from, '--key', keyFile(state.dir), '--out', out];
      const wrong = await runScript('vendor.ts', [...base, '--version', '1.2.0']);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /says 1\.1\.0, not 1\.2\.0/);
      const r = await runScript('vendor.ts', [
        ...base,
        '--version',
        '1.1.0',
        '--previous',
        previous,
        '--changelog',
        changelog,
        '--post-step',
        'Restart the agents.',
      ]);
      assert.equal(r.code, 0, r.stderr);
      const file = join(out, 'uc-mcp-server-1.1.0.tar.gz');
      const sha = /SHA-512 \(publish it in DNS TXT\): ([0-9a-f]{128})/.exec(r.stdout)?.[1];
      assert.equal(readFileSync(`${file}.sha512`, 'utf8'), `${sha}  uc-mcp-server-1.1.0.tar.gz\n`);
      assert.ok(existsSync(`${file}.sig`) && existsSync(join(out, 'run_upgrade.ts')));

      const install = await installRelease(join(state.dir, 'install'));
      const plan = await runUpgrade({
        packageFile: file,
        root: install,
        env: {},
        dryRun: true,
        expectSha512: sha,
      });
      assert.equal(plan.plan.to, '1.1.0');
      assert.equal(plan.plan.changelog, '- faster\n');
      assert.equal(plan.plan.postUpgrade.at(-1), 'Restart the agents.');
      assert.deepEqual(
        plan.plan.files.filter((f) => f.action === 'delete').map((f) => f.path),
        ['kernel/old/legacy.ts'],
      );
      const again = await runScript('vendor.ts', [...base, '--version', '1.1.0']);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /never overwritten/);
    } finally {
      state.cleanup();
    }
  });
});
