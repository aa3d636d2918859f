// The structured results of <product>_service_status and <product>_service_control (their `output`
// shapes): what the node reported per service, and per node what failed.
import { z } from '../../../kernel/sdk/index.ts';
import { changeClass } from './output-shapes.ts';

const service = {
  name: z.string(),
  status: z.enum(['Started', 'Stopped', 'Starting', 'Stopping', 'Unknown']),
  reason_code: z.number().nullable(),
  reason: z.string().nullable(),
  start_time: z.string().nullable(),
  uptime_seconds: z.number().nullable(),
};

const specification = {
  type: z.string().nullable().optional(),
  deployable: z.boolean().optional(),
  group: z.string().nullable().optional(),
  dependent_services: z.array(z.string()).optional(),
};

const rateLimit = z.object({ per_minute: z.number(), remaining: z.number() });

const failure = z.object({
  node: z.string(),
  error: z.object({ code: z.string(), message: z.string(), retry_after_seconds: z.number().optional() }),
});

export const serviceStatusOutput = {
  complete: z.boolean(),
  nodes: z.array(
    z.object({
      node: z.string(),
      counts: z.object({ started: z.number(), stopped: z.number(), other: z.number() }),
      services: z.array(z.object({ ...service, ...specification })),
      unknown_services: z.array(z.string()),
      rate_limit: rateLimit,
    }),
  ),
  failed: z.array(failure),
};

export const serviceControlOutput = {
  node: z.string(),
  action: z.enum(['Start', 'Stop', 'Restart']),
  change_class: changeClass,
  // Absent from a dry run's answer (nothing was controlled).
  services: z.array(z.object({ ...service, changed: z.boolean() })).optional(),
  rate_limit: rateLimit.optional(),
};
