// The structured answer of `<product>_drf_status` (its MCP outputSchema).
import { z } from '../../../kernel/sdk/index.ts';

const backupRun = z.object({
  tar: z.string().nullable(),
  device: z.string(),
  completed_on: z.string().describe('As the node prints it, in its own time zone'),
  started_at: z
    .string()
    .nullable()
    .describe('ISO 8601, from the tar name (or the completion date), read as UTC'),
  result: z.string().describe('SUCCESS or ERROR'),
  type: z.string().describe('SCHEDULED or MANUAL'),
  features: z.array(z.string()),
});

export const drfStatusOutput = {
  host: z.string(),
  history: z.array(backupRun).nullable().describe('null: the history answer was not recognised'),
  last_backup: backupRun.nullable(),
  last_successful_backup: backupRun.nullable(),
  status: z
    .object({
      available: z
        .boolean()
        .describe('false: the node has no backup status (no job since the DRF master started)'),
      status: z.string().nullable(),
      result: z.string().nullable(),
      tar: z.string().nullable(),
      storage: z.string().nullable(),
      operation: z.string().nullable(),
      percent_complete: z.number().nullable(),
      components: z.array(
        z.object({
          feature: z.string(),
          server: z.string(),
          component: z.string(),
          result: z.string(),
          at: z.string(),
          at_utc: z.string().nullable(),
          log: z.string(),
        }),
      ),
    })
    .nullable(),
  schedules: z.array(z.object({ name: z.string(), device: z.string(), enabled: z.boolean() })).nullable(),
  unrecognised: z.array(z.object({ command: z.string(), excerpt: z.string() })),
  errors: z.array(z.object({ command: z.string(), error: z.string(), message: z.string() })),
};
