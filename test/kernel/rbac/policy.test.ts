import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { allowedBy, globToRegExp } from '../../../kernel/rbac/glob.ts';
import {
  allowlisted,
  effectiveProducts,
  rateWindow,
  toolPermitted,
  FALLBACK_RATE,
  type Narrowing,
} from '../../../kernel/rbac/policy.ts';
import { profileSchema, type Profile } from '../../../kernel/rbac/profile-schema.ts';

const load = (name: string): Profile =>
  profileSchema.parse(
    JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles/_default', `${name}.json`), 'utf8')),
  );

describe('RBAC policy', () => {
  const admin = load('admin');
  const operator = load('operator');
  const auditor = load('auditor');

  it('globs match the whole subject, with * as the only wildcard', () => {
    assert.ok(globToRegExp('show *').test('show version active'));
    assert.ok(!globToRegExp('show *').test('xshow version'));
    assert.ok(!globToRegExp('get*').test('forget'));
    assert.ok(
      globToRegExp('a.b').test('a.b') && !globToRegExp('a.b').test('axb'),
      'regex metacharacters are literal',
    );
    assert.ok(allowedBy('utils service list', { allow: ['utils *'], deny: ['utils system *'] }));
    assert.ok(!allowedBy('utils system restart', { allow: ['utils *'], deny: ['utils system *'] }));
  });

  it('default profiles encode the spec Profile column for credential and trust tools', () => {
    for (const t of [
      'cucm_delete_credentials',
      'cucm_os_delete_credentials',
      'cucm_phone_delete_credentials',
      'cuc_os_trust_fingerprint',
      'imp_trust_certificate',
      'cucm_download_axl_toolkit',
    ]) {
      assert.ok(toolPermitted(admin, t), `admin: ${t}`);
      assert.ok(!toolPermitted(operator, t), `operator must not: ${t}`);
      assert.ok(!toolPermitted(auditor, t), `auditor must not: ${t}`);
    }
    for (const t of ['cucm_store_credentials', 'imp_os_update_credentials', 'cucm_phone_store_credentials']) {
      assert.ok(toolPermitted(operator, t), `operator: ${t}`);
      assert.ok(!toolPermitted(auditor, t), `auditor must not: ${t}`);
    }
    for (const t of [
      'cucm_list_credentials',
      'cucm_get_version',
      'cucm_check_connectivity',
      'cucm_phone_screenshot',
      'infra_health',
      'common_write_report',
    ]) {
      assert.ok(toolPermitted(auditor, t), `auditor: ${t}`);
    }
  });

  it('allowlists: auditor reads only, operator cannot run SQL updates, CUPI by method and path', () => {
    assert.ok(allowlisted(auditor, 'axl', 'getPhone'));
    assert.ok(allowlisted(auditor, 'axl', 'executeSQLQuery'));
    assert.ok(!allowlisted(auditor, 'axl', 'addPhone'));
    assert.ok(!allowlisted(operator, 'axl', 'executeSQLUpdate'));
    assert.ok(allowlisted(operator, 'axl', 'addPhone'));
    assert.ok(allowlisted(admin, 'axl', 'executeSQLUpdate'));
    assert.ok(allowlisted(auditor, 'ssh', 'show version active'));
    assert.ok(!allowlisted(auditor, 'ssh', 'utils system restart'));
    assert.ok(!allowlisted(admin, 'ssh', 'utils system restart'));
    assert.ok(allowlisted(auditor, 'cupi', 'GET /vmrest/users'));
    assert.ok(!allowlisted(auditor, 'cupi', 'DELETE /vmrest/users/1'));
    assert.ok(!allowlisted(auditor, 'cupi', 'GET /other/users'));
    assert.ok(allowlisted(admin, 'cupi', 'DELETE /vmrest/users/1'));
  });

  it('product scope is the client scope narrowed by the profile', () => {
    assert.deepEqual(effectiveProducts(['cucm', 'cuc'], admin), ['cucm', 'cuc']);
    assert.deepEqual(effectiveProducts(['cucm'], { ...admin, products: ['imp'] }), []);
  });

  it('rate windows come from module and service, then the module default, then the fallback', () => {
    assert.deepEqual(rateWindow(auditor, 'cucm', 'ris'), { limit: 15, windowSeconds: 60 });
    assert.deepEqual(rateWindow(auditor, 'cuc', 'phone'), rateWindow(auditor, 'cuc', 'default'));
    assert.deepEqual(rateWindow({ ...auditor, rateLimits: {} }, 'infra', 'default'), FALLBACK_RATE);
  });

  it('profile files are strict: unknown keys and bad limits are refused', () => {
    assert.equal(profileSchema.safeParse({ ...admin, extra: 1 }).success, false);
    assert.equal(
      profileSchema.safeParse({ ...admin, rateLimits: { cucm: { axl: { limit: 0, windowSeconds: 60 } } } })
        .success,
      false,
    );
    assert.equal(
      profileSchema.safeParse({
        ...admin,
        allowlists: { ...admin.allowlists, cupi: { allow: [{ methods: ['GET'], path: '/etc/*' }] } },
      }).success,
      false,
    );
  });
});

describe('per-client narrowing', () => {
  const admin = load('admin');

  it('a subject must pass the profile and the client allow list; denies add up; it never widens', () => {
    const n: Narrowing = {
      allowlists: { axl: { allow: ['get*', 'executeSQLUpdate'], deny: ['getUser'] } },
      rateLimits: {},
    };
    assert.ok(allowlisted(admin, 'axl', 'getPhone', n));
    assert.ok(!allowlisted(admin, 'axl', 'addPhone', n), 'outside the client allow list');
    assert.ok(!allowlisted(admin, 'axl', 'getUser', n), 'client deny');
    const auditor = load('auditor');
    assert.ok(
      !allowlisted(auditor, 'axl', 'executeSQLUpdate', n),
      'the client list cannot widen the profile',
    );
    const cupi: Narrowing = {
      allowlists: { cupi: { allow: [{ methods: ['GET'], path: '/vmrest/users*' }] } },
      rateLimits: {},
    };
    assert.ok(allowlisted(admin, 'cupi', 'GET /vmrest/users/1', cupi));
    assert.ok(!allowlisted(admin, 'cupi', 'DELETE /vmrest/users/1', cupi));
    assert.ok(!allowlisted(admin, 'cupi', 'GET /vmrest/handlers', cupi));
  });

  it('the lower of the two rates applies', () => {
    const slower: Narrowing = {
      allowlists: {},
      rateLimits: { cucm: { axl: { limit: 10, windowSeconds: 60 } } },
    };
    assert.deepEqual(rateWindow(admin, 'cucm', 'axl', slower), { limit: 10, windowSeconds: 60 });
    const faster: Narrowing = {
      allowlists: {},
      rateLimits: { cucm: { axl: { limit: 10_000, windowSeconds: 60 } } },
    };
    assert.deepEqual(rateWindow(admin, 'cucm', 'axl', faster), rateWindow(admin, 'cucm', 'axl'));
  });
});
