import type { AppLogger } from '../logging/app-log.ts';

export type StepOutcome = 'ok' | 'deferred';

export interface StepReport {
  step: number;
  name: string;
  outcome: StepOutcome | 'failed';
  ms: number;
  detail?: Record<string, unknown>;
}

/**
 * Runs one startup step, logging its number, name, duration and outcome. A step that a later issue
 * fills in reports 'deferred' with the reason, so the log never pretends a check ran.
 */
export async function runStep(
  log: AppLogger | undefined,
  reports: StepReport[],
  step: number,
  name: string,
  fn: () =>
    | Promise<{ outcome: StepOutcome; detail?: Record<string, unknown> }>
    | { outcome: StepOutcome; detail?: Record<string, unknown> },
): Promise<void> {
  const started = performance.now();
  try {
    const { outcome, detail } = await fn();
    const report: StepReport = {
      step,
      name,
      outcome,
      ms: Math.round(performance.now() - started),
      ...(detail ? { detail } : {}),
    };
    reports.push(report);
    log?.info({ startup: report }, `startup step ${step} ${name}: ${outcome}`);
  } catch (err) {
    const report: StepReport = { step, name, outcome: 'failed', ms: Math.round(performance.now() - started) };
    reports.push(report);
    log?.fatal({ startup: report, err }, `startup step ${step} ${name}: failed`);
    throw err;
  }
}
