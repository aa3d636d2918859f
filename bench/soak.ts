// Load and soak: SOAK_SESSIONS concurrent MCP sessions (real SDK clients over HTTPS, ten per client)
// call a mix of read tools (infra_health, cucm_get_version, cucm_axl_call listPhone/getPhone,
// cucm_risport_query, cucm_os_run_command "show version active", cucm_list_credentials,
// imp_get_version, cuc_get_version, cuc_cupi_list) against the lab for SOAK_SECONDS, after a warm-up in
// which every session runs the mix SOAK_WARMUP_ROUNDS times (default 5). The server runs as its own
// process (bench/support/licensed-server.ts).
//   node --import tsx bench/soak.ts                       (SOAK_SECONDS=300 SOAK_SESSIONS=50 by default)
//   SOAK_SECONDS=120 node --import tsx bench/soak.ts
// Prints calls, errors, calls/s, p50/p95/p99 overall and per tool, the server's RSS (before and after a
// full GC), file descriptors and MCP sessions after warm-up and after the soak. Exits 1 when a bound is
// violated: any unexpected error (tool error, wrong answer, transport or JSON-RPC error), a session or a
// file descriptor left behind, RSS after the soak more than 10% above RSS after warm-up (both after a
// full GC), or an unclean server exit. Linux only (reads /proc).
import { formatSoak, runSoak, soakViolations } from './support/soak.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 300);
const sessions = Number(process.env.SOAK_SESSIONS ?? 50);
const warmupRounds = Number(process.env.SOAK_WARMUP_ROUNDS ?? 5);

console.log(
  `soak: ${sessions} sessions, warm-up ${warmupRounds} rounds of the mix per session, ${seconds} s soak`,
);
const result = await runSoak({
  sessions,
  seconds,
  warmupRounds,
  progress: (line) => console.log(`  ${line}`),
});
console.log('');
console.log(formatSoak(result));
const violations = soakViolations(result);
console.log('');
if (violations.length === 0) console.log('all bounds held');
else for (const v of violations) console.log(`VIOLATED: ${v}`);
process.exit(violations.length === 0 ? 0 : 1);
