// Change-safe paging end to end: a real MCP client reads listPhone and executeSQLQuery page by page
// through cucm_axl_call over HTTPS while another administrator removes and adds phones between the
// pages (before, at and after the cursor). Every phone present for the whole read comes back exactly
// once, or the answer says complete: false with a coded reason; cursors are signed and old bare-offset
// cursors are refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { prepareCucm, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import type { LabNodeInfo } from '../../../lab/index.ts';

interface Answer {
  rows: { name: string }[];
  complete: boolean;
  cursor?: string;
  incomplete?: { code: string; reason: string };
}

describe('change-safe paging through cucm_axl_call', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  let added = 0;
  before(async () => {
    // Small AXL answers are "too large", so executeSQLQuery chunks on its own too.
    s = await startProductStack({ lab: { extraPhones: 90, axlMaxResponseBytes: 6_000 } });
    cucm = await prepareCucm(s);
  });
  after(async () => {
    await s.stop();
  });

  const devices = () => s.lab.state.cucm.db.table('device');
  const phoneNames = (): string[] =>
    devices()
      .rows.map((r) => String(r.name))
      .filter((n) => n.startsWith('SEP'));
  /** Another administrator removes a phone (straight in the node's database). */
  const remove = (name: string): void => {
    const row = devices().findBy('name', name);
    assert.ok(row, name);
    s.lab.state.cucm.db.delete('device', row);
  };
  /** Another administrator adds a phone through AXL. */
  const add = async (): Promise<string> => {
    const name = `SEP00E2EC${String(++added).padStart(6, '0')}`;
    // The operator confirms each change (writes: confirm): previewed, then sent with the plan_id.
    await s.ok(
      'operator',
      'cucm_axl_call',
      await s.plan('operator', 'cucm_axl_call', {
        host: cucm.name,
        operation: 'addPhone',
        args: {
          phone: {
            name,
            product: 'Cisco 8865',
            class: 'Phone',
            protocol: 'SIP',
            devicePoolName: 'Default',
          },
        },
      }),
    );
    return name;
  };
  const page = async (args: Record<string, unknown>, cursor?: string): Promise<Answer> =>
    (await s.ok('auditor', 'cucm_axl_call', {
      host: cucm.name,
      ...args,
      ...(cursor ? { cursor } : {}),
    })) as unknown as Answer;

  /**
   * Reads every page, running `change(pageNumber, namesSoFar)` between pages, and checks that every
   * phone present from start to end came back exactly once and the read ended complete.
   */
  async function readWithChanges(
    args: Record<string, unknown>,
    change: (n: number, seen: string[]) => Promise<void> | void,
  ): Promise<void> {
    const atStart = new Set(phoneNames());
    const seen: string[] = [];
    let cursor: string | undefined;
    let n = 0;
    let last: Answer;
    do {
      if (n > 0) await change(n, seen);
      last = await page(args, cursor);
      seen.push(...last.rows.map((r) => r.name));
      cursor = last.cursor;
      n++;
    } while (cursor);
    assert.ok(n > 3, `${n} pages`);
    assert.equal(last.incomplete, undefined, last.incomplete?.reason);
    assert.equal(last.complete, true);
    const throughout = phoneNames().filter((p) => atStart.has(p));
    const missing = throughout.filter((p) => !seen.includes(p));
    assert.deepEqual(missing, [], 'every phone present for the whole read is returned');
    assert.deepEqual(
      seen.filter((p, i) => seen.indexOf(p) !== i),
      [],
      'no phone is returned twice',
    );
  }

  /** Before the cursor, the last row returned, the first not yet returned, further on, and an add. */
  const everywhere = async (n: number, seen: string[]): Promise<void> => {
    const all = phoneNames();
    const next = all[all.indexOf(seen[seen.length - 1] as string) + 1];
    if (n === 1) remove(seen[2] as string);
    if (n === 2) remove(seen[seen.length - 1] as string);
    if (n === 3 && next) remove(next);
    if (n === 4) remove(all[all.length - 5] as string);
    if (n <= 4) await add();
  };

  it('listPhone page by page (first + cursor) follows removals and additions anywhere', async () => {
    await readWithChanges(
      {
        operation: 'listPhone',
        args: { searchCriteria: { name: 'SEP%' }, returnedTags: { name: '' } },
        first: 10,
      },
      everywhere,
    );
  });

  it('listPhone cut by max_bytes follows them too', async () => {
    await readWithChanges(
      {
        operation: 'listPhone',
        args: { searchCriteria: { name: 'SEP%' }, returnedTags: { name: '', description: '' } },
        max_bytes: 1500,
      },
      everywhere,
    );
  });

  it('executeSQLQuery of one table is paged by pkid and follows them', async () => {
    await readWithChanges(
      {
        operation: 'executeSQLQuery',
        args: { sql: "select name from device where name like 'SEP%'" },
        max_bytes: 600,
      },
      everywhere,
    );
  });

  it('executeSQLQuery the server cannot key (its own ORDER BY) is checked at each page boundary', async () => {
    await readWithChanges(
      {
        operation: 'executeSQLQuery',
        args: { sql: "select name, description from device where name like 'SEP%' order by name" },
        max_bytes: 1200,
      },
      everywhere,
    );
  });

  it('rows moved further than it can follow: complete false with a coded reason, no cursor', async () => {
    const args = {
      operation: 'listPhone',
      args: { searchCriteria: { name: 'SEP%' }, returnedTags: { name: '' } },
      first: 10,
    };
    await page(args);
    const p2 = await page(args, (await page(args)).cursor);
    assert.ok(p2.cursor);
    for (const name of phoneNames().slice(0, 40)) remove(name);
    const p3 = await page(args, p2.cursor);
    assert.equal(p3.complete, false);
    assert.equal(p3.cursor, undefined);
    assert.equal(p3.incomplete?.code, 'ROWS_SHIFTED');
    assert.match(p3.incomplete?.reason ?? '', /repeat it without cursor/);
  });

  it('refuses an old bare-offset cursor and an edited one, clearly', async () => {
    const args = {
      operation: 'listPhone',
      args: { searchCriteria: { name: 'SEP%' }, returnedTags: { name: '' } },
      first: 5,
    };
    const old = Buffer.from(JSON.stringify({ k: 'rows', c: 'x'.repeat(22), skip: 5 })).toString('base64url');
    const refused = await s.fails('auditor', 'cucm_axl_call', { host: cucm.name, ...args, cursor: old });
    assert.equal(refused.error, 'BAD_REQUEST');
    assert.match(refused.message, /earlier version of the server/);
    const issued = (await page(args)).cursor as string;
    const [body, sig] = issued.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString()) as { skip: number };
    const edited = `${Buffer.from(JSON.stringify({ ...decoded, skip: 0 })).toString('base64url')}.${sig}`;
    const tampered = await s.fails('auditor', 'cucm_axl_call', { host: cucm.name, ...args, cursor: edited });
    assert.equal(tampered.error, 'BAD_REQUEST');
    assert.match(tampered.message, /not one this server issued/);
  });
});
