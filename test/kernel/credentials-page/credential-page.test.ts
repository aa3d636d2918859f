// The one-time credential page over real HTTPS: links opened by the credential tools through a real MCP
// client, the page's headers and escaping, single use, expiry, the CSRF token, a foreign client's token,
// bodies it refuses, and the bound on pending links.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';

const PASSWORD = 'Page-Test-Secret-9f3a';
let shift = 0;

describe('credential page', () => {
  let k: TestKernel;
  let op: ConnectedClient;
  let seq = 0;
  before(async () => {
    k = await startTestKernel({
      env: { AUTH_CLIENTS: 'op1:operator:cucm,other1:operator:cucm', AUTH_BCRYPT_COST: '4' },
      license: { products: ['cucm'] },
      clock: () => Date.now() + shift,
    });
    op = await connectMcp(k, startupToken(k.stateDir, 'op1'));
    // The SDK client then checks every structured result against the tool's published output schema.
    await op.client.listTools();
  });
  after(async () => {
    await op?.close();
    await k?.stop();
  });

  /** Asks cucm_store_credentials without a password (this client has no elicitation): the link. */
  const openLink = async (client = op, host = `cucm-${++seq}.example`) => {
    const r = await client.call('cucm_store_credentials', {
      host,
      username: 'axladmin',
      address: '127.0.0.1:1',
    });
    assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
    const s = r.structuredContent as Record<string, unknown>;
    assert.equal(s.stored, false);
    assert.equal(s.pending, true);
    assert.match(String(s.message), /open it in a browser/);
    return { url: String(s.url), host };
  };
  const get = (url: string, headers: Record<string, string> = {}) => k.fetch(url, { headers });
  const post = (url: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    k.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: k.url, ...headers },
      body: new URLSearchParams(form).toString(),
    });
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

  it('a tool call without password answers a one-time link; the page is script-free, strict and stores', async () => {
    const { url, host } = await openLink();
    assert.match(url, new RegExp(`^${k.url}/credentials/enter/[A-Za-z0-9_-]{43}$`));
    const page = await get(url);
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'none'",
      "script-src 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ])
      assert.ok(csp.includes(directive), `${directive} in ${csp}`);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(page.headers.get('referrer-policy'), 'same-origin');
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    const html = await page.text();
    assert.doesNotMatch(html, /<script/i);
    assert.match(html, new RegExp(`<dd id="host">${host}</dd>`));
    assert.match(html, /<dd id="client">op1<\/dd>/);

    const mark = k.auditRecords().length;
    const stored = await post(url, { csrf: csrfOf(html), username: 'axladmin', password: PASSWORD });
    assert.equal(stored.status, 200);
    const done = await stored.text();
    assert.match(done, /Credentials stored/);
    assert.ok(!done.includes(PASSWORD));
    const records = k.auditRecords().slice(mark);
    const credential = records.filter((r) => r.event === 'CREDENTIAL');
    assert.deepEqual(
      credential.map((r) => [r.operation, r.client, r.product]),
      [['store', 'op1', 'cucm']],
    );
    const listed = await op.call('cucm_list_credentials', {});
    const hosts = (listed.structuredContent?.credentials as { host: string }[]).map((c) => c.host);
    assert.ok(hosts.includes(host), JSON.stringify(hosts));

    // Single use: the same link, posted or opened again, is refused with its code.
    const again = await post(url, { csrf: csrfOf(html), username: 'axladmin', password: PASSWORD });
    assert.equal(again.status, 410);
    assert.match(await again.text(), /NOT_FOUND<\/strong>: this credential link was already used/);
    assert.equal((await get(url)).status, 410);
  });

  it('a wrong CSRF token, a cross-site post and a foreign client are refused and audited; the link survives', async () => {
    const { url } = await openLink();
    const html = await (await get(url)).text();
    const mark = k.auditRecords().length;
    const bad = await post(url, { csrf: 'x'.repeat(43), username: 'u', password: PASSWORD });
    assert.equal(bad.status, 403);
    const badText = await bad.text();
    assert.match(badText, /BAD_REQUEST/);
    assert.ok(!badText.includes(PASSWORD));
    const cross = await post(
      url,
      { csrf: csrfOf(html), username: 'u', password: PASSWORD },
      {
        'sec-fetch-site': 'cross-site',
      },
    );
    assert.equal(cross.status, 403);
    const noOrigin = await k.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${csrfOf(html)}&username=u&password=p`,
    });
    assert.equal(noOrigin.status, 403);

    const foreign = await get(url, { authorization: `Bearer ${startupToken(k.stateDir, 'other1')}` });
    assert.equal(foreign.status, 403);
    assert.match(
      await foreign.text(),
      /ProfilePermissionError<\/strong>: this credential link belongs to another client/,
    );
    const own = await get(url, { authorization: `Bearer ${startupToken(k.stateDir, 'op1')}` });
    assert.equal(own.status, 200);

    const reasons = k
      .auditRecords()
      .slice(mark)
      .filter((r) => r.event === 'AUTH')
      .map((r) => r.reason);
    assert.deepEqual(reasons, [
      'credential_page_invalid_csrf',
      'credential_page_cross_site',
      'credential_page_cross_site',
      'credential_link_foreign_client',
    ]);
    assert.ok(!JSON.stringify(k.auditRecords()).includes(PASSWORD));
    // A host-key decision the page did not offer (no SSH key awaits one here) is refused.
    const crafted = await post(url, {
      csrf: csrfOf(html),
      username: 'u',
      password: PASSWORD,
      host_key: 'trust',
    });
    assert.equal(crafted.status, 400);
    assert.match(await crafted.text(), /host_key must be later, trust or reject/);
    // None of it used the link up.
    const ok = await post(url, { csrf: csrfOf(html), username: 'axladmin', password: PASSWORD });
    assert.equal(ok.status, 200);
  });

  it('an unknown id is 404 (counted as guessing), an expired link 410; oversized and malformed bodies are coded', async () => {
    const unknown = await get(`${k.url}/credentials/enter/${'A'.repeat(43)}`);
    assert.equal(unknown.status, 404);
    assert.match(await unknown.text(), /NOT_FOUND<\/strong>: this credential link does not exist/);
    assert.equal((await get(`${k.url}/credentials/enter/%3Cscript%3E`)).status, 404);
    // A link naming another instance (docs/scale-out.md) is a misrouting, answered 421 without reading the form.
    const elsewhere = `${k.url}/credentials/enter/other-1~${'A'.repeat(43)}`;
    const misdirected = await post(elsewhere, { csrf: 'x', username: 'u', password: PASSWORD });
    assert.equal(misdirected.status, 421);
    assert.match(
      await misdirected.text(),
      /MISDIRECTED_REQUEST<\/strong>: this credential link belongs to instance other-1/,
    );

    const { url } = await openLink();
    const html = await (await get(url)).text();
    const big = await post(url, { csrf: csrfOf(html), username: 'u', password: 'p'.repeat(20_000) });
    assert.equal(big.status, 413);
    assert.match(await big.text(), /PAYLOAD_TOO_LARGE/);
    const json = await k.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: k.url },
      body: '{}',
    });
    assert.equal(json.status, 415);
    const empty = await post(url, { csrf: csrfOf(html), username: '', password: '' });
    assert.equal(empty.status, 400);
    assert.match(await empty.text(), /BAD_REQUEST<\/strong>: the username must be 1 to 256 characters/);

    shift += 601_000;
    try {
      const expired = await get(url);
      assert.equal(expired.status, 410);
      assert.match(await expired.text(), /this credential link has expired/);
    } finally {
      shift -= 601_000;
    }
  });

  it('hostile request values are escaped and cut on the page', async () => {
    const links = k.kernel.mcp.credentialLinks;
    const hostile = `<script>alert(1)</script>"'\`<img src=x onerror=alert(2)>${'h'.repeat(5000)}`;
    const link = links.open('op1', {
      tool: 'cucm_store_credentials',
      product: 'cucm',
      kindLabel: '<b>AXL</b>',
      host: hostile,
      operation: 'store',
      username: '"><script>x</script>',
      details: { '<i>Address</i>': hostile },
      hostKey: { state: 'pending', fingerprint: '<svg onload=alert(3)>', decidable: true },
      submit: () => Promise.resolve({}),
    });
    const page = await get(link.url);
    const html = await page.text();
    assert.doesNotMatch(html, /<script|<img|<svg|<i>|<b>/i);
    assert.match(html, /&#60;script&#62;alert\(1\)&#60;\/script&#62;/);
    assert.ok(html.length < 8000, `page of ${html.length} characters`);
  });

  it('an elicitation answered `accept` before the page is submitted: the tool waits for the submission', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${k.url}/mcp`), {
      fetch: k.fetch as unknown as FetchLike,
      requestInit: { headers: { Authorization: `Bearer ${startupToken(k.stateDir, 'other1')}` } },
    });
    const client = new Client(
      { name: 'early-accept', version: '1.0.0' },
      { capabilities: { elicitation: { url: {} } } },
    );
    let submitted: Promise<number> | undefined;
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      const url = String((req.params as { url: string }).url);
      // What a real client does: "the person agreed to open it", at once; the person submits later.
      submitted = new Promise((r) => setTimeout(r, 300)).then(async () => {
        const html = await (await get(url)).text();
        return (await post(url, { csrf: csrfOf(html), username: 'late', password: PASSWORD })).status;
      });
      return Promise.resolve({ action: 'accept' as const });
    });
    await client.connect(transport);
    try {
      await client.listTools();
      // Nothing to update yet: refused before a link is opened (nobody types for nothing).
      const none = await client.callTool({
        name: 'cucm_update_credentials',
        arguments: { host: 'CUCM-late.example', username: 'late', address: '127.0.0.1:1' },
      });
      assert.equal((none.structuredContent as Record<string, unknown>).error, 'CredentialError');
      assert.equal(submitted, undefined);
      const stored = await client.callTool({
        name: 'cucm_store_credentials',
        arguments: { host: 'cucm-late.example', username: 'late', address: '127.0.0.1:1' },
      });
      assert.ok(submitted);
      assert.equal(await submitted, 200);
      assert.deepEqual(
        [
          (stored.structuredContent as Record<string, unknown>).stored,
          (stored.structuredContent as Record<string, unknown>).host,
        ],
        [true, 'cucm-late.example'],
      );
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  it('a client with form-only elicitation is never sent a URL request: it gets the link in the result', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${k.url}/mcp`), {
      fetch: k.fetch as unknown as FetchLike,
      requestInit: { headers: { Authorization: `Bearer ${startupToken(k.stateDir, 'other1')}` } },
    });
    const client = new Client({ name: 'form-only', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked += 1;
      return Promise.resolve({ action: 'decline' as const });
    });
    await client.connect(transport);
    try {
      const r = await client.callTool({
        name: 'cucm_store_credentials',
        arguments: { host: 'cucm-form-only.example', username: 'u', address: '127.0.0.1:1' },
      });
      const s = r.structuredContent as Record<string, unknown>;
      assert.deepEqual([r.isError, s.stored, s.pending, asked], [undefined, false, true, 0]);
      assert.match(String(s.url), /\/credentials\/enter\//);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  it('pending links are bounded per client: the sixth is RATE_LIMITED, another client still gets one', async () => {
    const other = await connectMcp(k, startupToken(k.stateDir, 'other1'));
    try {
      // Earlier tests left some of op1's links pending; fill up to the bound.
      let refused: Record<string, unknown> | undefined;
      for (let i = 0; i < 7 && !refused; i++) {
        const r = await op.call('cucm_store_credentials', {
          host: `flood-${i}.example`,
          username: 'u',
          address: '127.0.0.1:1',
        });
        if (r.isError) refused = r.structuredContent;
      }
      assert.equal(refused?.error, 'RATE_LIMITED', JSON.stringify(refused));
      assert.match(String(refused?.message), /5 credential links are already waiting for client op1/);
      assert.ok(Number(refused?.retry_after_s) > 0);
      await openLink(other);
    } finally {
      await other.close();
    }
  });

  // Last: it blacklists this test's address.
  it('guessing link ids gets the address blacklisted (AUTH_BLOCKED) before it can find one', async () => {
    const other = await connectMcp(k, startupToken(k.stateDir, 'other1'));
    const { url } = await openLink(other).finally(() => other.close());
    let blocked = 0;
    for (let i = 0; i < 12 && blocked === 0; i++) {
      const r = await get(`${k.url}/credentials/enter/${String(i).padStart(43, 'G')}`);
      await r.text();
      if (r.status === 429) blocked = i;
      else assert.equal(r.status, 404);
    }
    assert.ok(blocked > 0, 'the address was blocked');
    const real = await get(url);
    assert.equal(real.status, 429);
    assert.equal(((await real.json()) as { error: string }).error, 'AUTH_BLOCKED');
  });
});

