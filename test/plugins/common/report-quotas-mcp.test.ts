import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CLIENTS = ['alice', 'bob', 'carol', 'dave', 'erin'] as const;

describe('per-client report quotas through MCP', () => {
  let k: TestKernel;
  const c = {} as Record<(typeof CLIENTS)[number], ConnectedClient>;
  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: CLIENTS.map((n) => `${n}:auditor:cucm`).join(','),
        AUTH_BCRYPT_COST: '4',
        REPORTS_MAX_PER_CLIENT: '3',
        REPORTS_MAX_BYTES_PER_CLIENT: '10000',
      },
    });
    for (const n of CLIENTS) c[n] = await connectMcp(k, startupToken(k.stateDir, n));
  });
  after(async () => {
    for (const n of CLIENTS) await c[n].close();
    await k.stop();
  });

  const write = (who: ConnectedClient, args: Record<string, unknown>) =>
    who.call('common_write_report', args);
  const files = (client: string): string[] => {
    const dir = join(k.stateDir, 'reports', client);
    return existsSync(dir) ? readdirSync(dir).sort() : [];
  };
  const errorOf = (r: { structuredContent?: Record<string, unknown> }) => ({
    code: r.structuredContent?.error,
    message: String(r.structuredContent?.message ?? ''),
  });

  it('a fourth report is refused in every mode that creates one, with the use and the limit; rewriting one still works', async () => {
    for (const n of ['r1.md', 'r2.md', 'r3.md'])
      assert.equal(
        (await write(c.alice, { name: n, content: `# ${n}\n`, mode: 'create' })).isError,
        undefined,
      );
    for (const mode of ['create', 'overwrite', 'resume']) {
      const e = errorOf(await write(c.alice, { name: 'r4.md', content: '# r4\n', mode }));
      assert.equal(e.code, 'REPORT_QUOTA_EXCEEDED', mode);
      assert.match(e.message, /you have 3 report files .* the limit is 3 \(REPORTS_MAX_PER_CLIENT\)/, mode);
    }
    assert.deepEqual(files('alice'), ['r1.md', 'r2.md', 'r3.md']);
    const rewrite = await write(c.alice, { name: 'r1.md', content: '# r1 again\n', mode: 'overwrite' });
    assert.equal(rewrite.isError, undefined);
    const append = await write(c.alice, { name: 'r2.md', content: 'more\n', mode: 'append' });
    assert.equal(append.isError, undefined);
  });

  it('growing past the byte quota is refused in every mode that grows; shrinking makes room again', async () => {
    const six = `# Big\n\n${'x'.repeat(6000 - 8)}\n`;
    assert.equal((await write(c.bob, { name: 'big.md', content: six, mode: 'create' })).isError, undefined);
    const more = `## More\n\n${'y'.repeat(5000)}\n`;
    for (const args of [
      { name: 'big.md', content: more, mode: 'append' },
      { name: 'big.md', content: more, mode: 'resume' },
      { name: 'big.md', content: more, mode: 'insert_after', anchor: '# Big' },
      { name: 'big.md', content: six + more, mode: 'overwrite' },
      { name: 'other.md', content: more, mode: 'create' },
    ]) {
      const e = errorOf(await write(c.bob, args));
      assert.equal(e.code, 'REPORT_QUOTA_EXCEEDED', args.mode);
      assert.match(
        e.message,
        /use 6000 bytes and this would make \d+; the limit is 10000 \(REPORTS_MAX_BYTES_PER_CLIENT\)/,
      );
    }
    const shrink = await write(c.bob, { name: 'big.md', content: '# Big\n', mode: 'overwrite' });
    assert.equal(shrink.isError, undefined);
    assert.equal((await write(c.bob, { name: 'big.md', content: more, mode: 'append' })).isError, undefined);
  });

  it('a PDF counts as a file: export is refused before rendering when there is no room for it', async () => {
    for (const n of ['a.md', 'b.md', 'c.md'])
      assert.equal(
        (await write(c.carol, { name: n, content: `# ${n}\n`, mode: 'create' })).isError,
        undefined,
      );
    const e = errorOf(await c.carol.call('common_export_report_pdf', { name: 'a.md' }));
    assert.equal(e.code, 'REPORT_QUOTA_EXCEEDED');
    assert.match(e.message, /limit is 3/);
    assert.deepEqual(files('carol'), ['a.md', 'b.md', 'c.md']);
  });

  it(
    'a PDF counts in bytes: an export whose PDF would pass the byte quota is refused and nothing is written',
    { skip: existsSync(CHROMIUM) ? false : `needs ${CHROMIUM}` },
    async () => {
      assert.equal(
        (await write(c.erin, { name: 'e.md', content: `# Erin\n\n${'z'.repeat(9000)}\n`, mode: 'create' }))
          .isError,
        undefined,
      );
      const e = errorOf(await c.erin.call('common_export_report_pdf', { name: 'e.md' }));
      assert.equal(e.code, 'REPORT_QUOTA_EXCEEDED');
      assert.match(
        e.message,
        /your reports and PDFs use 9\d{3} bytes and this would make \d+; the limit is 10000/,
      );
      assert.deepEqual(files('erin'), ['e.md']);
    },
  );

  it('a flood of concurrent writes from one client neither passes the quota nor loses a write', async () => {
    const creates = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        write(c.dave, { name: `f${i}.md`, content: `# f${i}\n`, mode: 'create' }),
      ),
    );
    assert.equal(creates.filter((r) => r.isError === undefined).length, 3);
    assert.ok(creates.filter((r) => r.isError).every((r) => errorOf(r).code === 'REPORT_QUOTA_EXCEEDED'));
    assert.equal(files('dave').length, 3);

    const target = files('dave')[0] as string;
    const line = (i: number) => `line ${String(i).padStart(3, '0')} ${'w'.repeat(400)}\n`;
    const appends = await Promise.all(
      Array.from({ length: 40 }, (_, i) => write(c.dave, { name: target, content: line(i), mode: 'append' })),
    );
    const ok = appends.flatMap((r, i) => (r.isError === undefined ? [i] : []));
    assert.ok(appends.filter((r) => r.isError).every((r) => errorOf(r).code === 'REPORT_QUOTA_EXCEEDED'));
    const usage = files('dave').reduce((sum, f) => sum + Buffer.byteLength(readReportFile('dave', f)), 0);
    assert.ok(usage <= 10000, `dave's reports take ${usage} bytes`);
    const text = readReportFile('dave', target);
    for (const i of ok)
      assert.ok(text.includes(line(i)), `append ${i} was answered OK but is not in the report`);
    assert.ok(ok.length >= 20, `only ${ok.length} appends fit`);
  });

  function readReportFile(client: string, name: string): string {
    return readFileSync(join(k.stateDir, 'reports', client, name), 'utf8');
  }
});
