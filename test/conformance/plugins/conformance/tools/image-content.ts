import { defineTool } from '../../../../../kernel/sdk/index.ts';
import { RED_PIXEL_PNG } from '../media.ts';
import { LOCAL_READ_ONLY } from './annotations.ts';

/** tools-call-image. */
export default defineTool({
  name: 'image_content',
  title: 'Image content (conformance)',
  description: 'Returns a 1x1 PNG image block. MCP conformance fixture.',
  input: {},
  annotations: LOCAL_READ_ONLY,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler() {
    return { content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] };
  },
});
