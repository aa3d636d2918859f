import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { issueLicense } from '../../kernel/vendor/license.ts';
import { makeTree, runScript, signedTree, testKey, type Tree } from '../kernel/integrity/fixture.ts';

const vendor = testKey('vendor');
const DAY = 86_400_000;

function license(
  expiresAt: Date,
  key = vendor.privateKey,
  graceDays = 30,
  hosts: string | string[] = hostname(),
): Promise<string> {
  return issueLicense({
    privateKey: key,
    publisher: 'vendor',
    customer: 'ACME Telecom',
    hostname: hosts,
    products: ['cucm', 'cuc'],
    tier: 'enterprise',
    expiresAt,
    graceDays,
    issuedAt: new Date(expiresAt.getTime() - 365 * DAY),
  });
}

describe('scripts/license_checker.ts', () => {
  let tree: Tree;
  const files: Record<string, string> = {};
  before(async () => {
    tree = await signedTree();
    const put = (name: string, jwt: string): void => {
      files[name] = join(tree.root, `${name}.jwt`);
      writeFileSync(files[name], jwt);
    };
    put('valid', await license(new Date(Date.now() + 90 * DAY)));
    put('grace', await license(new Date(Date.now() - 5 * DAY)));
    put('expired', await license(new Date(Date.now() - 5 * DAY), vendor.privateKey, 0));
    put('forged', await license(new Date(Date.now() + 90 * DAY), testKey('attacker').privateKey));
    const hosts = ['ucmcp-1', hostname()];
    put('two-hosts', await license(new Date(Date.now() + 90 * DAY), vendor.privateKey, 30, hosts));
  });
  after(() => tree.cleanup());

  const check = (...args: string[]) => runScript('license_checker.ts', ['--root', tree.root, ...args]);

  it('shows a valid license without starting the server, exit 0', async () => {
    const r = await check('--file', files.valid as string);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /state: +VALID/);
    assert.match(r.stdout, /customer: +ACME Telecom/);
    assert.match(r.stdout, /hostname: +\S+ +\(matches this host\)/);
    assert.match(r.stdout, /products: +cucm, cuc/);
    assert.match(r.stdout, /tier: +enterprise/);
    assert.match(r.stdout, /issued: +\d{4}-/);
    assert.match(r.stdout, /expires: +\d{4}-/);
    assert.match(r.stdout, /grace: +30 days, until \d{4}-/);
    assert.match(r.stdout, /signature: +valid +alg PS512 +kid vendor/);
    assert.match(r.stdout, /signed by: +vendor +key sha256 [0-9a-f]{64}/);
    assert.doesNotMatch(r.stdout, /eyJ/, 'the license itself is never printed');
  });

  it('GRACE exits 0; EXPIRED, forged, another host and a missing file exit 1', async () => {
    assert.equal((await check('--file', files.grace as string)).code, 0);
    const expired = await check('--file', files.expired as string);
    assert.equal(expired.code, 1);
    assert.match(expired.stdout, /state: +EXPIRED/);
    const forged = await check('--file', files.forged as string);
    assert.equal(forged.code, 1);
    assert.match(forged.stdout, /signature: +bad-signature/);
    assert.match(forged.stdout, /customer: +ACME Telecom \(UNVERIFIED\)/);
    const other = await check('--file', files.valid as string, '--hostname', 'some-other-host');
    assert.equal(other.code, 1);
    assert.match(other.stdout, /\(this host is some-other-host\)/);
    const missing = await check('--file', join(tree.root, 'nope.jwt'));
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /state: +INVALID +\(no license file\)/);
  });

  it('a two-host license lists both hosts and says whether this host is among them', async () => {
    const here = await check('--file', files['two-hosts'] as string);
    assert.equal(here.code, 0, here.stdout);
    assert.match(here.stdout, /state: +VALID/);
    const listed = `ucmcp-1, ${hostname()}`.replace(/[.]/g, '\\.');
    assert.match(here.stdout, new RegExp(`hostnames: +${listed} +\\(this host, \\S+, is among them\\)`));
    const other = await check('--file', files['two-hosts'] as string, '--hostname', 'ucmcp-3');
    assert.equal(other.code, 1);
    assert.match(
      other.stdout,
      new RegExp(`hostnames: +${listed} +\\(this host is ucmcp-3, not among them\\)`),
    );
    assert.match(other.stdout, /bound to hosts "ucmcp-1", /);
    const json = await check('--file', files['two-hosts'] as string, '--hostname', 'UCMCP-1', '--json');
    const out = JSON.parse(json.stdout) as { status: { state: string }; claims: { hostnames: string[] } };
    assert.equal(out.status.state, 'VALID');
    assert.deepEqual(out.claims.hostnames, ['ucmcp-1', hostname()]);
  });

  it('reads $STATE_DIR/secrets/license.jwt by default; --json is machine-readable', async () => {
    const state = makeTree();
    try {
      state.write('secrets/license.jwt', await license(new Date(Date.now() + 10 * DAY)));
      const r = await runScript('license_checker.ts', ['--root', tree.root, '--json'], {
        STATE_DIR: state.root,
      });
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as Record<string, unknown>;
      assert.equal(out.file, join(state.root, 'secrets', 'license.jwt'));
      assert.equal((out.status as { state: string }).state, 'VALID');
      assert.equal(out.signature, 'valid');
      assert.equal(out.integrity, 'valid');
      assert.deepEqual((out.claims as { products: string[] }).products, ['cucm', 'cuc']);
    } finally {
      state.cleanup();
    }
  });

  it('trusts keys as the server would: none from an unsigned tree in enforce mode, all in warn mode', async () => {
    const unsigned = makeTree();
    try {
      unsigned.write('manifests/publishers/vendor.pem', vendor.publicPem);
      const args = ['--root', unsigned.root, '--file', files.valid as string];
      const enforce = await runScript('license_checker.ts', args);
      assert.equal(enforce.code, 1);
      assert.match(enforce.stdout, /no trusted publisher key/);
      const warn = await runScript('license_checker.ts', [...args, '--mode', 'warn']);
      assert.equal(warn.code, 0, warn.stdout);
      assert.match(warn.stdout, /vendor \(not vouched by a signed manifest\)/);
      const env = await runScript('license_checker.ts', args, { INTEGRITY_MODE: 'warn' });
      assert.equal(env.code, 0);
      assert.equal((await runScript('license_checker.ts', [...args, '--mode', 'lax'])).code, 2);
    } finally {
      unsigned.cleanup();
    }
  });
});
