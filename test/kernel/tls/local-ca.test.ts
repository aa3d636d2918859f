import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import forge from 'node-forge';
import { configSchema } from '../../../kernel/config/schema.ts';
import { StartupError } from '../../../kernel/errors/index.ts';
import type { AppLogger } from '../../../kernel/logging/app-log.ts';
import { statePaths } from '../../../kernel/paths.ts';
import type { KernelRuntime } from '../../../kernel/runtime.ts';
import { certificateNames, ensureTlsCertificate, type TlsMaterial } from '../../../kernel/tls/certificate.ts';
import { issueLeaf, issuedBy, parseLocalCa } from '../../../kernel/tls/local-ca.ts';
import { readPermitted } from '../../../kernel/tls/name-constraints.ts';
import { tlsRenewalWatchdog } from '../../../kernel/tls/renewal-watchdog.ts';
import { generateSelfSigned } from '../../helpers/self-signed.ts';
import { requireTool } from '../../helpers/optional-tool.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const DAY = 86_400_000;
const SAN = 'mcp.example.org,10.20.30.40,fd00::5';
const config = configSchema.parse({ TLS_SAN: SAN, TLS_SELF_SIGNED_DAYS: '100' });

interface ForgeExt {
  name?: string;
  id: string;
  critical: boolean;
  value: string;
  [k: string]: unknown;
}
const extensions = (pem: string): Map<string, ForgeExt> =>
  new Map(
    (forge.pki.certificateFromPem(pem).extensions as ForgeExt[]).map((e) => [e.name ?? e.id, e] as const),
  );
const pems = (chain: string): string[] =>
  chain.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\r?\n/g) ?? [];

function fresh(): { paths: ReturnType<typeof statePaths>; cleanup: () => void } {
  const state = tempStateDir();
  return { paths: statePaths(state.dir), cleanup: state.cleanup };
}

