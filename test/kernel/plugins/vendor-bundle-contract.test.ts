// The plugin contract does not move with the MCP SDK: a vendor's bundle written against kernel API 1.1
// (kernel/sdk at d4e04d4, before the migration to the SDK v2 packages), kept frozen in
// test/fixtures/vendor-bundles, is dropped into a signed install, signed with the vendor tool the way a
// vendor ships it, loaded in enforce mode and used through an MCP client: tools, progress, audit records,
// errors, prompts, resources, setup and teardown, and the kernel services a handler reaches. Its source
// must also still compile against today's kernel/sdk, as the vendor's own build does.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { readAudit, actionOutcomes } from '../../helpers/kernel.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { testVendor } from '../../helpers/license.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { connectModern } from '../../helpers/mcp-client-v2.ts';
import { runCommand, type RunResult } from '../../helpers/npm-clients.ts';
import {
  freePort,
  serverFetch,
  signedInstall,
  spawnServer,
  type ServerProcess,
  type SignedInstall,
} from '../../helpers/server-process.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const FIXTURE = join(PROJECT_ROOT, 'test', 'fixtures', 'vendor-bundles', 'kernel-1.1', 'acme-notes');
const ID = 'acme-notes';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every `from '…'` and `import('…')` specifier of a TypeScript file. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map(
    (m) => m[1] as string,
  );
}

