import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { stageSignedTree } from '../../../kernel/vendor/stage.ts';
import { signBundle } from '../../../kernel/vendor/bundle.ts';
import { pinnedFetch } from '../../helpers/https-client.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { testVendor, writeTestLicense } from '../../helpers/license.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
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
  let url = '';

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
    const k = { url, certPem, fetch: pinnedFetch(certPem), stateDir: state } as unknown as TestKernel;
    c = await connectMcp(k, startupToken(state, 'ops'));
  });

  after(async () => {
    await c?.close();
    child?.kill('SIGTERM');
    await new Promise((r) => child?.on('exit', r));
    tmp.cleanup();
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
