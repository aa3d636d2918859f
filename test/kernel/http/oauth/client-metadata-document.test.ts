// Client ID metadata documents: the server fetches a URL someone else chose, so every way that fetch
// can be abused is refused with a clear page (never a redirect, never INTERNAL_ERROR): not https, a
// denied address (literal in any spelling, by name, this server itself), redirects, a loop, size, time,
// an untrusted certificate, a document that is not JSON, names another client_id or bad metadata, a
// redirect URI it does not list. Documents come from a loopback HTTPS server; nothing leaves the machine.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import { tableResolver } from '../../../helpers/node-resolver.ts';
import { pinnedFetch } from '../../../helpers/https-client.ts';
import {
  documentServer,
  json,
  metadataDocument,
  registerApp,
  type DocumentServer,
} from '../../../helpers/oauth-apps.ts';
import { authorizeUrl, authRecords } from '../../../helpers/oauth.ts';

const REDIRECT = 'http://127.0.0.1/callback';

describe('client ID metadata documents: what is refused, and why', () => {
  let k: TestKernel;
  let docs: DocumentServer;
  let untrusted: DocumentServer;

  /** GET /authorize for `clientId`; the page and what the audit says about it. */
  async function authorize(clientId: string, redirectUri = 'http://localhost:5555/callback') {
    const res = await k.fetch(authorizeUrl(k, { client_id: clientId, redirect_uri: redirectUri }).url, {
      redirect: 'manual',
    });
    const html = await res.text();
    assert.equal(res.headers.get('location'), null, 'never a redirect');
    return {
      status: res.status,
      html,
      retryAfter: res.headers.get('retry-after'),
      audit: authRecords(k).at(-1),
    };
  }
  const good = (path: string, headers: Record<string, string> = {}) =>
    docs.routes.set(path, json(metadataDocument(docs.url(path), [REDIRECT]), headers));

  before(async () => {
    docs = await documentServer();
    untrusted = await documentServer();
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm',
        AUTH_BCRYPT_COST: '4',
        OAUTH_CLIENT_METADATA_TIMEOUT_MS: '400',
        OAUTH_REGISTRATIONS_PER_IP: '1000',
      },
      clientMetadataCa: docs.certPem,
      nodeResolver: tableResolver({ 'imds.test': ['169.254.169.254'], 'v6imds.test': ['fd00:ec2::254'] }),
    });
  });
  after(async () => {
    await k.stop();
    await docs.close();
    await untrusted.close();
  });

  it('takes only https URLs with a path: an http client_id is no client at all', async () => {
    good('/plain.json');
    const http = await authorize(docs.url('/plain.json').replace('https:', 'http:'));
    assert.equal(http.status, 400);
    assert.match(http.html, /Unknown client/);
    for (const [url, why] of [
      [docs.url('/'), /must have a path/],
      [docs.url('/a/../plain.json'), /path segments/],
      [docs.url('/a/%2e%2e/plain.json'), /path segments/],
      [`${docs.url('/plain.json')}#frag`, /fragment/],
      [docs.url('/plain.json').replace('https://', 'https://user@'), /user information/],
      [`https://localhost:0/plain.json`, /port/],
    ] as const) {
      const r = await authorize(url);
      assert.equal(r.status, 400, url);
      assert.match(r.html, why, url);
      assert.equal(r.audit?.reason, 'client_metadata_invalid_url');
    }
    assert.equal(docs.hits.get('/plain.json'), undefined, 'nothing was fetched');
  });

  it('never connects to a denied address: metadata services by literal (any spelling), by name, or this server', async () => {
    for (const url of [
      'https://169.254.169.254/latest/meta-data',
      'https://0xA9FEA9FE/latest/meta-data',
      'https://[::ffff:169.254.169.254]/latest/meta-data',
      'https://[fd00:ec2::254]/latest/meta-data',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://imds.test/client.json',
      'https://v6imds.test/client.json',
      `https://localhost:${k.kernel.port}/.well-known/oauth-authorization-server`,
    ]) {
      const r = await authorize(url);
      assert.equal(r.status, 400, url);
      assert.match(r.html, /Client metadata document refused/, url);
      assert.match(r.html, /node address policy refuses|metadata service|own listening address/, url);
      assert.equal(r.audit?.reason, 'client_metadata_denied_address', url);
      assert.equal(r.audit?.azp, url);
    }
    const self = await authorize(`${k.url}/authorize/client.json`);
    assert.match(self.html, /names this server/);
  });

  it('follows no redirect, so a redirect loop is one request', async () => {
    docs.routes.set('/loop', (_req, res) => {
      res.writeHead(302, { location: '/loop' });
      res.end();
    });
    good('/target.json');
    docs.routes.set('/moved', (_req, res) => {
      res.writeHead(301, { location: docs.url('/target.json') });
      res.end();
    });
    for (const path of ['/loop', '/moved']) {
      const r = await authorize(docs.url(path));
      assert.equal(r.status, 400);
      assert.match(r.html, /answered with a redirect \(HTTP 30[12]\)/);
      assert.equal(r.audit?.reason, 'client_metadata_redirect');
      assert.equal(docs.hits.get(path), 1);
    }
    assert.equal(docs.hits.get('/target.json'), undefined);
  });

  it('reads at most OAUTH_CLIENT_METADATA_MAX_BYTES, declared or streamed, and waits at most the timeout', async () => {
    const big = JSON.stringify({
      ...metadataDocument(docs.url('/big.json'), [REDIRECT]),
      pad: 'p'.repeat(20_000),
    });
    docs.routes.set('/big.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(big) });
      res.end(big);
    });
    docs.routes.set('/big-streamed.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'x'.repeat(1000);
      let sent = 0;
      const more = (): void => {
        if (sent++ > 50 || res.destroyed) return void res.end();
        res.write(chunk, () => setImmediate(more));
      };
      more();
    });
    for (const path of ['/big.json', '/big-streamed.json']) {
      const r = await authorize(docs.url(path));
      assert.equal(r.status, 400, path);
      assert.match(r.html, /larger than 16384 bytes/, path);
      assert.equal(r.audit?.reason, 'client_metadata_too_large');
    }
    docs.routes.set('/silent.json', () => undefined);
    docs.routes.set('/trickle.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
    });
    for (const path of ['/silent.json', '/trickle.json']) {
      const r = await authorize(docs.url(path));
      assert.equal(r.status, 400, path);
      assert.match(r.html, /no complete answer within 400 ms/, path);
      assert.equal(r.audit?.reason, 'client_metadata_timeout');
    }
  });

  it('verifies the certificate: a server the kernel does not trust is refused', async () => {
    untrusted.routes.set('/client.json', json(metadataDocument(untrusted.url('/client.json'), [REDIRECT])));
    const r = await authorize(untrusted.url('/client.json'));
    assert.equal(r.status, 400);
    assert.match(r.html, /certificate was not accepted/);
    assert.equal(r.audit?.reason, 'client_metadata_tls');
  });

  it('refuses what is not a metadata document for that very URL', async () => {
    const other = docs.url('/someone-else.json');
    docs.routes.set('/mismatch.json', json(metadataDocument(other, [REDIRECT])));
    docs.routes.set('/no-id.json', json({ ...metadataDocument('', [REDIRECT]), client_id: undefined }));
    docs.routes.set('/page.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hello</html>');
    });
    docs.routes.set('/gzip.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end('not really gzip');
    });
    docs.routes.set('/error.json', (_req, res) => {
      res.writeHead(500);
      res.end();
    });
    docs.routes.set(
      '/private-scheme.json',
      json(metadataDocument(docs.url('/private-scheme.json'), ['com.example.app:/cb'])),
    );
    docs.routes.set(
      '/confidential.json',
      json({
        ...metadataDocument(docs.url('/confidential.json'), [REDIRECT]),
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    );
    docs.routes.set(
      '/hostile-name.json',
      json({ ...metadataDocument(docs.url('/hostile-name.json'), [REDIRECT]), client_name: 'Evil\u202eApp' }),
    );
    for (const [path, why, reason] of [
      [
        '/mismatch.json',
        /its client_id \(https:\/\/localhost:\d+\/someone-else\.json\) is not the URL/,
        'client_id_mismatch',
      ],
      ['/no-id.json', /no client_id equal to the URL/, 'client_id_mismatch'],
      ['/page.html', /it is not JSON/, 'not_json'],
      ['/gzip.json', /it is encoded \(gzip\)/, 'not_json'],
      ['/error.json', /answered HTTP 500/, 'http_status'],
      ['/missing.json', /answered HTTP 404/, 'http_status'],
      ['/private-scheme.json', /must be https, or http on localhost/, 'invalid_metadata'],
      ['/confidential.json', /token_endpoint_auth_method must be &#34;none&#34;/, 'invalid_metadata'],
      ['/hostile-name.json', /control or invisible formatting characters/, 'invalid_metadata'],
    ] as const) {
      const r = await authorize(docs.url(path));
      assert.equal(r.status, 400, path);
      assert.match(r.html, why, path);
      assert.equal(r.audit?.reason, `client_metadata_${reason}`, path);
    }
  });

  it('checks the redirect URI against the document (loopback on any port and name), and caches as told', async () => {
    good('/cached.json', { 'cache-control': 'public, max-age=120' });
    assert.equal((await authorize(docs.url('/cached.json'), 'http://[::1]:4321/callback')).status, 200);
    const wrong = await authorize(docs.url('/cached.json'), 'https://attacker.example/callback');
    assert.equal(wrong.status, 400);
    assert.match(wrong.html, /not one of the application&#39;s redirect_uris/);
    assert.equal(wrong.audit?.reason, 'redirect_uri_not_registered');
    assert.equal(docs.hits.get('/cached.json'), 1, 'cached');

    good('/uncached.json', { 'cache-control': 'no-store' });
    assert.equal((await authorize(docs.url('/uncached.json'))).status, 200);
    assert.equal((await authorize(docs.url('/uncached.json'))).status, 200);
    assert.equal(docs.hits.get('/uncached.json'), 2, 'no-store: fetched each time');
  });
});

