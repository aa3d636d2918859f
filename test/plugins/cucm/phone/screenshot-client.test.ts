import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import {
  BadRequestError,
  ConnectivityError,
  CredentialError,
  PayloadTooLargeError,
} from '../../../../kernel/sdk/index.ts';
import type { Lab } from '../../../../lab/index.ts';
import { DEMO_CREDENTIALS, labNode } from '../../../../lab/index.ts';
import { listen, type Listener } from '../../../../lab/http/listener.ts';
import { encodePng } from '../../../../lab/phones/encode.ts';
import { renderScreen } from '../../../../lab/phones/screen.ts';
import { loadOrCreateCa } from '../../../../lab/tls/lab-ca.ts';
import { loadOrIssueNodeCert } from '../../../../lab/tls/node-cert.ts';
import {
  fetchScreenshot,
  phoneEndpoint,
  type PhoneEndpoint,
  type ScreenshotFetchOptions,
} from '../../../../plugins/cucm/phone/screenshot-client.ts';
import { screenshotToPng } from '../../../../plugins/cucm/phone/screenshot-image.ts';
import { generateSelfSigned } from '../../../helpers/self-signed.ts';
import { tempStateDir } from '../../../helpers/state-dir.ts';
import { startTestLab } from '../../../lab/helpers.ts';

const FAST: ScreenshotFetchOptions = { timeoutMs: 5_000, retry: { backoffMs: [1, 1] } };
type Coded =
  typeof BadRequestError | typeof ConnectivityError | typeof CredentialError | typeof PayloadTooLargeError;

async function rejects(p: Promise<unknown>, code: Coded, msg: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof code, `expected ${code.name}, got ${String(err)}`);
    assert.match((err as Error).message, msg);
    return true;
  });
}

/** A one-off HTTP server on 127.0.0.1, answering every request with `handler`. */
async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const at = (
  port: number,
  scheme: 'http' | 'https' = 'http',
  extra: Partial<PhoneEndpoint> = {},
): PhoneEndpoint => ({
  host: '127.0.0.1',
  port,
  username: 'jsmith',
  password: 'pw',
  scheme,
  ...extra,
});

