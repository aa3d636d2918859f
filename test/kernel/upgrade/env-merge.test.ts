import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseDotenv } from 'dotenv';
import { envDefaultsFromExample, parseEnvText } from '../../../kernel/upgrade/env-file.ts';
import { mergeEnv } from '../../../kernel/upgrade/env-merge.ts';
import type { EnvDefault } from '../../../kernel/upgrade/format.ts';

const env = (list: [string, string, string[]?][]): EnvDefault[] =>
  list.map(([key, value, comment]) => ({ key, value, comment: comment ?? [] }));

const pkg = {
  version: '2.0.0',
  env: env([
    ['PROJECT_NAME', 'uc-mcp-server'],
    ['PROJECT_VERSION', '2.0.0'],
    ['PROJECT_CREATOR', 'New Creator'],
    ['LOGGING_LEVEL', 'info'],
    ['NEW_ONE', 'yes', ['What it does.']],
  ]),
};

describe('.env merge', () => {
  it('keeps every other line byte for byte: comments, blank lines, export, CRLF, quoting', () => {
    const before = [
      '# header',
      'export LOGGING_LEVEL="trace"  # inline',
      '',
      "PROJECT_VERSION='1.0.0'",
      'UNKNOWN_KEY=kept too',
      'PROJECT_NAME=uc-mcp-server',
      'PROJECT_CREATOR=Old',
      'NEW_ONE=operator set it already',
      '',
    ].join('\r\n');
    const { text, changes } = mergeEnv(before, pkg);
    assert.equal(
      text,
      [
        '# header',
        'export LOGGING_LEVEL="trace"  # inline',
        '',
        'PROJECT_VERSION=2.0.0',
        'UNKNOWN_KEY=kept too',
        'PROJECT_NAME=uc-mcp-server',
        'PROJECT_CREATOR=New Creator',
        'NEW_ONE=operator set it already',
        '',
      ].join('\r\n'),
    );
    assert.deepEqual(
      changes.filter((c) => c.change !== 'kept'),
      [
        { key: 'PROJECT_VERSION', change: 'overwritten', from: "'1.0.0'", to: '2.0.0' },
        { key: 'PROJECT_CREATOR', change: 'overwritten', from: 'Old', to: 'New Creator' },
      ],
    );
    assert.deepEqual(
      changes.filter((c) => c.change === 'kept').map((c) => c.key),
      ['LOGGING_LEVEL', 'NEW_ONE'],
    );
  });

  it('appends missing keys, the PROJECT_* ones included, each under an upgrade comment', () => {
    const { text, changes } = mergeEnv('LOGGING_LEVEL=debug', pkg);
    assert.equal(
      text,
      `LOGGING_LEVEL=debug

# added by upgrade 2.0.0
PROJECT_NAME=uc-mcp-server

# added by upgrade 2.0.0
PROJECT_VERSION=2.0.0

# added by upgrade 2.0.0
PROJECT_CREATOR=New Creator

# added by upgrade 2.0.0
# What it does.
NEW_ONE=yes
`,
    );
    assert.deepEqual(
      changes.filter((c) => c.change === 'added').map((c) => c.key),
      ['PROJECT_NAME', 'PROJECT_VERSION', 'PROJECT_CREATOR', 'NEW_ONE'],
    );
    assert.equal(parseDotenv(text).LOGGING_LEVEL, 'debug');
  });

  it('a setting the installed version already had, left out of .env by the operator, is not added back', () => {
    const known = new Set(['PROJECT_NAME', 'PROJECT_VERSION', 'PROJECT_CREATOR', 'LOGGING_LEVEL']);
    const { text, changes } = mergeEnv('PROJECT_VERSION=1.0.0\n', pkg, known);
    assert.deepEqual(
      changes.map((c) => [c.key, c.change]),
      [
        ['PROJECT_VERSION', 'overwritten'],
        ['PROJECT_NAME', 'added'],
        ['PROJECT_CREATOR', 'added'],
        ['NEW_ONE', 'added'],
      ],
    );
    assert.doesNotMatch(text, /LOGGING_LEVEL/);
  });

  it('a file already up to date is returned exactly, even without a final newline', () => {
    const current =
      'PROJECT_NAME=uc-mcp-server\nPROJECT_VERSION=2.0.0\nPROJECT_CREATOR=New Creator\nLOGGING_LEVEL=x\nNEW_ONE=1';
    assert.equal(mergeEnv(current, pkg).text, current);
  });

  it('rewrites every occurrence of a repeated PROJECT_* key, whichever one dotenv would read', () => {
    const { text } = mergeEnv('PROJECT_VERSION=0.1\nPROJECT_VERSION=0.2\n', { version: '2.0.0', env: [] });
    assert.equal(text, 'PROJECT_VERSION=2.0.0\nPROJECT_VERSION=2.0.0\n');
  });

  it('a quoted multi-line value is one setting: a KEY= line inside it is not taken for one', () => {
    const before = 'AUTH_CLIENTS="a:operator:cucm\nPROJECT_VERSION=not-a-setting\n"\nPROJECT_VERSION=1.0.0\n';
    const doc = parseEnvText(before);
    assert.deepEqual(
      doc.assignments.map((a) => [a.key, a.start, a.end]),
      [
        ['AUTH_CLIENTS', 0, 3],
        ['PROJECT_VERSION', 3, 4],
      ],
    );
    const { text } = mergeEnv(before, { version: '2.0.0', env: [] });
    assert.equal(
      text,
      'AUTH_CLIENTS="a:operator:cucm\nPROJECT_VERSION=not-a-setting\n"\nPROJECT_VERSION=2.0.0\n',
    );
    assert.equal(parseDotenv(text).AUTH_CLIENTS, 'a:operator:cucm\nPROJECT_VERSION=not-a-setting\n');
  });

  it('reads defaults and descriptions from a .env.example, leaving section banners and far comments out', () => {
    const example = `# File header.

# --- Project ---
PROJECT_NAME=uc-mcp-server
# Empty: the version in package.json.
PROJECT_VERSION=
# --- TLS ---
# A CA-signed pair.
TLS_CERT_FILE=
TLS_KEY_FILE=
# Example:
# AUTH_CLIENTS=noc:operator:cucm
AUTH_CLIENTS=
`;
    assert.deepEqual(
      envDefaultsFromExample(example),
      env([
        ['PROJECT_NAME', 'uc-mcp-server'],
        ['PROJECT_VERSION', '', ['Empty: the version in package.json.']],
        ['TLS_CERT_FILE', '', ['A CA-signed pair.']],
        ['TLS_KEY_FILE', ''],
        ['AUTH_CLIENTS', '', ['Example:', 'AUTH_CLIENTS=noc:operator:cucm']],
      ]),
    );
  });

  it("the real .env.example's settings all come through", async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { PROJECT_ROOT } = await import('../../../kernel/paths.ts');
    const text = readFileSync(join(PROJECT_ROOT, '.env.example'), 'utf8');
    const keys = envDefaultsFromExample(text).map((e) => e.key);
    assert.deepEqual(keys, Object.keys(parseDotenv(text)));
  });
});
