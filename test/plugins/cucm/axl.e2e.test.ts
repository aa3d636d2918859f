// The CUCM AXL tools end to end against the lab: toolkit download, version, introspection, and calls
// that really change the lab's database, with paging, cursors, faults and allowlist refusals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { prepareCucm, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { actionOutcomes } from '../../helpers/kernel.ts';

describe('cucm AXL tools through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    // Small answers are "too large" here, so executeSQLQuery has to chunk on its own.
    s = await startProductStack({ lab: { extraPhones: 120, axlMaxResponseBytes: 6_000 } });
    cucm = await prepareCucm(s);
  });
  after(async () => {
    await s.stop();
  });

  const host = (): string => cucm.name;

  it('download_axl_toolkit is admin-only, fills the cache and reports the node version', async () => {
    const denied = await s.fails('operator', 'cucm_download_axl_toolkit', { host: host() });
    assert.equal(denied.error, 'ProfilePermissionError');
    const mark = s.mark();
    const r = await s.ok('admin', 'cucm_download_axl_toolkit', { host: host() });
    assert.equal(r.node_axl_version, '15.0');
    assert.ok((r.all_cached_versions as string[]).includes('15.0'));
    const rec = actionOutcomes(s.auditSince(mark)).find((x) => x.tool_name === 'cucm_download_axl_toolkit');
    assert.equal(rec?.host, host());
    assert.equal(rec?.result, 'ALLOWED');
  });

  it('get_version works for every profile, with the negotiated AXL version', async () => {
    for (const role of ['admin', 'operator', 'auditor'] as const) {
      const r = await s.ok(role, 'cucm_get_version', { host: host() });
      assert.match(String(r.version), /^15\.0\./);
      assert.equal(r.axl_version, '15.0');
    }
    const unknown = await s.fails('auditor', 'cucm_get_version', { host: 'nowhere.example.com' });
    assert.equal(unknown.error, 'CredentialError');
  });

  it('list_axl_operations filters and describes request fields', async () => {
    const all = await s.ok('auditor', 'cucm_list_axl_operations', {});
    assert.ok((all.count as number) > 10);
    const phones = await s.ok('auditor', 'cucm_list_axl_operations', { host: host(), pattern: 'phone' });
    const ops = phones.operations as string[];
    for (const o of ['addPhone', 'getPhone', 'listPhone', 'removePhone', 'updatePhone'])
      assert.ok(ops.includes(o), o);
    assert.ok(ops.every((o) => o.toLowerCase().includes('phone')));
    const described = await s.ok('auditor', 'cucm_list_axl_operations', { operation: 'addPhone', depth: 2 });
    const phone = (described.request_fields as { name: string; children?: { name: string }[] }[]).find(
      (f) => f.name === 'phone',
    );
    assert.ok(phone?.children?.some((c) => c.name === 'devicePoolName'));
    const missing = await s.fails('auditor', 'cucm_list_axl_operations', { operation: 'getNothing' });
    assert.equal(missing.error, 'NOT_FOUND');
  });

  it('addPhone, updatePhone and removePhone really change the lab database, each audited with host', async () => {
    const devices = s.lab.state.cucm.db.table('device');
    const mark = s.mark();
    // The operator's profile confirms every change (writes: confirm): each is previewed (dry_run), then
    // sent with the preview's plan_id.
    const added = await s.ok(
      'operator',
      'cucm_axl_call',
      await s.plan('operator', 'cucm_axl_call', {
        host: host(),
        operation: 'addPhone',
        args: {
          phone: {
            name: 'SEP00E2E0000001',
            description: 'added by <e2e> & "tests"',
            product: 'Cisco 8865',
            class: 'Phone',
            protocol: 'SIP',
            devicePoolName: 'Default',
            lines: { line: [{ index: '1', dirn: { pattern: '5601', routePartitionName: 'PT_Internal' } }] },
          },
        },
      }),
    );
    assert.ok(added.result);
    const row = devices.findBy('name', 'SEP00E2E0000001');
    assert.ok(row, 'the phone is in the lab database');
    assert.equal(row.description, 'added by <e2e> & "tests"', 'markup is data, escaped on the wire');

    await s.ok(
      'operator',
      'cucm_axl_call',
      await s.plan('operator', 'cucm_axl_call', {
        host: host(),
        operation: 'updatePhone',
        args: { name: 'SEP00E2E0000001', description: 'updated' },
      }),
    );
    assert.equal(devices.findBy('name', 'SEP00E2E0000001')?.description, 'updated');

    const got = await s.ok('auditor', 'cucm_axl_call', {
      host: host(),
      operation: 'getPhone',
      args: { name: 'SEP00E2E0000001' },
    });
    assert.equal(
      (got.result as { return: { phone: { description: string } } }).return.phone.description,
      'updated',
    );

    const auditorWrite = await s.fails('auditor', 'cucm_axl_call', {
      host: host(),
      operation: 'removePhone',
      args: { name: 'SEP00E2E0000001' },
    });
    assert.equal(auditorWrite.error, 'ProfilePermissionError');
    assert.ok(devices.findBy('name', 'SEP00E2E0000001'), 'a refused call changes nothing');

    await s.ok(
      'operator',
      'cucm_axl_call',
      await s.plan('operator', 'cucm_axl_call', {
        host: host(),
        operation: 'removePhone',
        args: { name: 'SEP00E2E0000001' },
      }),
    );
    assert.equal(devices.findBy('name', 'SEP00E2E0000001'), undefined);

    const actions = actionOutcomes(s.auditSince(mark)).filter((r) => r.tool_name === 'cucm_axl_call');
    assert.deepEqual(
      actions.map((r) => [r.client, r.result, r.host]),
      [
        ['operator1', 'ALLOWED', host()], // addPhone: preview, then confirmed
        ['operator1', 'ALLOWED', host()],
        ['operator1', 'ALLOWED', host()], // updatePhone
        ['operator1', 'ALLOWED', host()],
        ['auditor1', 'ALLOWED', host()],
        ['auditor1', 'DENIED', host()],
        ['operator1', 'ALLOWED', host()], // removePhone
        ['operator1', 'ALLOWED', host()],
      ],
    );
  });

  it('an AXL fault is AXLError with the node code and message', async () => {
    const r = await s.fails('auditor', 'cucm_axl_call', {
      host: host(),
      operation: 'getPhone',
      args: { name: 'SEPDOESNOTEXIST' },
    });
    assert.equal(r.error, 'AXLError');
    assert.match(r.message, /getPhone failed: \d+ /);
  });

  it('the operator may not run executeSQLUpdate (allowlist deny) and nothing reaches the node', async () => {
    const before = s.lab.state.log.requests.length;
    const r = await s.fails('operator', 'cucm_axl_call', {
      host: host(),
      operation: 'executeSQLUpdate',
      args: { sql: "update device set description = 'x'" },
    });
    assert.equal(r.error, 'ProfilePermissionError');
    assert.equal(s.lab.state.log.requests.length, before);
  });

  it('list operations page with first and skip, and read on with a cursor under a byte budget', async () => {
    const args = { searchCriteria: { name: 'SEP%' }, returnedTags: { name: '', model: '' } };
    const page = await s.ok('auditor', 'cucm_axl_call', {
      host: host(),
      operation: 'listPhone',
      args,
      skip: 2,
      first: 5,
    });
    assert.equal(page.count, 5);
    assert.equal(page.complete, false);

    const whole = await s.ok('auditor', 'cucm_axl_call', { host: host(), operation: 'listPhone', args });
    assert.equal(whole.complete, true);
    const total = whole.count as number;
    assert.ok(total >= 124, `${total} phones`);

    const names: string[] = [];
    let cursor: string | undefined;
    let parts = 0;
    do {
      const r = await s.ok('auditor', 'cucm_axl_call', {
        host: host(),
        operation: 'listPhone',
        args,
        max_bytes: 4096,
        ...(cursor ? { cursor } : {}),
      });
      names.push(...(r.rows as { name: string }[]).map((p) => p.name));
      cursor = r.cursor as string | undefined;
      parts++;
    } while (cursor);
    assert.ok(parts > 1, 'the budget cut the answer');
    assert.equal(names.length, total);
    assert.equal(new Set(names).size, total, 'no row twice, none lost');

    const other = await s.fails('auditor', 'cucm_axl_call', {
      host: host(),
      operation: 'listPhone',
      args: { searchCriteria: { name: 'X%' }, returnedTags: { name: '' } },
      cursor: (
        await s.ok('auditor', 'cucm_axl_call', {
          host: host(),
          operation: 'listPhone',
          args,
          max_bytes: 4096,
        })
      ).cursor as string,
    });
    assert.equal(other.error, 'BAD_REQUEST');
    const forged = await s.fails('auditor', 'cucm_axl_call', {
      host: host(),
      operation: 'listPhone',
      args,
      cursor: 'not-a-cursor',
    });
    assert.equal(forged.error, 'BAD_REQUEST');
  });

  it('executeSQLQuery is read in chunks when the node says the answer is too large', async () => {
    const sql = 'select name, description from device';
    const before = s.lab.state.log.requests.length;
    const r = await s.ok('auditor', 'cucm_axl_call', {
      host: host(),
      operation: 'executeSQLQuery',
      args: { sql },
      max_bytes: 1024 * 1024,
    });
    assert.equal(r.complete, true);
    const rows = r.rows as { name: string }[];
    assert.equal(rows.length, s.lab.state.cucm.db.table('device').size);
    assert.ok(s.lab.state.log.requests.length - before > 2, 'the node was asked in several chunks');
  });

  it('a single answer larger than the budget is cut with a cursor and reads back whole', async () => {
    const args = { name: 'SEP0A1B2C3D4E01' };
    const whole = await s.ok('auditor', 'cucm_axl_call', { host: host(), operation: 'getPhone', args });
    const expected = JSON.stringify(whole.result);
    assert.ok(expected.length > 1024, `getPhone answer is ${expected.length} chars`);
    let text = '';
    let parts = 0;
    let cursor: string | undefined;
    let r: Record<string, unknown>;
    do {
      r = await s.ok('auditor', 'cucm_axl_call', {
        host: host(),
        operation: 'getPhone',
        args,
        max_bytes: 512,
        ...(cursor ? { cursor } : {}),
      });
      text += String(r.partial_json);
      parts++;
      cursor = r.cursor as string | undefined;
    } while (cursor);
    assert.equal(r.complete, true);
    assert.ok(parts >= 2, `${parts} parts`);
    assert.equal(text, expected);
    // Another client cannot read it.
    const first = await s.ok('auditor', 'cucm_axl_call', {
      host: host(),
      operation: 'getPhone',
      args,
      max_bytes: 512,
    });
    const stolen = await s.fails('operator', 'cucm_axl_call', {
      host: host(),
      operation: 'getPhone',
      args,
      cursor: first.cursor as string,
    });
    assert.equal(stolen.error, 'NOT_FOUND');
  });

  it('a call before any schema is cached names the download tool', async () => {
    // A fresh IM&P-less state: the admin's cache is shared, so use a version nobody downloaded.
    const r = await s.fails('auditor', 'cucm_list_axl_operations', { version: '9.1' });
    assert.equal(r.error, 'BAD_REQUEST');
    assert.match(r.message, /cucm_download_axl_toolkit/);
  });
});
