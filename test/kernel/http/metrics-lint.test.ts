// /metrics passes `promtool check metrics`: the lint rules always (test/helpers/promlint.ts), and the
// real promtool too where the machine has it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { lintExposition } from '../../helpers/promlint.ts';

describe('the promtool lint rules (the checker itself)', () => {
  const cases: [string, string, RegExp][] = [
    ['gauge named _total', '# HELP a_total x\n# TYPE a_total gauge\na_total 1\n', /non-counter.*_total/],
    ['counter without _total', '# HELP a x\n# TYPE a counter\na 1\n', /counter metrics should have "_total"/],
    ['no HELP', '# TYPE a_total counter\na_total 1\n', /no help text/],
    ['empty HELP', '# HELP a_total \n# TYPE a_total counter\na_total 1\n', /no help text/],
    ['gauge ending _count', '# HELP a_count x\n# TYPE a_count gauge\na_count 1\n', /"_count" suffix/],
    [
      'milliseconds',
      '# HELP a_milliseconds x\n# TYPE a_milliseconds gauge\na_milliseconds 1\n',
      /base unit "seconds"/,
    ],
    ['kilobytes', '# HELP a_kilobytes x\n# TYPE a_kilobytes gauge\na_kilobytes 1\n', /base unit "bytes"/],
    ['_ms', '# HELP a_ms x\n# TYPE a_ms gauge\na_ms 1\n', /abbreviated units \("ms"\)/],
    ['_kb', '# HELP a_kb x\n# TYPE a_kb gauge\na_kb 1\n', /abbreviated units \("kb"\)/],
    ['bad name', '# HELP 1a x\n# TYPE 1a gauge\n1a 1\n', /invalid metric name/],
    ['colon', '# HELP a:b x\n# TYPE a:b gauge\na:b 1\n', /should not contain ":"/],
    ['camelCase', '# HELP aB x\n# TYPE aB gauge\naB 1\n', /camelCase/],
    ['type in name', '# HELP a_gauge x\n# TYPE a_gauge gauge\na_gauge 1\n', /include type 'gauge'/],
    ['le on a gauge', '# HELP a x\n# TYPE a gauge\na{le="1"} 1\n', /"le" label/],
    ['histogram without +Inf', histogram([['1', 1]], 1), /no \+Inf bucket/],
    [
      'histogram not cumulative',
      histogram(
        [
          ['1', 2],
          ['2', 1],
          ['+Inf', 2],
        ],
        2,
      ),
      /not cumulative/,
    ],
    [
      'histogram count mismatch',
      histogram(
        [
          ['1', 1],
          ['+Inf', 2],
        ],
        3,
      ),
      /differs from _count/,
    ],
  ];
  for (const [what, text, problem] of cases) {
    it(`finds: ${what}`, () => {
      const problems = lintExposition(text);
      assert.ok(
        problems.some((p) => problem.test(p)),
        `expected ${String(problem)}, got ${JSON.stringify(problems)}`,
      );
    });
  }
  it('passes a well-formed exposition', () => {
    const text = `# HELP a_total x\n# TYPE a_total counter\na_total{k="v"} 1\n${histogram(
      [
        ['1', 1],
        ['+Inf', 2],
      ],
      2,
    )}`;
    assert.deepEqual(lintExposition(text), []);
  });
});

describe('GET /metrics under the promtool rules', () => {
  let k: TestKernel;
  let text: string;
  before(async () => {
    k = await startTestKernel();
    // Exercise labelled and histogram families so they carry samples, not only declarations.
    await k.fetch(`${k.url}/health`);
    await k.fetch(`${k.url}/mcp`, { method: 'POST' });
    const res = await k.fetch(`${k.url}/metrics`);
    assert.equal(res.status, 200);
    text = await res.text();
  });
  after(async () => {
    await k.stop();
  });

  it('has no lint problem (every metric: HELP, type-matching suffix, base units, valid names)', () => {
    assert.deepEqual(lintExposition(text), []);
    assert.match(text, /^# TYPE ucmcp_nodejs_gc_duration_seconds histogram$/m, 'a histogram was checked');
  });

  it('passes the real `promtool check metrics` when it is installed', (t) => {
    const which = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
    if (which.error) {
      const reason = 'promtool is not installed (Debian: package prometheus); the lint rules above still ran';
      console.log(`# skipped: ${reason}`);
      t.skip(reason);
      return;
    }
    const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    assert.equal(r.status, 0, `promtool: ${r.stdout}${r.stderr}`);
    assert.equal(`${r.stdout}${r.stderr}`.trim(), '');
  });
});

function histogram(buckets: [string, number][], count: number): string {
  const lines = buckets.map(([le, v]) => `req_duration_seconds_bucket{le="${le}"} ${v}`);
  return `# HELP req_duration_seconds x\n# TYPE req_duration_seconds histogram\n${lines.join('\n')}\nreq_duration_seconds_sum 1\nreq_duration_seconds_count ${count}\n`;
}
