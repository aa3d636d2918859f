// Container HEALTHCHECK: GET /health over HTTPS on loopback. Plain JavaScript so it starts fast every 30 s.
// The server's certificate is pinned by its SHA-256 fingerprint (read from the certificate file the server
// uses), so the check needs no CA and the certificate's names need not include 127.0.0.1, yet a different
// certificate is still refused. Exit 0 healthy, 1 not.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';

const env = process.env;
const port = Number(env.SERVER_PORT || 8443);
const certFile = env.TLS_CERT_FILE || join(env.STATE_DIR || process.cwd(), 'secrets', 'tls_cert.pem');

let expected;
try {
  expected = new X509Certificate(readFileSync(certFile)).fingerprint256;
} catch (err) {
  console.error(`healthcheck: cannot read ${certFile}: ${err.message}`);
  process.exit(1);
}

const req = request(
  {
    host: '127.0.0.1',
    port,
    path: '/health',
    method: 'GET',
    timeout: 4000,
    // Chain and name checks are replaced by the exact fingerprint comparison below.
    rejectUnauthorized: false,
    agent: false,
  },
  (res) => {
    const seen = res.socket.getPeerX509Certificate?.()?.fingerprint256;
    let body = '';
    res.on('data', (d) => (body += d));
    res.on('end', () => {
      if (seen !== expected) {
        console.error('healthcheck: the server presented an unexpected certificate');
        process.exit(1);
      }
      process.exit(res.statusCode === 200 && healthy(body) ? 0 : 1);
    });
  },
);
req.on('timeout', () => req.destroy(new Error('timeout')));
req.on('error', (err) => {
  console.error(`healthcheck: ${err.message}`);
  process.exit(1);
});
req.end();

/** `ok` (local state), or with a shared state store `{"status":"ok","state_store":{...}}`. */
function healthy(body) {
  if (body === 'ok') return true;
  try {
    return JSON.parse(body).status === 'ok';
  } catch {
    return false;
  }
}
