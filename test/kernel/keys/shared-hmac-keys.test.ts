// The HMAC keys several instances share through the state directory (kernel/keys/shared-hmac-keys.ts):
// instances agree on one key, a value sealed by one verifies on another (a tool's request state, a
// download link), keys rotate by period with the previous one still verifying, and the files are 0600.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DownloadLinks } from '../../../kernel/files/download-links.ts';
import { SharedHmacKeys } from '../../../kernel/keys/shared-hmac-keys.ts';
import { RequestStateSeal } from '../../../kernel/mcp/request-state.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const DAY = 86_400_000;

describe('shared HMAC keys', () => {
  const state = tempStateDir('ucmcp-keys-');
  after(() => state.cleanup());
  const secrets = (name: string) => join(state.dir, name, 'secrets');

  it('two instances on one state directory seal and open each other’s request states and links', () => {
    const dir = secrets('a');
    let now = 10 * DAY + 5000;
    const one = new SharedHmacKeys(dir, () => now);
    const two = new SharedHmacKeys(dir, () => now);
    const files = readdirSync(join(dir, 'shared-keys'));
    assert.deepEqual(files, [`${10 * DAY}.key`]);
    assert.equal(statSync(join(dir, 'shared-keys', files[0] as string)).mode & 0o777, 0o600);

    const call = { tool: 'test_x', client: 'alice' };
    const s1 = new RequestStateSeal(one.forPurpose('mcp.requestState'), 2 * DAY, () => now);
    const s2 = new RequestStateSeal(two.forPurpose('mcp.requestState'), 2 * DAY, () => now);
    assert.equal(s2.open(call, s1.seal(call, 'round-2')), 'round-2');
    // A process key of its own (the local backend) verifies nothing the shared keys sealed.
    assert.throws(() => new RequestStateSeal().open(call, s1.seal(call, 'x')), /signature/);

    const l1 = new DownloadLinks(() => now, 60_000, undefined, one.forPurpose('download-links'));
    const l2 = new DownloadLinks(() => now, 60_000, undefined, two.forPurpose('download-links'));
    const grant = { scheme: 'report', client: 'alice', name: 'r.csv' };
    const { token } = l1.issue(grant);
    assert.equal((l2.peek(token) as { client: string }).client, 'alice');
    // One purpose's key never verifies another's value.
    const crossed = new RequestStateSeal(one.forPurpose('download-links'), 600_000, () => now);
    assert.throws(() => crossed.open(call, s1.seal(call, 'x')), /signature/);

    // The next day: whichever instance seals first creates the new key; the other finds it, and what
    // was sealed the day before still opens on both.
    const yesterday = s1.seal(call, 'old');
    now += DAY;
    const today = s2.seal(call, 'new');
    assert.equal(s1.open(call, today), 'new');
    assert.equal(s1.open(call, yesterday), 'old');
    assert.equal(readdirSync(join(dir, 'shared-keys')).length, 2);
    // Two days later the first day's key is gone, from the folder and from use.
    now += 2 * DAY + 1;
    new SharedHmacKeys(dir, () => now).forPurpose('x').refresh();
    assert.ok(!readdirSync(join(dir, 'shared-keys')).includes(`${10 * DAY}.key`));
  });

  it('instances starting at once agree on one key (exclusive create)', async () => {
    const dir = secrets('b');
    const now = () => 20 * DAY;
    const many = Array.from({ length: 8 }, () => new SharedHmacKeys(dir, now));
    const keys = new Set(many.map((k) => k.forPurpose('p').signing().toString('hex')));
    assert.equal(keys.size, 1);
    assert.deepEqual(
      readdirSync(join(dir, 'shared-keys')).filter((n) => !n.startsWith('.')),
      [`${20 * DAY}.key`],
    );
  });

  it('a download link works once across instances: the store decides its single use', async () => {
    const dir = secrets('c');
    const now = () => 30 * DAY;
    // Stands for records.create (SET NX) of the shared store.
    const claimed = new Set<string>();
    const claim = (nonce: string) => {
      const first = !claimed.has(nonce);
      claimed.add(nonce);
      return Promise.resolve(first);
    };
    const [l1, l2] = [0, 1].map(
      () =>
        new DownloadLinks(
          now,
          60_000,
          undefined,
          new SharedHmacKeys(dir, now).forPurpose('download-links'),
          claim,
        ),
    ) as [DownloadLinks, DownloadLinks];
    const { token } = l1.issue({ scheme: 'report', client: 'alice', name: 'r.csv' });
    assert.equal(((await l2.take(token)) as { name: string }).name, 'r.csv');
    assert.equal(await l1.take(token), 'used');
    assert.equal(await l2.take(token), 'used');
    assert.equal(await l1.take(`${token}x`), 'forged');
  });
});
