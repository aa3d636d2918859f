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
    const status = await ctx.kernel.status();
    if (input.check_integrity)
      status.integrity = (await ctx.kernel.checkIntegrity()) ?? { status: 'unavailable' };
    return structuredReply(status);
  },
});
