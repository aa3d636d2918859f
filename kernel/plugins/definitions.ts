import { publishedDocs, type PluginRegistry } from './registry.ts';
import { filesTemplate } from '../files/file-templates.ts';

/** A published tool's public surface: what an MCP client sees, plus the access rule and service. */
export interface ToolSnapshot {
  name: string;
  title: string;
  description: string;
  module: string;
  plugin: string;
  access: string;
  service: string;
  annotations: Record<string, boolean>;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** 2025-11-25 tools/list: the tool may run as an MCP task (docs/tasks.md). */
  execution?: { taskSupport: 'optional' };
}

/**
 * Every registered tool, prompt and resource as published, sorted by name. The committed tool
 * snapshots and `export_mcp_definitions` are both made from this, so they cannot drift apart.
 */
export function exportDefinitions(registry: PluginRegistry): {
  tools: ToolSnapshot[];
  prompts: { name: string; title: string; description: string; arguments: unknown[] }[];
  /** What resources/list shows: fixed resources and every member of every template, concrete. */
  resources: { uri: string; name: string; title: string; description: string; mimeType: string }[];
  /** What resources/templates/list shows (a template of clients' own files has no MIME type). */
  resourceTemplates: {
    uriTemplate: string;
    name: string;
    title: string;
    description: string;
    mimeType?: string;
  }[];
} {
  const tools = [...registry.tools.values()]
    .map((t) => ({
      name: t.name,
      title: t.def.title,
      description: t.def.description,
      module: t.module,
      plugin: t.plugin.def.id,
      access:
        'allowlist' in t.def.access
          ? `allowlist:${t.def.access.allowlist}`
          : `minProfile:${t.def.access.minProfile}`,
      service: t.def.service,
      annotations: { ...t.def.annotations },
      inputSchema: t.inputJsonSchema,
      ...(t.outputJsonSchema ? { outputSchema: t.outputJsonSchema } : {}),
      ...(t.def.task ? { execution: { taskSupport: t.def.task } } : {}),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const prompts = [...registry.prompts.values()]
    .map((p) => ({
      name: p.name,
      title: p.def.title,
      description: p.def.description,
      arguments: p.def.arguments.map((a) => ({
        name: a.name,
        description: a.description,
        required: a.required,
      })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const docs = registry.resources.flatMap(publishedDocs);
  const resources = docs
    .filter((d) => !d.template)
    .map(({ uri, name, title, description, mimeType }) => ({ uri, name, title, description, mimeType }))
    .sort((a, b) => a.uri.localeCompare(b.uri));
  const resourceTemplates = [
    ...docs
      .filter((d) => d.template)
      .map(({ uri, name, title, description, mimeType }) => ({
        uriTemplate: uri,
        name,
        title,
        description,
        mimeType,
      })),
    ...[...registry.plugins.values()].flatMap((p) => (p.def.files ?? []).map(filesTemplate)),
  ].sort((a, b) => a.uriTemplate.localeCompare(b.uriTemplate));
  return { tools, prompts, resources, resourceTemplates };
}
