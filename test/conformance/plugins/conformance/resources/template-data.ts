import { defineResource } from '../../../../../kernel/sdk/index.ts';

/** resources-templates-read: the id in the URI is substituted into the document. */
export default defineResource({
  uri: 'test://template/{id}/data',
  name: 'template-data',
  title: 'Template data (conformance)',
  description: 'A JSON document per id. MCP conformance fixture.',
  mimeType: 'application/json',
  read: (_uri, vars) => JSON.stringify({ id: vars.id, templateTest: true, data: `Data for ID: ${vars.id}` }),
});
