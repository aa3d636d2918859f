// The checks of `promtool check metrics` (Prometheus' promlint), plus the exposition-format rules its
// parser enforces, over a text exposition. Written out here so the rules run everywhere, with or
// without a promtool binary on the machine.

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const CAMEL = /[a-z][A-Z]/;
const BASE_UNITS = [
  'amperes',
  'bytes',
  'celsius',
  'grams',
  'joules',
  'kelvin',
  'meters',
  'metres',
  'seconds',
  'volts',
];
const UNIT_PREFIXES = [
  'pico',
  'nano',
  'micro',
  'milli',
  'centi',
  'deci',
  'deca',
  'hecto',
  'kilo',
  'kibi',
  'mega',
  'mebi',
  'giga',
  'gibi',
  'tera',
  'tebi',
  'peta',
  'pebi',
];
// promlint's list of abbreviations, each a whole `_`-separated token of the name.
const ABBREVIATIONS = ['s', 'ms', 'us', 'ns', 'sec', 'b', 'kb', 'mb', 'gb', 'tb', 'pb', 'm', 'h', 'd'];
const TYPES = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];

interface Sample {
  name: string;
  labels: Map<string, string>;
  value: number;
}

interface Family {
  name: string;
  type?: string;
  help?: string;
  samples: Sample[];
}

/** The problems found, one line each (`<metric>: <problem>`); empty when the exposition is clean. */
export function lintExposition(text: string): string[] {
  const problems: string[] = [];
  const families = new Map<string, Family>();
  const family = (name: string): Family => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, samples: [] }));
    return f;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      const f = family(meta[2] as string);
      const key = meta[1] === 'HELP' ? 'help' : 'type';
      if (f[key] !== undefined) problems.push(`${f.name}: second # ${meta[1]} line`);
      f[key] = meta[3] ?? '';
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = parseSample(line);
    if (!sample) {
      problems.push(`unparsable line: ${line}`);
      continue;
    }
    family(familyOf(sample.name, families)).samples.push(sample);
  }
  for (const f of families.values()) problems.push(...lintFamily(f).map((p) => `${f.name}: ${p}`));
  return problems;
}

function parseSample(line: string): Sample | undefined {
  const m = /^([^\s{]+)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/.exec(line);
  if (!m) return undefined;
  const labels = new Map<string, string>();
  const body = m[2] ?? '';
  const re = /\s*([^=,\s]+)="((?:[^"\\]|\\.)*)"\s*,?/gy;
  let lm: RegExpExecArray | null;
  let consumed = 0;
  while ((lm = re.exec(body))) {
    labels.set(lm[1] as string, lm[2] as string);
    consumed = re.lastIndex;
  }
  if (consumed !== body.length) return undefined;
  const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
  if (Number.isNaN(value) && m[3] !== 'NaN') return undefined;
  return { name: m[1] as string, labels, value };
}

/** A histogram's `x_bucket`, `x_sum` and `x_count` samples belong to family `x` when `x` was declared. */
function familyOf(sample: string, families: Map<string, Family>): string {
  const m = /^(.*)_(bucket|sum|count)$/.exec(sample);
  const base = m?.[1];
  if (base !== undefined && ['histogram', 'summary'].includes(families.get(base)?.type ?? '')) return base;
  return sample;
}

function lintFamily(f: Family): string[] {
  const p: string[] = [];
  const { name, type } = f;
  if (!NAME.test(name)) p.push('invalid metric name');
  if (name.includes(':')) p.push('metric names should not contain ":"');
  if (CAMEL.test(name)) p.push('metric names should be written in snake_case, not camelCase');
  if (type === undefined) p.push('no # TYPE line');
  else if (!TYPES.includes(type)) p.push(`unknown type ${type}`);
  if (f.help === undefined || f.help.trim() === '') p.push('no help text');

  const isCounter = type === 'counter';
  if (isCounter && !name.endsWith('_total')) p.push('counter metrics should have "_total" suffix');
  if (!isCounter && name.endsWith('_total')) p.push('non-counter metrics should not have "_total" suffix');
  if (type !== 'histogram' && type !== 'summary') {
    for (const s of ['_count', '_sum', '_bucket'])
      if (name.endsWith(s)) p.push(`non-histogram and non-summary metrics should not have "${s}" suffix`);
  }
  const tokens = name.split('_');
  for (const t of TYPES)
    if (tokens.slice(1).includes(t)) p.push(`metric name should not include type '${t}'`);
  for (const t of tokens) {
    if (ABBREVIATIONS.includes(t)) p.push(`metric names should not contain abbreviated units ("${t}")`);
    for (const unit of BASE_UNITS)
      for (const prefix of UNIT_PREFIXES)
        if (t === prefix + unit) p.push(`use base unit "${unit}" instead of "${t}"`);
  }
  for (const s of f.samples) {
    for (const l of s.labels.keys()) {
      if (!LABEL.test(l) || l.startsWith('__')) p.push(`invalid label name ${l}`);
      if (CAMEL.test(l)) p.push(`label names should be written in snake_case, not camelCase (${l})`);
      if (l === 'le' && type !== 'histogram') p.push('non-histogram metrics should not have "le" label');
      if (l === 'quantile' && type !== 'summary')
        p.push('non-summary metrics should not have "quantile" label');
    }
    if (type !== 'histogram' && type !== 'summary' && s.name !== name)
      p.push(`sample ${s.name} outside its family`);
  }
  if (type === 'histogram') p.push(...lintHistogram(f));
  return p;
}

/** Per label set: only _bucket/_sum/_count, cumulative buckets ending at +Inf, +Inf equal to _count. */
function lintHistogram(f: Family): string[] {
  const p: string[] = [];
  const series = new Map<string, { buckets: [number, number][]; sum?: number; count?: number }>();
  for (const s of f.samples) {
    const rest = [...s.labels].filter(([k]) => k !== 'le');
    const key = JSON.stringify(rest.sort());
    let h = series.get(key);
    if (!h) series.set(key, (h = { buckets: [] }));
    if (s.name === `${f.name}_bucket`) {
      const le = s.labels.get('le');
      const bound = le === '+Inf' ? Infinity : Number(le);
      if (le === undefined || Number.isNaN(bound)) p.push(`bucket without a valid "le" (${le ?? 'none'})`);
      else h.buckets.push([bound, s.value]);
    } else if (s.name === `${f.name}_sum`) h.sum = s.value;
    else if (s.name === `${f.name}_count`) h.count = s.value;
    else p.push(`sample ${s.name} is not a _bucket, _sum or _count of the histogram`);
  }
  for (const [key, h] of series) {
    const at = key === '[]' ? '' : ` ${key}`;
    h.buckets.sort((a, b) => a[0] - b[0]);
    if (h.buckets.at(-1)?.[0] !== Infinity) p.push(`no +Inf bucket${at}`);
    for (let i = 1; i < h.buckets.length; i++)
      if ((h.buckets[i] as [number, number])[1] < (h.buckets[i - 1] as [number, number])[1])
        p.push(`buckets are not cumulative${at}`);
    if (h.sum === undefined) p.push(`no _sum${at}`);
    if (h.count === undefined) p.push(`no _count${at}`);
    else if (h.buckets.at(-1)?.[1] !== h.count) p.push(`+Inf bucket differs from _count${at}`);
  }
  return p;
}
