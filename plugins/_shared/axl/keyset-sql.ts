// Keyset pages for executeSQLQuery: a one-table SELECT is read in pkid order, each chunk asking for the
// rows after the last pkid returned (`WHERE (<the caller's condition>) AND pkid > '<last>' ORDER BY
// pkid`), so rows inserted or deleted anywhere between two chunks never shift the others. Every CUCM
// table the AXL SQL users page (device, numplan, enduser, ...) has a unique `pkid` column (Cisco's data
// dictionary). Statements this recogniser is not sure about (joins, subqueries, aggregates, DISTINCT,
// GROUP BY, an ORDER BY of the caller's own, a select list naming pkid in another way) are left to the
// offset reader with shift detection (shift-guard.ts).

export interface KeysetPlan {
  /** The row property holding the key (AXL returns column names in lower case). */
  readonly key: 'pkid';
  /** pkid was added to the select list by the plan: remove it from the rows returned. */
  readonly strip: boolean;
  /** The statement for the rows after `after` (all rows when undefined), at most `first` when given. */
  sql(after: string | undefined, first: number | undefined): string;
}

const WORDS_REFUSED =
  /\b(join|outer|order|group|having|union|intersect|minus|except|into|skip|first|limit|distinct|unique|select\s.*\bselect)\b/is;
const SHAPE =
  /^\s*select\s+(.+?)\s+from\s+([a-z_][a-z0-9_]*)(?:\s+(?:as\s+)?(?!where\b)([a-z_][a-z0-9_]*))?(?:\s+where\s+(.+?))?\s*;?\s*$/dis;
const KEY_ITEM = /^(?:([a-z_][a-z0-9_]*)\.)?pkid$/i;
/** pkid values are UUIDs; anything else is never put into a statement. */
export const SAFE_KEY = /^[0-9A-Za-z{}-]{1,64}$/;

/** The statement's keyset plan, or undefined when it must be paged by offset. */
export function keysetPlan(sql: string): KeysetPlan | undefined {
  const masked = maskLiterals(sql);
  if (masked === undefined || WORDS_REFUSED.test(masked)) return undefined;
  const m = SHAPE.exec(masked);
  if (!m || m.index !== 0) return undefined;
  const itemsMasked = m[1] as string;
  if (itemsMasked.includes('(')) return undefined;
  const items = itemsMasked.split(',').map((i) => i.trim());
  const alias = m[3];
  const qualifier = alias ?? (m[2] as string);
  let hasKey = false;
  for (const item of items) {
    const k = KEY_ITEM.exec(item);
    if (item === '*' || (k && (k[1] === undefined || k[1].toLowerCase() === qualifier.toLowerCase())))
      hasKey = true;
    else if (/pkid/i.test(item)) return undefined;
    else if (item.endsWith('.*')) return undefined;
  }
  // Positions in the masked text are the same in the original: literals keep their length.
  const original = (group: number): string | undefined => {
    const span = m.indices?.[group];
    return span ? sql.slice(span[0], span[1]) : undefined;
  };
  const selectList = original(1) as string;
  const whereText = original(4);
  const fromText = alias ? `${m[2] as string} ${alias}` : (m[2] as string);
  const keyColumn = alias ? `${alias}.pkid` : 'pkid';
  return {
    key: 'pkid',
    strip: !hasKey,
    sql(after, first) {
      if (after !== undefined && !SAFE_KEY.test(after)) throw new Error('unsafe key');
      const conds = [
        ...(whereText !== undefined ? [`(${whereText})`] : []),
        ...(after !== undefined ? [`${keyColumn} > '${after}'`] : []),
      ];
      return [
        'SELECT',
        ...(first !== undefined ? [`FIRST ${first}`] : []),
        hasKey ? selectList : `${selectList}, ${keyColumn}`,
        'FROM',
        fromText,
        ...(conds.length > 0 ? ['WHERE', conds.join(' AND ')] : []),
        'ORDER BY',
        keyColumn,
      ].join(' ');
    },
  };
}

/** The statement with each quoted literal's content replaced by `x` (same length); undefined if unclosed. */
function maskLiterals(sql: string): string | undefined {
  let out = '';
  for (let i = 0; i < sql.length; i++) {
    const q = sql[i] as string;
    if (q !== "'" && q !== '"') {
      out += q;
      continue;
    }
    out += q;
    let closed = false;
    for (i++; i < sql.length; i++) {
      if (sql[i] === q && sql[i + 1] === q) {
        out += 'xx';
        i++;
      } else if (sql[i] === q) {
        out += q;
        closed = true;
        break;
      } else out += 'x';
    }
    if (!closed) return undefined;
  }
  // Comments could hide anything from this recogniser.
  if (/--|\/\*|\{/.test(out)) return undefined;
  return out;
}
