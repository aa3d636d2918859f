import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { PdfRenderer } from '../../../plugins/common/reports/pdf-renderer.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { descendants, processes, waitFor, type Proc } from '../../helpers/processes.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const NO_CHROMIUM = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;

/** Chromium processes below this one (the test kernel runs in-process; the browser below its worker). */
function chromiumBelowUs(): Proc[] {
  return descendants().filter((p) => /^chrom/i.test(p.comm));
}

/** Browsers: Chromium processes whose parent is not Chromium (the PDF worker started them). */
function browsers(): Proc[] {
  const all = descendants();
  const chrome = new Set(all.filter((p) => /^chrom/i.test(p.comm)).map((p) => p.pid));
  return all.filter((p) => chrome.has(p.pid) && !chrome.has(p.ppid) && p.state !== 'Z');
}

/** Of `pids`, those still alive (a zombie holds no memory and is its new parent's to reap). */
function alive(pids: number[]): number[] {
  const live = new Map(processes().map((p) => [p.pid, p]));
  return pids.filter((pid) => {
    const p = live.get(pid);
    return p !== undefined && p.state !== 'Z' && /^chrom/i.test(p.comm);
  });
}

describe('PDF export closes Chromium when idle', { skip: NO_CHROMIUM }, () => {
  let k: TestKernel;
  let alice: ConnectedClient;
  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'alice:auditor:cucm',
        AUTH_BCRYPT_COST: '4',
        REPORT_BROWSER_IDLE_SECONDS: '1',
      },
    });
    alice = await connectMcp(k, startupToken(k.stateDir, 'alice'));
    const r = await alice.call('common_write_report', {
      name: 'idle.md',
      content: '# Idle\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
      mode: 'create',
    });
    assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
  });
  after(async () => {
    await alice.close();
    await k.stop();
  });

  const exportPdf = async (): Promise<void> => {
    // Chromium's first launch on a busy machine may pass the SDK's 60 s default.
    const r = (await alice.client.callTool(
      { name: 'common_export_report_pdf', arguments: { name: 'idle.md' } },
      undefined,
      { timeout: 300_000 },
    )) as Awaited<ReturnType<ConnectedClient['call']>>;
    assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent ?? r.content));
  };

  it('the browser process tree is gone a few seconds after an export, and the next export starts another', async () => {
    await exportPdf();
    const running = chromiumBelowUs().map((p) => p.pid);
    assert.ok(running.length > 0, 'Chromium runs right after the export');
    await waitFor(
      'every Chromium process of the export has ended',
      () => alive(running).length === 0,
      10_000,
    );
    // Its exited processes are reaped by their parents (the PDF worker, itself ending) a moment later.
    await waitFor(
      'no Chromium process (nor zombie) left below the server',
      () => chromiumBelowUs().length === 0,
      5_000,
    );

    await exportPdf();
    const again = chromiumBelowUs().map((p) => p.pid);
    assert.ok(again.length > 0, 'a new browser was started');
    assert.ok(!again.some((pid) => running.includes(pid)), 'it is a new one');
    await waitFor('the second browser has ended too', () => alive(again).length === 0, 10_000);
  });

  it('an export started while the browser is closing succeeds, with never two browsers at once', async () => {
    await exportPdf();
    // Watch the browsers (Chromium children of this process) while the idle close comes and a new
    // export arrives: one at a time at most.
    let most = 0;
    const watch = setInterval(() => {
      most = Math.max(most, browsers().length);
    }, 20);
    try {
      const running = chromiumBelowUs().map((p) => p.pid);
      // The close is under way once the first of the browser's processes has gone.
      await waitFor('the close has begun', () => alive(running).length < running.length, 10_000);
      await exportPdf();
    } finally {
      clearInterval(watch);
    }
    assert.ok(most <= 1, `at most one browser at a time (saw ${most})`);
  });
});

describe('PdfRenderer idle close', { skip: NO_CHROMIUM }, () => {
  it('an export arriving in the middle of the close waits for it, then starts a new browser', async () => {
    const pdf = new PdfRenderer(CHROMIUM, 120_000, undefined, 50);
    const html = () => new TextEncoder().encode('<h1>Report</h1><p>text</p>');
    try {
      assert.equal((await pdf.render(html(), 'one')).subarray(0, 5).toString(), '%PDF-');
      const first = chromiumBelowUs().map((p) => p.pid);
      const state = pdf as unknown as { closing?: Promise<void> };
      await waitFor('the idle close has started', () => state.closing !== undefined, 10_000);
      const second = pdf.render(html(), 'two');
      // The export came while the old browser was still closing (the case under test)...
      assert.ok(state.closing !== undefined, 'the close was still under way');
      assert.equal((await second).subarray(0, 5).toString(), '%PDF-');
      // ...and ran on a new browser, the old one being gone by then.
      assert.deepEqual(alive(first), [], 'the old browser had ended before the new one printed');
    } finally {
      await pdf.close();
    }
    await waitFor('no Chromium left after close()', () => chromiumBelowUs().length === 0, 10_000);
  });
});

describe('playwright-core is loaded only by a PDF export', () => {
  // A fresh process loads the kernel with every plugin (and the printer's module), exports nothing, and
  // says which loaded modules come from playwright-core. It is a CommonJS package: whether imported or
  // required, each of its files lands in the CommonJS module cache, which the child lists. As a control,
  // the child then imports it and checks that the same test sees it.
  const CHILD = `
    import { createRequire } from 'node:module';
    import { startTestKernel } from './test/helpers/kernel.ts';
    const cache = createRequire(import.meta.url).cache;
    const loaded = () => Object.keys(cache).filter((p) => p.includes('/playwright-core/'));
    const k = await startTestKernel({});
    const { ChromiumPrinter } = await import('./plugins/common/reports/chromium-printer.ts');
    new ChromiumPrinter('/nonexistent/chromium', 1000);
    const before = loaded();
    await k.stop();
    await import('playwright-core');
    console.log(JSON.stringify({ before, control: loaded().length }));
  `;

  it('loading the kernel and its plugins does not load it', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      cwd: new URL('../../..', import.meta.url),
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 120_000,
    });
    const r = JSON.parse(out.trim().split('\n').at(-1) as string) as { before: string[]; control: number };
    assert.ok(r.control > 0, 'the check sees playwright-core once it is imported');
    assert.deepEqual(r.before, [], 'nothing of playwright-core loaded before an export');
  });
});
