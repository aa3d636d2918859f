// A CDR or CMR flat file read into rows. The format is the CDR Administration Guide's: comma-separated,
// the first line the field names, the second their types (INTEGER, VARCHAR(n), UNIQUEIDENTIFIER), then one
// record per line, strings in double quotes with a quote doubled inside. The file is the node's data and
// may be hostile: every line, field and row count is bounded, a line that does not fit the header is
// skipped and counted, never guessed at, and values are kept as text (a cell beginning with = + - @ is
// data here; whoever writes rows to a spreadsheet must neutralise it: see spreadsheetSafe).
import { ServiceabilityError } from '../../../../kernel/sdk/index.ts';

export interface CsvLimits {
  /** Records read at most; past it the answer says truncated. */
  maxRows: number;
  /** Longest line; a longer one is skipped. */
  maxLineChars: number;
  /** Longest field kept; longer values are cut with an ellipsis. */
  maxFieldChars: number;
}

export const DEFAULT_CSV_LIMITS: CsvLimits = { maxRows: 5000, maxLineChars: 64 * 1024, maxFieldChars: 1024 };

export interface CdrTable {
  columns: string[];
  types: string[];
  rows: Record<string, string>[];
  /** Records left after maxRows. */
  truncated: boolean;
  /** Lines skipped, by reason. */
  skipped: { too_long: number; malformed: number; wrong_width: number };
}

/** One CSV line's fields; undefined when its quotes do not close. */
export function splitLine(line: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return undefined;
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      out.push(value);
      if (i === line.length) return out;
      if (line[i] !== ',') return undefined;
      i++;
    } else {
      const c = line.indexOf(',', i);
      const value = c < 0 ? line.slice(i) : line.slice(i, c);
      if (value.includes('"')) return undefined;
      out.push(value);
      if (c < 0) return out;
      i = c + 1;
    }
  }
}

function cut(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** The file's text read into a table (header, types, records). */
export function parseCdrCsv(text: string, limits: CsvLimits = DEFAULT_CSV_LIMITS): CdrTable {
  const lines = text.split(/\r?\n/);
  const header = splitLine(lines[0] ?? '');
  if (!header || header.length === 0 || header.some((h) => !/^[A-Za-z0-9_]{1,64}$/.test(h)))
    throw new ServiceabilityError('the file does not start with a CDR or CMR header line (field names)');
  const types = splitLine(lines[1] ?? '') ?? [];
  const table: CdrTable = {
    columns: header,
    types: types.length === header.length ? types : [],
    rows: [],
    truncated: false,
    skipped: { too_long: 0, malformed: 0, wrong_width: 0 },
  };
  for (const line of lines.slice(table.types.length > 0 ? 2 : 1)) {
    if (line === '') continue;
    if (line.length > limits.maxLineChars) {
      table.skipped.too_long++;
      continue;
    }
    const fields = splitLine(line);
    if (!fields) {
      table.skipped.malformed++;
      continue;
    }
    if (fields.length !== header.length) {
      table.skipped.wrong_width++;
      continue;
    }
    if (table.rows.length >= limits.maxRows) {
      table.truncated = true;
      break;
    }
    const row: Record<string, string> = {};
    header.forEach((h, k) => {
      row[h] = cut(fields[k] as string, limits.maxFieldChars);
    });
    table.rows.push(row);
  }
  return table;
}

/**
 * A value as a spreadsheet cell that cannot run: a leading = + - @ tab or CR is prefixed with a quote
 * (OWASP's CSV injection advice), so that an exported CDR row stays data.
 */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
