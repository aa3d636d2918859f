import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderMarkdown, type RenderLimits } from '../../../plugins/common/reports/markdown-renderer.ts';

const ROOMY: RenderLimits = { timeoutMs: 60_000, memoryMb: 256, maxDepth: 100, maxHtmlBytes: 1e9 };

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = await p.then(
    () => assert.fail('rendered, expected a refusal'),
    (e: unknown) => e as { code: string; message: string },
  );
  return { code: err.code, message: err.message };
}

describe('Markdown rendering in a bounded worker', () => {
  it('renders ordinary Markdown', async () => {
    const html = new TextDecoder().decode(
      await renderMarkdown('# Audit\n\n| id | sev |\n|---|---|\n| TLS-01 | *high* |\n', ROOMY),
    );
    assert.match(html, /<h1>Audit<\/h1>/);
    assert.match(html, /<td><em>high<\/em><\/td>/);
  });

  it('stops a render at its deadline, and the stopped worker burns no more CPU', async () => {
    // 1 MB of alternating emphasis markers: minutes of quadratic work for the renderer.
    const started = performance.now();
    const r = await refusal(renderMarkdown('_a'.repeat(500_000), { ...ROOMY, timeoutMs: 1500 }));
    const elapsed = performance.now() - started;
    assert.equal(r.code, 'REPORT_TOO_COMPLEX');
    assert.match(r.message, /longer than 1500 ms \(REPORT_RENDER_TIMEOUT_MS\)/);
    assert.ok(elapsed < 1500 + 5000, `answered after ${Math.round(elapsed)} ms`);
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const used = process.cpuUsage(before);
    assert.ok(
      used.user + used.system < 600_000,
      `the process used ${used.user + used.system} µs of CPU after`,
    );
  });

  it('stops a render that passes its memory limit', async () => {
    // One reference definition of 1 KB used 200,000 times: 200 MB of HTML from 800 KB.
    const md = `[a]: http://x/${'y'.repeat(1000)}\n\n${'[a] '.repeat(200_000)}`;
    const r = await refusal(renderMarkdown(md, { ...ROOMY, memoryMb: 32 }));
    assert.equal(r.code, 'REPORT_TOO_COMPLEX');
    assert.match(r.message, /needs more than 32 MB \(REPORT_RENDER_MEMORY_MB\)/);
  });

  it('refuses deep nesting before rendering, and a stack overflow of the renderer is the same coded refusal', async () => {
    const quotes = `${'>'.repeat(5000)} x`;
    const shallow = await refusal(renderMarkdown(quotes, ROOMY));
    assert.equal(shallow.code, 'REPORT_TOO_COMPLEX');
    assert.match(shallow.message, /more than 100 levels deep/);
    // With the estimate out of the way, the renderer itself overflows its stack.
    const overflow = await refusal(renderMarkdown(`${'>'.repeat(30_000)} x`, { ...ROOMY, maxDepth: 1e9 }));
    assert.equal(overflow.code, 'REPORT_TOO_COMPLEX');
    assert.match(overflow.message, /nests too deeply for the Markdown renderer/);
  });

  it('refuses HTML longer than its bound', async () => {
    const r = await refusal(renderMarkdown('# A heading\n\nand some text\n', { ...ROOMY, maxHtmlBytes: 20 }));
    assert.equal(r.code, 'REPORT_TOO_COMPLEX');
    assert.match(r.message, /more than 20 bytes of HTML/);
  });

  it('stops at once when the call is cancelled', async () => {
    const ac = new AbortController();
    const p = renderMarkdown('_a'.repeat(500_000), ROOMY, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('cancelled by the client')), 300);
    await assert.rejects(p, /cancelled by the client/);
  });
});
