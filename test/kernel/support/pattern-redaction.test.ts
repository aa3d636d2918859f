// show_tech hides settings by the shape of their name, not by a list: setting names generated at random
// around the secret patterns (names this code has never seen) carry canary values that look like plain
// words (so only the name can give them away); the bundle is built and every file of it searched. The
// server's own non-secret AUTH_* settings, durations and key paths must stay readable for support.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildSupportBundle } from '../../../kernel/support/show-tech.ts';
import { operatorSettings } from '../../../kernel/support/settings.ts';
import { isSecretName, isSecretSetting, looksLikeSecret } from '../../../kernel/support/secret-shapes.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const letters = (n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'): string =>
  Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');

/** A random word that is neither a secret word nor a word that describes a harmless value. */
function word(): string {
  for (;;) {
    const w = letters(3 + randomInt(6));
    if (!/PASS|PWD|PW|SECRET|TOKEN|KEY|CRED|PRIVATE|AUTH|PIN|SEED|OTP|JWT|SALT|HMAC|COOKIE|SESSION/.test(w))
      return w;
  }
}

/** Name shapes from the redaction rule; % is a random word. */
const SHAPES = [
  '%_PW',
  '%PW',
  '%_PW_%',
  '%_PASSWORD',
  '%PASS%',
  '%_PASSPHRASE',
  '%_PWD',
  'PWD_%',
  '%_SECRET',
  '%SECRET%',
  '%_TOKEN',
  '%TOKEN_%',
  '%_KEY',
  '%KEY%',
  '%_API_KEY',
  '%_CREDENTIAL',
  '%_CREDENTIALS_%',
  '%_CREDS',
  '%_PRIVATE_%',
  '%PRIVATE%',
  '%_AUTH',
  '%_AUTH_HEADER',
  'AUTHORIZATION_%',
  '%_PIN',
  '%_HMAC',
  '%_SESSION_%',
  '%_SIGNATURE',
  '%_SALT',
  '%_ENC',
];

/** A canary that looks like an ordinary word (lower-case letters only): no shape rule can catch it. */
const canary = (): string => `canary${letters(22, 'abcdefghijklmnopqrstuvwxyz')}`;

/** Settings that must stay readable: the false positives the rule is written to avoid. */
const READABLE: Record<string, string> = {
  AUTH_CLIENTS: 'noc-agent:operator:cucm+imp,auditor1:auditor:cucm',
  AUTH_BCRYPT_COST: '10',
  AUTH_BLACKLIST_THRESHOLD: '10',
  AUTH_BLACKLIST_WINDOW_SECONDS: '300',
  AUTH_ACCESS_TOKEN_TTL_SECONDS: '3600',
  SOME_TOKEN_TTL_SECONDS: '86400000',
  SIGNING_KEY_FILE: '/etc/uc-mcp/signing.pem',
  SESSION_IDLE_MINUTES: '30',
  SERVER_NAME: 'uc-mcp-server',
};

