import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { redactEnvFile } from '../../../kernel/support/env-redaction.ts';
import { copyRedactedLog, redactLogLine } from '../../../kernel/support/log-redaction.ts';
import {
  containsSecret,
  isSecretName,
  isSecretSetting,
  looksLikeSecret,
} from '../../../kernel/support/secret-shapes.ts';
import { CONFIG_KEYS, configSchema } from '../../../kernel/config/schema.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

describe('support bundle redaction', () => {
  it('keeps ordinary settings readable', () => {
    const text = [
      'SERVER_NAME=uc-mcp-server',
      'SERVER_HOST=0.0.0.0',
      'PUBLIC_BASE_URL=https://uc-mcp.example.com:8443',
      'TLS_SAN=uc-mcp.example.com,cucm-pub01.example.com,10.0.0.5',
      'TLS_KEY_FILE=/etc/uc-mcp/tls/key.pem',
      'AUTH_ACCESS_TOKEN_TTL_SECONDS=3600',
      'AUTH_CLIENTS=noc-agent:operator:cucm+imp+cuc',
      'BACKUP_SFTP_HOST_KEY=SHA256:AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl',
      'CHROMIUM_PATH=/usr/bin/chromium',
      '',
    ].join('\n');
    const out = redactEnvFile(text, '.env');
    for (const line of text.split('\n').filter(Boolean)) assert.ok(out.includes(`${line}\n`), line);
    assert.match(out, /9 settings, 0 redacted/);
  });

  it('no known setting with a value of its kind is taken for a secret, but the two *_PASSWORD_ENC', () => {
    const defaults = configSchema.parse({}) as Record<string, unknown>;
    const shown = (v: unknown): string =>
      v === undefined ? '' : Array.isArray(v) ? v.join(',') : String(v as string | number | boolean);
    const named = CONFIG_KEYS.filter((k) => isSecretSetting(k, shown(defaults[k])));
    assert.deepEqual(named.sort(), ['BACKUP_SFTP_PASSWORD_ENC', 'STATE_BACKEND_PASSWORD_ENC']);
    // By name alone the token lifetimes match *TOKEN*: only their numeric value keeps them readable.
    assert.ok(isSecretName('AUTH_ACCESS_TOKEN_TTL_SECONDS'));
    assert.ok(isSecretSetting('AUTH_ACCESS_TOKEN_TTL_SECONDS', 'not-a-number'));
  });

  it('hides secrets by name and by shape, and never lets a quoted multi-line value surface', () => {
    const text = [
      'BACKUP_SFTP_PASSWORD_ENC=c2VhbGVk',
      'MY_TOKEN=short',
      'INNOCENT=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5',
      'HOOK=https://hooks.example.com/services/T00000000/B00000000/kQ3v9Zr2LmX8pT4wYb7N1sHd',
      'DSN=postgres://app:hunter2@db.example.com/app',
      'NOTE="password=hunter2"',
      'KEY_BLOB="-----BEGIN PRIVATE KEY-----',
      'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj==',
      '-----END PRIVATE KEY-----"',
      '# COMMENTED_PASSWORD=hunter2',
      '',
    ].join('\n');
    const out = redactEnvFile(text, '.env');
    for (const key of ['BACKUP_SFTP_PASSWORD_ENC', 'MY_TOKEN', 'INNOCENT', 'HOOK', 'DSN', 'NOTE', 'KEY_BLOB'])
      assert.match(out, new RegExp(`^${key}=\\[REDACTED\\]$`, 'm'), key);
    assert.doesNotMatch(out, /hunter2|MIIEvQ|c2VhbGVk|short|kQ3v9Zr2|PRIVATE KEY-----/);
  });

  it('shapes: tokens and credentials yes; paths, URLs, host names, numbers, fingerprints no', () => {
    for (const v of [
      '3f9a8c7e6d5b4a39281706f5e4d3c2b1',
      'dGhpcyBpcyBhIHNlY3JldCB2YWx1ZTEyMw==',
      'Bearer abc.def',
      'https://user:pw@host/',
      'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.sig',
    ])
      assert.ok(looksLikeSecret(v), v);
    for (const v of [
      '/usr/bin/chromium',
      'https://uc.example.com:8443',
      'cucm-pub01.example.com',
      '5242880',
      'enforce',
      'SHA256:AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl',
    ])
      assert.ok(!containsSecret(v), v);
  });

  describe('logs', () => {
    const dir = tempStateDir('ucmcp-redact-');
    after(() => dir.cleanup());

    it('masks JSON fields and text shapes, and withholds raw PEM blocks across lines', async () => {
      assert.equal(
        redactLogLine(JSON.stringify({ msg: 'x', deep: { client_secret: 's3cr3t-value' } })),
        JSON.stringify({ msg: 'x', deep: { client_secret: '[REDACTED]' } }),
      );
      const source = join(dir.dir, 'app.log');
      writeFileSync(
        source,
        [
          'before',
          'dump: -----BEGIN RSA PRIVATE KEY-----',
          'MIIEowIBAAKCAQEAtopsecretline1',
          'QwErTy0987654321topsecretline2',
          '-----END RSA PRIVATE KEY-----',
          'login password=hunter2 ok',
          JSON.stringify({
            msg: 'pem',
            key: 'x',
            text: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
          }),
          'after',
          '',
        ].join('\n'),
      );
      const target = join(dir.dir, 'out.log');
      assert.equal(await copyRedactedLog(source, target), 8);
      const out = readFileSync(target, 'utf8');
      assert.doesNotMatch(out, /topsecret|hunter2|PRIVATE KEY-----|AAAA/);
      assert.match(out, /^before$/m);
      assert.match(out, /^after$/m, 'the lines after a PEM block are kept');
      assert.equal(await copyRedactedLog(join(dir.dir, 'missing.log'), join(dir.dir, 'x.log')), null);
    });
  });
});
