import { structuredReply, toolsFor, type Product } from '../../../kernel/sdk/index.ts';
import {
  DRF_HISTORY_COMMAND,
  DRF_SCHEDULE_COMMAND,
  DRF_STATUS_COMMAND,
  parseDrfHistory,
  parseDrfSchedules,
  parseDrfStatus,
  type DrfRun,
} from '../vos/drf-output.ts';
import { cliReader, unrecognised } from './cli-sections.ts';
import { hostField } from './credential-input.ts';
import { drfStatusOutput } from './drf-status-output.ts';
import type { VosState } from './plugin-state.ts';
import { PRODUCT_LABEL } from './product-labels.ts';

const iso = (d: Date | undefined): string | null => (d ? d.toISOString() : null);

function runJson(r: DrfRun): Record<string, unknown> {
  return {
    tar: r.tar ?? null,
    device: r.device,
    completed_on: r.completedOn,
    started_at: iso(r.when),
    result: r.result,
    type: r.type,
    features: r.features.split(',').filter(Boolean),
  };
}

/** The newest run (by start), or undefined. */
function newest(runs: DrfRun[]): DrfRun | undefined {
  return runs.reduce<DrfRun | undefined>(
    (a, r) => (!a || (r.when?.getTime() ?? 0) >= (a.when?.getTime() ?? 0) ? r : a),
    undefined,
  );
}

/**
 * The tool's answer from the three outputs (undefined: that command failed), built the same way for a
 * node's answers and for the audits' tests of what such answers mean.
 */
export function drfStatusAnswer(out: {
  history: string;
  status?: string | undefined;
  schedules?: string | undefined;
}): Record<string, unknown> {
  const unparsed: { command: string; excerpt: string }[] = [];
  const runs = parseDrfHistory(out.history);
  if (!runs) unparsed.push(unrecognised(DRF_HISTORY_COMMAND, out.history));
  const status = out.status === undefined ? undefined : parseDrfStatus(out.status);
  if (out.status !== undefined && !status) unparsed.push(unrecognised(DRF_STATUS_COMMAND, out.status));
  const schedules = out.schedules === undefined ? undefined : parseDrfSchedules(out.schedules);
  if (out.schedules !== undefined && !schedules)
    unparsed.push(unrecognised(DRF_SCHEDULE_COMMAND, out.schedules));
  const last = runs ? newest(runs) : undefined;
  const lastOk = runs ? newest(runs.filter((r) => r.result === 'SUCCESS' && r.tar !== undefined)) : undefined;
  return {
    history: runs ? runs.map(runJson) : null,
    last_backup: last ? runJson(last) : null,
    last_successful_backup: lastOk ? runJson(lastOk) : null,
    status: status
      ? {
          available: status.available,
          status: status.status ?? null,
          result: status.result ?? null,
          tar: status.tar ?? null,
          storage: status.storage ?? null,
          operation: status.operation ?? null,
          percent_complete: status.percentComplete ?? null,
          components: status.components.map((c) => ({
            feature: c.feature,
            server: c.server,
            component: c.component,
            result: c.result,
            at: c.at,
            at_utc: iso(c.when),
            log: c.log,
          })),
        }
      : null,
    schedules: schedules ?? null,
    unrecognised: unparsed,
  };
}

/**
 * `<product>_drf_status`: the Disaster Recovery System's backups as the node's CLI reports them, parsed.
 * Permitted when the caller's SSH allowlist permits `utils disaster_recovery history backup`.
 */
export function drfStatusTool(product: Product, trustTool: string) {
  return toolsFor<VosState>()({
    name: 'drf_status',
    title: `${PRODUCT_LABEL[product]} backup (DRF) status`,
    description: `Reads the Disaster Recovery System over the node's CLI (SSH; run it on the publisher, where the DRF master keeps the history) and parses it: every backup in the history (tar, device, completion date, result, type, features), the last one and the last successful one, the current or last job's status, and the backup schedules. Commands: utils disaster_recovery history backup, utils disaster_recovery status backup, utils disaster_recovery schedule list (CLI reference, Utils Commands). The status lines (Status:, Tar Filename:, Percentage Complete:, component rows) are not printed by any Cisco document: they are read as a public parser of the real answer reads them. An answer no parser recognises is returned as an excerpt in unrecognised. Needs the node's OS credential and an SSH allowlist that permits utils disaster_recovery history backup; a new node's host key must first be trusted with ${trustTool}.`,
    input: { host: hostField },
    output: drfStatusOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    // The profile's SSH allowlist decides on the history command; the status and schedule commands that
    // follow are each asked about too, by the shell pool, before they are sent.
    access: { allowlist: 'ssh', subject: () => DRF_HISTORY_COMMAND },
    service: 'ssh',
    summary: () => ({
      operation: DRF_HISTORY_COMMAND,
      detail: `then ${DRF_STATUS_COMMAND}; ${DRF_SCHEDULE_COMMAND}`,
    }),
    async handler(input, ctx) {
      const cli = cliReader(ctx.shared, ctx.vault, product, input.host, ctx.signal);
      // The first command carries the call's refusals (credential, host key, unreachable node).
      const history = await cli.run(DRF_HISTORY_COMMAND);
      const status = await cli.tryRun(DRF_STATUS_COMMAND);
      const schedules = await cli.tryRun(DRF_SCHEDULE_COMMAND);
      return structuredReply({
        host: input.host,
        ...drfStatusAnswer({ history, status, schedules }),
        errors: cli.errors,
      });
    },
  });
}