describe('show_tech redacts by name pattern, for names it has never seen', () => {
  const state = tempStateDir('ucmcp-pattern-');
  const out = tempStateDir('ucmcp-pattern-out-');
  const tree = tempStateDir('ucmcp-pattern-tree-');
  after(() => {
    state.cleanup();
    out.cleanup();
    tree.cleanup();
  });

  const hidden = new Map<string, string>();
  for (const shape of SHAPES) {
    for (let i = 0; i < 3; i++) {
      const name = shape.replace(/%/g, () => word());
      if (!hidden.has(name)) hidden.set(name, canary());
    }
  }

  it('the rule: every generated name is a secret name; the readable settings are not secrets', () => {
    for (const [name, value] of hidden) {
      assert.ok(!looksLikeSecret(value), `${value} must only be hidden by its name`);
      assert.ok(isSecretName(name), `${name} matches a secret pattern`);
      assert.ok(isSecretSetting(name, value), name);
    }
    for (const [name, value] of Object.entries(READABLE))
      assert.ok(!isSecretSetting(name, value), `${name}=${value} stays readable`);
    // A descriptive last word needs a value of its kind: a PIN-length number in a *_PIN stays hidden,
    // a password in a *_FILE setting too.
    assert.ok(isSecretSetting('VOICEMAIL_PIN', '482913'));
    assert.ok(isSecretSetting('ADMIN_PASSWORD_FILE', 'hunterhunter'));
    assert.ok(isSecretSetting('X_TOKEN_SECONDS', 'abc'));
  });

  it('no canary appears anywhere in the bundle: .env section, logs, summary', async () => {
    const env = [
      ...Object.entries(READABLE).map(([k, v]) => `${k}=${v}`),
      ...[...hidden].map(([k, v]) => `${k}=${v}`),
      '',
    ].join('\n');
    writeFileSync(join(state.dir, '.env'), env);
    // Log records that quote settings (a future "configuration dump", a plugin logging its options).
    mkdirSync(join(state.dir, 'logs'), { recursive: true });
    const entries = [...hidden];
    const half = Math.ceil(entries.length / 2);
    writeFileSync(
      join(state.dir, 'logs', 'app.log'),
      [
        JSON.stringify({ msg: 'settings', ...Object.fromEntries(entries.slice(0, half)) }),
        JSON.stringify({ msg: 'nested', config: Object.fromEntries(entries.slice(half)) }),
        JSON.stringify({ msg: 'readable', ...READABLE, keys: ['UNKNOWN_KEY'] }),
        '',
      ].join('\n'),
    );
    writeFileSync(join(state.dir, 'logs', 'audit.log'), '');
    writeFileSync(join(tree.dir, 'package.json'), '{"version":"0.0.0"}\n');

    const settings = operatorSettings({ env: { STATE_DIR: state.dir, ENV_FILE: '' }, cwd: state.dir });
    const bundle = await buildSupportBundle({
      settings,
      outputDir: out.dir,
      logs: true,
      zip: false,
      projectRoot: tree.dir,
    });
    const texts = Object.fromEntries(
      readdirSync(bundle.path).map((f) => [f, readFileSync(join(bundle.path, f), 'utf8')]),
    );
    assert.ok(texts['env.redacted.txt'] && texts['app.log'], Object.keys(texts).join(', '));
    const leaked = [...hidden].flatMap(([name, value]) =>
      Object.entries(texts)
        .filter(([, text]) => text.includes(value))
        .map(([file]) => `${name} in ${file}`),
    );
    assert.deepEqual(leaked, [], 'canaries found in the bundle');
    for (const name of hidden.keys())
      assert.match(texts['env.redacted.txt'] as string, new RegExp(`^${name}=\\[REDACTED\\]$`, 'm'));
    for (const [name, value] of Object.entries(READABLE)) {
      assert.ok((texts['env.redacted.txt'] as string).includes(`${name}=${value}\n`), `.env shows ${name}`);
      // app.log also keeps the log redactor's own, stricter list (a *TOKEN* field is hidden there).
      if (!/token/i.test(name))
        assert.ok((texts['app.log'] as string).includes(`"${name}":"${value}"`), `app.log shows ${name}`);
    }
    assert.match(texts['app.log'] as string, /"keys":\["UNKNOWN_KEY"\]/, 'a list of setting names stays');
  });

  it('a configuration error quoting a secret-named value shows it hidden in summary.json', async () => {
    // The loader hides the values of the settings it knows to be secret; the bundle applies its own,
    // broader rule on top, for settings added later (a setting named like the generated ones).
    const [name, value] = [...hidden][0] as [string, string];
    const settings = {
      ...operatorSettings({ env: { STATE_DIR: state.dir, ENV_FILE: '' }, cwd: state.dir }),
      configError: `${name}: Invalid input (got ${JSON.stringify(value)})`,
    };
    const bundle = await buildSupportBundle({
      settings,
      outputDir: out.dir,
      logs: false,
      zip: false,
      projectRoot: tree.dir,
      now: new Date(Date.now() + 60_000),
    });
    for (const f of readdirSync(bundle.path))
      assert.ok(!readFileSync(join(bundle.path, f), 'utf8').includes(value), `${f} shows the value`);
    const summary = JSON.parse(readFileSync(join(bundle.path, 'summary.json'), 'utf8')) as {
      configuration: { error: string };
    };
    assert.equal(summary.configuration.error, `${name}: Invalid input (value hidden)`);
  });
});
