import { defineTool, textReply } from '../../../../../kernel/sdk/index.ts';
import { LOCAL_READ_ONLY } from './annotations.ts';

/**
 * server-stateless (no notifications/message without a requested log level): a tool that logs. Its log
 * goes to app.log, as every plugin's does; the server never sends log messages to the client.
 */
export default defineTool({
  name: 'logging_tool',
  title: 'Logging (conformance)',
  description: 'Writes a log line and answers. MCP conformance fixture.',
  input: {},
  annotations: LOCAL_READ_ONLY,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler(_input, ctx) {
    ctx.log.info('conformance logging tool called');
    return textReply('Logged.');
  },
});
