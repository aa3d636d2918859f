import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';

function runServer(env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'kernel/main.ts')], {
    env: { ...process.env, ENV_FILE: '', LOGGING_CONSOLE_ENABLED: '0', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('a bad .env value', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('exits non-zero with one ConfigError line naming the key, and writes nothing', () => {
    writeFileSync(join(state.dir, '.env'), 'SERVER_PORT=not-a-port\nLOGGING_LEVEL=info\n');
    const r = runServer({ STATE_DIR: state.dir });
    assert.equal(r.status, 2);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line only, got: ${r.stderr}`);
    assert.match(lines[0] as string, /^ConfigError: SERVER_PORT: .*"not-a-port"/);
    assert.equal(r.stdout, '');
    assert.deepEqual(readdirSync(state.dir), ['.env'], 'no logs, secrets or profiles were created');
  });

  for (const [key, value] of [
    ['LOGGING_LEVEL', 'loud'],
    ['LOGGING_CONSOLE_ENABLED', 'yes'],
    ['SERVER_PORT', '70000'],
    ['PUBLIC_BASE_URL', 'http://plain.example'],
    ['TLS_CERT_FILE', '/only/the/cert.pem'],
  ] as const) {
    it(`${key}=${value} is refused naming the key`, () => {
      rmSync(join(state.dir, '.env'), { force: true });
      const r = runServer({ STATE_DIR: state.dir, [key]: value });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`^ConfigError: ${key === 'TLS_CERT_FILE' ? 'TLS_KEY_FILE' : key}: `));
    });
  }
});
