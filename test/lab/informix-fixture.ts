// A small database shaped like CUCM's device / line tables, shared by the Informix SQL tests.
import assert from 'node:assert/strict';
import { Database, DbError } from '../../lab/informix/database.ts';

export function lineDb(): Database {
  const d = new Database([
    { name: 'routepartition', columns: ['pkid', 'name', 'description'], unique: [['name']] },
    { name: 'typemodel', columns: ['enum', 'name'], readOnly: true },
    {
      name: 'device',
      columns: ['pkid', 'name', 'description', 'tkmodel', 'fkcallingsearchspace'],
      unique: [['name']],
    },
    {
      name: 'numplan',
      columns: ['pkid', 'dnorpattern', 'fkroutepartition', 'tkpatternusage', 'alertingname'],
      unique: [['dnorpattern', 'fkroutepartition']],
      references: { fkroutepartition: { table: 'routepartition' } },
    },
    {
      name: 'devicenumplanmap',
      columns: ['pkid', 'fkdevice', 'fknumplan', 'numplanindex', 'label'],
      references: {
        fkdevice: { table: 'device', onDelete: 'cascade' },
        fknumplan: { table: 'numplan', onDelete: 'cascade' },
      },
    },
  ]);
  const internal = d.insert('routepartition', { pkid: 'pt-int', name: 'PT_Internal', description: 'lines' });
  d.insert('routepartition', { pkid: 'pt-empty', name: 'PT_Empty', description: null });
  const models: [string, string][] = [
    ['36670', 'Cisco 8845'],
    ['36213', 'Cisco 7841'],
    ['503', 'Cisco Unified Client Services Framework'],
  ];
  // typemodel is read-only for SQL, not for the seed.
  for (const [e, name] of models) d.insert('typemodel', { enum: e, name });
  const devices: [string, string, string, string | null][] = [
    ['dev-1', 'SEP000000000001', 'Alice desk', '36670'],
    ['dev-2', 'SEP000000000002', 'Bob desk', '36213'],
    ['dev-3', 'CSFCAROL', 'Carol soft', '503'],
    ['dev-4', 'SEP000000000004', 'lobby', '36213'],
  ];
  for (const [pkid, name, description, tkmodel] of devices)
    d.insert('device', { pkid, name, description, tkmodel, fkcallingsearchspace: null });
  const lines: [string, string, string | null, string, string | null][] = [
    ['np-1', '1001', internal.pkid ?? null, '2', 'Alice'],
    ['np-2', '1002', internal.pkid ?? null, '2', 'Bob'],
    ['np-3', '1003', internal.pkid ?? null, '2', null],
    ['np-9', '9.@', null, '5', null],
  ];
  for (const [pkid, dnorpattern, fkroutepartition, tkpatternusage, alertingname] of lines)
    d.insert('numplan', { pkid, dnorpattern, fkroutepartition, tkpatternusage, alertingname });
  const maps: [string, string, string, string][] = [
    ['dev-1', 'np-1', '1', 'Alice 1001'],
    ['dev-1', 'np-3', '2', 'shared'],
    ['dev-2', 'np-2', '1', 'Bob 1002'],
    ['dev-3', 'np-1', '1', 'Alice soft'],
    ['dev-3', 'np-3', '2', 'shared'],
  ];
  for (const [fkdevice, fknumplan, numplanindex, label] of maps)
    d.insert('devicenumplanmap', { fkdevice, fknumplan, numplanindex, label });
  return d;
}

/** The Informix code and message of a failing call. */
export function informixError(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof DbError, String(err));
    return { code: err.code, message: err.message };
  }
  assert.fail('expected an Informix error');
}