describe('local CA (startup step 5 without an operator certificate)', () => {
  const { paths, cleanup } = fresh();
  after(cleanup);
  let first: TlsMaterial;

  it('first start makes a CA and a leaf it signed; the CA key and the leaf key are 0600', () => {
    first = ensureTlsCertificate(config, paths);
    assert.equal(first.source, 'generated');
    assert.equal(first.localCa?.event, 'created');
    for (const f of [paths.caKey, paths.tlsKey])
      assert.equal(statSync(f).mode & 0o777, 0o600, `${f} is 0600`);
    assert.equal(statSync(paths.caCert).mode & 0o777, 0o644, 'the CA certificate is public');
    const ca = parseLocalCa(readFileSync(paths.caCert, 'utf8'), readFileSync(paths.caKey, 'utf8'));
    assert.ok(issuedBy(first.cert, ca));
    // The served chain is the leaf, then the CA: a client that trusts the CA needs nothing else.
    const chain = pems(readFileSync(paths.tlsCert, 'utf8'));
    assert.equal(chain.length, 2);
    assert.equal(chain[1], readFileSync(paths.caCert, 'utf8'));
    assert.equal(first.localCa?.fingerprint256, ca.x509.fingerprint256);
  });

  it('the CA: CA:TRUE path length 0, keyCertSign+cRLSign, name constraints for exactly the DNS names', () => {
    const caPem = readFileSync(paths.caCert, 'utf8');
    const ext = extensions(caPem);
    const bc = ext.get('basicConstraints');
    assert.ok(bc?.critical && bc.cA === true && bc.pathLenConstraint === 0, JSON.stringify(bc));
    const ku = ext.get('keyUsage');
    assert.ok(ku?.critical && ku.keyCertSign && ku.cRLSign, JSON.stringify(ku));
    assert.ok(!ku.digitalSignature && !ku.keyEncipherment, 'the CA key signs certificates only');
    assert.match(String(ext.get('subjectKeyIdentifier')?.subjectKeyIdentifier), /^[0-9a-f]{40}$/);
    const nc = ext.get('nameConstraints');
    assert.ok(nc?.critical, 'nameConstraints is critical');
    // forge's own reading of the extension (independent of ours): only permitted subtrees.
    const subtrees = nc.permittedSubtrees as { type: number; value: string }[];
    assert.deepEqual(nc.excludedSubtrees, []);
    const dns = subtrees.filter((s) => s.type === 2).map((s) => s.value);
    assert.deepEqual(
      dns.sort(),
      ['localhost', hostname().toLowerCase(), 'mcp.example.org'].sort(),
      'DNS subtrees: exactly the names',
    );
    // No iPAddress subtree (BoringSSL refuses a CA with one; see kernel/tls/name-constraints.ts), nor
    // any other name type: DNS subtrees are the whole extension.
    assert.deepEqual(
      subtrees.filter((s) => s.type !== 2),
      [],
      'no subtree but DNS ones',
    );
    assert.deepEqual(readPermitted(nc.value).ip, []);
    assert.deepEqual(readPermitted(nc.value).dns.sort(), dns.sort());
    const x509 = new X509Certificate(caPem);
    assert.equal(x509.ca, true);
    const years = (new Date(x509.validTo).getTime() - new Date(x509.validFrom).getTime()) / (365 * DAY);
    assert.ok(years > 9.9 && years < 10.1, `CA valid ${years} years`);
  });

  it('openssl reads the CA extensions as specified', (t) => {
    if (!requireTool(t, 'openssl', ['version'], 'the extensions were checked with forge above')) return;
    const text = spawnSync('openssl', ['x509', '-noout', '-text'], {
      input: readFileSync(paths.caCert),
      encoding: 'utf8',
    }).stdout;
    assert.match(text, /X509v3 Basic Constraints: critical\s+CA:TRUE, pathlen:0/);
    assert.match(text, /X509v3 Key Usage: critical\s+Certificate Sign, CRL Sign\n/);
    assert.match(text, /X509v3 Subject Key Identifier:/);
    // The Name Constraints block: its header, "Permitted:", then one indented line per subtree.
    const block = /X509v3 Name Constraints: critical\n\s+Permitted:\n((?:\s+\S+:.*\n)+)/.exec(text);
    assert.ok(block, `a critical Name Constraints block with permitted subtrees in\n${text}`);
    const lines = (block[1] as string)
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    assert.deepEqual(
      lines.sort(),
      ['DNS:localhost', `DNS:${hostname().toLowerCase()}`, 'DNS:mcp.example.org'].sort(),
      'exactly the DNS names, and no IP: line',
    );
    assert.doesNotMatch(text, /\bIP:/, 'no address constraint anywhere');
    assert.doesNotMatch(text, /Excluded:/);
  });

  it('the leaf: CA:FALSE, serverAuth, the names as SANs, the CA as authority key, the configured life', () => {
    const leafPem = pems(first.cert)[0] as string;
    const ext = extensions(leafPem);
    assert.equal(ext.get('basicConstraints')?.cA, false);
    assert.equal(ext.get('extKeyUsage')?.serverAuth, true);
    const caKeyId = extensions(readFileSync(paths.caCert, 'utf8')).get('subjectKeyIdentifier')
      ?.subjectKeyIdentifier as string;
    const aki = forge.asn1.fromDer(ext.get('authorityKeyIdentifier')?.value as string);
    const keyId = (aki.value as forge.asn1.Asn1[])[0]?.value as string;
    assert.equal(forge.util.bytesToHex(keyId), caKeyId);
    const leaf = new X509Certificate(leafPem);
    for (const n of ['localhost', 'mcp.example.org', 'IP Address:10.20.30.40', 'IP Address:127.0.0.1'])
      assert.ok(leaf.subjectAltName?.includes(n), n);
    const life = first.notAfter.getTime() - first.notBefore.getTime();
    assert.ok(Math.abs(life - 100 * DAY) < DAY);
  });

  it('a leaf the CA signs for a name outside its constraints is refused by OpenSSL', (t) => {
    if (!requireTool(t, 'openssl', ['version'], 'the TLS test in trust-local-ca.test.ts proves it too'))
      return;
    const ca = parseLocalCa(readFileSync(paths.caCert, 'utf8'), readFileSync(paths.caKey, 'utf8'));
    const verify = (leafNames: string[]): string => {
      const file = join(paths.root, 'leaf-under-test.pem');
      writeFileSync(file, issueLeaf(ca, leafNames, 1, 'test').certPem);
      const r = spawnSync('openssl', ['verify', '-CAfile', paths.caCert, file], { encoding: 'utf8' });
      return `${r.status} ${r.stdout}${r.stderr}`;
    };
    assert.match(verify(['localhost', '127.0.0.1', 'sub.mcp.example.org']), /^0 .*: OK/);
    assert.match(verify(['localhost', 'outside.example.com']), /permitted subtree violation/);
    assert.match(verify(['localhost', 'evil.example.com']), /permitted subtree violation/);
    assert.match(verify(['evillocalhost']), /permitted subtree violation/);
    assert.match(verify(['mcp.example.org.evil.example']), /permitted subtree violation/);
    // The documented trade-off (docs/tls-trust.md): addresses carry no constraint, because BoringSSL
    // clients refuse a CA with iPAddress subtrees, so a leaf for any address verifies. Constraining
    // addresses again must be a visible decision: it makes these fail.
    assert.match(verify(['localhost', '127.0.0.2']), /^0 .*: OK/);
    assert.match(verify(['fd00::6']), /^0 .*: OK/);
  });

  it('is reused as is before half life', () => {
    const leaf = readFileSync(paths.tlsCert, 'utf8');
    const m = ensureTlsCertificate(config, paths, Date.now() + 40 * DAY);
    assert.equal(m.source, 'reused');
    assert.equal(m.localCa?.event, 'kept');
    assert.equal(readFileSync(paths.tlsCert, 'utf8'), leaf);
  });

  it('renewal (at start and by the watchdog) issues a new leaf from the same CA', async () => {
    const caBefore = readFileSync(paths.caCert, 'utf8');
    const caKeyBefore = readFileSync(paths.caKey, 'utf8');
    const leafBefore = readFileSync(paths.tlsCert, 'utf8');
    const renewed = ensureTlsCertificate(config, paths, Date.now() + 51 * DAY);
    assert.equal(renewed.source, 'renewed');
    assert.equal(renewed.localCa?.event, 'kept');
    assert.notEqual(readFileSync(paths.tlsCert, 'utf8'), leafBefore);

    // The watchdog, with the running certificate past half its life.
    const applied: TlsMaterial[] = [];
    const logged: string[] = [];
    const log = {
      info: (_: unknown, m: string) => logged.push(m),
      warn: (_: unknown, m: string) => logged.push(m),
    };
    const rt = {
      config,
      paths,
      tls: {
        ...renewed,
        notBefore: new Date(Date.now() - 60 * DAY),
        notAfter: new Date(Date.now() + 40 * DAY),
      },
      log: log as unknown as AppLogger,
    } as unknown as KernelRuntime;
    await tlsRenewalWatchdog(rt, (m) => applied.push(m)).run(new AbortController().signal);
    assert.equal(applied.length, 1);
    assert.notEqual(applied[0]?.fingerprint256, renewed.fingerprint256);
    assert.equal(rt.tls, applied[0]);

    assert.equal(readFileSync(paths.caCert, 'utf8'), caBefore, 'the CA users trust is unchanged');
    assert.equal(readFileSync(paths.caKey, 'utf8'), caKeyBefore);
    const ca = parseLocalCa(caBefore, caKeyBefore);
    assert.ok(issuedBy(readFileSync(paths.tlsCert, 'utf8'), ca));
    assert.deepEqual(logged, ['TLS certificate renewed'], 'no CA news when the CA is kept');
  });

  it('keeps the CA when a name is dropped or an address added, replaces it (and says why) for a DNS name outside it', () => {
    const caBefore = readFileSync(paths.caCert, 'utf8');
    const fewer = configSchema.parse({ TLS_SAN: 'mcp.example.org', TLS_SELF_SIGNED_DAYS: '100' });
    assert.equal(ensureTlsCertificate(fewer, paths, Date.now() + 51 * DAY).localCa?.event, 'kept');
    assert.equal(readFileSync(paths.caCert, 'utf8'), caBefore);

    // A new address is not constrained, so the CA users already trust can sign for it.
    const address = configSchema.parse({ TLS_SAN: `${SAN},10.9.9.9`, TLS_SELF_SIGNED_DAYS: '100' });
    const a = ensureTlsCertificate(address, paths);
    assert.equal(a.source, 'renewed');
    assert.equal(a.localCa?.event, 'kept');
    assert.equal(readFileSync(paths.caCert, 'utf8'), caBefore);
    assert.ok(new X509Certificate(a.cert).subjectAltName?.includes('IP Address:10.9.9.9'));

    const more = configSchema.parse({ TLS_SAN: `${SAN},new.example.net`, TLS_SELF_SIGNED_DAYS: '100' });
    const m = ensureTlsCertificate(more, paths);
    assert.equal(m.source, 'renewed');
    assert.equal(m.localCa?.event, 'replaced');
    assert.match(String(m.localCa?.reason), /do not permit new\.example\.net/);
    assert.notEqual(readFileSync(paths.caCert, 'utf8'), caBefore);
    const ca = parseLocalCa(readFileSync(paths.caCert, 'utf8'), readFileSync(paths.caKey, 'utf8'));
    assert.ok(issuedBy(m.cert, ca));
  });

  it('replaces a CA that would expire before the new leaf', () => {
    const caBefore = readFileSync(paths.caCert, 'utf8');
    const m = ensureTlsCertificate(config, paths, Date.now() + 3600 * DAY);
    assert.equal(m.localCa?.event, 'replaced');
    assert.match(String(m.localCa?.reason), /expires/);
    assert.notEqual(readFileSync(paths.caCert, 'utf8'), caBefore);
  });
});

