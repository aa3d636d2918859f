import { z } from 'zod';
import { IntegrityError } from '../errors/index.ts';
import type {
  PluginDefinition,
  PromptDefinition,
  ResourceDefinition,
  ToolDefinition,
} from '../sdk/define.ts';
import type { Module, PluginModule, Product } from '../sdk/types.ts';
import type { CatalogueDoc } from '../sdk/kernel-services.ts';
import { TOOL_NAME } from './declaration.ts';
import { compactJsonSchema } from './compact-json-schema.ts';
import { publishedOutputSchema } from './output-schema.ts';

export interface RegisteredTool {
  name: string;
  plugin: LoadedPlugin;
  def: ToolDefinition;
  module: PluginModule;
  schema: z.ZodObject;
  inputJsonSchema: Record<string, unknown>;
  outputJsonSchema?: Record<string, unknown>;
}

export interface RegisteredPrompt {
  name: string;
  plugin: LoadedPlugin;
  def: PromptDefinition;
}

export interface RegisteredResource {
  uri: string;
  plugin: LoadedPlugin;
  def: ResourceDefinition;
  /** For a template `scheme://path/{var}`: the matcher and variable name. */
  template?: { pattern: RegExp; variable: string };
}

export interface LoadedPlugin {
  def: PluginDefinition;
  folder: string;
  /** The bundle's directory, as the load gate saw it (the gate is asked again after each check). */
  dir: string;
  shared: unknown;
  /** Product plugins are active only while the license allows their product. */
  active: boolean;
}

/**
 * Every verified plugin's tools, prompts and resources, under their published names. Product plugins
 * stay registered while unlicensed (so a call is answered with LicenseError, not "unknown tool") but
 * are hidden from listings until activated.
 */
export class PluginRegistry {
  readonly plugins = new Map<string, LoadedPlugin>();
  readonly tools = new Map<string, RegisteredTool>();
  readonly prompts = new Map<string, RegisteredPrompt>();
  readonly resources: RegisteredResource[] = [];
  private readonly listeners = new Set<(kind: 'tools' | 'prompts' | 'resources') => void>();
  /** Tools of bundles unregistered at run time, with why: a call is answered IntegrityError, not "unknown". */
  private readonly withdrawn = new Map<string, string>();

  add(plugin: LoadedPlugin): void {
    const { def } = plugin;
    if (this.plugins.has(def.id))
      throw new Error(`plugin ${def.id} is already registered (from ${this.plugins.get(def.id)?.folder})`);
    const tools: RegisteredTool[] = def.tools.map((t) => {
      const name = `${def.module}_${t.name}`;
      if (!TOOL_NAME.test(name))
        throw new Error(`plugin ${def.id}: tool name ${name} is not ^[a-z0-9_]{1,64}$`);
      if (this.tools.has(name))
        throw new Error(
          `plugin ${def.id}: tool ${name} is already published by ${this.tools.get(name)?.plugin.def.id}`,
        );
      const schema = z.object(t.input).strict();
      const inputJsonSchema = compactJsonSchema(
        z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>,
      );
      if (declaresParameterHeader(inputJsonSchema))
        throw new Error(
          `plugin ${def.id}: tool ${name} declares x-mcp-header, a parameter mirrored into an HTTP header (SEP-2243) that this server does not validate`,
        );
      return {
        name,
        plugin,
        def: t,
        module: def.module,
        schema,
        inputJsonSchema,
        ...(t.output ? { outputJsonSchema: publishedOutputSchema(t.output) } : {}),
      };
    });
    if (new Set(tools.map((t) => t.name)).size !== tools.length)
      throw new Error(`plugin ${def.id} declares a tool twice`);
    for (const p of def.prompts) {
      if (!p.name.startsWith(`${def.module}_`))
        throw new Error(`plugin ${def.id}: prompt ${p.name} must start with ${def.module}_`);
      if (this.prompts.has(p.name))
        throw new Error(`plugin ${def.id}: prompt ${p.name} is already registered`);
    }
    for (const r of def.resources) {
      if (!r.uri.startsWith(`${def.module}://`))
        throw new Error(`plugin ${def.id}: resource ${r.uri} must use the ${def.module}:// scheme`);
      if (this.resources.some((x) => x.uri === r.uri))
        throw new Error(`plugin ${def.id}: resource ${r.uri} is already registered`);
    }
    this.plugins.set(def.id, plugin);
    for (const t of tools) this.tools.set(t.name, t);
    for (const p of def.prompts) this.prompts.set(p.name, { name: p.name, plugin, def: p });
    for (const r of def.resources) this.resources.push({ uri: r.uri, plugin, def: r, ...templateOf(r.uri) });
  }

