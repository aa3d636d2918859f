import { defineTool } from '../../../../../kernel/sdk/index.ts';
import { LOCAL_READ_ONLY } from './annotations.ts';

/** tools-call-embedded-resource. */
export default defineTool({
  name: 'embedded_resource',
  title: 'Embedded resource (conformance)',
  description: 'Returns an embedded text resource block. MCP conformance fixture.',
  input: {},
  annotations: LOCAL_READ_ONLY,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler() {
    return {
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    };
  },
});
