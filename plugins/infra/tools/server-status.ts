import { defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'server_status',
  title: 'Full server status',
  description:
    'Full status: server, license, backup, requests (per-category counters) and security (TLS, OAuth). With check_integrity, runs the software integrity check now and includes its report.',
  input: {
    check_integrity: z
      .boolean()
      .default(false)
      .describe('Run the integrity check now and include the report'),
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
