// What an AXL call does, for its audit records: the operation, and the shape of its arguments without
// their data. Argument values may be secrets (addAppUser's password, updateCredentialPolicy's
// settings, a PIN in SQL), so only identifying fields show a value and SQL keeps no literal.
import type { ToolCallSummary } from '../../../kernel/sdk/index.ts';
import type { Json } from '../axl/schema.ts';

/** Fields that name the object an operation acts on; their (short, text) values are shown. */
const IDENTIFYING = new Set(['name', 'uuid', 'userid', 'pattern', 'dirn', 'newName', 'loginName']);
const MAX_VALUE = 64;
/** Field names listed per object; the kernel bounds the whole text anyway. */
const MAX_FIELDS = 12;

export function axlCallSummary(operation: string, args: Record<string, Json>): ToolCallSummary {
  if (operation.startsWith('executeSQL') && typeof args.sql === 'string')
    return { operation, detail: `sql: ${maskSqlLiterals(args.sql)}` };
  const fields = describeFields(args, 1);
  return fields === '' ? { operation } : { operation, detail: `args: ${fields}` };
}

/**
 * An SQL statement with every string literal replaced by '…': its tables, columns and operators say
 * what was done; the literals are the data, which may be secret (a PIN, a password hash, a name).
 */
export function maskSqlLiterals(sql: string): string {
  return sql.replace(/'(?:[^']|'')*(?:'|$)|"(?:[^"]|"")*(?:"|$)/g, (q) => `${q[0]}…${q[0]}`);
}

/** `name=SEP0011…` for identifying fields, the bare name for others, one level into objects. */
function describeFields(obj: Record<string, Json>, depth: number): string {
  const keys = Object.keys(obj);
  const shown = keys.slice(0, MAX_FIELDS).map((k) => {
    const v = obj[k];
    if (IDENTIFYING.has(k) && (typeof v === 'string' || typeof v === 'number'))
      return `${k}=${String(v).slice(0, MAX_VALUE)}`;
    if (depth > 0 && v !== null && typeof v === 'object' && !Array.isArray(v))
      return `${k}{${describeFields(v, depth - 1)}}`;
    return k;
  });
  if (keys.length > MAX_FIELDS) shown.push(`+${keys.length - MAX_FIELDS} more`);
  return shown.join(', ');
}
