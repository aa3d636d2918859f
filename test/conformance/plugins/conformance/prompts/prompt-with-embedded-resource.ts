import { definePrompt } from '../../../../../kernel/sdk/index.ts';

/** prompts-get-embedded-resource. */
export default definePrompt({
  name: 'test_prompt_with_embedded_resource',
  title: 'Prompt with an embedded resource (conformance)',
  description: 'Embeds a text document under the URI given. MCP conformance fixture.',
  arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  render: (args) => [
    {
      role: 'user',
      content: {
        type: 'resource',
        resource: {
          uri: args.resourceUri ?? '',
          mimeType: 'text/plain',
          text: 'Embedded resource content for testing.',
        },
      },
    },
    { role: 'user', text: 'Please process the embedded resource above.' },
  ],
});
