import type { IntegrityMode, IntegrityReport, IntegrityStatus } from './types.ts';

/**
 * What a check means for the server, in one word, wherever it is reported (startup step 4, /status,
 * infra_server_status, the watchdog gauge): `ok` when the tree is validly signed; `warn` for an
 * unsigned tree in warn mode (a development checkout, loaded on purpose); `failed` for everything else:
 * a modified or invalid tree in either mode, and an unsigned one in enforce mode.
 */
export type IntegrityVerdict = 'ok' | 'warn' | 'failed';

export function integrityVerdict(status: IntegrityStatus, mode: IntegrityMode): IntegrityVerdict {
  if (status === 'valid') return 'ok';
  return status === 'unsigned' && mode === 'warn' ? 'warn' : 'failed';
}

/** The integrity summary /status and infra_server_status show: from one report, so one verdict. */
export function integritySummary(
  report: IntegrityReport | null,
  mode: IntegrityMode,
): Record<string, unknown> {
  if (!report) return { status: 'not yet checked', verdict: 'not yet checked', mode };
  return {
    status: report.status,
    verdict: integrityVerdict(report.status, mode),
    mode,
    checked_at: report.checkedAt,
    files_flagged: report.files.length,
    ...(report.reason ? { reason: report.reason } : {}),
  };
}
