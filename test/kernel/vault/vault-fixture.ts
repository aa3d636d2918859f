import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { statePaths, type StatePaths } from '../../../kernel/paths.ts';
import { Vault } from '../../../kernel/vault/index.ts';
import type { VaultLogger } from '../../../kernel/vault/index.ts';
import { readAudit } from '../../helpers/kernel.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

/** A logger that keeps every line, so a test can search them for secrets. */
export function memoryLogger(): VaultLogger & { lines: string[] } {
  const lines: string[] = [];
  const put = (level: string) => (obj: object, msg: string) => {
    lines.push(JSON.stringify({ level, msg, ...obj }, errorReplacer));
  };
  return { lines, info: put('info'), warn: put('warn'), error: put('error') };
}

function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { message: value.message, stack: value.stack } : value;
}

export interface VaultFixture {
  dir: string;
  paths: StatePaths;
  audit: AuditLog;
  log: ReturnType<typeof memoryLogger>;
  vault: Vault;
  /** A second Vault over the same state directory, as after a restart (pays its own derivations). */
  reopen(): Vault;
  auditRecords(): Record<string, unknown>[];
  /** credentials.json of a client, parsed. */
  credentialsFile(client: string): CredentialsFileJson;
  credentialsPath(client: string): string;
  cleanup(): Promise<void>;
}

export interface CredentialsFileJson {
  client: string;
  kdf: { salt: string; iterations: number; digest: string };
  keyCheck: string;
  records: Record<string, { nonce: string; box: string; updatedAt: string }>;
  [k: string]: unknown;
}

export function vaultFixture(): VaultFixture {
  const state = tempStateDir('ucmcp-vault-');
  const paths = statePaths(state.dir);
  const audit = new AuditLog({ path: paths.auditLog, maxBytes: 50_000_000, maxFiles: 2 });
  const log = memoryLogger();
  const credentialsPath = (client: string): string =>
    join(paths.clients, client, 'vault', 'credentials.json');
  return {
    dir: state.dir,
    paths,
    audit,
    log,
    vault: Vault.open(paths, audit, log),
    reopen: () => Vault.open(paths, audit, log),
    auditRecords: () => readAudit(state.dir),
    credentialsPath,
    credentialsFile: (client) =>
      JSON.parse(readFileSync(credentialsPath(client), 'utf8')) as CredentialsFileJson,
    async cleanup() {
      await audit.close();
      state.cleanup();
    },
  };
}

/** Every byte under a directory, concatenated: "is this secret anywhere on disk?". */
export function allBytesUnder(dir: string): Buffer {
  const parts: Buffer[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else parts.push(readFileSync(p));
    }
  };
  walk(dir);
  return Buffer.concat(parts);
}