const appLog = (state: string): Record<string, unknown>[] =>
  readFileSync(join(state, 'logs', 'app.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('a vendor bundle written against kernel API 1.1, unchanged', { timeout: 300_000 }, () => {
  const tmp = tempStateDir('ucmcp-vendor-bundle-');
  const state = join(tmp.dir, 'state');
  let install: SignedInstall;
  let signing: RunResult;
  let server: ServerProcess;
  let c: ConnectedClient;
  let serverUrl: string;
  let fetchOf: () => ReturnType<typeof serverFetch>;

  before(async () => {
    install = await signedInstall();
    const bundle = join(install.dir, 'plugins', ID);
    cpSync(FIXTURE, bundle, { recursive: true });
    // The vendor's release step: its key as a file, its documented command.
    const key = join(tmp.dir, 'test-vendor.private.pem');
    writeFileSync(key, testVendor().privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    signing = await runCommand(
      process.execPath,
      [
        '--import',
        'tsx',
        join(PROJECT_ROOT, 'scripts', 'vendor.ts'),
        'sign-bundle',
        '--key',
        key,
        '--publisher',
        'test-vendor',
        '--version',
        '1.0.0',
        bundle,
      ],
      { env: { PATH: process.env.PATH ?? '' }, timeoutMs: 60_000 },
    );
    assert.equal(signing.code, 0, signing.stderr);

    seedServerKeys(state);
    await install.license(state);
    server = spawnServer({
      stateDir: state,
      port: await freePort(),
      installDir: install.dir,
      env: { AUTH_CLIENTS: 'ops:admin:cucm+imp+cuc' },
    });
    serverUrl = await server.ready;
    const fetch = serverFetch(state);
    fetchOf = () => fetch;
    c = await connectMcp({ url: serverUrl, fetch }, startupToken(state, 'ops'));
  });

  after(async () => {
    await c?.close().catch(() => undefined);
    await server?.stop();
    await fetchOf?.().close();
    install?.cleanup();
    tmp.cleanup();
  });

  it('imports nothing but the public plugin SDK (never the MCP SDK, never kernel internals)', () => {
    const sdk = join(FIXTURE, '..', '..', 'kernel', 'sdk', 'index.ts');
    for (const file of sourceFiles(FIXTURE)) {
      for (const spec of importsOf(file)) {
        const target = resolve(dirname(file), spec);
        const inside = !relative(FIXTURE, target).startsWith('..');
        assert.ok(
          spec.startsWith('.') && (inside || target === sdk),
          `${relative(FIXTURE, file)} imports ${spec}: a vendor bundle may import only its own files and ../../kernel/sdk/index.ts`,
        );
      }
    }
  });

  it('the vendor tool signs it; the server verifies it in enforce mode and its setup runs', async () => {
    assert.match(signing.stdout, /signed bundle acme-notes 1\.0\.0 by test-vendor: 7 files/);
    const status = await c.call('infra_server_status', { check_integrity: true });
    const integrity = (
      status.structuredContent as { integrity: { bundles: Record<string, { status: string }> } }
    ).integrity;
    assert.equal(integrity.bundles[ID]?.status, 'valid');
    assert.ok(
      appLog(state).some((r) => r.plugin === ID && r.msg === 'acme-notes ready'),
      'setup logged through services.log',
    );
  });

  it('its tools are listed as declared: titles, annotations, input and output schemas', async () => {
    const tools = (await c.client.listTools()).tools.filter((t) => t.name.startsWith('common_acme_notes_'));
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'common_acme_notes_digest',
      'common_acme_notes_read',
      'common_acme_notes_write',
    ]);
    const write = tools.find((t) => t.name === 'common_acme_notes_write');
    assert.equal(write?.title, 'Write a note (ACME)');
    // The title is the tool's own; annotations carry the four hints, not a copy of it.
    assert.deepEqual(write?.annotations, {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.deepEqual(Object.keys(write?.inputSchema.properties ?? {}).sort(), ['body', 'name']);
    assert.deepEqual(write?.inputSchema.required?.sort(), ['body', 'name']);
    // The published schema is the declared result or the kernel's error envelope (anyOf).
    const result = (write?.outputSchema?.anyOf as { properties?: object }[] | undefined)?.[0];
    assert.deepEqual(Object.keys(result?.properties ?? {}).sort(), ['author', 'bytes', 'name', 'stored']);
  });

  it('a call: structured result and embedded resource, progress, its ACTIONS records and its WRITTEN record', async () => {
    const progress: [number, number | undefined, string | undefined][] = [];
    const r = (await c.client.callTool(
      {
        name: 'common_acme_notes_write',
        arguments: { name: 'dial-plan', body: '# Dial plan\n\nE.164 everywhere.' },
      },
      undefined,
      { onprogress: (p) => progress.push([p.progress, p.total, p.message]) },
    )) as {
      isError?: boolean;
      structuredContent: Record<string, unknown>;
      content: Record<string, unknown>[];
    };
    assert.notEqual(r.isError, true, JSON.stringify(r));
    assert.deepEqual(r.structuredContent, { name: 'dial-plan', bytes: 30, author: 'ops', stored: 1 });
    assert.deepEqual(JSON.parse(String(r.content[0]?.text)), r.structuredContent);
    assert.deepEqual(r.content[1], {
      type: 'resource',
      resource: {
        uri: 'common://acme-notes/note/dial-plan',
        mimeType: 'text/markdown',
        text: '# Dial plan\n\nE.164 everywhere.',
      },
    });
    assert.deepEqual(progress, [
      [0, 1, 'storing the note'],
      [1, 1, 'stored'],
    ]);

    const audit = readAudit(state);
    const calls = audit.filter((x) => x.event === 'ACTIONS' && x.tool_name === 'common_acme_notes_write');
    assert.deepEqual(
      calls.map((x) => [x.status, x.client, x.operation, x.detail]),
      [
        ['STARTED', 'ops', 'write note', 'dial-plan, 30 characters'],
        ['ALLOWED', 'ops', 'write note', 'dial-plan, 30 characters'],
      ],
    );
    const written = audit.filter((x) => x.event === 'WRITTEN');
    assert.deepEqual(
      written.map((x) => [x.status, x.client, x.note, x.bytes, typeof x.ip]),
      [['OK', 'ops', 'dial-plan', 30, 'string']],
    );
  });

  it('text replies, prompts (with completion), a fixed resource and a template resource listed from shared state', async () => {
    const read = await c.call('common_acme_notes_read', { name: 'dial-plan' });
    assert.deepEqual(read.content, [{ type: 'text', text: '# Dial plan\n\nE.164 everywhere.' }]);
    assert.equal(read.structuredContent, undefined);

    const prompt = await c.client.getPrompt({
      name: 'common_acme_notes_review',
      arguments: { topic: 'dial-plan' },
    });
    assert.deepEqual(prompt.messages, [
      {
        role: 'user',
        content: {
          type: 'text',
          text: 'Review the ACME notes about dial-plan for ops: 1 stored (dial-plan).',
        },
      },
    ]);
    const completion = await c.client.complete({
      ref: { type: 'ref/prompt', name: 'common_acme_notes_review' },
      argument: { name: 'topic', value: 'vo' },
    });
    assert.deepEqual(completion.completion.values, ['voicemail']);

    const uris = (await c.client.listResources()).resources.map((x) => x.uri);
    for (const u of ['common://acme-notes/readme', 'common://acme-notes/note/dial-plan'])
      assert.ok(uris.includes(u), `${u} listed: ${uris.join(', ')}`);
    const note = await c.client.readResource({ uri: 'common://acme-notes/note/dial-plan' });
    assert.deepEqual(note.contents, [
      {
        uri: 'common://acme-notes/note/dial-plan',
        mimeType: 'text/markdown',
        text: '# Dial plan\n\nE.164 everywhere.',
      },
    ]);
    const readme = await c.client.readResource({ uri: 'common://acme-notes/readme' });
    assert.match(String((readme.contents[0] as { text?: string }).text), /^# ACME notes/);
  });

  it('a handler reaches the kernel services (rendering a prompt, the licensed products) through ctx.kernel', async () => {
    const r = await c.call('common_acme_notes_digest', { topic: ' presence ' });
    assert.notEqual(r.isError, true, JSON.stringify(r));
    const s = r.structuredContent as { topic: string; prompt: string; products: string[]; notes: number };
    assert.equal(s.topic, 'presence');
    assert.equal(s.prompt, 'Review the ACME notes about presence for ops: 1 stored (dial-plan).');
    assert.deepEqual([...s.products].sort(), ['cuc', 'cucm', 'imp']);
    assert.equal(s.notes, 1);
  });

  it('the coded errors it throws reach the caller as CODE: message, audited as ERROR', async () => {
    const missing = await c.call('common_acme_notes_read', { name: 'nothing-here' });
    assert.equal(missing.isError, true);
    assert.deepEqual(missing.content, [{ type: 'text', text: 'NOT_FOUND: no note named nothing-here' }]);
    const empty = await c.call('common_acme_notes_digest', { topic: '   ' });
    assert.deepEqual(empty.structuredContent, { error: 'BAD_REQUEST', message: 'topic is empty' });
    const outcomes = actionOutcomes(readAudit(state)).slice(-2);
    assert.deepEqual(
      outcomes.map((x) => [x.tool_name, x.result, x.error]),
      [
        ['common_acme_notes_read', 'ERROR', 'NOT_FOUND'],
        ['common_acme_notes_digest', 'ERROR', 'BAD_REQUEST'],
      ],
    );
  });

  it('its source still compiles against the current kernel/sdk, as the vendor builds it', async () => {
    // The install's own tsconfig, narrowed to the bundle: tsc follows its imports into kernel/sdk.
    const config = join(install.dir, 'tsconfig.vendor-bundle.json');
    writeFileSync(config, JSON.stringify({ extends: './tsconfig.json', include: [`plugins/${ID}`] }));
    const tsc = await runCommand(
      process.execPath,
      [join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', config],
      { env: { PATH: process.env.PATH ?? '' }, cwd: install.dir, timeoutMs: 180_000 },
    );
    assert.equal(
      tsc.code,
      0,
      `the 1.1 bundle no longer compiles against kernel/sdk:\n${tsc.stdout}${tsc.stderr}`,
    );
  });

  it('the same bundle serves a 2026-07-28 client (the SDK v2 client, stateless)', async () => {
    const modern = await connectModern({ url: serverUrl, fetch: fetchOf() }, startupToken(state, 'ops'));
    try {
      assert.equal(modern.client.getNegotiatedProtocolVersion(), '2026-07-28');
      const r = await modern.client.callTool({
        name: 'common_acme_notes_read',
        arguments: { name: 'dial-plan' },
      });
      assert.deepEqual((r as { content: unknown }).content, [
        { type: 'text', text: '# Dial plan\n\nE.164 everywhere.' },
      ]);
      const prompt = await modern.client.getPrompt({
        name: 'common_acme_notes_review',
        arguments: { topic: 'voicemail' },
      });
      assert.match(JSON.stringify(prompt.messages), /Review the ACME notes about voicemail for ops/);
    } finally {
      await modern.close();
    }
  });

  it('its teardown runs when the server stops', async () => {
    await c.close();
    assert.equal(await server.stop(), 0);
    assert.ok(
      appLog(state).some((r) => r.plugin === ID && r.msg === 'acme-notes stopped' && r.notes === 1),
      'teardown logged with the shared state',
    );
  });
});
