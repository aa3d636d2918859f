// The test helper that starts a real redis-server: it answers on its port, stops (an outage) and starts
// again on the same port, and an ACL user is enforced. The scale-out tests build on it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { redisAvailable, startRedis, type RedisHandle } from '../helpers/redis-server.ts';

const skip = redisAvailable();
if (skip) console.log(`skipped: ${skip}`);

describe('test helper: startRedis', { skip }, () => {
  let redis: RedisHandle;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.cleanup();
  });

  it('answers, loses its data when stopped, and comes back on the same port', async () => {
    assert.match(redis.url, /^redis:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(redis.cli('SET', 'k', 'v'), 'OK');
    await redis.stop();
    assert.throws(() => redis.cli('PING'));
    await redis.start();
    assert.equal(redis.cli('PING'), 'PONG');
    assert.equal(redis.cli('GET', 'k'), '', 'nothing is persisted');
  });

  it('with an ACL user, refuses the default user and accepts the user with its password', async () => {
    const acl = await startRedis({ acl: { user: 'ucmcp', password: 's3cret-pw' } });
    try {
      assert.match(acl.cli('PING'), /NOAUTH/);
      assert.equal(acl.cli('--user', 'ucmcp', '--pass', 's3cret-pw', '--no-auth-warning', 'PING'), 'PONG');
    } finally {
      await acl.cleanup();
    }
  });
});
