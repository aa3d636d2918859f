import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MarkdownRenderer, type RenderLimits } from '../../../plugins/common/reports/markdown-renderer.ts';
import { environment, liveDescendantsRunning, waitFor } from '../../helpers/processes.ts';

const ROOMY: RenderLimits = { timeoutMs: 60_000, memoryMb: 256, maxDepth: 100, maxHtmlBytes: 1e9 };

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = await p.then(
    () => assert.fail('rendered, expected a refusal'),
    (e: unknown) => e as { code: string; message: string },
  );
  return { code: err.code, message: err.message };
}

const WORKER = 'markdown-worker.ts';

/** One report through a renderer of its own, closed after. */
async function renderMarkdown(
  md: string,
  limits: RenderLimits,
  opts: { signal?: AbortSignal } = {},
): Promise<Uint8Array> {
  const r = new MarkdownRenderer(limits);
  try {
    return await r.render(md, opts);
  } finally {
    await r.close();
  }
}

/** The renderer processes running now. */
const renderers = (): number[] => liveDescendantsRunning(WORKER).map((p) => p.pid);

describe('Markdown rendering in a bounded worker process', () => {
  it('renders ordinary Markdown', async () => {
    const html = new TextDecoder().decode(
      await renderMarkdown('# Audit\n\n| id | sev |\n|---|---|\n| TLS-01 | *high* |\n', ROOMY),
    );
    assert.match(html, /<h1>Audit<\/h1>/);
    assert.match(html, /<td><em>high<\/em><\/td>/);
  });

  it('stops a render at its deadline: the worker process is gone, and ran niced without the server environment', async () => {
    // 1 MB of alternating emphasis markers: minutes of quadratic work for the renderer.
    process.env.UCMCP_TEST_SECRET = 'canary-7f3e9b1d';
    const seen: { nice: number; env: string }[] = [];
    const watch = setInterval(() => {
      for (const p of liveDescendantsRunning(WORKER)) seen.push({ nice: p.nice, env: environment(p.pid) });
    }, 50);
    const started = performance.now();
    try {
      const r = await refusal(renderMarkdown('_a'.repeat(500_000), { ...ROOMY, timeoutMs: 1500 }));
      const elapsed = performance.now() - started;
      assert.equal(r.code, 'REPORT_TOO_COMPLEX');
      assert.match(r.message, /longer than 1500 ms \(REPORT_RENDER_TIMEOUT_MS\)/);
      assert.ok(elapsed < 1500 + 30_000, `answered after ${Math.round(elapsed)} ms`);
    } finally {
      clearInterval(watch);
      delete process.env.UCMCP_TEST_SECRET;
    }
    assert.ok(seen.length > 0, 'the renderer ran as a process of its own');
    // It loads at normal priority, then renders at the lowest.
    assert.equal(seen.at(-1)?.nice, 19, `at the lowest priority (${seen.map((s) => s.nice).join(',')})`);
    const env = seen.map((s) => s.env).find((e) => e !== '') ?? '';
    assert.match(env, /^PATH=/m, 'what it needs to run');
    assert.doesNotMatch(env, /canary-7f3e9b1d|UCMCP_TEST_SECRET/, "none of the server's own variables");
    // Killed at the deadline, not left to burn CPU.
    await waitFor('the renderer process has ended', () => liveDescendantsRunning(WORKER).length === 0, 5000);
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
    await waitFor('the renderer process has ended', () => liveDescendantsRunning(WORKER).length === 0, 5000);
  });

  it('a renderer that dies without an answer is EXPORT_UNAVAILABLE, and the next render works', async () => {
    const p = renderMarkdown('_a'.repeat(500_000), ROOMY);
    await waitFor('the renderer runs', () => liveDescendantsRunning(WORKER).length > 0, 30_000);
    for (const w of liveDescendantsRunning(WORKER)) process.kill(w.pid, 'SIGKILL');
    const r = await refusal(p);
    assert.equal(r.code, 'EXPORT_UNAVAILABLE');
    assert.match(r.message, /stopped without an answer/);
    assert.match(new TextDecoder().decode(await renderMarkdown('*ok*', ROOMY)), /<em>ok<\/em>/);
  });

  it('a process that answered cleanly serves the next report; one stopped at a bound never does; idle ones end', async () => {
    const r = new MarkdownRenderer({ ...ROOMY, timeoutMs: 1500 }, undefined, 1000);
    try {
      await r.render('# one');
      const [first] = renderers();
      assert.ok(first, 'a renderer process is kept after a clean answer');
      // A refusal is a clean answer too.
      await refusal(r.render(`${'>'.repeat(5000)} x`));
      await r.render('# two');
      assert.deepEqual(renderers(), [first], 'the same process rendered the next reports');
      // Stopped at its deadline: killed, and the next report gets a new process.
      await refusal(r.render('_a'.repeat(500_000)));
      await waitFor('the stopped process has ended', () => !renderers().includes(first), 5000);
      await r.render('# three');
      const [second] = renderers();
      assert.ok(second !== undefined && second !== first, 'a new process');
      // Idle for longer than idleMs: ended.
      await waitFor('the idle renderer has ended', () => renderers().length === 0, 10_000);
      assert.match(new TextDecoder().decode(await r.render('*after*')), /<em>after<\/em>/);
    } finally {
      await r.close();
    }
    assert.deepEqual(renderers(), [], 'close() ends them all');
  });
});
