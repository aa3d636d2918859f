import { defineResource } from '../../../../../kernel/sdk/index.ts';

/** resources-read-text (and resources-list). */
export default defineResource({
  uri: 'test://static-text',
  name: 'static-text',
  title: 'Static text (conformance)',
  description: 'A fixed text document. MCP conformance fixture.',
  mimeType: 'text/plain',
  read: () => 'This is the content of the static text resource.',
});
