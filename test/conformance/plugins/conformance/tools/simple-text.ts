import { defineTool, textReply } from '../../../../../kernel/sdk/index.ts';
import { LOCAL_READ_ONLY } from './annotations.ts';

/** tools-call-simple-text. */
export default defineTool({
  name: 'simple_text',
  title: 'Simple text (conformance)',
  description: 'Returns one text block. MCP conformance fixture.',
  input: {},
  annotations: LOCAL_READ_ONLY,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler() {
    return textReply('This is a simple text response for testing.');
  },
});
