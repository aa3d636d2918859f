import { defineTool } from '../../../../../kernel/sdk/index.ts';
import { RED_PIXEL_PNG } from '../media.ts';
import { LOCAL_READ_ONLY } from './annotations.ts';

/** tools-call-mixed-content. */
export default defineTool({
  name: 'multiple_content_types',
  title: 'Mixed content (conformance)',
  description: 'Returns a text, an image and an embedded resource block. MCP conformance fixture.',
  input: {},
  annotations: LOCAL_READ_ONLY,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler() {
    return {
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    };
  },
});
