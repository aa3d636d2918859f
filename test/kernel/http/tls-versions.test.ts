import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { connect, type SecureVersion } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { createHttpsServer } from '../../../kernel/http/server.ts';
import type { TlsMaterial } from '../../../kernel/tls/certificate.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';

/** A raw TLS handshake at exactly one protocol version, with certificate verification on. */
function handshake(
  k: Pick<TestKernel, 'url' | 'certPem'>,
  version: SecureVersion,
  ciphers?: string,
): Promise<{ protocol: string | null; cipher: string; body: string }> {
  const port = new URL(k.url).port;
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: '127.0.0.1',
      port: Number(port),
      ca: k.certPem,
      servername: 'localhost',
      minVersion: version,
      maxVersion: version,
      // OpenSSL 3 refuses TLS 1.1 and some old suites at its default security level even as a client;
      // lower it so the server, not our own client, is what says no.
      ...(version === 'TLSv1.1' || ciphers ? { ciphers: `${ciphers ?? 'DEFAULT'}@SECLEVEL=0` } : {}),
    });
    let cipher = '';
    let body = '';
    socket.on('secureConnect', () => {
      cipher = socket.getCipher().name;
      socket.write(`GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    });
    socket.on('data', (d: Buffer) => (body += d.toString()));
    socket.on('end', () => resolve({ protocol: socket.getProtocol(), cipher, body }));
    socket.on('error', reject);
  });
}

describe('TLS versions', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel();
  });
  after(async () => {
    await k.stop();
  });

  for (const v of ['TLSv1.2', 'TLSv1.3'] as const) {
    it(`/health answers over ${v}`, async () => {
      const r = await handshake(k, v);
      assert.equal(r.protocol, v);
      assert.match(r.body, /^HTTP\/1\.1 200 /);
      assert.match(r.body, /\r\n\r\nok$/);
    });
  }

  it('a TLS 1.1 client is refused and the failed handshake is a TRANSPORT audit event', async () => {
    await assert.rejects(handshake(k, 'TLSv1.1'), /alert|protocol|handshake/i);
    // The server's tlsClientError fires on its side of the socket; give it a moment to land.
    let rec: Record<string, unknown> | undefined;
    for (let i = 0; i < 50 && !rec; i++) {
      rec = k.auditRecords().find((r) => r.event === 'TRANSPORT' && r.status === 'TLS_ALERT');
      if (!rec) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(rec, 'TRANSPORT TLS_ALERT audited');
    assert.equal(rec.ip, '127.0.0.1');
    assert.match(String(rec.alert), /unsupported protocol|version/i);
  });

  // What a TLS 1.2 client may offer that the server must refuse: CBC (with or without ECDHE), static
  // RSA key exchange (no forward secrecy, even with GCM), finite-field DHE.
  const REFUSED_12 = [
    'ECDHE-RSA-AES128-SHA256:ECDHE-RSA-AES256-SHA384:ECDHE-RSA-AES128-SHA:ECDHE-RSA-AES256-SHA',
    'AES128-GCM-SHA256:AES256-GCM-SHA384',
    'AES128-SHA:AES256-SHA:AES128-SHA256:AES256-SHA256',
    'DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305',
  ];
  for (const offer of REFUSED_12) {
    it(`a TLS 1.2 client offering only ${offer.split(':')[0]}... is refused`, async () => {
      await assert.rejects(handshake(k, 'TLSv1.2', offer), /alert|handshake|cipher/i);
    });
  }

  for (const suite of [
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ]) {
    it(`TLS 1.2 with ${suite} is served`, async () => {
      const r = await handshake(k, 'TLSv1.2', suite);
      assert.equal(r.cipher, suite);
      assert.match(r.body, /^HTTP\/1\.1 200 /);
    });
  }

  it('TLS 1.3 negotiates an AEAD suite', async () => {
    const r = await handshake(k, 'TLSv1.3');
    assert.match(r.cipher, /^TLS_(AES_(128|256)_GCM|CHACHA20_POLY1305)_SHA(256|384)$/);
  });

  it('the policy survives a certificate swap (setSecureContext starts from scratch)', async () => {
    const tls: TlsMaterial = {
      key: readFileSync(join(k.stateDir, 'secrets', 'tls_key.pem'), 'utf8'),
      cert: k.certPem,
      managed: true,
      notBefore: new Date(),
      notAfter: new Date(),
      fingerprint256: '',
      source: 'reused',
    };
    const { config, audit, log, metrics } = k.kernel.runtime;
    const handle = createHttpsServer(tls, (_req, res) => res.end('ok'), { config, audit, log, metrics });
    await new Promise<void>((resolve) => handle.server.listen(0, '127.0.0.1', resolve));
    try {
      handle.setCertificate(tls);
      const swapped = {
        url: `https://127.0.0.1:${(handle.server.address() as AddressInfo).port}`,
        certPem: k.certPem,
      };
      await assert.rejects(handshake(swapped, 'TLSv1.2', REFUSED_12[0]), /alert|handshake|cipher/i);
      await assert.rejects(handshake(swapped, 'TLSv1.1'), /alert|protocol|handshake/i);
      assert.equal(
        (await handshake(swapped, 'TLSv1.2', 'ECDHE-RSA-AES128-GCM-SHA256')).cipher,
        'ECDHE-RSA-AES128-GCM-SHA256',
      );
    } finally {
      await handle.close(0);
    }
  });
});
