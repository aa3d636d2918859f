import type { OwnedFilesDefinition } from '../sdk/define.ts';

/**
 * The resource template a plugin's owned files publish (`report://{client}/{name}`), the same for every
 * caller: resources/templates/list and export_mcp_definitions both show this. No MIME type: a scheme's
 * files may be of several (a report's Markdown and its PDF).
 */
export function filesTemplate(def: Pick<OwnedFilesDefinition, 'scheme' | 'title' | 'description'>): {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
} {
  return {
    uriTemplate: `${def.scheme}://{client}/{name}`,
    name: def.scheme,
    title: def.title,
    description: `${def.description} Only the client that made a file can read it: {client} is your client name.`,
  };
}
