import { BadRequestError, defineTool } from '../../../../../kernel/sdk/index.ts';
import { LOCAL_READ_ONLY } from './annotations.ts';

/** tools-call-error: a handler that fails with a coded error, answered as an isError tool result. */
export default defineTool({
  name: 'error_handling',
  title: 'Error handling (conformance)',
  description: 'Always fails with a coded error. MCP conformance fixture.',
  input: {},
  annotations: LOCAL_READ_ONLY,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler() {
    throw new BadRequestError('This tool intentionally returns an error for testing');
  },
});
