import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axlCallSummary, maskSqlLiterals } from '../../../../plugins/_shared/tools/axl-summary.ts';

describe('axlCallSummary: what an AXL call does, without its data', () => {
  it('names identifying fields with their value, every other field by name only, one level deep', () => {
    assert.deepEqual(axlCallSummary('getPhone', { name: 'SEP001122334455' }), {
      operation: 'getPhone',
      detail: 'args: name=SEP001122334455',
    });
    assert.deepEqual(
      axlCallSummary('addAppUser', {
        appUser: { userid: 'svc1', password: 'Hunter2!', presenceGroupName: 'x' },
      }),
      { operation: 'addAppUser', detail: 'args: appUser{userid=svc1, password, presenceGroupName}' },
    );
    assert.deepEqual(axlCallSummary('getCCMVersion', {}), { operation: 'getCCMVersion' });
  });

  it('keeps the shape of SQL and masks every literal, closed or not', () => {
    assert.equal(
      maskSqlLiterals(`select * from enduser where pin = '1234' and name = "o""k" and x = 'it''s'`),
      `select * from enduser where pin = '…' and name = "…" and x = '…'`,
    );
    assert.equal(maskSqlLiterals(`update x set a = 'unterminated secret`), `update x set a = '…'`);
    assert.deepEqual(axlCallSummary('executeSQLUpdate', { sql: "update credential set x='s3cret'" }), {
      operation: 'executeSQLUpdate',
      detail: "sql: update credential set x='…'",
    });
  });
});
