import { defineTool, structuredReply } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'metrics',
  title: 'Server metrics',
  description:
    'Raw metrics of this server (counters, gauges, histograms), the same as GET /metrics, as JSON.',
  input: {},
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    return structuredReply({ metrics: await ctx.kernel.metricsSnapshot() });
  },
});