describe('local CA: migration, operator certificates, damage', () => {
  it('an install from before the local CA (a self-signed pair, no CA) gets one at the next start', () => {
    const { paths, cleanup } = fresh();
    try {
      const old = generateSelfSigned(certificateNames(config), 100, 'old');
      mkdirSync(paths.secrets, { recursive: true });
      writeFileSync(paths.tlsCert, old.certPem);
      writeFileSync(paths.tlsKey, old.keyPem, { mode: 0o600 });
      const m = ensureTlsCertificate(config, paths);
      assert.equal(m.source, 'renewed');
      assert.equal(m.localCa?.event, 'created');
      assert.ok(existsSync(paths.caCert) && existsSync(paths.caKey));
      const ca = parseLocalCa(readFileSync(paths.caCert, 'utf8'), readFileSync(paths.caKey, 'utf8'));
      assert.ok(issuedBy(readFileSync(paths.tlsCert, 'utf8'), ca));
    } finally {
      cleanup();
    }
  });

  it('an operator certificate is never replaced and no CA is made', () => {
    const { paths, cleanup } = fresh();
    try {
      const pair = generateSelfSigned(['ops.example.org'], 30, 'ops');
      const cert = join(paths.root, 'ops.crt');
      const key = join(paths.root, 'ops.key');
      writeFileSync(cert, pair.certPem);
      writeFileSync(key, pair.keyPem);
      const m = ensureTlsCertificate(configSchema.parse({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key }), paths);
      assert.equal(m.source, 'configured');
      assert.equal(m.localCa, undefined);
      assert.equal(existsSync(paths.caCert) || existsSync(paths.caKey), false);
      assert.equal(readFileSync(cert, 'utf8'), pair.certPem);
    } finally {
      cleanup();
    }
  });

  it('a damaged or half-missing CA stops startup instead of being silently replaced', () => {
    const { paths, cleanup } = fresh();
    try {
      ensureTlsCertificate(config, paths);
      const caKey = readFileSync(paths.caKey, 'utf8');
      rmSync(paths.caCert);
      assert.throws(
        () => ensureTlsCertificate(config, paths),
        (e: unknown) => e instanceof StartupError && /local CA .* unusable: .*remove both/.test(e.message),
      );
      writeFileSync(paths.caCert, readFileSync(paths.tlsCert, 'utf8'));
      assert.throws(
        () => ensureTlsCertificate(config, paths),
        (e: unknown) => e instanceof StartupError && /not a CA certificate/.test(e.message),
      );
      assert.equal(readFileSync(paths.caKey, 'utf8'), caKey, 'the key users depend on is left alone');
    } finally {
      cleanup();
    }
  });

  it('a leaf from another CA in secrets/ is reissued from the CA there', () => {
    const { paths, cleanup } = fresh();
    const other = fresh();
    try {
      ensureTlsCertificate(config, paths);
      ensureTlsCertificate(config, other.paths);
      writeFileSync(paths.tlsCert, readFileSync(other.paths.tlsCert));
      writeFileSync(paths.tlsKey, readFileSync(other.paths.tlsKey));
      const m = ensureTlsCertificate(config, paths);
      assert.equal(m.source, 'renewed');
      assert.equal(m.localCa?.event, 'kept');
      const ca = parseLocalCa(readFileSync(paths.caCert, 'utf8'), readFileSync(paths.caKey, 'utf8'));
      assert.ok(issuedBy(m.cert, ca));
    } finally {
      cleanup();
      other.cleanup();
    }
  });
});
