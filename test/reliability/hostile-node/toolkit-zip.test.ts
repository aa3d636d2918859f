// A hostile node serves an AXL toolkit zip with path traversal (relative, absolute, backslash), a symlink,
// zip bombs (an honest 256 MiB entry, and one that declares 1,000 bytes and inflates to 256 MiB) and
// 65,000 entries. Through cucm_download_axl_toolkit and imp_download_axl_toolkit: each is a coded
// refusal, nothing lands outside the schema cache nor in it, the schema cached before stays as it was,
// and memory and disk stay bounded.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { canaryPath, MANY_ENTRIES, type ToolkitAttack } from '../../../lab/hostile/index.ts';
import { startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import { filesBelow, MiB, refusedUnder, rssBytes } from './helpers.ts';

const CASES: { attack: ToolkitAttack; error: string; message: RegExp }[] = [
  { attack: 'traversal', error: 'BAD_REQUEST', message: /unsafe path/ },
  { attack: 'absolute-path', error: 'BAD_REQUEST', message: /unsafe path/ },
  { attack: 'backslash-path', error: 'BAD_REQUEST', message: /unsafe path/ },
  { attack: 'symlink', error: 'BAD_REQUEST', message: /symlink "schema\/15\.0\/AXLEnums\.xsd"/ },
  { attack: 'bomb-declared', error: 'PAYLOAD_TOO_LARGE', message: /AXLEnums\.xsd" is 268435456 bytes, over/ },
  { attack: 'bomb-lying', error: 'BAD_REQUEST', message: /AXLEnums\.xsd.*too many bytes/ },
  { attack: 'many-entries', error: 'PAYLOAD_TOO_LARGE', message: new RegExp(`${MANY_ENTRIES + 3} entries`) },
];

describe('hostile node: toolkit zips with traversal entries and zip bombs', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  let cacheRoot: string;
  const cached = (product: string): string =>
    createHash('sha256')
      .update(readFileSync(join(cacheRoot, product, 'axl', '15.0', 'AXLSoap.xsd')))
      .digest('hex');

  before(async () => {
    s = await startProductStack({ seedVaultFor: ['admin', 'operator', 'auditor'] });
    cucm = s.node('cucm');
    cacheRoot = join(s.k.stateDir, 'schema-cache');
    await Promise.all(
      (['cucm', 'imp'] as const).map((p) =>
        s.ok('admin', `${p}_download_axl_toolkit`, { host: s.node(p).name }),
      ),
    );
  });
  after(async () => {
    await s?.stop();
  });

  it('every hostile zip is refused with a coded error, nothing written, memory and disk bounded', async () => {
    const good = cached('cucm');
    const filesBefore = filesBelow(s.k.stateDir).map((f) => f.path);
    const rssBefore = rssBytes();
    let peak = 0;
    for (const c of CASES) {
      const r = await refusedUnder(s, { toolkit: c.attack }, [cucm.name], {
        tool: 'cucm_download_axl_toolkit',
        args: { host: cucm.name },
      });
      peak = Math.max(peak, rssBytes() - rssBefore);
      assert.equal(r.error, c.error, `${c.attack}: ${r.message}`);
      assert.match(r.message, c.message, c.attack);
      assert.ok(r.ms < 10_000, `${c.attack} took ${Math.round(r.ms)} ms`);
      assert.ok(!existsSync(canaryPath()), `${c.attack} wrote ${canaryPath()}`);
      const now = filesBelow(s.k.stateDir);
      const added = now.map((f) => f.path).filter((p) => !filesBefore.includes(p) && !/\/logs\//.test(p));
      assert.deepEqual(added, [], `${c.attack} left files behind`);
      const big = now.filter((f) => f.size > 16 * MiB);
      assert.deepEqual(big, [], `${c.attack}: no file over 16 MiB`);
      assert.equal(cached('cucm'), good, `${c.attack} changed the cached schema`);
    }
    assert.equal(s.lab.state.hostile.stats.attacksServed, CASES.length);
    assert.ok(peak < 300 * MiB, `RSS grew by up to ${Math.round(peak / MiB)} MiB`);
    // The node behaving again, the download works.
    await s.ok('admin', 'cucm_download_axl_toolkit', { host: cucm.name });
    await s.ok('admin', 'cucm_get_version', { host: cucm.name });
  });

  it('IM&P refuses the same zips', async () => {
    const imp = s.node('imp');
    const good = cached('imp');
    for (const attack of ['traversal', 'bomb-lying'] as const) {
      const r = await refusedUnder(s, { toolkit: attack }, [imp.name], {
        tool: 'imp_download_axl_toolkit',
        args: { host: imp.name },
      });
      assert.match(r.error, /^(BAD_REQUEST|PAYLOAD_TOO_LARGE)$/, `${attack}: ${r.message}`);
    }
    assert.ok(!existsSync(canaryPath()));
    assert.equal(cached('imp'), good);
  });
});
