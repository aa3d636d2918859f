// The python client tests are optional: where no python3 has the modules a test needs, its file is
// skipped and says why as it loads (which python3 was tried and what it lacked), instead of failing or
// passing silently. A module no python3 has stands in for a machine without zeep.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pythonWith } from '../helpers/python-lab.ts';

describe('python client tests without their modules', () => {
  it('are skipped with the reason printed: each python3 tried and the module it lacks', (t) => {
    const printed = t.mock.method(console, 'log', () => undefined);
    const found = pythonWith('python probe', ['json', 'ucmcp_no_such_module']);
    assert.equal(found.python, undefined);
    assert.equal(typeof found.skip, 'string');
    const reason = String(found.skip);
    assert.match(reason, /^no python3 with json and ucmcp_no_such_module \(/);
    // Each candidate with its own error: the module it lacks, or that it is not there at all.
    for (const candidate of ['/usr/bin/python3', 'python3'])
      assert.match(
        reason,
        new RegExp(`(^|[(; ])${candidate}: (.*No module named 'ucmcp_no_such_module'|.*ENOENT)`),
      );
    assert.deepEqual(
      printed.mock.calls.map((c) => c.arguments),
      [[`# python probe test skipped: ${reason}`]],
    );
  });

  it('run where a python3 has them, printing nothing', (t) => {
    const printed = t.mock.method(console, 'log', () => undefined);
    const found = pythonWith('python probe', ['json']);
    if (!found.python) return t.skip(`no python3 at all here: ${String(found.skip)}`);
    assert.equal(found.skip, false);
    assert.equal(printed.mock.callCount(), 0);
  });
});
