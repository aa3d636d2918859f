// Credential vault benchmark: cold key derivation (PBKDF2-SHA512, 600,000 iterations) against warm
// reads, with the bare primitives measured in the same run so the vault's own overhead is visible.
// Run: node --import tsx bench/vault.ts
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import nacl from 'tweetnacl';
import { AuditLog } from '../kernel/audit/audit-log.ts';
import { statePaths } from '../kernel/paths.ts';
import { deriveClientKey, PBKDF2_DIGEST, PBKDF2_ITERATIONS } from '../kernel/vault/key-derivation.ts';
import { Vault } from '../kernel/vault/index.ts';

const COLD_RUNS = 5;
const WARM_READS = 10_000;
const WRITES = 200;

interface Row {
  what: string;
  n: number;
  unit: 'ms' | 'µs';
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

function summarise(what: string, samplesMs: number[], unit: 'ms' | 'µs'): Row {
  const scale = unit === 'µs' ? 1000 : 1;
  const s = samplesMs.map((v) => v * scale).sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  return {
    what,
    n: s.length,
    unit,
    p50: at(0.5),
    p99: at(0.99),
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    max: s[s.length - 1] as number,
  };
}

async function time(n: number, fn: () => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

function timeSync(n: number, fn: () => unknown): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** Longest pause of a 1 ms timer while `fn` runs: the event-loop stall it causes. */
async function maxLoopGap(fn: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let gap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 1);
  await fn();
  clearInterval(timer);
  return gap;
}

const dir = mkdtempSync(join(tmpdir(), 'ucmcp-bench-vault-'));
const paths = statePaths(dir);
const audit = new AuditLog({ path: paths.auditLog, maxBytes: 100_000_000, maxFiles: 1 });
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const rows: Row[] = [];

try {
  const vault = Vault.open(paths, audit, quiet);
  const view = vault.forClient('bench');
  const secret = { username: 'axl-admin', password: randomBytes(18).toString('base64') };
  await view.store('cucm', 'axl', 'cucm-pub.bench.example', secret);
  for (let i = 0; i < 20; i++) {
    await view.store('cucm', 'phone', `phone-${i}.bench.example`, { username: 'u', password: `p${i}` });
  }

  // Cold: the derivation alone, and a fresh process's first read (derivation + file + open).
  const master = readFileSync(join(paths.secrets, 'vault_master.key'));
  const salt = randomBytes(16);
  rows.push(
    summarise(
      'cold: PBKDF2 derivation alone',
      await time(COLD_RUNS, () => deriveClientKey(master, salt)),
      'ms',
    ),
  );
  const firstReads = await time(COLD_RUNS, () =>
    Vault.open(paths, audit, quiet).forClient('bench').get('cucm', 'axl', 'cucm-pub.bench.example'),
  );
  rows.push(summarise('cold: first get of a fresh Vault', firstReads, 'ms'));
  const gap = await maxLoopGap(() =>
    Vault.open(paths, audit, quiet).forClient('bench').get('cucm', 'axl', 'cucm-pub.bench.example'),
  );

  // Warm: the vault's read path, then what it is made of.
  for (let i = 0; i < 1000; i++) await view.get('cucm', 'axl', 'cucm-pub.bench.example');
  rows.push(
    summarise(
      'warm: vault get',
      await time(WARM_READS, () => view.get('cucm', 'axl', 'cucm-pub.bench.example')),
      'µs',
    ),
  );
  rows.push(summarise('warm: vault list (21 entries)', await time(WARM_READS, () => view.list()), 'µs'));

  const file = join(paths.clients, 'bench', 'vault', 'credentials.json');
  const text = readFileSync(file, 'utf8');
  const doc = JSON.parse(text) as { records: Record<string, { nonce: string; box: string }> };
  const rec = doc.records['cucm/axl/cucm-pub.bench.example'];
  if (!rec) throw new Error('record missing');
  const key = await deriveClientKey(
    master,
    Buffer.from((JSON.parse(text) as { kdf: { salt: string } }).kdf.salt, 'base64'),
  );
  const box = Buffer.from(rec.box, 'base64');
  const nonce = Buffer.from(rec.nonce, 'base64');
  rows.push(
    summarise(
      'baseline: nacl.secretbox.open',
      timeSync(WARM_READS, () => nacl.secretbox.open(box, nonce, key)),
      'µs',
    ),
  );
  rows.push(
    summarise(
      'baseline: statSync of the file',
      timeSync(WARM_READS, () => statSync(file)),
      'µs',
    ),
  );
  rows.push(
    summarise(
      `baseline: JSON.parse of the file (${text.length} B)`,
      timeSync(WARM_READS, () => JSON.parse(text)),
      'µs',
    ),
  );
  rows.push(
    summarise(
      'baseline: readFile + JSON.parse',
      timeSync(WARM_READS, () => JSON.parse(readFileSync(file, 'utf8'))),
      'µs',
    ),
  );

  // Writes: seal, audit line, atomic replace with fsync.
  let n = 0;
  const writes = await time(WRITES, () =>
    view.update('cucm', 'axl', 'cucm-pub.bench.example', {
      username: 'axl-admin',
      password: `rotated-${n++}`,
    }),
  );
  rows.push(summarise('write: vault update (audit + fsync + rename)', writes, 'ms'));

  const fmt = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
  const width = Math.max(...rows.map((r) => r.what.length));
  console.log(
    `vault benchmark: node ${process.version}, ${cpus().length} CPU (${cpus()[0]?.model ?? 'unknown'}), ` +
      `PBKDF2-${PBKDF2_DIGEST.toUpperCase()} ${PBKDF2_ITERATIONS.toLocaleString('en')} iterations\n`,
  );
  console.log(
    `${'operation'.padEnd(width)}  ${'n'.padStart(6)}  unit  ${['p50', 'p99', 'mean', 'max'].map((h) => h.padStart(8)).join('')}`,
  );
  console.log('-'.repeat(width + 50));
  for (const r of rows) {
    console.log(
      `${r.what.padEnd(width)}  ${String(r.n).padStart(6)}  ${r.unit.padEnd(4)}  ${[r.p50, r.p99, r.mean, r.max].map((v) => fmt(v).padStart(8)).join('')}`,
    );
  }
  const warm = rows.find((r) => r.what === 'warm: vault get') as Row;
  console.log(
    `\nevent-loop: longest 1 ms-timer gap during a cold derivation: ${gap.toFixed(1)} ms (PBKDF2 runs on the libuv pool)`,
  );
  console.log(`derivations by the long-lived Vault: ${vault.derivations} (one per client per process)`);
  const cold = rows[0] as Row;
  console.log(
    `warm get p99 ${fmt(warm.p99)} µs: ${warm.p99 < 1000 ? 'well under' : 'NOT under'} 1 ms; ` +
      `p50 ${fmt(warm.p50)} µs, about ${Math.round((cold.p50 * 1000) / warm.p50).toLocaleString('en')}x less than a cold derivation`,
  );
} finally {
  await audit.close();
  rmSync(dir, { recursive: true, force: true });
}
