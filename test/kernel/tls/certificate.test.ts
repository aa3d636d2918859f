import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { configSchema } from '../../../kernel/config/schema.ts';
import { ConfigError, StartupError } from '../../../kernel/errors/index.ts';
import { statePaths } from '../../../kernel/paths.ts';
import { certificateSans, ensureTlsCertificate, needsRenewal } from '../../../kernel/tls/certificate.ts';
import { generateSelfSigned } from '../../helpers/self-signed.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const DAY = 86_400_000;

describe('TLS certificate (startup step 5)', () => {
  const state = tempStateDir();
  after(() => state.cleanup());
  const paths = statePaths(state.dir);
  const config = configSchema.parse({ TLS_SAN: 'mcp.example.org,10.20.30.40', TLS_SELF_SIGNED_DAYS: '100' });

  it('generates a self-signed certificate covering loopback, the host names and TLS_SAN', () => {
    const m = ensureTlsCertificate(config, paths);
    assert.equal(m.source, 'generated');
    const sans = certificateSans(new X509Certificate(m.cert));
    for (const n of ['localhost', '127.0.0.1', '::1', 'mcp.example.org', '10.20.30.40'])
      assert.ok(sans.includes(n), n);
    const life = m.notAfter.getTime() - m.notBefore.getTime();
    assert.ok(Math.abs(life - 100 * DAY) < DAY);
  });

  it('reuses it before half life and renews it after', () => {
    const before = readFileSync(paths.tlsCert, 'utf8');
    assert.equal(ensureTlsCertificate(config, paths, Date.now() + 40 * DAY).source, 'reused');
    assert.equal(readFileSync(paths.tlsCert, 'utf8'), before);
    const renewed = ensureTlsCertificate(config, paths, Date.now() + 51 * DAY);
    assert.equal(renewed.source, 'renewed');
    assert.notEqual(readFileSync(paths.tlsCert, 'utf8'), before);
  });

  it('renews when the configured names change', () => {
    const current = ensureTlsCertificate(config, paths);
    const moreNames = configSchema.parse({
      TLS_SAN: 'mcp.example.org,10.20.30.40,new.example.org',
      TLS_SELF_SIGNED_DAYS: '100',
    });
    assert.equal(needsRenewal(current, ['new.example.org']), true);
    assert.equal(ensureTlsCertificate(moreNames, paths).source, 'renewed');
  });

  it('loads an operator (CA-signed) pair as configured and never replaces it', () => {
    const pair = generateSelfSigned(['ops.example.org'], 30, 'ops');
    const cert = join(state.dir, 'ops.crt');
    const key = join(state.dir, 'ops.key');
    writeFileSync(cert, pair.certPem);
    writeFileSync(key, pair.keyPem);
    const m = ensureTlsCertificate(
      configSchema.parse({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key }),
      paths,
      Date.now() + 29 * DAY,
    );
    assert.equal(m.source, 'configured');
    assert.equal(m.managed, false);
    assert.equal(needsRenewal(m, ['other.example.org']), false);
    assert.throws(
      () =>
        ensureTlsCertificate(
          configSchema.parse({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key }),
          paths,
          Date.now() + 31 * DAY,
        ),
      (e: unknown) => e instanceof ConfigError && /expired/.test(e.message),
    );
  });

  it('refuses a key that does not match the certificate, and a missing file', () => {
    const a = generateSelfSigned(['a.example'], 30, 'a');
    const b = generateSelfSigned(['b.example'], 30, 'b');
    const cert = join(state.dir, 'a.crt');
    const key = join(state.dir, 'b.key');
    writeFileSync(cert, a.certPem);
    writeFileSync(key, b.keyPem);
    assert.throws(
      () => ensureTlsCertificate(configSchema.parse({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key }), paths),
      (e: unknown) => e instanceof StartupError && /does not match/.test(e.message),
    );
    assert.throws(
      () =>
        ensureTlsCertificate(
          configSchema.parse({ TLS_CERT_FILE: join(state.dir, 'nope.crt'), TLS_KEY_FILE: key }),
          paths,
        ),
      (e: unknown) => e instanceof ConfigError && /^TLS_CERT_FILE: file not found/.test(e.message),
    );
  });

  it('a corrupt self-signed certificate stops startup instead of being silently replaced', () => {
    writeFileSync(paths.tlsCert, 'not a certificate');
    assert.throws(() => ensureTlsCertificate(config, paths), StartupError);
  });
});
