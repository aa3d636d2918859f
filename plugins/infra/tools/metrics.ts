import { defineTool, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'metrics',
  title: 'Server metrics',
  description: "This server's metrics as JSON (as GET /metrics).",
  input: {},
  output: {
    metrics: z.record(
      z.string(),
      z.looseObject({ type: z.string(), help: z.string(), values: z.array(z.unknown()) }),
    ),
  },
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    return structuredReply({ metrics: await ctx.kernel.metricsSnapshot() });
  },
});
