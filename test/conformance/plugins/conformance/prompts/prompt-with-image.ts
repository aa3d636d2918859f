import { definePrompt } from '../../../../../kernel/sdk/index.ts';
import { RED_PIXEL_PNG } from '../media.ts';

/** prompts-get-with-image. */
export default definePrompt({
  name: 'test_prompt_with_image',
  title: 'Prompt with an image (conformance)',
  description: 'An image message, then a text one. MCP conformance fixture.',
  arguments: [],
  render: () => [
    { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
    { role: 'user', text: 'Please analyze the image above.' },
  ],
});
