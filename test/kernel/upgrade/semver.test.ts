import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareSemVer, isSemVer } from '../../../kernel/upgrade/semver.ts';

describe('semantic versions', () => {
  it('orders versions by precedence (semver.org 11)', () => {
    const ordered = [
      '0.9.9',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
      '1.1.0',
      '1.10.0',
      '2.0.0',
    ];
    for (let i = 0; i < ordered.length; i++)
      for (let j = 0; j < ordered.length; j++) {
        const c = compareSemVer(ordered[i] as string, ordered[j] as string);
        assert.equal(Math.sign(c), Math.sign(i - j), `${ordered[i]} vs ${ordered[j]}`);
      }
    assert.equal(compareSemVer('1.0.0+build.1', '1.0.0+build.2'), 0, 'build metadata does not count');
  });

  it('refuses what is not x.y.z', () => {
    for (const v of ['1', '1.0', 'v1.0.0', '01.0.0', '1.0.0-', '1.0.0-01', ' 1.0.0', '1.0.0.0'])
      assert.equal(isSemVer(v), false, v);
    assert.throws(() => compareSemVer('1.0', '1.0.0'), /not a semantic version/);
  });
});
