// The server's TypeScript loader (kernel/loader) runs the transpile of the bytes on disk, from its cache
// only when the entry's HMAC verifies: a real node process on the loader, a real source file inside the
// install (only those are cached) and a real state directory.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { serverLoaderArgs } from '../../../kernel/loader/index.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const run = promisify(execFile);

const source = (n: number): string =>
  `const answer: number = ${n};\nexport {};\nprocess.stdout.write(\`probe \${answer + 1}\\n\`);\n`;

describe('the server loader: transpile cache', () => {
  const state = tempStateDir('ucmcp-loader-');
  // Inside the install (the loader caches nothing outside it); /.tmp/ is ignored by git.
  mkdirSync(join(PROJECT_ROOT, '.tmp'), { recursive: true });
  const srcDir = mkdtempSync(join(PROJECT_ROOT, '.tmp', 'loader-'));
  const probe = join(srcDir, 'probe.ts');
  const cacheDir = join(state.dir, 'cache', 'transpiled');

  const runProbe = async (): Promise<string> => {
    const { stdout } = await run(process.execPath, serverLoaderArgs(probe), {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '', STATE_DIR: state.dir },
    });
    return stdout.trim();
  };
  /** The one cache entry (the probe is the only .ts the process loads): name, HMAC line, code. */
  const entry = (): { file: string; name: string; code: string } => {
    const names = readdirSync(cacheDir).filter((n) => !n.endsWith('.tmp'));
    assert.equal(names.length, 1, names.join(', '));
    const name = names[0] as string;
    const raw = readFileSync(join(cacheDir, name), 'utf8');
    return { file: join(cacheDir, name), name, code: raw.slice(raw.indexOf('\n') + 1) };
  };
  const withMac = (key: Buffer, name: string, code: string): string =>
    `${createHmac('sha256', key).update(`${name}\n`).update(code).digest('hex')}\n${code}`;
  const key = (): Buffer => readFileSync(join(state.dir, 'secrets', 'transpile_cache.key'));

  before(() => {
    mkdirSync(join(state.dir, 'secrets'), { mode: 0o700 });
    writeFileSync(probe, source(41));
  });
  after(() => {
    rmSync(srcDir, { recursive: true, force: true });
    state.cleanup();
  });

  it('caches the transpile under an HMAC key kept in secrets/ (0600)', async () => {
    assert.equal(await runProbe(), 'probe 42');
    const e = entry();
    assert.match(e.code, /answer\s*\+\s*1/);
    assert.equal(
      readFileSync(e.file, 'utf8').split('\n')[0],
      createHmac('sha256', key()).update(`${e.name}\n`).update(e.code).digest('hex'),
    );
    assert.equal(key().length, 32);
  });

  it('runs a cache entry only when its HMAC verifies (the positive control: the cache is read)', async () => {
    const e = entry();
    // Signed with the real key, the entry is what runs: the test below would see a tampered entry run.
    writeFileSync(e.file, withMac(key(), e.name, 'process.stdout.write("from the cache\\n");'));
    assert.equal(await runProbe(), 'from the cache');
    rmSync(e.file);
  });

  it('never runs a tampered entry: the signed source is transpiled again and the entry replaced', async () => {
    assert.equal(await runProbe(), 'probe 42');
    const e = entry();
    const evil = 'process.stdout.write("TAMPERED\\n");';
    for (const forged of [
      // The code edited, its HMAC line kept.
      `${readFileSync(e.file, 'utf8').split('\n')[0]}\n${evil}`,
      // A valid-looking entry under another key (planted by someone without secrets/).
      withMac(Buffer.alloc(32, 7), e.name, evil),
      // Truncated, and no header at all.
      readFileSync(e.file, 'utf8').slice(0, 40),
      evil,
    ]) {
      writeFileSync(e.file, forged);
      assert.equal(await runProbe(), 'probe 42');
      assert.equal(entry().code, e.code, 'the entry holds the transpile of the source again');
    }
    // A link in the entry's place is not followed (it could point at a file of anyone's choosing).
    const elsewhere = join(state.dir, 'elsewhere.js');
    writeFileSync(elsewhere, withMac(key(), e.name, evil));
    rmSync(e.file);
    symlinkSync(elsewhere, e.file);
    assert.equal(await runProbe(), 'probe 42');
  });

  it('a changed source runs as changed: entries are keyed by the source bytes', async () => {
    writeFileSync(probe, source(99));
    assert.equal(await runProbe(), 'probe 100');
    writeFileSync(probe, source(41));
    assert.equal(await runProbe(), 'probe 42');
  });

  it('without a secrets directory (a first start) it transpiles and caches nothing', async () => {
    const fresh = tempStateDir('ucmcp-loader-fresh-');
    try {
      const { stdout } = await run(process.execPath, serverLoaderArgs(probe), {
        cwd: PROJECT_ROOT,
        env: { PATH: process.env.PATH ?? '', STATE_DIR: fresh.dir },
      });
      assert.equal(stdout.trim(), 'probe 42');
      assert.deepEqual(readdirSync(fresh.dir), []);
    } finally {
      fresh.cleanup();
    }
  });
});
