import { defineTool, structuredReply } from '../../../kernel/sdk/index.ts';
import { READ_ONLY_LOCAL } from './annotations.ts';

export default defineTool({
  name: 'health',
  title: 'Server health',
  description: 'Liveness and readiness of this server: status, ready, license state, server name and uptime.',
  input: {},
  annotations: READ_ONLY_LOCAL,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    return structuredReply({ ...ctx.kernel.health() });
  },
});