describe('phone screenshots from the lab phones over real HTTP', () => {
  let lab: Lab;
  before(async () => {
    lab = await startTestLab();
  });
  after(() => lab.stop());

  const endpointFor = (name: string, cred: { user: string; password: string }): PhoneEndpoint => {
    const phone = labNode(lab.info, 'phone', name);
    // The lab phone's address (127.0.0.1:<port>) is what a client stores as the credential's host.
    return phoneEndpoint(phone.address, { username: cred.user, password: cred.password });
  };

  it('captures the PNG of an 8865 at the size of its screen, passed through as the phone sent it', async () => {
    const phone = labNode(lab.info, 'phone', 'SEP0A1B2C3D4E01');
    assert.equal(phone.screenshotFormat, 'png');
    const body = await fetchScreenshot(endpointFor(phone.name, DEMO_CREDENTIALS.phone), FAST);
    const shot = screenshotToPng(body);
    assert.deepEqual([shot.width, shot.height, shot.sourceFormat], [800, 480, 'png']);
    assert.equal(shot.png, body);
    assert.equal(PNG.sync.read(shot.png).width, 800);
  });

  it('captures the BMP of a 7965 and converts it to a PNG of 320x222, top row first', async () => {
    const phone = labNode(lab.info, 'phone', 'SEP0A1B2C3D4E02');
    assert.equal(phone.screenshotFormat, 'bmp');
    const served = lab.state.phones.find((p) => p.name === phone.name)?.screenshots ?? 0;
    const shot = screenshotToPng(
      await fetchScreenshot(endpointFor(phone.name, DEMO_CREDENTIALS.phone), FAST),
    );
    assert.deepEqual([shot.width, shot.height, shot.sourceFormat], [320, 222, 'bmp']);
    const png = PNG.sync.read(shot.png);
    assert.deepEqual([png.width, png.height], [320, 222]);
    // The lab draws a dark blue header at the top and a grey softkey bar at the bottom: a flipped
    // decode would swap them.
    assert.deepEqual([...png.data.subarray(0, 4)], [31, 58, 95, 255], 'top-left pixel is the header');
    const bottomLeft = 221 * 320 * 4;
    assert.deepEqual(
      [...png.data.subarray(bottomLeft, bottomLeft + 4)],
      [60, 60, 60, 255],
      'bottom-left is the bar',
    );
    assert.equal(lab.state.phones.find((p) => p.name === phone.name)?.screenshots, served + 1);
  });

  it('turns a wrong password, or a user who does not control the phone, into a CredentialError', async () => {
    const name = 'SEP0A1B2C3D4E01';
    const refused = lab.state.phones.find((p) => p.name === name)?.refused ?? 0;
    await rejects(
      fetchScreenshot(endpointFor(name, { user: DEMO_CREDENTIALS.phone.user, password: 'wrong' }), FAST),
      CredentialError,
      /refused the credentials \(HTTP 401\): the user must control the device/,
    );
    await rejects(
      fetchScreenshot(endpointFor(name, DEMO_CREDENTIALS.phoneOther), FAST),
      CredentialError,
      /HTTP 401/,
    );
    assert.equal(
      lab.state.phones.find((p) => p.name === name)?.refused,
      refused + 2,
      'one request each, no retry',
    );
  });

  it('gives a ConnectivityError for a port nobody listens on, after its bounded retries', async () => {
    const dead = await serve(() => undefined);
    await dead.close();
    await rejects(
      fetchScreenshot(at(dead.port), FAST),
      ConnectivityError,
      /unreachable after 3 attempts \(ECONNREFUSED/,
    );
  });
});

describe('phone screenshots: how HTTP answers map to errors', () => {
  it('sends GET /CGI/Screenshot with HTTP Basic of the stored login', async () => {
    let seen: { method?: string; url?: string; auth?: string } = {};
    const server = await serve((req, res) => {
      seen = { method: req.method, url: req.url, auth: req.headers.authorization };
      res.end(encodePng({ width: 2, height: 2, data: Buffer.alloc(16, 255) }));
    });
    try {
      const body = await fetchScreenshot(
        at(server.port, 'http', { username: 'jsmith', password: 'p:ss' }),
        FAST,
      );
      assert.equal(screenshotToPng(body).width, 2);
      assert.deepEqual(seen, {
        method: 'GET',
        url: '/CGI/Screenshot',
        auth: `Basic ${Buffer.from('jsmith:p:ss').toString('base64')}`,
      });
    } finally {
      await server.close();
    }
  });

  it('maps 403, 404, a redirect to HTTPS and 5xx to coded errors', async () => {
    let status = 200;
    const server = await serve((_req, res) => {
      res.writeHead(status, status === 302 ? { location: 'https://phone.example/CGI/Screenshot' } : {});
      res.end('<html><body>no</body></html>');
    });
    try {
      const cases: [number, Coded, RegExp][] = [
        [403, BadRequestError, /forbids access \(HTTP 403\): web access is disabled/],
        [404, BadRequestError, /HTTP 404\): web access disabled or no screenshot endpoint/],
        [
          302,
          BadRequestError,
          /redirects \(HTTP 302\); it serves HTTPS: store the phone credential with scheme https/,
        ],
        [503, ConnectivityError, /failed to answer \(HTTP 503\)/],
        [418, BadRequestError, /answered HTTP 418 instead of a screenshot/],
      ];
      for (const [s, code, msg] of cases) {
        status = s;
        await rejects(fetchScreenshot(at(server.port), FAST), code, msg);
      }
    } finally {
      await server.close();
    }
  });

  it('refuses an answer over the size bound, declared or streamed, as PayloadTooLarge', async () => {
    // No content-length: the bound must hold while streaming.
    const server = await serve((_req, res) => {
      res.write(Buffer.alloc(3000));
      res.write(Buffer.alloc(3000));
      res.end();
    });
    const declared = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(9 * 1024 * 1024) });
      res.write(Buffer.alloc(10));
    });
    try {
      await rejects(
        fetchScreenshot(at(server.port), { ...FAST, maxBytes: 4000 }),
        PayloadTooLargeError,
        /larger than 4000 bytes/,
      );
      await rejects(
        fetchScreenshot(at(declared.port), FAST),
        PayloadTooLargeError,
        /larger than 8388608 bytes/,
      );
    } finally {
      await server.close();
      await declared.close();
    }
  });

  it('gives up on a phone that never answers after the per-attempt timeout and retries', async () => {
    let attempts = 0;
    const server = await serve(() => {
      attempts++; // accept, never answer
    });
    try {
      await rejects(
        fetchScreenshot(at(server.port), { timeoutMs: 100, retry: { backoffMs: [1] } }),
        ConnectivityError,
        /unreachable after 2 attempts \(ETIMEDOUT: no answer from 127\.0\.0\.1:\d+ within 100 ms/,
      );
      assert.equal(attempts, 2);
    } finally {
      await server.close();
    }
  });
});

