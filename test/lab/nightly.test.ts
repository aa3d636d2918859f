import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nightlyRunStart } from '../../lab/state/nightly.ts';

const DAY = 86_400_000;

test('a nightly run N days back is N whole days old at every hour of the day', () => {
  for (let minute = 0; minute < 24 * 60; minute += 7) {
    const now = new Date(Date.UTC(2026, 10, 26) + minute * 60_000);
    const start = nightlyRunStart(now, 3, 45);
    assert.equal(Math.floor((now.getTime() - start.getTime()) / DAY), 45, now.toISOString());
    assert.equal(start.getUTCHours(), 3);
  }
});
