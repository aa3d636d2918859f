// A hostile node answers with gigabytes: an endless chunked body, or one that declares 8 GiB. The lab
// streams it from one reused 64 KiB chunk, so only the client could run out of memory. Through the real
// tools the client reads at most its documented cap (CUPI 16 MiB, AXL and RisPort70 32 MiB, phone
// screenshot 8 MiB, toolkit 64 MiB), hangs up, and answers a coded error; RSS stays bounded.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HugeAnswer } from '../../../lab/hostile/index.ts';
import { startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import { MiB, refusedUnder, rssBytes } from './helpers.ts';

const ENDLESS: HugeAnswer = {};
const DECLARED: HugeAnswer = { bytes: 8 * 1024 * MiB, declareLength: true };

describe('hostile node: answers of gigabytes', () => {
  let s: ProductStack;
  let rssBase = 0;
  const cases = (): {
    what: string;
    node: string;
    cap: number;
    /** The attack on this path only (the toolkit download probes AXL first). */
    only?: string;
    error: string;
    tool: string;
    args: Record<string, unknown>;
  }[] => {
    const cucm = s.node('cucm').name;
    const phone = s.node('phone').name;
    const cuc = s.node('cuc').name;
    // The toolkit first: its download makes the AXL client negotiate again, and the others need it warm.
    return [
      {
        what: 'AXL toolkit',
        node: cucm,
        cap: 64 * MiB,
        only: '/plugins/',
        error: 'PAYLOAD_TOO_LARGE',
        tool: 'cucm_download_axl_toolkit',
        args: { host: cucm },
      },
      {
        what: 'CUPI',
        node: cuc,
        cap: 16 * MiB,
        error: 'PAYLOAD_TOO_LARGE',
        tool: 'cuc_cupi_list',
        args: { host: cuc, resource: 'users' },
      },
      {
        what: 'AXL',
        node: cucm,
        cap: 32 * MiB,
        error: 'AXLError',
        tool: 'cucm_get_version',
        args: { host: cucm },
      },
      {
        what: 'RisPort70',
        node: cucm,
        cap: 32 * MiB,
        error: 'RISError',
        tool: 'cucm_risport_query',
        args: { host: cucm, select_items: ['SEP0A1B2C3D4E01'] },
      },
      {
        what: 'phone screenshot',
        node: phone,
        cap: 8 * MiB,
        error: 'PAYLOAD_TOO_LARGE',
        tool: 'cucm_phone_screenshot',
        args: { host: phone },
      },
    ];
  };

  before(async () => {
    s = await startProductStack({ seedVaultFor: ['admin', 'operator', 'auditor'] });
    const cucm = s.node('cucm');
    await Promise.all([
      s.ok('admin', 'cucm_download_axl_toolkit', { host: cucm.name }),
      s.ok('admin', 'cucm_download_ris_toolkit', { host: cucm.name }),
    ]);
    // Every client warmed up (schema parsed, sessions open) before memory is measured.
    for (const c of cases()) await s.ok('admin', c.tool, c.args);
    rssBase = rssBytes();
  });
  after(async () => {
    await s?.stop();
  });

  it('an endless chunked answer is read up to the cap, then abandoned with a coded error', async (t) => {
    let peak = 0;
    for (const c of cases()) {
      s.lab.state.cucm.ris.window.reset();
      const stats = s.lab.state.hostile.stats;
      const [sentBefore, cutBefore] = [stats.hugeBytesSent, stats.hugeAnswersCut];
      const attack = { hugeAnswer: { ...ENDLESS, ...(c.only ? { pathPrefix: c.only } : {}) } };
      const r = await refusedUnder(s, attack, [c.node], { tool: c.tool, args: c.args });
      peak = Math.max(peak, rssBytes() - rssBase);
      assert.equal(r.error, c.error, `${c.what}: ${r.message}`);
      assert.match(r.message, /larger than|too large|over|more than/, c.what);
      assert.ok(r.ms < 10_000, `${c.what} took ${Math.round(r.ms)} ms`);
      // The node really offered more than the cap, and the client hung up soon after reading it.
      await waitFor(() => stats.hugeAnswersCut > cutBefore, `${c.what}: the client hung up`);
      const sent = stats.hugeBytesSent - sentBefore;
      assert.ok(sent > c.cap, `${c.what}: the lab sent ${sent} bytes, no more than the cap`);
      assert.ok(
        sent < c.cap + 64 * MiB,
        `${c.what}: the client kept reading (${Math.round(sent / MiB)} MiB)`,
      );
    }
    t.diagnostic(`RSS grew by up to ${Math.round(peak / MiB)} MiB while the node offered 64 GiB per answer`);
    assert.ok(peak < 256 * MiB, `RSS grew by up to ${Math.round(peak / MiB)} MiB`);
  });

  it('an answer declaring 8 GiB is refused from its header, before the body is read', async () => {
    for (const c of cases()) {
      s.lab.state.cucm.ris.window.reset();
      const stats = s.lab.state.hostile.stats;
      const sentBefore = stats.hugeBytesSent;
      const attack = { hugeAnswer: { ...DECLARED, ...(c.only ? { pathPrefix: c.only } : {}) } };
      const r = await refusedUnder(s, attack, [c.node], { tool: c.tool, args: c.args });
      assert.equal(r.error, c.error, `${c.what}: ${r.message}`);
      assert.ok(r.ms < 5_000, `${c.what} took ${Math.round(r.ms)} ms`);
      await waitFor(() => stats.hugeBytesSent - sentBefore > 0, `${c.what}: the lab started`);
      const sent = stats.hugeBytesSent - sentBefore;
      assert.ok(sent < c.cap, `${c.what}: ${sent} bytes went out before the client hung up`);
    }
    assert.ok(rssBytes() - rssBase < 256 * MiB);
  });

  it("the toolkit download's AXL version probe is bounded too (1 MiB)", async () => {
    const cucm = s.node('cucm').name;
    for (const hugeAnswer of [ENDLESS, DECLARED]) {
      const r = await refusedUnder(s, { hugeAnswer }, [cucm], {
        tool: 'cucm_download_axl_toolkit',
        args: { host: cucm },
      });
      assert.equal(r.error, 'AXLError', r.message);
      assert.match(r.message, /getCCMVersion with over 1 MiB/);
    }
  });

  it('every client works again once the node behaves', async () => {
    s.lab.state.cucm.ris.window.reset();
    for (const c of cases()) await s.ok('admin', c.tool, c.args);
  });
});

async function waitFor(ok: () => boolean, what: string, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
