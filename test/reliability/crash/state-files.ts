// Walks a state directory and checks that every file the server wrote is whole, by its format: JSON
// documents parse, JSON-lines logs (and their gzip archives) hold only whole lines, PEM keys and
// certificates load, tokens are JWTs, the vault master secret has its size, and every backup matches its
// sidecar and decrypts with its tag verified. Temporary files of interrupted writes are listed apart:
// they are expected after a kill, and never read by the server.
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { openArchive, verifyArchive } from '../../../kernel/backup/decrypt.ts';
import { parseBackupName } from '../../../kernel/backup/naming.ts';
import { verifySidecar } from '../../../kernel/backup/sidecar.ts';
import { profileSchema } from '../../../kernel/rbac/profile-schema.ts';

export interface StateReport {
  /** Files checked, by kind. */
  kinds: Record<string, number>;
  /** What is broken: each names the file and why. */
  problems: string[];
  /** Temporary files left by interrupted writes (and sidecars whose archive never landed). */
  leftovers: string[];
  /** Files of no known kind (reported, so a new state file gets a check). */
  unknown: string[];
  /** Backups that verified (relative paths). */
  backups: string[];
}

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) walk(p, out);
    else if (st.isFile()) out.push(p);
  }
}

/** Every line of a JSON-lines text parses; the text ends with a newline (no torn last line). */
export function jsonLinesProblem(text: string): string | undefined {
  if (text.length === 0) return undefined;
  if (!text.endsWith('\n')) return 'last line is torn (no newline)';
  const lines = text.slice(0, -1).split('\n');
  for (let i = 0; i < lines.length; i++) {
    try {
      JSON.parse(lines[i] as string);
    } catch {
      return `line ${i + 1} of ${lines.length} is not JSON: ${JSON.stringify((lines[i] as string).slice(0, 80))}`;
    }
  }
  return undefined;
}

/** Every audit record (live file and rotated archives, oldest first). */
export function auditRecords(stateDir: string): Record<string, unknown>[] {
  const dir = join(stateDir, 'logs');
  if (!existsSync(dir)) return [];
  const out: Record<string, unknown>[] = [];
  const files = readdirSync(dir)
    .filter((f) => f.startsWith('audit.log') && !f.endsWith('.tmp'))
    // archives carry a sortable timestamp; the live file is the newest
    .sort((a, b) => (a === 'audit.log' ? 1 : b === 'audit.log' ? -1 : a.localeCompare(b)));
  for (const f of files) {
    const raw = readFileSync(join(dir, f));
    const text = (f.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
    for (const line of text.split('\n')) {
      if (line.length === 0) continue;
      try {
        out.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // reported by checkStateFiles
      }
    }
  }
  return out;
}

export async function checkStateFiles(
  stateDir: string,
  opts: { privateKey?: KeyObject; verifyBackups?: boolean; skipBackups?: ReadonlySet<string> } = {},
): Promise<StateReport> {
  const report: StateReport = { kinds: {}, problems: [], leftovers: [], unknown: [], backups: [] };
  const files: string[] = [];
  walk(stateDir, files);
  const privateKey =
    opts.privateKey ??
    (existsSync(join(stateDir, 'secrets/rsa_private.pem'))
      ? safe(() => createPrivateKey(readFileSync(join(stateDir, 'secrets/rsa_private.pem'))))
      : undefined);
  const count = (kind: string): void => {
    report.kinds[kind] = (report.kinds[kind] ?? 0) + 1;
  };
  for (const abs of files.sort()) {
    const rel = relative(stateDir, abs).split(sep).join('/');
    const name = rel.split('/').at(-1) as string;
    const problem = (why: string): void => void report.problems.push(`${rel}: ${why}`);
    if (name.endsWith('.tmp')) {
      report.leftovers.push(rel);
      continue;
    }
    const bytes = readFileSync(abs);
    const text = (): string => bytes.toString('utf8');
    try {
      if (/^logs\/[^/]+\.log$/.test(rel) || /^logs\/[^/]+\.log\.[^/]*\d{4}$/.test(rel)) {
        count('json-lines');
        const p = jsonLinesProblem(text());
        if (p) problem(p);
      } else if (/^logs\/[^/]+\.gz$/.test(rel)) {
        count('json-lines.gz');
        const p = jsonLinesProblem(gunzipSync(bytes).toString('utf8'));
        if (p) problem(p);
      } else if (rel.startsWith('backups/') && parseBackupName(name)) {
        count('backup');
        if (opts.skipBackups?.has(rel)) report.backups.push(rel);
        else if (opts.verifyBackups !== false) {
          await verifySidecar(abs);
          if (privateKey) await verifyArchive(await openArchive(abs, privateKey));
          report.backups.push(rel);
        }
      } else if (rel.startsWith('backups/') && name.endsWith('.sha512')) {
        count('backup-sidecar');
        if (!existsSync(abs.slice(0, -'.sha512'.length))) report.leftovers.push(rel);
        else if (!/^[0-9a-f]{128} {2}\S+\n$/.test(text())) problem('not a sha512sum line');
      } else if (/^profiles\/[^/]+\.json$/.test(rel)) {
        count('profile');
        profileSchema.parse(JSON.parse(text()));
      } else if (name.endsWith('.json')) {
        count('json');
        JSON.parse(text());
      } else if (name.endsWith('.pem')) {
        count('pem');
        const t = text();
        if (t.includes('PRIVATE KEY')) createPrivateKey(t);
        else if (t.includes('CERTIFICATE')) new X509Certificate(t);
        else createPublicKey(t);
      } else if (name === '.token' || name.endsWith('.jwt')) {
        count('jwt');
        if (!JWT.test(text().trim())) problem('not a JWT');
      } else if (name === '.client_secret') {
        count('client-secret');
        if (!/^[A-Za-z0-9_-]{20,}\n?$/.test(text())) problem('not a client secret');
      } else if (name === 'vault_master.key') {
        count('master-secret');
        if (bytes.length !== 32) problem(`${bytes.length} bytes, expected 32`);
      } else {
        report.unknown.push(rel);
      }
    } catch (err) {
      problem((err as Error).message.slice(0, 200));
    }
  }
  return report;
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
