import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../../kernel/config/load.ts';
import { CONFIG_KEYS, configSchema } from '../../../kernel/config/schema.ts';
import { ConfigError } from '../../../kernel/errors/index.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

describe('loadConfig', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('uses safe embedded defaults when there is no .env', () => {
    const { config, envFile, stateDir } = loadConfig({ STATE_DIR: state.dir });
    assert.equal(envFile, null);
    assert.equal(stateDir, state.dir);
    assert.equal(config.SERVER_HOST, '127.0.0.1');
    assert.equal(config.LOGGING_ROTATE_SIZE, 5_242_880);
    assert.equal(config.LOGGING_CONSOLE_ENABLED, true);
  });

  it('reads .env from the state directory; an exported variable wins; empty means unset', () => {
    writeFileSync(
      join(state.dir, '.env'),
      'SERVER_PORT=9443\nLOGGING_LEVEL=debug\nSERVER_NAME=\nNOT_OURS=1\n',
    );
    const { config, unknownKeys } = loadConfig({ STATE_DIR: state.dir, LOGGING_LEVEL: 'warn' });
    assert.equal(config.SERVER_PORT, 9443);
    assert.equal(config.LOGGING_LEVEL, 'warn');
    assert.equal(config.SERVER_NAME, 'uc-mcp-server');
    assert.deepEqual(unknownKeys, ['NOT_OURS']);
  });

  it('names the key in a ConfigError, and hides values of secret-looking keys', () => {
    assert.throws(
      () => loadConfig({ STATE_DIR: state.dir, LOGGING_ROTATE_FILES: '0' }),
      (e: unknown) => {
        return e instanceof ConfigError && e.message.startsWith('LOGGING_ROTATE_FILES:');
      },
    );
  });

  it('a missing ENV_FILE is a ConfigError', () => {
    assert.throws(() => loadConfig({ ENV_FILE: join(state.dir, 'absent.env') }), ConfigError);
  });

  it('.env.example documents every key with its embedded default', () => {
    const example = readFileSync(join(PROJECT_ROOT, '.env.example'), 'utf8');
    const documented = new Map<string, string>();
    for (const line of example.split('\n')) {
      const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      if (m) documented.set(m[1] as string, m[2] as string);
    }
    assert.deepEqual([...documented.keys()].sort(), [...CONFIG_KEYS].sort());
    const defaults = configSchema.parse({});
    const parsedExample = configSchema.parse(Object.fromEntries([...documented].filter(([, v]) => v !== '')));
    assert.deepEqual(parsedExample, defaults, 'the values shown in .env.example are the defaults');
  });
});
