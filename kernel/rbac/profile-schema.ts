import { z } from 'zod';
import { DEFAULT_WRITES, WRITE_MODES } from './writes.ts';

const globList = z.array(z.string().min(1).max(256)).max(1000);
const rule = z.object({ allow: globList.default([]), deny: globList.default([]) }).strict();
const cupiRule = z
  .object({
    methods: z.array(z.enum(['GET', 'POST', 'PUT', 'DELETE'])).min(1),
    path: z.string().startsWith('/vmrest/').max(256),
  })
  .strict();
const window = z
  .object({
    limit: z.number().int().positive().max(1_000_000),
    windowSeconds: z.number().int().positive().max(86_400),
  })
  .strict();

/**
 * An RBAC profile file (profiles/<name>.json). It decides which tools the client may call, which
 * products it may reach, what each allowlist permits (AXL operations, RIS operations, VOS CLI commands,
 * CUPI method + path) and the sliding-window rate limit per module and service.
 */
export const profileSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/),
    description: z.string().max(1000).default(''),
    products: z.array(z.enum(['cucm', 'imp', 'cuc'])).default([]),
    tools: rule,
    allowlists: z
      .object({
        axl: rule.default({ allow: [], deny: [] }),
        ris: rule.default({ allow: [], deny: [] }),
        /** Serviceability SOAP operations (perfmonCollectCounterData, soapDoControlServices...). */
        serviceability: rule.default({ allow: [], deny: [] }),
        ssh: rule.default({ allow: [], deny: [] }),
        cupi: z
          .object({ allow: z.array(cupiRule).default([]), deny: z.array(cupiRule).default([]) })
          .strict()
          .default({ allow: [], deny: [] }),
      })
      .strict(),
    /**
     * Whether a `change` goes ahead as asked (direct), after confirmation (confirm), or is only ever
     * previewed (preview-only); a `destructive` change always needs confirmation (kernel/rbac/writes.ts).
     */
    writes: z.enum(WRITE_MODES).default(DEFAULT_WRITES),
    /** rateLimits[module][service]; `default` applies to a module's tools that name no other service. */
    rateLimits: z.partialRecord(
      z.enum(['cucm', 'imp', 'cuc', 'common', 'infra', 'test']),
      z.partialRecord(
        z.enum(['axl', 'ris', 'ssh', 'cupi', 'phone', 'serviceability', 'report', 'default']),
        window,
      ),
    ),
  })
  .strict();

export type Profile = z.output<typeof profileSchema>;
export type CupiRule = z.output<typeof cupiRule>;
