import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { tempStateDir } from '../../helpers/state-dir.ts';

const FLOOD = join(import.meta.dirname, '../../helpers/audit-flood.ts');

/** Runs the flood child, SIGKILLs it after `ms`, returns the highest acknowledged sequence number. */
async function floodAndKill(path: string, rotateBytes: number, ms: number): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', FLOOD, path, String(rotateBytes)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let acked = 0;
  let buf = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    for (const l of lines) acked = Math.max(acked, Number(l));
  });
  // Start the clock once the child is really writing.
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  await new Promise((r) => setTimeout(r, ms));
  child.kill('SIGKILL');
  await new Promise((r) => child.on('exit', r));
  return acked;
}

function allLines(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir).sort()) {
    // A .gz.tmp is a compression the kill interrupted; its source file is still there.
    if (!f.startsWith('audit.log') || f.endsWith('.tmp')) continue;
    const raw = readFileSync(join(dir, f));
    const text = f.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
    out.push(...text.split('\n').filter((l) => l.length > 0));
  }
  return out;
}

describe('audit log crash safety', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  for (const [label, rotate] of [
    ['without rotation', 50 * 1024 * 1024],
    ['while rotating every 64 KiB', 64 * 1024],
  ] as const) {
    it(`SIGKILL during a flood leaves only whole lines and every acknowledged record (${label})`, async () => {
      const dir = join(state.dir, label.replace(/\W+/g, '-'));
      const path = join(dir, 'audit.log');
      for (let round = 0; round < 3; round++) {
        const acked = await floodAndKill(path, rotate, 150 + round * 100);
        assert.ok(acked > 100, `the child wrote records (${acked})`);
        const seqs = new Set<number>();
        for (const line of allLines(dir)) {
          const rec = JSON.parse(line) as { seq: number; timestamp: string; event: string };
          assert.equal(rec.event, 'ACTIONS');
          seqs.add(rec.seq);
        }
        for (let s = 1; s <= acked; s++)
          assert.ok(seqs.has(s), `acknowledged record ${s} of ${acked} is present (round ${round})`);
      }
    });
  }
});
