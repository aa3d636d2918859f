import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUTHORIZATION, runAuthorizationScenarios } from './authorization.ts';
import { NOT_APPLICABLE } from './exclusions.ts';
import { node22 } from './node22.ts';
import { formatTable, summarise, verdicts } from './report.ts';
import { CONFORMANCE_CLIENT, startServerUnderTest } from './server-under-test.ts';
import { readRuns, runSuite, type ScenarioRun } from './suite.ts';

/** The protocol revisions the server serves; each scenario runs at each revision it belongs to. */
export const REVISIONS = ['2025-11-25', '2026-07-28'] as const;

export interface ConformanceOptions {
  revisions?: readonly string[];
  authorization?: boolean;
  /** Keep the suite's own output (checks.json per scenario, its log) in this folder. */
  outDir?: string;
  log?: (line: string) => void;
}

export type ConformanceOutcome =
  { skipped: string } | { exitCode: 0 | 1; rows: ReturnType<typeof verdicts>; durationMs: number };

/**
 * Runs @modelcontextprotocol/conformance against the product plus its test-only fixture: every server
 * scenario at each revision (2025-11-25 stateful, 2026-07-28 stateless, one endpoint), and the
 * authorization-server scenarios; prints one table. Exit code 1 when an applicable scenario fails or an
 * exclusion is stale.
 */
export async function runConformance(o: ConformanceOptions = {}): Promise<ConformanceOutcome> {
  const log = o.log ?? ((line: string) => console.log(line));
  const started = Date.now();
  const node = node22();
  if ('skip' in node) {
    log(`conformance SKIPPED: ${node.skip}`);
    return { skipped: node.skip };
  }
  const outDir = o.outDir ?? mkdtempSync(join(tmpdir(), 'ucmcp-conformance-out-'));
  mkdirSync(outDir, { recursive: true });
  const server = await startServerUnderTest();
  const runs: ScenarioRun[] = [];
  try {
    for (const revision of o.revisions ?? REVISIONS) {
      const dir = join(outDir, `server-${revision}`);
      mkdirSync(dir, { recursive: true });
      const code = await runSuite(
        ['server', '--url', server.mcpUrl, '--suite', 'all', '--spec-version', revision],
        {
          node: node.path,
          caFile: server.caFile,
          bearer: { origin: new URL(server.url).origin, tokenFile: server.tokenFile },
          outDir: dir,
          label: revision,
          timeoutMs: 600_000,
        },
      );
      const found = readRuns(dir, 'server', revision);
      if (found.length === 0)
        runs.push({
          scenario: '(suite)',
          revision,
          checks: [
            {
              id: 'suite',
              name: 'suite',
              status: 'FAILURE',
              errorMessage: `ran no scenario (exit ${code}); see ${dir}`,
            },
          ],
        });
      runs.push(...found);
    }
    if (o.authorization !== false) {
      runs.push(
        ...(await runAuthorizationScenarios({
          node: node.path,
          caFile: server.caFile,
          issuer: server.url,
          resource: server.mcpUrl,
          identity: { name: CONFORMANCE_CLIENT, secret: server.clientSecret },
          outDir,
        })),
      );
    }
  } finally {
    await server.stop();
    if (!o.outDir) rmSync(outDir, { recursive: true, force: true });
  }

  const rows = verdicts(runs);
  const s = summarise(rows);
  const durationMs = Date.now() - started;
  log(formatTable(rows));
  log('');
  log(
    `${s.passed} passed, ${s.failed} failed, ${s.notApplicable} not applicable, ${s.stale} stale exclusion(s); ` +
      `${rows.length} scenario runs (${[...(o.revisions ?? REVISIONS), ...(o.authorization === false ? [] : [AUTHORIZATION])].join(', ')}) in ${(durationMs / 1000).toFixed(1)} s`,
  );
  log('');
  log('Not applicable to this server (test/conformance/runner/exclusions.ts):');
  for (const e of NOT_APPLICABLE)
    log(`  ${e.scenario}${e.revisions ? ` [${e.revisions.join(', ')}]` : ''}: ${e.reason}`);
  return { exitCode: s.failed > 0 || s.stale > 0 ? 1 : 0, rows, durationMs };
}