  /**
   * Removes a registered bundle at run time (an integrity check found it tampered with): its tools,
   * prompts and resources leave every listing at once and every session is told (list_changed). Its
   * tool names stay known, so a call is answered by `unavailable`, not taken for a typo. Returns the
   * plugin, or undefined when it was not registered.
   */
  unregister(id: string, reason: string): LoadedPlugin | undefined {
    const plugin = this.plugins.get(id);
    if (!plugin) return undefined;
    this.plugins.delete(id);
    for (const [name, t] of this.tools) {
      if (t.plugin !== plugin) continue;
      this.tools.delete(name);
      this.withdrawn.set(name, reason);
    }
    for (const [name, p] of this.prompts) if (p.plugin === plugin) this.prompts.delete(name);
    for (let i = this.resources.length - 1; i >= 0; i--)
      if (this.resources[i]?.plugin === plugin) this.resources.splice(i, 1);
    for (const kind of ['tools', 'prompts', 'resources'] as const) for (const l of this.listeners) l(kind);
    return plugin;
  }

  /** The error a call to a withdrawn tool gets (IntegrityError), or undefined for any other name. */
  unavailable(name: string): IntegrityError | undefined {
    const reason = this.withdrawn.get(name);
    return reason === undefined
      ? undefined
      : new IntegrityError(`${name} is unavailable: its plugin bundle was unloaded (${reason})`);
  }

  /** Activates exactly the product plugins whose product is in `products`; returns whether anything changed. */
  setLicensedProducts(products: readonly Product[]): boolean {
    let changed = false;
    for (const p of this.plugins.values()) {
      const active = p.def.product === null || products.includes(p.def.product);
      if (active !== p.active) {
        p.active = active;
        changed = true;
      }
    }
    if (changed)
      for (const kind of ['tools', 'prompts', 'resources'] as const) for (const l of this.listeners) l(kind);
    return changed;
  }

  activeTools(): RegisteredTool[] {
    return [...this.tools.values()].filter((t) => t.plugin.active);
  }

  activePrompts(): RegisteredPrompt[] {
    return [...this.prompts.values()].filter((p) => p.plugin.active);
  }

  activeResources(): RegisteredResource[] {
    return this.resources.filter((r) => r.plugin.active);
  }

  /** Loaded product modules (ids of active product plugins). */
  activeProductModules(): string[] {
    return [...this.plugins.values()].filter((p) => p.active && p.def.product !== null).map((p) => p.def.id);
  }

  /** The resource (fixed or template) a URI belongs to, with the template's variable bound. */
  resolveResource(uri: string): { resource: RegisteredResource; vars: Record<string, string> } | undefined {
    for (const r of this.resources) {
      if (r.uri === uri) return { resource: r, vars: {} };
      const m = r.template?.pattern.exec(uri);
      if (m && r.template)
        return { resource: r, vars: { [r.template.variable]: decodeURIComponent(m[1] as string) } };
    }
    return undefined;
  }

  onChange(listener: (kind: 'tools' | 'prompts' | 'resources') => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * A module as the catalogue (kernel/sdk) types it. In a product build every bundle's module is a Module;
 * only a test build loads a test-only bundle (module `test`, refused in the shipped plugins folder), so
 * the catalogue's 1.1 type stays as vendors compiled against it.
 */
export function catalogueModule(m: PluginModule): Module {
  return m as Module;
}

/** One readable document as MCP lists it: a fixed resource, a template, or a template's member. */
export type PublishedDoc = CatalogueDoc;

/**
 * A registered resource as it is published: itself, then for a template each member its `list` names,
 * as a concrete resource (a `{var}` URI is not readable as such). resources/list, infra_list_docs and
 * export_mcp_definitions all come from here, so they always name the same documents.
 */
export function publishedDocs(r: RegisteredResource): PublishedDoc[] {
  const module = catalogueModule(r.plugin.def.module);
  const own: PublishedDoc = {
    uri: r.uri,
    name: r.def.name,
    title: r.def.title,
    description: r.def.description,
    module,
    mimeType: r.def.mimeType,
    template: Boolean(r.template),
  };
  if (!r.template || !r.def.list) return [own];
  const variable = `{${r.template.variable}}`;
  return [
    own,
    ...r.def.list(r.plugin.shared).map((m) => ({
      uri: r.uri.replace(variable, encodeURIComponent(m.name)),
      name: m.name,
      title: m.title,
      description: m.description ?? r.def.description,
      module,
      mimeType: r.def.mimeType,
      template: false,
    })),
  ];
}

/**
 * Whether a JSON schema declares `x-mcp-header` anywhere (zod's `.meta()` passes it through). A client
 * would then send the parameter as an `Mcp-Param-*` header too, and the server would have to check the
 * two agree; it does not, so such a tool is refused rather than published half-served.
 */
function declaresParameterHeader(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(declaresParameterHeader);
  if (schema === null || typeof schema !== 'object') return false;
  return Object.entries(schema).some(([k, v]) => k === 'x-mcp-header' || declaresParameterHeader(v));
}

/** One `{var}` anywhere in the URI (`cucm://cli-guide/{topic}`, `x://items/{id}/data`); a value never spans a `/`. */
function templateOf(uri: string): { template?: { pattern: RegExp; variable: string } } {
  const m = /^([^{}]*)\{([a-z_]+)\}([^{}]*)$/.exec(uri);
  if (!m) return {};
  const escape = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return {
    template: {
      pattern: new RegExp(`^${escape(m[1] as string)}([A-Za-z0-9._%-]{1,128})${escape(m[3] as string)}$`),
      variable: m[2] as string,
    },
  };
}
