import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ssh2 from 'ssh2';
import { generateParseableEd25519 } from '../../lab/vos/host-key.ts';

describe('lab host keys', () => {
  it('are always keys ssh2 can parse back (its generator alone fails about once in 250 tries)', () => {
    for (let i = 0; i < 1500; i++) {
      const parsed = ssh2.utils.parseKey(generateParseableEd25519());
      assert.ok(!(parsed instanceof Error), `key ${i}: ${parsed instanceof Error ? parsed.message : ''}`);
    }
  });
});