describe('CREDENTIALS_IN_ARGUMENTS', () => {
  it('on (the default) a password argument is stored; off it is refused with BAD_REQUEST and nothing is stored', async () => {
    for (const [setting, accepted] of [
      [undefined, true],
      ['0', false],
    ] as const) {
      const k = await startTestKernel({
        env: {
          AUTH_CLIENTS: 'op1:operator:cucm',
          AUTH_BCRYPT_COST: '4',
          ...(setting ? { CREDENTIALS_IN_ARGUMENTS: setting } : {}),
        },
        license: { products: ['cucm'] },
      });
      const c = await connectMcp(k, startupToken(k.stateDir, 'op1'));
      try {
        const args = {
          host: 'cucm-args.example',
          username: 'axladmin',
          password: PASSWORD,
          address: '127.0.0.1:1',
        };
        for (const tool of [
          'cucm_store_credentials',
          'cucm_os_store_credentials',
          'cucm_phone_store_credentials',
        ]) {
          const r = await c.call(tool, args);
          if (accepted) assert.equal(r.isError, undefined, `${tool}: ${JSON.stringify(r.structuredContent)}`);
          else {
            assert.equal(r.structuredContent?.error, 'BAD_REQUEST', tool);
            assert.match(String(r.structuredContent?.message), /CREDENTIALS_IN_ARGUMENTS=0/);
            assert.ok(!JSON.stringify(r).includes(PASSWORD));
          }
        }
        const update = await c.call('cucm_update_credentials', args);
        assert.equal(update.isError, accepted ? undefined : true);
        const listed = await c.call('cucm_list_credentials', {});
        assert.equal((listed.structuredContent?.credentials as unknown[]).length, accepted ? 3 : 0);
        assert.equal(
          k.auditRecords().filter((r) => r.event === 'CREDENTIAL').length,
          accepted ? 4 : 0,
          'stores and the update audited, or nothing',
        );
        // Without a password the page flow is offered either way.
        const page = await c.call('cucm_store_credentials', {
          host: 'cucm-page.example',
          username: 'u',
          address: '127.0.0.1:1',
        });
        assert.equal(page.structuredContent?.pending, true);
      } finally {
        await c.close();
        await k.stop();
      }
    }
  });
});
