// Audit first, on a really full disk: the state directory lives on its own small tmpfs, which the test
// fills. A tool call whose audit record cannot be written is refused before it reaches the node; once
// space is back, calls go through again and the audit log holds only whole lines.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { prepareCucm, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

/** Mounts a fresh tmpfs of `size`; undefined (with the reason printed) where mounting is not allowed. */
function mountTmpfs(size: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'ucmcp-fullfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `# skipped: cannot mount a tmpfs here (${(err as Error).message.split('\n')[0]}); ` +
        'test/reliability/audit-first/file-size-limit.test.ts covers audit-first without privileges',
    );
    return undefined;
  }
}

/** Writes `path` until the filesystem refuses: 1 MiB chunks, then smaller, down to single bytes. */
function fillDisk(path: string): number {
  const fd = openSync(path, 'w');
  let total = 0;
  try {
    for (let chunk = 1 << 20; chunk >= 1; chunk >>= 2) {
      const buf = Buffer.alloc(chunk, 0x2e);
      for (;;) {
        try {
          total += writeSync(fd, buf);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return total;
}

const phone = (name: string): Record<string, unknown> => ({
  phone: {
    name,
    product: 'Cisco 8865',
    class: 'Phone',
    protocol: 'SIP',
    devicePoolName: 'Default',
  },
});

/**
 * The error code of a refused call: the tool's own answer when the tool runner refused it, or the HTTP
 * answer when the request's authentication could not be recorded (AUTH_OK is audited per request).
 */
async function refusal(s: ProductStack, tool: string, args: Record<string, unknown>): Promise<string> {
  try {
    const r = await s.mcp.operator.call(tool, args);
    return r.isError ? (r.structuredContent as { error: string }).error : 'ALLOWED';
  } catch (err) {
    const m = /"error":"([A-Z_]+)"/.exec((err as Error).message);
    return m?.[1] ?? `transport: ${(err as Error).message}`;
  }
}

const mount = mountTmpfs('48m');

describe('audit first on a full disk', { skip: mount === undefined }, () => {
  let s: ProductStack;
  const dir = mount as string;
  const filler = join(dir, 'filler.bin');
  const host = (): string => s.node('cucm').name;

  before(async () => {
    s = await startProductStack({ stateDir: dir });
    await prepareCucm(s);
  });
  after(async () => {
    await s?.stop();
    try {
      execFileSync('umount', [dir], { stdio: 'pipe' });
    } catch {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses every call, before the node hears of it, until space is back', async () => {
    await s.ok('operator', 'cucm_get_version', { host: host() });
    assert.ok(fillDisk(filler) > 0);

    // The audit log's last page may still take a few lines; then every call is refused.
    let accepted = 0;
    for (;;) {
      const code = await refusal(s, 'cucm_get_version', { host: host() });
      if (code !== 'ALLOWED') {
        assert.equal(code, 'AUDIT_UNAVAILABLE');
        break;
      }
      accepted++;
      assert.ok(accepted < 200, 'a full disk must refuse tool calls');
    }

    const sent = s.lab.state.log.requests.length;
    const devices = s.lab.state.cucm.db.table('device');
    const refused = await refusal(s, 'cucm_axl_call', {
      host: host(),
      operation: 'addPhone',
      args: phone('SEP00FULL000001'),
    });
    assert.equal(refused, 'AUDIT_UNAVAILABLE');
    assert.equal(s.lab.state.log.requests.length, sent, 'nothing was sent to the node');
    assert.equal(devices.findBy('name', 'SEP00FULL000001'), undefined);

    rmSync(filler);
    // The operator confirms each change (writes: confirm): previewed, then sent with the plan_id.
    const add = { host: host(), operation: 'addPhone', args: phone('SEP00FULL000002') };
    const added = await s.ok('operator', 'cucm_axl_call', await s.plan('operator', 'cucm_axl_call', add));
    assert.ok(added);
    assert.ok(devices.findBy('name', 'SEP00FULL000002'));

    const lines = readFileSync(join(dir, 'logs', 'audit.log'), 'utf8').split('\n');
    assert.equal(lines.pop(), '', 'the log ends with a whole line');
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const adds = records.filter((r) => r.event === 'ACTIONS' && r.tool_name === 'cucm_axl_call');
    assert.deepEqual(
      adds.map((r) => r.status),
      ['STARTED', 'ALLOWED', 'STARTED', 'ALLOWED'],
      'the refused call left no record; the preview and the change each have their intent and outcome',
    );
    assert.equal(adds[0]?.call_id, adds[1]?.call_id);
    assert.equal(adds[2]?.call_id, adds[3]?.call_id);
    assert.equal(typeof adds[3]?.exec_time_ms, 'number');
  });
});
