import { defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'server_status',
  title: 'Full server status',
  description:
    'Status of server, license, backup, requests and security (TLS, OAuth); with check_integrity, runs the integrity check and includes its report.',
  input: {
    check_integrity: z.boolean().default(false).describe('Run it now'),
  },
  // The report's sections are the kernel's (GET /status and more); their fields may grow.
  output: {
    server: z.looseObject({ name: z.string(), version: z.string() }),
    license: z.looseObject({ state: z.string() }),
    backup: z.unknown(),
    integrity: z.unknown(),
    security: z.looseObject({}),
    modules: z.unknown(),
    clients: z.looseObject({}),
    requests: z.looseObject({}),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(input, ctx) {
    // The kernel runs the check first and builds the whole report from its result: `integrity` and
    // `security.integrity` then always carry the same verdict.
    return structuredReply(await ctx.kernel.status({ checkIntegrity: input.check_integrity }));
  },
});
