// Instances sharing the state directory record first contacts in one client's trust stores at the same
// moment: each write replaces only its own host's entry, under the file's lock, so none is lost.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { withFileLockSync } from '../../../kernel/store/file-lock.ts';
import { KnownHostsFile } from '../../../kernel/vault/known-hosts-file.ts';

const WRITER = join(import.meta.dirname, 'trust-store-writers.ts');

function run(path: string, writer: string, count: number): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, path, writer, String(count)], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve) => child.once('exit', resolve));
}

describe('trust stores written by several processes at once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ucmcp-trust-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every host three processes recorded concurrently', { timeout: 120_000 }, async () => {
    const path = join(dir, 'known_hosts.json');
    const codes = await Promise.all(['w1', 'w2', 'w3'].map((w) => run(path, w, 60)));
    assert.deepEqual(codes, [0, 0, 0]);
    const hosts = Object.keys(new KnownHostsFile(path, 'noc-agent', Buffer.alloc(32, 7)).read().hosts);
    assert.equal(hosts.length, 180, `${180 - hosts.length} entries lost`);
    assert.equal(existsSync(`${path}.lock`), false);
  });

  it('waits for a held lock, takes over a crashed holder, and refuses past its wait', () => {
    const path = join(dir, 'other.json');
    // A crashed holder of another host: taken over once stale.
    writeFileSync(`${path}.lock`, '1@elsewhere\n');
    const busy = () => new Error('busy');
    assert.throws(() => withFileLockSync(path, () => 1, { busy, waitMs: 100, staleMs: 60_000 }), /busy/);
    assert.equal(
      withFileLockSync(path, () => 2, { busy, waitMs: 1000, staleMs: 200 }),
      2,
    );
    assert.equal(existsSync(`${path}.lock`), false);
  });
});
