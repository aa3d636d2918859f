import assert from 'node:assert/strict';
import { connect, type SecureVersion } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';

/** A raw TLS handshake at exactly one protocol version, with certificate verification on. */
function handshake(
  k: TestKernel,
  version: SecureVersion,
): Promise<{ protocol: string | null; body: string }> {
  const port = new URL(k.url).port;
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: '127.0.0.1',
      port: Number(port),
      ca: k.certPem,
      servername: 'localhost',
      minVersion: version,
      maxVersion: version,
      // OpenSSL 3 refuses TLS 1.1 at its default security level even as a client; lower it so the
      // server, not our own client, is what says no.
      ...(version === 'TLSv1.1' ? { ciphers: 'DEFAULT@SECLEVEL=0' } : {}),
    });
    let body = '';
    socket.on('secureConnect', () => {
      socket.write(`GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    });
    socket.on('data', (d: Buffer) => (body += d.toString()));
    socket.on('end', () => resolve({ protocol: socket.getProtocol(), body }));
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
});
