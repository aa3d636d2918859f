// Issue 18 point 3, end to end: a real MCP client calls cucm_store_credentials without a password; the
// server asks with URL-mode elicitation (2025-11-25: a real elicitation/create request; 2026-07-28: an
// input_required result the v2 client fulfils); the client's handler, instead of showing the URL, drives
// headless Chromium to it, types the lab's password and submits; the tool answers "stored", and the
// credential then works against the lab node. Every MCP message, every log and audit file is then searched
// for the password: it is nowhere.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import type { FetchLike as ModernFetch } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { chromiumSkip, launchPinnedChromium } from '../../helpers/pinned-chromium.ts';
import { startupToken } from '../../helpers/mcp-client.ts';
import { labPinArgs, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

const skip = chromiumSkip(
  'the credential page browser test',
  'test/kernel/credentials-page covers the page over HTTPS',
);

/** Every JSON-RPC message a transport sent or received, as text (wrapped after connect). */
function record(transport: {
  onmessage?: ((m: never, extra?: never) => void) | undefined;
  send: (m: never, o?: never) => Promise<void>;
}): string[] {
  const seen: string[] = [];
  const received = transport.onmessage;
  assert.ok(received, 'the client installed its message handler');
  transport.onmessage = (m, extra) => {
    seen.push(JSON.stringify(m));
    received(m, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (m, o) => {
    seen.push(JSON.stringify(m));
    await send(m, o);
  };
  return seen;
}

/** Every file below the logs folder (rotated archives unzipped). */
function logTexts(stateDir: string): { file: string; text: string }[] {
  const dir = join(stateDir, 'logs');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const path = join(e.parentPath, e.name);
      const raw = readFileSync(path);
      return { file: path, text: (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8') };
    });
}

describe(
  'node credentials entered on the credential page by a person, never through the model',
  { skip },
  () => {
    let s: ProductStack;
    let browser: Browser;
    before(async () => {
      s = await startProductStack({ seedVaultFor: [], env: { CREDENTIALS_IN_ARGUMENTS: '0' } });
      browser = await launchPinnedChromium(s.k.certPem);
    });
    after(async () => {
      await browser?.close();
      await s?.stop();
    });

    /** What a person does with the URL: opens it, checks what it asks, types, submits, reads the answer. */
    const enterInBrowser = async (
      url: string,
      host: string,
      username: string,
      password: string,
      hostKey?: { fingerprint: string; choice: 'trust' | 'reject' },
    ) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) problems.push(m.text());
      });
      try {
        const shown = await page.goto(url);
        assert.equal(shown?.status(), 200);
        assert.equal(await page.textContent('#host'), host);
        assert.equal(await page.textContent('#client'), 'admin1');
        // The page runs no script at all: nothing for a password field to leak through.
        assert.equal(await page.locator('script').count(), 0);
        await page.fill('#username', username);
        await page.fill('#password', password);
        if (hostKey) {
          assert.equal(await page.textContent('#fingerprint'), hostKey.fingerprint);
          await page.check(`#hk-${hostKey.choice}`);
        }
        const [answer] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
        assert.equal(answer?.status(), 200);
        assert.match((await page.textContent('h1')) ?? '', /Credentials (stored|updated)/);
        if (hostKey)
          assert.match(
            (await page.textContent('p.ok')) ?? '',
            /SSH host key: trusted|SSH host key: rejected/,
          );
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    };

    it('2025-11-25: elicitation/create in URL mode, answered in Chromium; stored, then used', async () => {
      const node = s.node('cucm');
      const cred = node.credentials.axl;
      assert.ok(cred);
      const transport = new StreamableHTTPClientTransport(new URL(`${s.k.url}/mcp`), {
        fetch: s.k.fetch as unknown as FetchLike,
        requestInit: { headers: { Authorization: `Bearer ${startupToken(s.k.stateDir, 'admin1')}` } },
      });
      const client = new Client(
        { name: 'url-elicitation-client', version: '1.0.0' },
        { capabilities: { elicitation: { url: {} } } },
      );
      const asked: Record<string, unknown>[] = [];
      client.setRequestHandler(ElicitRequestSchema, async (req) => {
        asked.push(req.params as Record<string, unknown>);
        assert.equal(req.params.mode, 'url');
        await enterInBrowser(
          String((req.params as { url: string }).url),
          node.name,
          cred.user,
          cred.password,
        );
        return { action: 'accept' };
      });
      await client.connect(transport);
      await client.listTools(); // so the SDK checks each result against its output schema
      const seen = record(transport as never);
      try {
        const r = await client.callTool({
          name: 'cucm_store_credentials',
          arguments: {
            host: node.name,
            username: cred.user,
            address: `${node.host}:${node.ports.https}`,
            ...labPinArgs(s.lab, node),
          },
        });
        assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
        assert.equal(asked.length, 1);
        assert.match(String(asked[0]?.url), new RegExp(`^${s.k.url}/credentials/enter/`));
        const stored = r.structuredContent as Record<string, unknown>;
        assert.deepEqual(
          [stored.stored, stored.product, stored.kind, stored.host],
          [true, 'cucm', 'axl', node.name],
        );

        // The stored login is used for real: the toolkit download logs in to the node, then the version call.
        const toolkit = await client.callTool({
          name: 'cucm_download_axl_toolkit',
          arguments: { host: node.name },
        });
        assert.equal(toolkit.isError, undefined, JSON.stringify(toolkit.structuredContent));
        const version = await client.callTool({ name: 'cucm_get_version', arguments: { host: node.name } });
        assert.equal(version.isError, undefined, JSON.stringify(version.structuredContent));
        assert.match(String((version.structuredContent as { version: string }).version), /^\d+\./);
        assertNowhere(cred.password, seen);
      } finally {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    });

    it('2026-07-28: the same through an input_required result (MRTR); stored, then used', async () => {
      const node = s.node('imp');
      const cred = node.credentials.axl;
      assert.ok(cred);
      const token = startupToken(s.k.stateDir, 'admin1');
      const transport = new ModernTransport(new URL(`${s.k.url}/mcp`), {
        fetch: s.k.fetch as unknown as ModernFetch,
        authProvider: { token: () => Promise.resolve(token) },
      });
      const client = new ModernClient(
        { name: 'url-elicitation-client-v2', version: '2.0.0' },
        { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      const asked: Record<string, unknown>[] = [];
      client.setRequestHandler('elicitation/create', async (req) => {
        const params = req.params as Record<string, unknown>;
        asked.push(params);
        assert.equal(params.mode, 'url');
        await enterInBrowser(String(params.url), node.name, cred.user, cred.password);
        return { action: 'accept' };
      });
      await client.connect(transport);
      await client.listTools(); // so the SDK checks each result against its output schema
      const seen = record(transport as never);
      try {
        const r = await client.callTool({
          name: 'imp_store_credentials',
          arguments: {
            host: node.name,
            username: cred.user,
            address: `${node.host}:${node.ports.https}`,
            ...labPinArgs(s.lab, node),
          },
        });
        assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
        assert.equal(asked.length, 1);
        assert.equal((r.structuredContent as Record<string, unknown>).stored, true);

        // The stored login is used for real: the toolkit download logs in to the node, then the version call.
        const toolkit = await client.callTool({
          name: 'imp_download_axl_toolkit',
          arguments: { host: node.name },
        });
        assert.equal(toolkit.isError, undefined, JSON.stringify(toolkit.structuredContent));
        const version = await client.callTool({ name: 'imp_get_version', arguments: { host: node.name } });
        assert.equal(version.isError, undefined, JSON.stringify(version.structuredContent));
        assertNowhere(cred.password, seen);
      } finally {
        await client.close();
      }
    });

    it('SSH: the page shows the key the node presented and the person trusts it there; the OS CLI then works', async () => {
      const node = s.node('cucm');
      const cred = node.credentials.os;
      assert.ok(cred);
      const transport = new StreamableHTTPClientTransport(new URL(`${s.k.url}/mcp`), {
        fetch: s.k.fetch as unknown as FetchLike,
        requestInit: { headers: { Authorization: `Bearer ${startupToken(s.k.stateDir, 'admin1')}` } },
      });
      const client = new Client(
        { name: 'ssh-client', version: '1.0.0' },
        { capabilities: { elicitation: { url: {} } } },
      );
      const pages: string[] = [];
      let decide: { fingerprint: string; choice: 'trust' } | undefined;
      client.setRequestHandler(ElicitRequestSchema, async (req) => {
        const url = String((req.params as { url: string }).url);
        pages.push(await (await s.k.fetch(url)).text());
        await enterInBrowser(url, node.name, cred.user, cred.password, decide);
        return { action: 'accept' };
      });
      await client.connect(transport);
      const args = { host: node.name, username: cred.user, address: `${node.host}:${node.ports.ssh}` };
      const call = async (name: string, a: Record<string, unknown>) => {
        const r = await client.callTool({ name, arguments: a });
        assert.equal(r.isError, undefined, `${name}: ${JSON.stringify(r.structuredContent)}`);
        return r.structuredContent as Record<string, unknown>;
      };
      try {
        // No key seen yet: the page says how the first connection records it; nothing to decide.
        assert.equal((await call('cucm_os_store_credentials', args)).stored, true);
        assert.match(pages[0] ?? '', /No SSH host key has been seen for this host yet/);
        const check = await call('cucm_check_connectivity', { host: node.name });
        const ssh = (check.services as Record<string, Record<string, unknown>>).ssh;
        assert.equal(ssh?.host_key, 'unknown');
        // The key the node presented is on the update's page, and trusted there.
        const fingerprint = node.sshHostKeyFingerprint;
        assert.ok(fingerprint);
        decide = { fingerprint, choice: 'trust' };
        const mark = s.mark();
        const updated = await call('cucm_os_update_credentials', args);
        assert.deepEqual([updated.updated, updated.host_key], [true, 'trusted']);
        const trusted = s.auditSince(mark).filter((r) => r.event === 'TRUSTED');
        assert.deepEqual(
          trusted.map((r) => [r.action, r.client, r.fingerprint]),
          [['trusted', 'admin1', node.sshHostKeyFingerprint]],
        );
        const out = await call('cucm_os_run_command', { host: node.name, command: 'show version active' });
        assert.ok(JSON.stringify(out).length > 20);
        for (const f of logTexts(s.k.stateDir)) assert.ok(!f.text.includes(cred.password), f.file);
      } finally {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    });

    it('a password in the arguments is refused (CREDENTIALS_IN_ARGUMENTS=0) and a declined page stores nothing', async () => {
      const node = s.node('cuc');
      const refused = await s.fails('admin', 'cuc_store_credentials', {
        host: node.name,
        username: 'cupiadmin',
        password: 'never-stored-1',
        address: `${node.host}:${node.ports.https}`,
      });
      assert.equal(refused.error, 'BAD_REQUEST');

      const transport = new StreamableHTTPClientTransport(new URL(`${s.k.url}/mcp`), {
        fetch: s.k.fetch as unknown as FetchLike,
        requestInit: { headers: { Authorization: `Bearer ${startupToken(s.k.stateDir, 'admin1')}` } },
      });
      const client = new Client(
        { name: 'declining-client', version: '1.0.0' },
        { capabilities: { elicitation: { url: {} } } },
      );
      let url = '';
      client.setRequestHandler(ElicitRequestSchema, (req) => {
        url = String((req.params as { url: string }).url);
        return Promise.resolve({ action: 'decline' as const });
      });
      await client.connect(transport);
      try {
        const r = await client.callTool({
          name: 'cuc_store_credentials',
          arguments: { host: node.name, username: 'cupiadmin' },
        });
        assert.equal(r.isError, undefined);
        assert.deepEqual(
          [
            (r.structuredContent as Record<string, unknown>).stored,
            (r.structuredContent as Record<string, unknown>).reason,
          ],
          [false, 'declined'],
        );
        // The declined link no longer takes anything.
        const page = await s.k.fetch(url);
        assert.equal(page.status, 410);
        const listed = await client.callTool({ name: 'cuc_list_credentials', arguments: {} });
        assert.deepEqual((listed.structuredContent as { credentials: unknown[] }).credentials, []);
      } finally {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    });

    function assertNowhere(password: string, messages: string[]): void {
      assert.ok(messages.length >= 2, 'the messages were recorded');
      for (const m of messages)
        assert.ok(!m.includes(password), `an MCP message carries the password: ${m.slice(0, 200)}`);
      const files = logTexts(s.k.stateDir);
      assert.ok(
        files.some((f) => f.file.endsWith('audit.log')) && files.some((f) => f.file.endsWith('app.log')),
      );
      for (const f of files) {
        assert.ok(!f.text.includes(password), `${f.file} carries the password`);
        assert.doesNotMatch(f.text, /does not match its output schema/, f.file);
      }
      // The page wrote its records (the vault's CREDENTIAL record), without the password.
      assert.ok(s.k.auditRecords().some((r) => r.event === 'CREDENTIAL' && r.client === 'admin1'));
    }
  },
);
