// `show risdb query phone`: the RIS database of a CUCM node, the devices RisPort70 reports too.
import type { RisPhone } from '../facts.ts';
import type { CliCommand, CommandContext, CommandOutput } from './types.ts';
import { failed } from './types.ts';

/** The tables `show risdb query` accepts (CLI Reference Guide: `show risdb list`). */
const TABLES = [
  'phone',
  'cti',
  'ctiextn',
  'cmnode',
  'cmgroup',
  'gateway',
  'sip',
  'h323',
  'mediaresource',
  'huntlist',
  'misc',
  'phonefailed',
  'uone',
  'ctimlist',
];

const COLUMNS = [
  'DeviceName',
  'Descr',
  'Ipaddr',
  'DeviceModel',
  'PhoneProtocol',
  'LoginUserId',
  'RegStatus',
  'StatusReason',
  'RegNode',
  'TimeStamp',
];

function row(p: RisPhone): string {
  return [
    p.name,
    p.description,
    p.ip,
    p.model,
    p.protocol,
    p.user,
    p.status,
    p.statusReason,
    p.node,
    p.timestamp,
  ].join(', ');
}

/**
 * A section per table, a `#` comment line with the column names and a comma-separated row per record,
 * as the risdb dump prints it; the column set here is the subset the lab keeps (the real dump has many
 * more, and their names are not confirmed by a stored source).
 */
function query(ctx: CommandContext, tables: string[]): CommandOutput {
  if (tables.length === 0) return failed(`Usage: show risdb query ${TABLES.join(' ')}`);
  const unknown = tables.filter((t) => !TABLES.includes(t.toLowerCase()));
  if (unknown.length > 0) return failed(`Invalid table name: ${unknown.join(' ')}`);
  const lines: string[] = [];
  for (const t of tables.map((x) => x.toLowerCase())) {
    if (t !== 'phone') {
      lines.push(`-------------------- ${t} --------------------`, `#Number of records: 0`, '');
      continue;
    }
    const phones = ctx.facts.risPhones?.() ?? [];
    lines.push(
      '-------------------- Phone Information --------------------',
      `#Number of records: ${phones.length}`,
      `#${COLUMNS.join(', ')}`,
      ...phones.map(row),
      '',
    );
  }
  return { lines };
}

export const RISDB_COMMANDS: CliCommand[] = [
  {
    words: ['show', 'risdb', 'query'],
    takesArgs: true,
    products: ['cucm'],
    run: (ctx, args) => query(ctx, args),
  },
  {
    words: ['show', 'risdb', 'list'],
    products: ['cucm'],
    run: () => ({ lines: TABLES }),
  },
];