describe('phone screenshots over HTTPS (98xx), TLS always verified', () => {
  let caIssued: Listener;
  let selfSigned: Listener;
  let caCertPem: string;
  let pinnedCertPem: string;
  const state = tempStateDir('ucmcp-phone-tls-');
  const image = encodePng(renderScreen({ name: 'SEP9861', lines: ['2001'], width: 800, height: 480 }));
  let requests = 0;
  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    requests++;
    const ok = req.headers.authorization === `Basic ${Buffer.from('jsmith:pw').toString('base64')}`;
    // A misleading content type: the bytes decide.
    res.writeHead(ok ? 200 : 401, { 'content-type': ok ? 'application/octet-stream' : 'text/html' });
    res.end(ok ? image : 'no');
  };
  before(async () => {
    const ca = loadOrCreateCa(state.dir);
    const issued = loadOrIssueNodeCert(
      state.dir,
      ca,
      'phone9861',
      { fqdn: 'sep9861.example' },
      ['127.0.0.1'],
      365,
    );
    caCertPem = ca.certPem;
    caIssued = await listen('127.0.0.1', 0, handler, { ...issued, minVersion: 'TLSv1.2' });
    // A phone's own self-signed certificate, pinned by fingerprint.
    const own = generateSelfSigned(['127.0.0.1'], 30, 'SEP9861');
    pinnedCertPem = own.certPem;
    selfSigned = await listen('127.0.0.1', 0, handler, {
      certPem: own.certPem,
      keyPem: own.keyPem,
      minVersion: 'TLSv1.2',
    });
  });
  after(async () => {
    await caIssued.close();
    await selfSigned.close();
    state.cleanup();
  });

  it('uses HTTPS on port 443 when the credential says so, and HTTP on port 80 otherwise', () => {
    const https = phoneEndpoint('sep9861.example', {
      username: 'u',
      password: 'p',
      options: { scheme: 'https' },
    });
    assert.deepEqual([https.scheme, https.host, https.port], ['https', 'sep9861.example', 443]);
    const http = phoneEndpoint('sep7965.example', { username: 'u', password: 'p' });
    assert.deepEqual([http.scheme, http.port], ['http', 80]);
    const moved = phoneEndpoint('sep7965.example', {
      username: 'u',
      password: 'p',
      options: { address: '10.0.0.9:8080' },
    });
    assert.deepEqual([moved.host, moved.port], ['10.0.0.9', 8080]);
  });

  it('captures over HTTPS with the issuing CA pinned, or a self-signed certificate pinned', async () => {
    for (const [port, pin] of [
      [caIssued.port, { caCertPem }],
      [selfSigned.port, { certPem: pinnedCertPem }],
    ] as const) {
      const shot = screenshotToPng(await fetchScreenshot(at(port, 'https', pin), FAST));
      assert.deepEqual([shot.width, shot.height, shot.sourceFormat], [800, 480, 'png']);
    }
    await rejects(
      fetchScreenshot(at(caIssued.port, 'https', { caCertPem, password: 'bad' }), FAST),
      CredentialError,
      /HTTP 401/,
    );
  });

  it('refuses an unverified or mismatching certificate with a ConnectivityError rather than sending the password', async () => {
    const served = requests;
    await rejects(
      fetchScreenshot(at(caIssued.port, 'https'), FAST),
      ConnectivityError,
      /TLS verification of 127\.0\.0\.1:\d+ failed/,
    );
    await rejects(
      fetchScreenshot(at(selfSigned.port, 'https', { caCertPem }), FAST),
      ConnectivityError,
      /not issued by the pinned CA .*presented SHA-256/,
    );
    assert.equal(requests, served, 'no request reached the server');
  });
});
