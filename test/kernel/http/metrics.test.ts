import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';

interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string }[];
}

describe('GET /metrics', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel();
  });
  after(async () => {
    await k.stop();
  });

  it('parses as Prometheus text exposition and carries the spec families', async () => {
    await k.fetch(`${k.url}/health`);
    const res = await k.fetch(`${k.url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const families = parsePrometheusTextFormat(await res.text()) as Family[];
    const byName = new Map(families.map((f) => [f.name, f]));
    for (const name of [
      'ucmcp_tool_calls_total',
      'ucmcp_auth_failures_total',
      'ucmcp_auth_failures_by_client_total',
      'ucmcp_rate_limited_total',
      'ucmcp_watchdog_status',
      'ucmcp_http_requests_total',
    ]) {
      assert.ok(byName.has(name), `${name} exposed`);
    }
    const watchdogs = byName.get('ucmcp_watchdog_status')?.metrics.map((m) => m.labels?.watchdog) ?? [];
    for (const w of ['backup', 'integrity', 'license'])
      assert.ok(watchdogs.includes(w), `watchdog ${w} is exposed`);
    const health = byName
      .get('ucmcp_http_requests_total')
      ?.metrics.find((m) => m.labels?.route === '/health' && m.labels?.status === '200');
    assert.ok(Number(health?.value) >= 1, 'the /health request was counted');
    assert.equal(byName.get('ucmcp_tool_calls_total')?.type, 'COUNTER');
  });
});
