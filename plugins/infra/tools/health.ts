import { defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'health',
  title: 'Server health',
  description: 'Liveness and readiness: status, ready, license state, server name, uptime.',
  input: {},
  output: {
    status: z.enum(['ok', 'degraded']),
    ready: z.boolean(),
    license: z.string(),
    server: z.string(),
    uptime_seconds: z.number(),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    return structuredReply({ ...ctx.kernel.health() });
  },
});
