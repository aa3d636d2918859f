// conformance: runs the MCP conformance suite (@modelcontextprotocol/conformance) against the product
// and its test-only fixture, and prints pass/fail per scenario (docs/conformance.md).
//   npm run conformance [-- --revision 2026-07-28] [--no-authorization] [--out <folder>]
// Exit 0: every applicable scenario passed (or Node 22 could not be had: SKIPPED, with why); 1 otherwise.
import { parseArgs } from 'node:util';
import { REVISIONS, runConformance } from '../test/conformance/runner/run.ts';

const { values } = parseArgs({
  options: {
    revision: { type: 'string', multiple: true },
    'no-authorization': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const revisions = values.revision ?? [...REVISIONS];
for (const r of revisions)
  if (!(REVISIONS as readonly string[]).includes(r)) {
    console.error(`unknown revision ${r} (known: ${REVISIONS.join(', ')})`);
    process.exit(2);
  }
const outcome = await runConformance({
  revisions,
  authorization: !values['no-authorization'],
  ...(values.out ? { outDir: values.out } : {}),
});
process.exit('skipped' in outcome ? 0 : outcome.exitCode);
