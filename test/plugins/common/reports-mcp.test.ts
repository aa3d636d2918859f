import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_PDF_TOOLS =
  existsSync(CHROMIUM) &&
  (() => {
    try {
      execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

describe('common reports through MCP', () => {
  let k: TestKernel;
  let alice: ConnectedClient;
  let bob: ConnectedClient;
  // Each client has its own rate limit of report calls: the 5 MB report spends most of alice's.
  let eve: ConnectedClient;
  before(async () => {
    k = await startTestKernel({
      env: { AUTH_CLIENTS: 'alice:auditor:cucm,bob:auditor:cucm,eve:auditor:cucm', AUTH_BCRYPT_COST: '4' },
    });
    alice = await connectMcp(k, startupToken(k.stateDir, 'alice'));
    bob = await connectMcp(k, startupToken(k.stateDir, 'bob'));
    eve = await connectMcp(k, startupToken(k.stateDir, 'eve'));
  });
  after(async () => {
    await alice.close();
    await bob.close();
    await eve.close();
    await k.stop();
  });

  const write = (c: ConnectedClient, args: Record<string, unknown>) => c.call('common_write_report', args);
  const readAll = async (c: ConnectedClient, name: string): Promise<string> => {
    let cursor: number | null = 0;
    let text = '';
    while (cursor !== null) {
      const r = await c.call('common_read_report', { name, cursor });
      assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
      const s = r.structuredContent as { content: string; next_cursor: number | null };
      text += s.content;
      cursor = s.next_cursor;
    }
    return text;
  };

  it('each write mode reads back as expected', async () => {
    assert.equal(
      (await write(alice, { name: 'a.md', content: '# Audit\n\nintro\n', mode: 'create' })).isError,
      undefined,
    );
    const again = await write(alice, { name: 'a.md', content: 'x', mode: 'create' });
    assert.equal(again.structuredContent?.error, 'BAD_REQUEST', 'create fails if the report exists');
    await write(alice, { name: 'a.md', content: '## Findings\n\nf1\n', mode: 'append' });
    await write(alice, { name: 'a.md', content: '## Remediation\n\nr1\n', mode: 'resume' });
    const resumed = await write(alice, { name: 'a.md', content: '## Remediation\n\nr2\n', mode: 'resume' });
    assert.equal(resumed.structuredContent?.replaced_from, 'Remediation');
    await write(alice, {
      name: 'a.md',
      content: '## Evidence\n\ne1\n',
      mode: 'insert_after',
      anchor: '## Findings',
    });
    assert.equal(
      await readAll(alice, 'a.md'),
      '# Audit\n\nintro\n## Findings\n\nf1\n## Evidence\n\ne1\n## Remediation\n\nr2\n',
    );
    const missingAnchor = await write(alice, {
      name: 'a.md',
      content: 'x',
      mode: 'insert_after',
      anchor: '## Nope',
    });
    assert.equal(missingAnchor.structuredContent?.error, 'NOT_FOUND');
    await write(alice, { name: 'a.md', content: '# Replaced\n', mode: 'overwrite' });
    assert.equal(await readAll(alice, 'a.md'), '# Replaced\n');
    const appendMissing = await write(alice, { name: 'none.md', content: 'x', mode: 'append' });
    assert.equal(appendMissing.structuredContent?.error, 'NOT_FOUND');
    const written = k.auditRecords().filter((r) => r.event === 'WRITTEN' && r.client === 'alice');
    assert.ok(written.length >= 6);
    assert.deepEqual(
      Object.keys(written[0] ?? {})
        .filter((f) => ['report', 'mode', 'bytes'].includes(f))
        .sort(),
      ['bytes', 'mode', 'report'],
    );
  });

  it('a 5 MB report reads back in chunks that concatenate to the original', async () => {
    const line = '| finding | é | 🎉 | a fairly long cell of text to fill the table |\n';
    const big = `# Big\n\n${line.repeat(Math.ceil((5 * 1024 * 1024) / Buffer.byteLength(line)))}`;
    // Written in parts of whole lines (append starts content on its own line), each MCP request under
    // the server's 1 MiB body limit.
    const parts = big.match(/(?:[^\n]*\n){1,4000}/gu) as string[];
    assert.equal(parts.join(''), big);
    assert.equal(
      (await write(alice, { name: 'big.md', content: parts[0] as string, mode: 'create' })).isError,
      undefined,
    );
    for (const p of parts.slice(1)) {
      const r = await write(alice, { name: 'big.md', content: p, mode: 'append' });
      assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
    }
    const back = await readAll(alice, 'big.md');
    assert.ok(Buffer.byteLength(back) >= 5 * 1024 * 1024);
    assert.equal(back, big);
  });

  it('reports are per client, and names cannot leave the folder', async () => {
    const r = await bob.call('common_read_report', { name: 'a.md' });
    assert.equal(r.structuredContent?.error, 'NOT_FOUND');
    for (const name of ['../alice/a.md', '..%2Falice%2Fa.md', '/etc/passwd', 'a/../../x.md']) {
      const t = await bob.call('common_read_report', { name });
      assert.equal(t.structuredContent?.error, 'BAD_REQUEST', name);
    }
    const list = await bob.call('common_read_report', {});
    assert.deepEqual((list.structuredContent as { reports: unknown[] }).reports, []);
  });

  it('a report over REPORT_EXPORT_MAX_BYTES is refused with a coded error before any rendering', async () => {
    const part = `${'| a | b |\n'.repeat(80_000)}`;
    assert.equal((await write(eve, { name: 'huge.md', content: part, mode: 'create' })).isError, undefined);
    for (let i = 0; i < 3; i++) await write(eve, { name: 'huge.md', content: part, mode: 'append' });
    const r = await eve.call('common_export_report_pdf', { name: 'huge.md' });
    assert.equal(r.structuredContent?.error, 'REPORT_TOO_COMPLEX');
    assert.match(
      String(r.structuredContent?.message),
      /the report is 3200000 bytes; the largest exported is 2097152 \(REPORT_EXPORT_MAX_BYTES\)/,
    );
  });

  it('Markdown that overflowed the renderer (nested quote markers) is refused with a coded error, not INTERNAL_ERROR', async () => {
    for (const [name, content] of [
      ['quotes.md', `${'>'.repeat(8000)} deep\n`],
      ['spaced.md', `${'> '.repeat(8000)}deep\n`],
      ['lists.md', Array.from({ length: 400 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n')],
    ] as const) {
      assert.equal((await write(eve, { name, content, mode: 'create' })).isError, undefined);
      const r = await eve.call('common_export_report_pdf', { name });
      assert.equal(r.structuredContent?.error, 'REPORT_TOO_COMPLEX', name);
      assert.match(String(r.structuredContent?.message), /more than 100 levels deep/, name);
      assert.equal(existsSync(join(k.stateDir, 'reports', 'eve', name.replace('.md', '.pdf'))), false);
    }
  });

  it(
    'exports a PDF whose text contains the headings',
    {
      skip: HAVE_PDF_TOOLS
        ? false
        : `needs ${CHROMIUM} and pdftotext (apt-get install chromium poppler-utils)`,
    },
    async () => {
      await write(alice, {
        name: 'pdf.md',
        content:
          '# CUCM Security Audit\n\n## Findings\n\n| id | severity |\n|---|---|\n| TLS-01 | high |\n\n## Remediation\n\nSet TLS 1.2.\n<img src="http://127.0.0.1:9/leak.png">\n',
        mode: 'create',
      });
      const r = await alice.call('common_export_report_pdf', { name: 'pdf.md' });
      assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
      const pdfPath = join(k.stateDir, 'reports', 'alice', 'pdf.pdf');
      assert.equal(readFileSync(pdfPath).subarray(0, 5).toString(), '%PDF-');
      const text = execFileSync('pdftotext', [pdfPath, '-'], { encoding: 'utf8' });
      for (const h of ['CUCM Security Audit', 'Findings', 'Remediation', 'TLS-01'])
        assert.ok(text.includes(h), h);
      const exported = k.auditRecords().find((x) => x.event === 'EXPORTED' && x.client === 'alice');
      assert.equal(exported?.report, 'pdf.md');
      // A second export reuses the same browser.
      const again = await alice.call('common_export_report_pdf', { name: 'pdf.md' });
      assert.equal(again.isError, undefined);
    },
  );
});
