import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as errors from '../../../kernel/errors/index.ts';
import { ERROR_CODES, KernelError } from '../../../kernel/errors/index.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';

describe('the closed set of errors', () => {
  const classes = (Object.values(errors) as unknown[]).filter(
    (v): v is new (msg: string, n?: number) => KernelError =>
      typeof v === 'function' && (v as { prototype: unknown }).prototype instanceof KernelError,
  );
  const instances = classes.map((C) => new C('x', 1));

  it('every class has a distinct code from ERROR_CODES and a 4xx/5xx status', () => {
    const codes = instances.map((e) => e.code);
    assert.equal(new Set(codes).size, codes.length);
    assert.deepEqual([...codes].sort(), [...ERROR_CODES].sort());
    for (const e of instances) assert.ok(e.status >= 400 && e.status < 600, e.code);
  });

  it('the spec codes carry the spec statuses', () => {
    const status = Object.fromEntries(instances.map((e) => [e.code, e.status]));
    assert.deepEqual(
      {
        AUTH_FAILED: status.AUTH_FAILED,
        AUTH_REVOKED: status.AUTH_REVOKED,
        AUTH_EXPIRED: status.AUTH_EXPIRED,
        AUTH_BLOCKED: status.AUTH_BLOCKED,
        RATE_LIMITED: status.RATE_LIMITED,
        ProfilePermissionError: status.ProfilePermissionError,
        ConfigError: status.ConfigError,
        LicenseError: status.LicenseError,
        CredentialError: status.CredentialError,
        ConnectivityError: status.ConnectivityError,
        AXLError: status.AXLError,
        SSHError: status.SSHError,
        RISError: status.RISError,
        CUPIError: status.CUPIError,
        IntegrityError: status.IntegrityError,
      },
      {
        AUTH_FAILED: 401,
        AUTH_REVOKED: 401,
        AUTH_EXPIRED: 401,
        AUTH_BLOCKED: 429,
        RATE_LIMITED: 429,
        ProfilePermissionError: 403,
        ConfigError: 500,
        LicenseError: 503,
        CredentialError: 400,
        ConnectivityError: 400,
        AXLError: 400,
        SSHError: 400,
        RISError: 400,
        CUPIError: 400,
        IntegrityError: 500,
      },
    );
  });

  it("the README's error table lists exactly these codes with these statuses", () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `([A-Za-z_]+)`\s*\| (\d{3})\s*\|/gm)].map((m) => [
      m[1],
      Number(m[2]),
    ]);
    const fromCode = instances.map((e) => [e.code, e.status]);
    assert.deepEqual(
      rows.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      fromCode.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });
});
