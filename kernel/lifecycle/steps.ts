import type { AppLogger } from '../logging/app-log.ts';

/**
 * `warn` and `failed` are verdicts of a step that ran and let the start go on (step 4: the server keeps
 * running whatever the integrity check finds, but the log must not call a failed check `ok`). A step
 * that throws is `failed` too, and stops the start.
 */
export type StepOutcome = 'ok' | 'deferred' | 'warn' | 'failed';

export interface StepReport {
  step: number;
  name: string;
  outcome: StepOutcome;
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
    const line = `startup step ${step} ${name}: ${outcome}`;
    if (outcome === 'failed') log?.error({ startup: report }, line);
    else if (outcome === 'warn') log?.warn({ startup: report }, line);
    else log?.info({ startup: report }, line);
  } catch (err) {
    const report: StepReport = { step, name, outcome: 'failed', ms: Math.round(performance.now() - started) };
    reports.push(report);
    log?.fatal({ startup: report, err }, `startup step ${step} ${name}: failed`);
    throw err;
  }
}
