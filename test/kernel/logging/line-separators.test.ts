// A JSON-lines record stays one line for every reader: hostile characters sent as a tool argument reach
// audit.log and app.log through the real server and come out escaped, and each file splits into the same
// records whatever the line-breaking convention (LF, CR, the Unicode separators, NEL, Python's
// splitlines, a Latin-1 decoder).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { asciiJson, toJsonLine } from '../../../kernel/logging/json-line.ts';
import { RotatingFile } from '../../../kernel/logging/rotating-file.ts';
import { redactLogLine } from '../../../kernel/support/log-redaction.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';

/** Every character some reader treats as the end of a line, and lone surrogates (no UTF-8 form). */
const BREAKERS = [
  '\n',
  '\r',
  '\r\n',
  '\v',
  '\f',
  '\x1c',
  '\x1d',
  '\x1e',
  '\x85',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udfff',
];
const HOSTILE = `cuc${BREAKERS.join('x')}{"event":"FORGED"}\u00c5\u2026\u200e-pub`;

/** Splits text by one convention; a record that stays whole gives the same count for all of them. */
const CONVENTIONS: Record<string, (text: string) => string[]> = {
  lf: (t) => t.split('\n'),
  cr: (t) => t.split(/\r\n|\r|\n/),
  // Python's str.splitlines() set; finding these separators is the point.
  // eslint-disable-next-line no-control-regex
  unicode: (t) => t.split(/\r\n|[\n\v\f\r\x1c-\x1e\x85\u2028\u2029]/),
  latin1: (t) =>
    Buffer.from(t, 'utf8')
      .toString('latin1')
      .split(/[\n\r\x85]/),
};

function assertOneRecordPerLine(file: string): Record<string, unknown>[] {
  const text = readFileSync(file, 'utf8');
  assert.match(text, /^[\x20-\x7e\n]*$/, `${file}: printable ASCII and newlines only`);
  const counts = Object.fromEntries(Object.entries(CONVENTIONS).map(([k, split]) => [k, split(text).length]));
  for (const n of Object.values(counts)) assert.equal(n, counts.lf, `${file}: ${JSON.stringify(counts)}`);
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('JSON lines stay single lines', () => {
  it('toJsonLine and asciiJson escape every separator and round-trip the value', () => {
    const value = { host: HOSTILE, nested: [HOSTILE, { k: '\u2028' }], emoji: '\u{1f600}' };
    const line = toJsonLine(value);
    assert.match(line, /^[\x20-\x7e]+$/);
    assert.deepEqual(JSON.parse(line), value);
    assert.equal(asciiJson('"\u2028"'), '"\\u2028"');
  });

  it('the rotating file escapes a raw separator a caller left in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ucmcp-lines-'));
    try {
      const file = new RotatingFile({ path: join(dir, 'x.log'), maxBytes: 1 << 20, maxFiles: 2 });
      file.writeLine(`{"a":"${BREAKERS.join('')}"}`);
      await file.close();
      const [rec] = assertOneRecordPerLine(join(dir, 'x.log'));
      assert.equal(rec?.a, BREAKERS.join(''));
      const audit = new AuditLog({ path: join(dir, 'audit.log'), maxBytes: 1 << 20, maxFiles: 2 });
      audit.write({ event: 'SERVER', status: 'OK', reason: HOSTILE });
      await audit.close();
      assert.equal(assertOneRecordPerLine(join(dir, 'audit.log'))[0]?.reason, HOSTILE);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a support bundle copy of a log line is escaped the same way', () => {
    const shown = redactLogLine(JSON.stringify({ host: HOSTILE }));
    assert.match(shown, /^[\x20-\x7e]+$/);
    assert.equal((JSON.parse(shown) as { host: string }).host, HOSTILE);
    assert.match(redactLogLine(`plain ${HOSTILE}`), /^[\x20-\x7e]+$/);
  });
});

describe('hostile tool arguments through the real server', () => {
  let k: TestKernel;
  let c: ConnectedClient;
  before(async () => {
    k = await startTestKernel({
      license: { products: ['cuc'] },
      env: { AUTH_CLIENTS: 'op:operator:cuc', AUTH_BCRYPT_COST: '4', LOGGING_LEVEL: 'info' },
    });
    c = await connectMcp(k, startupToken(k.stateDir, 'op'));
  });
  after(async () => {
    await c.close();
    await k.stop();
  });

  it('reach audit.log and app.log escaped: one record per line, the value intact', async () => {
    // cuc_cupi_call logs a write (app.log) and the runner audits the host (audit.log) before the
    // missing credential stops it.
    const r = await c.call('cuc_cupi_call', {
      host: HOSTILE,
      method: 'PUT',
      path: '/vmrest/users/0d3a1b2c',
      body: { DisplayName: HOSTILE },
    });
    assert.equal(r.isError, true);
    // An unknown tool's name is audited as sent.
    await assert.rejects(c.call(`no_such_tool_${HOSTILE}`, { host: HOSTILE }), /-32602/);

    const audit = assertOneRecordPerLine(join(k.stateDir, 'logs', 'audit.log'));
    const actions = audit.filter((x) => x.event === 'ACTIONS');
    assert.equal(actions.filter((x) => x.tool_name === 'cuc_cupi_call').length, 2, 'STARTED and outcome');
    assert.ok(
      actions.some((x) => x.tool_name === `no_such_tool_${HOSTILE}`),
      'the hostile name reached audit.log and parses back intact',
    );
    assert.ok(!audit.some((x) => x.event === 'FORGED'), 'no forged record');

    const app = assertOneRecordPerLine(join(k.stateDir, 'logs', 'app.log'));
    assert.ok(
      app.some((x) => x.msg === 'CUPI write' && x.host === HOSTILE),
      'the hostile host reached app.log and parses back intact',
    );
  });
});
