// The hostile requests the fuzzers found answered badly, each kept by name so it cannot come back: what
// Node's HTTP parser refuses before any middleware (oversized headers, a malformed request line, a
// control byte in a header, a body shorter than its Content-Length) used to get Node's own bare answer
// or none; PROPFIND and CONNECT got a 501 outside the closed set of codes, or a dropped socket; a
// request without Host got Node's bare 400; malformed MCP params got InternalError (-32603) with zod's
// whole issue list. Each now has its documented code and a JSON body, and the server keeps serving.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { startupToken } from '../../helpers/mcp-client.ts';
import { MCP_HEADERS, openRawSession } from './support/http-session.ts';
import { rawExchange, type RawAnswer } from './support/raw-https.ts';

const REQUEST_TIMEOUT_MS = 2_000;

describe('named hostile requests: each gets its documented code', () => {
  let k: TestKernel;
  let token: string;
  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'named1:admin:cucm',
        HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        HTTP_MAX_HEADER_BYTES: '8192',
      },
    });
    token = startupToken(k.stateDir, 'named1');
  });
  after(async () => {
    await k?.stop();
  });

  const send = (bytes: Buffer | string, timeoutMs = 10_000): Promise<RawAnswer> =>
    rawExchange({
      port: k.kernel.port,
      caPem: k.certPem,
      bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'latin1'),
      timeoutMs,
    });

  const coded = (a: RawAnswer, status: number, error: string): void => {
    assert.equal(a.status, status, a.raw.toString('latin1').slice(0, 300));
    assert.match(a.headers['content-type'] ?? '', /application\/json/);
    const body = JSON.parse(a.body.toString('utf8')) as { error: string; message: string };
    assert.equal(body.error, error, JSON.stringify(body));
    assert.ok(body.message.length > 0);
    assert.doesNotMatch(a.body.toString('utf8'), /\n\s+at |node:internal/);
  };

  it('headers over HTTP_MAX_HEADER_BYTES: 431 PAYLOAD_TOO_LARGE', async () => {
    const a = await send(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    coded(a, 431, 'PAYLOAD_TOO_LARGE');
  });

  it('a malformed request line and a control byte in a header value: 400 BAD_REQUEST', async () => {
    coded(await send('GET /health HTTP/9.9 trailing\r\nHost: 127.0.0.1\r\n\r\n'), 400, 'BAD_REQUEST');
    coded(await send('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\x01b\r\n\r\n'), 400, 'BAD_REQUEST');
  });

  it('invalid UTF-8 in a header value is refused with a code, or read as bytes: never a crash', async () => {
    const bytes = Buffer.concat([
      Buffer.from('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-U: '),
      Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
      Buffer.from('\r\nConnection: close\r\n\r\n'),
    ]);
    const a = await send(bytes);
    assert.ok([200, 400].includes(a.status), `${a.status}`);
    if (a.status === 400) coded(a, 400, 'BAD_REQUEST');
  });

  it('a body shorter than its Content-Length: 408 within HTTP_REQUEST_TIMEOUT_MS', async () => {
    const started = performance.now();
    const a = await send(
      'POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=',
      REQUEST_TIMEOUT_MS + 5_000,
    );
    coded(a, 408, 'BAD_REQUEST');
    assert.ok(performance.now() - started < REQUEST_TIMEOUT_MS + 2_500);
  });

  it('a body over HTTP_MAX_BODY_BYTES: 413 (OAuth endpoints in the RFC 6749 shape, /mcp in JSON-RPC)', async () => {
    const body = 'x'.repeat(1_100_000);
    const oauth = await send(
      `POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    assert.equal(oauth.status, 413);
    assert.equal((JSON.parse(oauth.body.toString('utf8')) as { error: string }).error, 'invalid_request');
    const mcp = await send(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    // /mcp answers in JSON-RPC, as its transport does for every refusal of a message.
    assert.equal(mcp.status, 413);
    const rpc = JSON.parse(mcp.body.toString('utf8')) as { error: { code: number; message: string } };
    assert.equal(rpc.error.code, -32000);
    assert.match(rpc.error.message, /Payload Too Large/);
  });

  it('PROPFIND, TRACE and CONNECT: 405 METHOD_NOT_ALLOWED, never a 501', async () => {
    for (const method of ['PROPFIND', 'TRACE']) {
      coded(
        await send(`${method} /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
        405,
        'METHOD_NOT_ALLOWED',
      );
    }
    coded(
      await send('CONNECT example.invalid:443 HTTP/1.1\r\nHost: example.invalid:443\r\n\r\n'),
      405,
      'METHOD_NOT_ALLOWED',
    );
  });

  it('no Host header: refused by the Host guard with a code and a TRANSPORT record', async () => {
    const before = k.auditRecords().length;
    // Written as is: no Host line at all.
    const a = await send('GET /status HTTP/1.1\r\nConnection: close\r\n\r\n');
    coded(a, 403, 'TRANSPORT_REJECTED');
    const transport = k
      .auditRecords()
      .slice(before)
      .filter((r) => r.event === 'TRANSPORT');
    assert.equal(transport.length, 1, JSON.stringify(transport));
  });

  it('malformed JSON-RPC and malformed params: -32700 and -32602 with a one-line reason', async () => {
    const sid = await openRawSession(k, token);
    const post = async (body: string): Promise<{ status: number; json: Record<string, unknown> }> => {
      const res = await k.fetch(`${k.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${token}`, 'mcp-session-id': sid },
        body,
      });
      const text = await res.text();
      const data = text.startsWith('event:') ? (/^data: (.*)$/m.exec(text)?.[1] ?? '{}') : text;
      return { status: res.status, json: JSON.parse(data) as Record<string, unknown> };
    };
    const parse = await post('{"jsonrpc":"2.0","id":1,"method":"ping"');
    assert.equal((parse.json.error as { code: number }).code, -32700, JSON.stringify(parse.json));

    // tools/call params are checked by the SDK itself: InvalidParams with zod's list.
    for (const params of ['{"arguments":{}}', '{"name":42}', '{"name":"infra_health","arguments":[1,2]}']) {
      const r = await post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":${params}}`);
      const error = r.json.error as { code: number; message: string };
      assert.equal(error.code, -32602, `${params}: ${JSON.stringify(r.json)}`);
    }
    // The other requests with params: the server's own one-line reason (the SDK said InternalError).
    for (const [method, params] of [
      ['prompts/get', '{"name":7}'],
      ['resources/read', '{"uri":["x"]}'],
      ['completion/complete', '{"ref":{"type":"ref/prompt"},"argument":"x"}'],
    ]) {
      const r = await post(`{"jsonrpc":"2.0","id":2,"method":"${method}","params":${params}}`);
      const error = r.json.error as { code: number; message: string };
      assert.equal(error.code, -32602, `${method}: ${JSON.stringify(r.json)}`);
      assert.match(error.message, /BAD_REQUEST: invalid params: /);
      assert.doesNotMatch(error.message, /\n/);
    }
    // The session still works.
    const ok = await post('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"infra_health"}}');
    assert.equal((ok.json.result as { isError?: boolean }).isError, undefined, JSON.stringify(ok.json));
  });

  it('one spelling per endpoint: /MCP, /Token, /HEALTH and /token/ are not endpoints (404 NOT_FOUND)', async () => {
    for (const path of ['/MCP', '/Token', '/HEALTH', '/Status', '/token/', '/status/']) {
      const a = await send(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\n\r\n`,
      );
      coded(a, 404, 'NOT_FOUND');
    }
  });

  it('the server still serves after all of that', async () => {
    const res = await k.fetch(`${k.url}/health`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'ok');
  });
});
