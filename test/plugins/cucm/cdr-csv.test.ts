// CDR/CMR flat files read into records without a node: the header and types lines, quoted strings with
// doubled quotes and commas, and hostile content (an unclosed quote, a line far too long, a row of the
// wrong width, formula-like cells, more rows than asked); cause values decoded from the Q.850 table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeCause } from '../../../plugins/_shared/serviceability/cdr/causes.ts';
import { parseCdrCsv, spreadsheetSafe, splitLine } from '../../../plugins/_shared/serviceability/cdr/csv.ts';
import { shapeRow } from '../../../plugins/_shared/serviceability/cdr/rows.ts';

const HEAD =
  '"cdrRecordType","globalCallID_callId","dateTimeOrigination","callingPartyNumber","origCause_value","destCause_value","dateTimeConnect","duration","origDeviceName"\nINTEGER,INTEGER,INTEGER,VARCHAR(50),INTEGER,INTEGER,INTEGER,INTEGER,VARCHAR(129)\n';
const limits = { maxRows: 100, maxLineChars: 2000, maxFieldChars: 40 };

describe('CDR flat files', () => {
  it('splits quoted fields with commas and doubled quotes; refuses an unclosed quote', () => {
    assert.deepEqual(splitLine('1,"a,b","say ""hi""",,x'), ['1', 'a,b', 'say "hi"', '', 'x']);
    assert.equal(splitLine('1,"open'), undefined);
    assert.equal(splitLine('1,a"b'), undefined);
  });

  it('reads records under the header; hostile lines are skipped and counted, never guessed', () => {
    const text =
      HEAD +
      '1,101,1764140400,"1001",16,0,1764140404,35,"SEP0A1B2C3D4E01"\n' +
      '1,102,1764140460,"=HYPERLINK(""http://x"")",0,17,0,0,"+SEP"\n' +
      `1,103,1764140460,"${'9'.repeat(5000)}",0,17,0,0,"SEP"\n` +
      '1,104,"unclosed\n' +
      '1,105,1764140460\n' +
      `1,106,1764140460,"${'7'.repeat(100)}",0,19,0,0,"@SUM(A1)"\r\n`;
    const t = parseCdrCsv(text, limits);
    assert.deepEqual(t.skipped, { too_long: 1, malformed: 1, wrong_width: 1 });
    assert.deepEqual(
      t.rows.map((r) => r.globalCallID_callId),
      ['101', '102', '106'],
    );
    // Formula-like cells stay data (text), and a long one is cut.
    assert.equal(t.rows[1]?.callingPartyNumber, '=HYPERLINK("http://x")');
    assert.equal(t.rows[2]?.callingPartyNumber, `${'7'.repeat(40)}…`);
    assert.equal(spreadsheetSafe('=HYPERLINK("http://x")'), `'=HYPERLINK("http://x")`);
    assert.equal(spreadsheetSafe('@SUM(A1)'), `'@SUM(A1)`);
    assert.equal(spreadsheetSafe('1001'), '1001');
  });

  it('stops at maxRows and says so', () => {
    const rows = Array.from({ length: 10 }, (_, i) => `1,${i},0,"1",16,0,0,0,"SEP"`).join('\n');
    const t = parseCdrCsv(HEAD + rows, { ...limits, maxRows: 4 });
    assert.equal(t.rows.length, 4);
    assert.equal(t.truncated, true);
  });

  it('a file without a header line is a coded error', () => {
    assert.throws(() => parseCdrCsv('<html>oops</html>\n', limits), { code: 'SERVICEABILITY_ERROR' });
    assert.throws(() => parseCdrCsv('', limits), { code: 'SERVICEABILITY_ERROR' });
  });

  it('decodes Q.850 causes; a value outside the table is said to be, not guessed', () => {
    assert.deepEqual(decodeCause('16'), { value: 16, meaning: 'Normal call clearing' });
    assert.deepEqual(decodeCause('17'), { value: 17, meaning: 'User busy' });
    assert.equal(decodeCause('393216')?.meaning, 'not in the Q.850 table this server carries');
    assert.equal(decodeCause(''), undefined);
    assert.equal(decodeCause('=1+1'), undefined);
  });

  it('shapes a record: times as ISO 8601 (0 = not set), causes decoded, integers as numbers', () => {
    const t = parseCdrCsv(HEAD + '1,101,1764140400,"1001",16,0,0,35,"SEP0A1B2C3D4E01"\n', limits);
    const types = Object.fromEntries(t.columns.map((c, k) => [c, t.types[k] ?? '']));
    assert.deepEqual(shapeRow('cdr', t.rows[0] as Record<string, string>, types, false), {
      globalCallID_callId: 101,
      dateTimeOrigination: '2025-11-26T07:00:00.000Z',
      dateTimeConnect: null,
      duration: 35,
      callingPartyNumber: '1001',
      origDeviceName: 'SEP0A1B2C3D4E01',
      origCause_value: { value: 16, meaning: 'Normal call clearing' },
      destCause_value: { value: 0, meaning: 'No error' },
    });
  });
});
