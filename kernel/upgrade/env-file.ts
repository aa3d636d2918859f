// A line-level model of a .env file: where each assignment starts and ends, and everything else kept as
// text. The upgrade rewrites single assignments in place and appends new ones, so the operator's comments,
// order and formatting survive byte for byte (a parse-and-reserialise round trip would lose them).
import type { EnvDefault } from './format.ts';

export interface EnvAssignment {
  key: string;
  /** First line of the assignment (0-based). */
  start: number;
  /** One past its last line: a quoted value may span lines, as dotenv allows. */
  end: number;
  /** The text up to and including `=`, e.g. `export PROJECT_NAME=`. */
  prefix: string;
  /** The raw value text after `=` (all of its lines joined by \n), trimmed. */
  value: string;
}

export interface EnvDocument {
  lines: string[];
  eol: '\n' | '\r\n';
  assignments: EnvAssignment[];
}

const ASSIGNMENT = /^(\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=)(.*)$/;

export function parseEnvText(text: string): EnvDocument {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const body = text.endsWith(eol) ? text.slice(0, -eol.length) : text;
  const lines = body === '' ? [] : body.split(eol);
  const assignments: EnvAssignment[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = ASSIGNMENT.exec(lines[i] as string);
    if (!m) continue;
    const prefix = m[1] as string;
    const first = (m[3] as string).trimStart();
    let end = i + 1;
    const quote = first[0];
    if ((quote === '"' || quote === "'" || quote === '`') && !closes(first.slice(1), quote)) {
      // dotenv reads a quoted value across lines up to its closing quote; so must we, or a line inside
      // it that looks like KEY=... would be taken for a setting.
      while (end < lines.length && !closes(lines[end] as string, quote)) end++;
      end = Math.min(end + 1, lines.length);
    }
    const value = [m[3] as string, ...lines.slice(i + 1, end)].join('\n').trim();
    assignments.push({ key: m[2] as string, start: i, end, prefix, value });
    i = end - 1;
  }
  return { lines, eol, assignments };
}

function closes(text: string, quote: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return true;
  }
  return false;
}

export function renderEnv(doc: Pick<EnvDocument, 'lines' | 'eol'>): string {
  return doc.lines.length === 0 ? '' : `${doc.lines.join(doc.eol)}${doc.eol}`;
}

/**
 * The settings documented in a .env.example: every key with its default and the comment lines directly
 * above it (section banners like `# --- Logging ---` left out: they describe a group, not the key).
 */
export function envDefaultsFromExample(text: string): EnvDefault[] {
  const doc = parseEnvText(text);
  const seen = new Set<string>();
  const out: EnvDefault[] = [];
  for (const a of doc.assignments) {
    if (seen.has(a.key) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.key) || a.end - a.start !== 1) continue;
    seen.add(a.key);
    const comment: string[] = [];
    for (let i = a.start - 1; i >= 0; i--) {
      const line = (doc.lines[i] as string).trim();
      if (!line.startsWith('#') || /^#\s*---.*---\s*$/.test(line)) break;
      comment.unshift(line.replace(/^#\s?/, ''));
    }
    out.push({ key: a.key, value: a.value, comment });
  }
  return out;
}
