// The profile's `writes` setting and needsConfirmation: a destructive change is always confirmed, a
// change as the setting says, a read never; the setting is validated in the profile file and a profile
// without it gets the cautious default.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import type { AppLogger } from '../../../kernel/logging/app-log.ts';
import { profileSchema } from '../../../kernel/rbac/profile-schema.ts';
import { ProfileStore } from '../../../kernel/rbac/profile-store.ts';
import {
  CHANGE_CLASSES,
  DEFAULT_WRITES,
  needsConfirmation,
  previewOnly,
  WRITE_MODES,
  type ChangeClass,
  type WritesSetting,
} from '../../../kernel/rbac/writes.ts';

describe('needsConfirmation', () => {
  it('confirms destructive always, change unless direct, read never', () => {
    const expected: Record<ChangeClass, Record<WritesSetting, boolean>> = {
      read: { direct: false, confirm: false, 'preview-only': false },
      change: { direct: false, confirm: true, 'preview-only': true },
      destructive: { direct: true, confirm: true, 'preview-only': true },
    };
    for (const c of CHANGE_CLASSES)
      for (const w of WRITE_MODES) assert.equal(needsConfirmation(c, w), expected[c][w], `${c} / ${w}`);
  });

  it('under preview-only applies nothing but reads', () => {
    for (const c of CHANGE_CLASSES)
      for (const w of WRITE_MODES)
        assert.equal(previewOnly(c, w), c !== 'read' && w === 'preview-only', `${c} / ${w}`);
  });
});

describe('the writes setting of a profile', () => {
  const base = { name: 'site', tools: { allow: ['*'] }, allowlists: {}, rateLimits: {} };

  it('defaults to confirm, accepts the three modes and refuses anything else', () => {
    assert.equal(DEFAULT_WRITES, 'confirm');
    assert.equal(profileSchema.parse(base).writes, 'confirm');
    for (const w of WRITE_MODES) assert.equal(profileSchema.parse({ ...base, writes: w }).writes, w);
    for (const bad of ['Direct', 'none', '', 1, true, null]) {
      const r = profileSchema.safeParse({ ...base, writes: bad });
      assert.equal(r.success, false, JSON.stringify(bad));
      assert.deepEqual(r.error?.issues[0]?.path, ['writes']);
    }
  });

  it('ships admin direct, operator confirm and auditor preview-only', () => {
    const shipped = (name: string): unknown =>
      profileSchema.parse(
        JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles/_default', `${name}.json`), 'utf8')),
      ).writes;
    assert.equal(shipped('admin'), 'direct');
    assert.equal(shipped('operator'), 'confirm');
    assert.equal(shipped('auditor'), 'preview-only');
  });

  it('a profile file with a bad writes value is not loaded, and the log names the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'writes-'));
    try {
      writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...base, name: 'bad', writes: 'always' }));
      writeFileSync(join(dir, 'old.json'), JSON.stringify({ ...base, name: 'old' }));
      const errors: string[] = [];
      const log = {
        error: (o: { reason: string }) => errors.push(o.reason),
        info: () => undefined,
        warn: () => undefined,
      } as unknown as AppLogger;
      const store = new ProfileStore(dir, log);
      assert.deepEqual(store.loadAll(), { loaded: ['old'], rejected: ['bad'] });
      assert.match(errors[0] ?? '', /^writes: /);
      assert.equal(store.get('old')?.writes, 'confirm', 'an older file without writes is confirmed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
