import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { stageSignedTree } from '../../../kernel/vendor/stage.ts';
import { signBundle } from '../../../kernel/vendor/bundle.ts';
import { pinnedFetch } from '../../helpers/https-client.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { testVendor, writeTestLicense } from '../../helpers/license.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { clientFiles, getStatus } from '../../helpers/oauth.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import type { TestKernel } from '../../helpers/kernel.ts';

function extraBundle(id: string): string {
  const name = id.replace(/-/g, '_');
  return `import { definePlugin, defineTool, structuredReply } from '../../kernel/sdk/index.ts';
export default definePlugin({
  id: '${id}', version: '1.0.0', kernel: '^1', product: null, module: 'common', requires: [],
  tools: [defineTool({ name: '${name}_hello', title: 'hello', description: 'A vendor tool.', input: {},
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    access: { minProfile: 'auditor' }, service: 'default', handler: async () => structuredReply({ hello: '${id}' }) })],
  prompts: [], resources: [],
});
`;
}

// The real mechanism end to end: a signed install (staged copy of this tree, signed by a throw-away
// vendor), run as its own process in enforce mode, then one byte of a shipped plugin file changed.
describe('integrity of a running, signed install', () => {
  const tmp = tempStateDir('ucmcp-integrity-');
  const stage = join(tmp.dir, 'install');
  const state = join(tmp.dir, 'state');
  let child: ReturnType<typeof spawn>;
  let c: ConnectedClient;
  let k: TestKernel;
  let url = '';
  let listChanges = 0;
  const auditOf = (): Record<string, unknown>[] =>
    readFileSync(join(state, 'logs/audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  before(async () => {
    const v = testVendor();
    await stageSignedTree({
      from: PROJECT_ROOT,
      to: stage,
      privateKey: v.privateKey,
      publisher: v.publisher,
    });
    // A vendor's extra bundles, dropped into plugins/ without re-signing the main manifest: one signed by
    // the trusted publisher, one unsigned, one signed and then tampered with.
    for (const id of ['vendor-extra', 'rogue', 'tampered-extra']) {
      mkdirSync(join(stage, 'plugins', id), { recursive: true });
      writeFileSync(join(stage, 'plugins', id, 'index.ts'), extraBundle(id));
    }
    for (const id of ['vendor-extra', 'tampered-extra']) {
      await signBundle({
        dir: join(stage, 'plugins', id),
        privateKey: v.privateKey,
        publisher: v.publisher,
        version: '1.0.0',
      });
    }
    writeFileSync(
      join(stage, 'plugins', 'tampered-extra', 'index.ts'),
      extraBundle('tampered-extra').replace('hello:', 'evil:'),
    );
    seedServerKeys(state);
    await writeTestLicense(state, { products: ['cucm', 'imp', 'cuc'] });
    child = spawn(process.execPath, ['--import', 'tsx', join(stage, 'kernel/main.ts')], {
      cwd: stage,
      env: {
        ...process.env,
        STATE_DIR: state,
        SERVER_PORT: '0',
        ENV_FILE: '',
        INTEGRITY_MODE: 'enforce',
        AUTH_CLIENTS: 'ops:admin:cucm+imp+cuc',
        AUTH_BCRYPT_COST: '4',
        LOGGING_CONSOLE_ENABLED: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1] as string);
      });
      child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
    });
    const certPem = readFileSync(join(state, 'secrets/tls_cert.pem'), 'utf8');
    k = { url, certPem, fetch: pinnedFetch(certPem), stateDir: state } as unknown as TestKernel;
    c = await connectMcp(k, startupToken(state, 'ops'));
    c.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanges++;
    });
  });

  after(async () => {
    await c?.close();
    child?.kill('SIGTERM');
    await new Promise((r) => child?.on('exit', r));
    tmp.cleanup();
  });

  it('a start that finds the tree modified says failed at once: step 4, the gauge and /status', async () => {
    // Before any on-demand check: only the start's own check has run.
    const app = readFileSync(join(state, 'logs/app.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const step4 = app.find((r) => (r.startup as { step?: number } | undefined)?.step === 4);
    assert.equal(step4?.msg, 'startup step 4 integrity: failed');
    assert.equal(step4?.level, 50, 'logged as an error, not info');
    const metrics = await (await k.fetch(`${url}/metrics`)).text();
    assert.match(
      metrics,
      /^ucmcp_watchdog_status\{watchdog="integrity"\} 0$/m,
      'failed, not -1 (not yet run)',
    );
    const { body } = await getStatus(k, clientFiles(state, 'ops').token);
    assert.deepEqual(
      [(body.integrity as { status: string }).status, (body.integrity as { verdict: string }).verdict],
      ['modified', 'failed'],
    );
  });

  it('starts in enforce mode with the shipped bundles verified and loaded and the license trusted', async () => {
    const r = await c.call('infra_server_status', { check_integrity: true });
    const s = r.structuredContent as { integrity: { status: string; files: unknown[] } };
    // The unsigned and tampered extra bundles flag the tree; the shipped bundles themselves verify.
    assert.equal(s.integrity.status, 'modified');
    const flagged = new Set((s.integrity.files as { path: string }[]).map((f) => f.path.split('/')[1]));
    assert.deepEqual([...flagged].sort(), ['rogue', 'tampered-extra']);
    const health = await c.call('infra_health');
    assert.equal((health.structuredContent as { license: string }).license, 'VALID');
  });

  it("a vendor's extra bundle signed by a trusted publisher is registered; unsigned and tampered ones are refused with a clear log line", async () => {
    const names = (await c.client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('common_vendor_extra_hello'));
    assert.ok(!names.includes('common_rogue_hello'));
    assert.ok(!names.includes('common_tampered_extra_hello'));
    assert.deepEqual((await c.call('common_vendor_extra_hello')).structuredContent, {
      hello: 'vendor-extra',
    });
    const appLog = readFileSync(join(state, 'logs/app.log'), 'utf8');
    assert.match(appLog, /plugin bundle rogue refused: integrity unsigned/);
    assert.match(appLog, /plugin bundle tampered-extra refused: integrity modified/);
  });

  it('a registered bundle tampered with at run time is unloaded at the next check: gone from tools/list, calls get IntegrityError', async () => {
    const before = listChanges;
    assert.deepEqual((await c.call('common_vendor_extra_hello')).structuredContent, {
      hello: 'vendor-extra',
    });
    writeFileSync(
      join(stage, 'plugins', 'vendor-extra', 'index.ts'),
      extraBundle('vendor-extra').replace('hello:', 'evil:'),
    );
    const r = await c.call('infra_server_status', { check_integrity: true });
    const s = r.structuredContent as {
      integrity: {
        status: string;
        verdict: string;
        checkedAt: string;
        bundles: Record<string, { status: string }>;
      };
      security: { integrity: { status: string; verdict: string; checked_at: string } };
    };
    assert.equal(s.integrity.bundles['vendor-extra']?.status, 'modified');
    // One verdict: the summary and the report are the same check.
    assert.equal(s.security.integrity.checked_at, s.integrity.checkedAt);
    assert.deepEqual(
      [s.security.integrity.status, s.security.integrity.verdict, s.integrity.verdict],
      [s.integrity.status, 'failed', 'failed'],
    );

    for (let i = 0; i < 100 && listChanges === before; i++) await new Promise((res) => setTimeout(res, 20));
    assert.ok(listChanges > before, 'the open session received notifications/tools/list_changed');
    const names = (await c.client.listTools()).tools.map((x) => x.name);
    assert.ok(!names.includes('common_vendor_extra_hello'), 'gone from tools/list at once');
    assert.ok(names.includes('infra_health'), 'the other bundles stay');
    const call = await c.call('common_vendor_extra_hello');
    assert.equal(call.structuredContent?.error, 'IntegrityError');
    assert.match(String(call.structuredContent?.message), /unloaded/);
    const unloaded = auditOf().filter((x) => x.event === 'SERVER' && x.status === 'PLUGIN_UNLOADED');
    assert.deepEqual(
      unloaded.map((x) => [x.plugin, x.severity, x.tools]),
      [['vendor-extra', 'CRITICAL', ['common_vendor_extra_hello']]],
    );
  });

  it('one changed byte in a plugin file is reported at the next on-demand check with both hashes, and infra keeps serving', async () => {
    const file = 'plugins/common/tools/read-report.ts';
    const path = join(stage, file);
    const bytes = readFileSync(path);
    bytes[bytes.length - 2] = (bytes[bytes.length - 2] as number) ^ 0x01;
    writeFileSync(path, bytes);

    const r = await c.call('infra_server_status', { check_integrity: true });
    const s = r.structuredContent as {
      integrity: {
        status: string;
        files: { path: string; state: string; expected: string; actual: string }[];
      };
    };
    assert.equal(s.integrity.status, 'modified');
    const finding = s.integrity.files.find((f) => f.path === file);
    assert.equal(finding?.state, 'modified');
    assert.match(finding?.expected ?? '', /^[0-9a-f]{128}$/);
    assert.match(finding?.actual ?? '', /^[0-9a-f]{128}$/);
    assert.notEqual(finding?.expected, finding?.actual);

    assert.equal((await c.call('infra_health')).isError, undefined, 'the server keeps serving infra');

    const audit = readFileSync(join(state, 'logs/audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const alert = audit.filter((x) => x.event === 'SERVER' && x.status === 'INTEGRITY_FAIL').at(-1);
    assert.equal(alert?.severity, 'CRITICAL');
    const listed = (alert?.files as { path: string; expected: string; actual: string }[]).find(
      (f) => f.path === file,
    );
    assert.equal(listed?.expected, finding?.expected);
    assert.equal(listed?.actual, finding?.actual);
    const appLog = readFileSync(join(state, 'logs/app.log'), 'utf8');
    assert.ok(
      appLog.split('\n').some((l) => l.includes('"level":60') && l.includes(file)),
      'app.log has the CRITICAL (fatal) line naming the file',
    );
  });
});
