import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { connectModern, type ModernClient } from '../../helpers/mcp-client-v2.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TTL_SECONDS = 60;
const READ_MAX = 1_048_576;

type Contents = { uri: string; mimeType?: string; text?: string; blob?: string };
/** What both SDK clients offer for resources, under the same names. */
interface ResourceClient {
  readResource(p: { uri: string }): Promise<{ contents: unknown[] }>;
  listResources(): Promise<{ resources: { uri: string; mimeType?: string; size?: number }[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
}

/** The JSON-RPC error a refused resources/read raised, as `CODE: message` and its numeric code. */
async function refusal(c: ResourceClient, uri: string): Promise<{ code: number; message: string }> {
  try {
    await c.readResource({ uri });
  } catch (err) {
    const e = err as { code?: number; message: string };
    return { code: Number(e.code), message: e.message };
  }
  assert.fail(`resources/read of ${uri} was not refused`);
}

const read = async (c: ResourceClient, uri: string): Promise<Contents> => {
  const r = await c.readResource({ uri });
  assert.equal(r.contents.length, 1);
  return r.contents[0] as Contents;
};

describe('reports handed over as report:// resources and one-time download links', () => {
  let k: TestKernel;
  // The server's clock runs with real time, moved forward past a link's expiry when a test says so.
  let skew = 0;
  const now = (): number => Date.now() + skew;
  let alice: ConnectedClient;
  let bob: ConnectedClient;
  let aliceV2: ModernClient;
  let bobV2: ModernClient;
  // carol's profile may write reports but not read them (common_read_report denied).
  let carol: ConnectedClient;
  const state = tempStateDir();
  const revisions = (): [string, ResourceClient, ResourceClient][] => [
    ['2025-11-25', alice.client, bob.client],
    ['2026-07-28', aliceV2.client, bobV2.client],
  ];
  before(async () => {
    const auditor = JSON.parse(
      readFileSync(join(PROJECT_ROOT, 'profiles', '_default', 'auditor.json'), 'utf8'),
    ) as { name: string; tools: { deny: string[] }; rateLimits: Record<string, unknown> };
    mkdirSync(join(state.dir, 'profiles'), { recursive: true });
    writeFileSync(
      join(state.dir, 'profiles', 'writer.json'),
      JSON.stringify({
        ...auditor,
        name: 'writer',
        tools: { ...auditor.tools, deny: ['common_read_report'] },
      }),
    );
    writeFileSync(
      join(state.dir, 'profiles', 'scarce.json'),
      JSON.stringify({
        ...auditor,
        name: 'scarce',
        rateLimits: { ...auditor.rateLimits, common: { report: { limit: 4, windowSeconds: 3600 } } },
      }),
    );
    k = await startTestKernel({
      stateDir: state.dir,
      env: {
        AUTH_CLIENTS: 'alice:auditor:cucm,bob:auditor:cucm,carol:writer:cucm,dave:scarce:cucm',
        AUTH_BCRYPT_COST: '4',
        REPORT_LINK_TTL_SECONDS: String(TTL_SECONDS),
        REPORT_READ_MAX_BYTES: String(READ_MAX),
        // Chromium on a busy two-core machine can take more than the default minute to start and print.
        REPORT_PDF_TIMEOUT_MS: '180000',
      },
      clock: now,
    });
    alice = await connectMcp(k, startupToken(k.stateDir, 'alice'));
    bob = await connectMcp(k, startupToken(k.stateDir, 'bob'));
    aliceV2 = await connectModern(k, startupToken(k.stateDir, 'alice'));
    bobV2 = await connectModern(k, startupToken(k.stateDir, 'bob'));
    carol = await connectMcp(k, startupToken(k.stateDir, 'carol'));
  });
  after(async () => {
    await alice.close();
    await bob.close();
    await aliceV2.close();
    await bobV2.close();
    await carol.close();
    await k.stop();
    state.cleanup();
  });

  const MARKDOWN = '# Audit\n\n## Findings\n\n| id | severity |\n|---|---|\n| TLS-01 | high |\n\né 🎉\n';
  const write = async (c: ConnectedClient, name: string, content: string, mode = 'overwrite') => {
    const r = await c.call('common_write_report', { name, content, mode });
    assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
    return r;
  };
  const linkOf = (r: Awaited<ReturnType<ConnectedClient['call']>>) =>
    r.content.find((b) => b.type === 'resource_link') as unknown as {
      uri: string;
      name: string;
      mimeType: string;
      size: number;
    };

  it('write_report returns a resource_link its owner reads back on both revisions, and nobody else', async () => {
    const r = await write(alice, 'audit.md', MARKDOWN, 'create');
    const link = linkOf(r);
    assert.deepEqual(link, {
      type: 'resource_link',
      uri: 'report://alice/audit.md',
      name: 'audit.md',
      mimeType: 'text/markdown',
      size: Buffer.byteLength(MARKDOWN),
    });
    // The existing fields stay; the link is also in the structured result.
    assert.equal(r.structuredContent?.bytes, Buffer.byteLength(MARKDOWN));
    assert.equal(r.structuredContent?.uri, 'report://alice/audit.md');
    for (const [revision, mine, theirs] of revisions()) {
      const got = await read(mine, link.uri);
      assert.deepEqual(got, { uri: link.uri, mimeType: 'text/markdown', text: MARKDOWN }, revision);
      // Another client's report is answered exactly as a report that does not exist.
      const foreign = await refusal(theirs, link.uri);
      const missing = await refusal(theirs, 'report://bob/audit.md');
      assert.match(foreign.message, /NOT_FOUND/, revision);
      assert.equal(foreign.code, missing.code, revision);
      assert.equal(foreign.message.replace('alice', 'bob'), missing.message, revision);
      assert.ok(!foreign.message.includes('TLS-01'));
      // Listed for the owner only; the template is advertised.
      const mineListed: { uri: string; mimeType?: string; size?: number }[] = (await mine.listResources())
        .resources;
      const listed: { mimeType?: string; size?: number } | undefined = mineListed.find(
        (x) => x.uri === link.uri,
      );
      assert.equal(listed?.mimeType, 'text/markdown', revision);
      assert.equal(listed?.size, Buffer.byteLength(MARKDOWN), revision);
      assert.equal(
        (await theirs.listResources()).resources.some((x) => x.uri.startsWith('report://alice/')),
        false,
        revision,
      );
      const templates = (await mine.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
      assert.ok(templates.includes('report://{client}/{name}'), revision);
    }
  });

  it('a caller whose profile may not read reports reads none, its own included', async () => {
    const link = linkOf(await write(carol, 'mine.md', MARKDOWN, 'create'));
    assert.equal(link.uri, 'report://carol/mine.md');
    const r = await refusal(carol.client, link.uri);
    assert.match(r.message, /ProfilePermissionError/);
    assert.equal(
      (await carol.client.listResources()).resources.some((x) => x.uri.startsWith('report://')),
      false,
    );
    const templates = (await carol.client.listResourceTemplates()).resourceTemplates;
    assert.equal(
      templates.some((t) => t.uriTemplate.startsWith('report://')),
      false,
    );
  });

  it("reading reports is charged to the read tool's rate limit", async () => {
    const dave = await connectMcp(k, startupToken(k.stateDir, 'dave'));
    try {
      const { uri } = linkOf(await write(dave, 'd.md', MARKDOWN, 'create'));
      // The write took one call of the window of 4; three reads take the rest.
      for (let i = 0; i < 3; i++) assert.equal((await read(dave.client, uri)).text, MARKDOWN);
      const r = await refusal(dave.client, uri);
      assert.match(r.message, /RATE_LIMITED/);
      const limited = k.auditRecords().find((x) => x.event === 'RATE_LIMITED' && x.client === 'dave');
      assert.equal(limited?.method, 'resources/read');
    } finally {
      await dave.close();
    }
  });

  it('refuses traversal, encoded separators, look-alike characters and overlong names with coded errors', async () => {
    await write(alice, 'audit.md', MARKDOWN);
    const tricks = [
      'report://alice/../bob/audit.md',
      'report://alice/..',
      'report://alice/.audit.md',
      'report://alice/..%2Fbob%2Faudit.md',
      'report://alice/%2e%2e',
      'report://alice%2Faudit.md',
      'report://alice/audit%2Emd',
      'report://alice/audit.md/..',
      'report://alice//audit.md',
      'report:///etc/passwd',
      'report://../alice/audit.md',
      'report://alice/audit.md?x=1',
      'report://alice/audit.md#x',
      'report://alice\\audit.md',
      'report://alice\uFF0Faudit.md',
      'report://alice/audit\u2024md',
      'report://alice/audit.md\u0000',
      'report://alice/ audit.md',
      `report://alice/${'a'.repeat(600)}.md`,
      `report://alice/${'a'.repeat(200)}.md`,
      'report://alice/audit.txt',
      'report://alice/state.json',
    ];
    for (const [revision, mine] of revisions()) {
      for (const uri of tricks) {
        const r = await refusal(mine, uri);
        assert.match(r.message, /BAD_REQUEST/, `${revision} ${JSON.stringify(uri)}: ${r.message}`);
        assert.ok(!r.message.includes('TLS-01'));
      }
    }
  });

  it('bounds what resources/read hands over (REPORT_READ_MAX_BYTES)', async () => {
    const part = `${'x'.repeat(99)}\n`.repeat(6000);
    await write(alice, 'large.md', part, 'create');
    await write(alice, 'large.md', part, 'append');
    for (const [revision, mine] of revisions()) {
      const r = await refusal(mine, 'report://alice/large.md');
      assert.match(r.message, /PAYLOAD_TOO_LARGE: .*REPORT_READ_MAX_BYTES/, revision);
    }
  });

  it('the download link works once, over verified HTTPS, as a sandboxed attachment, and is audited', async () => {
    const r = await write(alice, 'audit.md', MARKDOWN);
    const url = String(r.structuredContent?.download_url);
    assert.match(url, new RegExp(`^${k.url}/reports/download/[A-Za-z0-9_.-]+$`));
    assert.ok(Date.parse(String(r.structuredContent?.download_expires_at)) > now());
    // A HEAD (a link preview) does not use it up.
    const head = await k.fetch(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    const got = await k.fetch(url);
    assert.equal(got.status, 200);
    assert.equal(await got.text(), MARKDOWN);
    assert.equal(got.headers.get('content-disposition'), 'attachment; filename="audit.md"');
    assert.match(String(got.headers.get('content-type')), /^text\/markdown/);
    assert.equal(got.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(got.headers.get('cache-control'), 'no-store');
    assert.match(String(got.headers.get('content-security-policy')), /sandbox/);
    const again = await k.fetch(url);
    assert.equal(again.status, 404);
    assert.equal(((await again.json()) as { error: string }).error, 'NOT_FOUND');
    const downloads = k.auditRecords().filter((x) => x.event === 'EXPORTED' && x.status === 'DOWNLOADED');
    assert.equal(downloads.length, 1);
    assert.equal(downloads[0]?.client, 'alice');
    assert.equal(downloads[0]?.file, 'report://alice/audit.md');
    assert.equal(downloads[0]?.bytes, Buffer.byteLength(MARKDOWN));
  });

  it('refuses a tampered, a re-pointed, a foreign-scheme and an expired link alike', async () => {
    const url = String((await write(alice, 'audit.md', MARKDOWN)).structuredContent?.download_url);
    const token = url.slice(url.lastIndexOf('/') + 1);
    const [version, payload, mac] = token.split('.') as [string, string, string];
    const flipped = `${mac.slice(0, -2)}${mac.at(-2) === 'A' ? 'B' : 'A'}${mac.at(-1)}`;
    const repointed = Buffer.from(
      Buffer.from(payload, 'base64url').toString().replace('"alice"', '"bob"'),
    ).toString('base64url');
    for (const bad of [
      `${version}.${payload}.${flipped}`,
      `${version}.${repointed}.${mac}`,
      `v2.${payload}.${mac}`,
      'x'.repeat(5000),
      '..',
    ]) {
      const res = await k.fetch(`${k.url}/reports/download/${bad}`);
      assert.equal(res.status, 404, bad.slice(0, 40));
      assert.equal(((await res.json()) as { error: string }).error, 'NOT_FOUND');
    }
    skew += (TTL_SECONDS + 1) * 1000;
    const expired = await k.fetch(url);
    assert.equal(expired.status, 404);
    // Still the whole link, just late: nothing about it worked before it expired either.
    assert.equal(k.auditRecords().filter((x) => x.status === 'DOWNLOADED').length, 1);
  });

  it(
    'a PDF from common_export_report_pdf is read back as a blob by its owner and refused to another client',
    {
      skip: existsSync(CHROMIUM) ? false : `needs ${CHROMIUM} (apt-get install chromium)`,
      timeout: 240_000,
    },
    async () => {
      await write(alice, 'pdf.md', MARKDOWN, 'create');
      // Chromium's first start on a busy machine can take most of the SDK's default minute.
      const r = (await alice.client.callTool(
        { name: 'common_export_report_pdf', arguments: { name: 'pdf.md' } },
        undefined,
        { timeout: 180_000 },
      )) as Awaited<ReturnType<ConnectedClient['call']>>;
      assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
      assert.equal(r.structuredContent?.pdf, 'pdf.pdf');
      const onDisk = readFileSync(join(k.stateDir, 'reports', 'alice', 'pdf.pdf'));
      const link = linkOf(r);
      assert.deepEqual(link, {
        type: 'resource_link',
        uri: 'report://alice/pdf.pdf',
        name: 'pdf.pdf',
        mimeType: 'application/pdf',
        size: onDisk.length,
      });
      for (const [revision, mine, theirs] of revisions()) {
        const got = await read(mine, link.uri);
        assert.equal(got.mimeType, 'application/pdf', revision);
        assert.equal(got.text, undefined);
        const bytes = Buffer.from(String(got.blob), 'base64');
        assert.equal(bytes.subarray(0, 4).toString(), '%PDF', revision);
        assert.ok(bytes.equals(onDisk), revision);
        const foreign = await refusal(theirs, link.uri);
        assert.match(foreign.message, /NOT_FOUND/, revision);
      }
      const res = await k.fetch(String(r.structuredContent?.download_url));
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/pdf');
      assert.equal(res.headers.get('content-disposition'), 'attachment; filename="pdf.pdf"');
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(onDisk));
      assert.equal((await k.fetch(String(r.structuredContent?.download_url))).status, 404);
    },
  );

  // Last: it gets this test's address blocked.
  it('guessing links gets the address blocked like failed logins (AUTH_BLACKLIST_THRESHOLD)', async () => {
    const url = String((await write(alice, 'audit.md', MARKDOWN)).structuredContent?.download_url);
    const forged = `${url.slice(0, -4)}${url.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    let status = 404;
    for (let i = 0; i < 10 && status === 404; i++) status = (await k.fetch(forged)).status;
    assert.equal(status, 429);
    assert.ok(k.auditRecords().some((x) => x.event === 'AUTH' && x.status === 'IP_BLACKLISTED'));
    // A genuine link is refused too while the address is blocked.
    assert.equal((await k.fetch(url)).status, 429);
  });
});
