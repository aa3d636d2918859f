/** `Sat Nov 22 04:10:23 UTC 2025`, the date format of the VOS CLI. */
export function vosDate(d: Date): string {
  const day = d.toUTCString().slice(0, 3);
  const month = d.toUTCString().slice(8, 11);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${day} ${month} ${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/** Two `key : value` pairs per line, as `show network` prints them. */
export function pairs(left: [string, string], right?: [string, string]): string {
  const l = `${left[0].padEnd(11)}: ${left[1]}`;
  return right ? `${l.padEnd(32)}${right[0].padEnd(11)}: ${right[1]}` : l;
}

/** The column layout of `run sql`: headers, a rule of `=`, values padded to the widest cell. */
export function sqlTable(columns: string[], rows: (string | null)[][]): string[] {
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? 'NULL').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join(' ')
      .trimEnd();
  return [
    line(columns),
    line(widths.map((w) => '='.repeat(w))),
    ...rows.map((r) => line(r.map((c) => c ?? 'NULL'))),
  ];
}