describe('limits per source address and the switches', () => {
  let k: TestKernel;
  let docs: DocumentServer;
  let now = Date.now();
  before(async () => {
    docs = await documentServer();
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm',
        AUTH_BCRYPT_COST: '4',
        OAUTH_REGISTRATIONS_PER_IP: '2',
        OAUTH_REGISTRATION_WINDOW_SECONDS: '60',
      },
      clock: () => now,
      clientMetadataCa: docs.certPem,
    });
  });
  after(async () => {
    await k.stop();
    await docs.close();
  });

  it('rate-limits registrations per address (429, Retry-After), other addresses unaffected', async () => {
    const body = { client_name: 'x', redirect_uris: [REDIRECT] };
    assert.equal((await registerApp(k, body)).status, 201);
    assert.equal((await registerApp(k, { redirect_uris: ['bad'] })).status, 400, 'a refused one counts too');
    const third = await registerApp(k, body);
    assert.equal(third.status, 429);
    assert.equal(third.body.error, 'RATE_LIMITED');
    const retry = Number(third.headers.get('retry-after'));
    assert.ok(retry >= 1 && retry <= 60, String(retry));
    assert.equal(authRecords(k, 'APP_REGISTRATION_REFUSED').at(-1)?.reason, 'rate_limited');

    const other = pinnedFetch(k.certPem, { localAddress: '127.0.0.2' });
    try {
      const res = await other(`${k.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 201);
    } finally {
      await other.close();
    }
    now += 61_000;
    assert.equal((await registerApp(k, body)).status, 201, 'the window moved on');
  });

  it('rate-limits the documents an address makes the server fetch; cached ones are free', async () => {
    const paths = ['/a.json', '/b.json', '/c.json'];
    for (const p of paths) docs.routes.set(p, json(metadataDocument(docs.url(p), [REDIRECT])));
    const get = (p: string) =>
      k.fetch(authorizeUrl(k, { client_id: docs.url(p), redirect_uri: REDIRECT }).url);
    assert.equal((await get('/a.json')).status, 200);
    assert.equal((await get('/b.json')).status, 200);
    const third = await get('/c.json');
    assert.equal(third.status, 429);
    assert.ok(Number(third.headers.get('retry-after')) >= 1);
    assert.match(await third.text(), /fetch 2 metadata documents within 60 s/);
    assert.equal(docs.hits.get('/c.json'), undefined);
    assert.equal((await get('/a.json')).status, 200, 'from the cache');
    assert.equal(docs.hits.get('/a.json'), 1);
  });
});

describe('both switched off', () => {
  it('advertises neither, has no /register, and takes no URL as client_id', async () => {
    const k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm',
        AUTH_BCRYPT_COST: '4',
        OAUTH_REGISTRATION_ENABLED: '0',
        OAUTH_CLIENT_METADATA_DOCUMENTS: '0',
      },
    });
    try {
      const as = (await (await k.fetch(`${k.url}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        unknown
      >;
      assert.equal(as.registration_endpoint, undefined);
      assert.equal(as.client_id_metadata_document_supported, false);
      const reg = await k.fetch(`${k.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(reg.status, 404);
      const page = await k.fetch(
        authorizeUrl(k, { client_id: 'https://localhost:1/x.json', redirect_uri: REDIRECT }).url,
      );
      assert.equal(page.status, 400);
      assert.match(await page.text(), /does not accept client ID metadata documents/);
    } finally {
      await k.stop();
    }
  });
});
