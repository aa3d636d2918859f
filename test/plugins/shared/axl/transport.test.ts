// The shared HTTP(S) exchange: Basic auth by default, left out on request (session cookies), size bound.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { httpExchange, ResponseTooLargeError } from '../../../../plugins/_shared/axl/transport.ts';

describe('shared transport exchange', () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.end(req.url === '/big' ? 'x'.repeat(10_000) : 'ok');
  });
  let port = 0;
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const node = () => ({ host: '127.0.0.1', port, username: 'u', password: 'p@ss' });

  it('sends Basic auth unless basicAuth is false', async () => {
    await httpExchange(node(), { service: 'phone', method: 'GET', path: '/', timeoutMs: 2000 });
    await httpExchange(node(), {
      service: 'phone',
      method: 'GET',
      path: '/',
      timeoutMs: 2000,
      basicAuth: false,
      headers: { cookie: 'JSESSIONID=abc' },
    });
    assert.equal(seen[0]?.authorization, `Basic ${Buffer.from('u:p@ss').toString('base64')}`);
    assert.equal(seen[1]?.authorization, undefined);
    assert.equal(seen[1]?.cookie, 'JSESSIONID=abc');
  });

  it('abandons an answer over maxBytes', async () => {
    await assert.rejects(
      httpExchange(node(), {
        service: 'phone',
        method: 'GET',
        path: '/big',
        timeoutMs: 2000,
        maxBytes: 1000,
      }),
      ResponseTooLargeError,
    );
  });
});
