// completion/complete: what a caller may be offered for a prompt argument or a resource template variable.
import type { AppLogger } from '../logging/app-log.ts';
import type { LoadedPlugin, PluginRegistry } from '../plugins/registry.ts';
import type { KernelServices } from '../sdk/kernel-services.ts';
import type { CallerInfo, Product } from '../sdk/types.ts';
import type { Vault } from '../vault/index.ts';

/** The most values one answer carries (MCP: at most 100); `total` and `hasMore` say how many matched. */
export const MAX_COMPLETIONS = 100;

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export type CompletionAnswer = { values: string[]; total: number; hasMore: boolean };

export interface ArgumentCompleterDeps {
  registry: PluginRegistry;
  kernel: KernelServices;
  vault: Vault;
  log: AppLogger;
}

/**
 * Suggestions by argument name, the same for every prompt and template that has the argument: `host` is
 * the caller's own stored hosts (its vault only) of the products it may use, anything else what the
 * argument declares (`complete`, a template's members) and what plugins suggest for that name (the AXL
 * operations for `operation`). The prompt or template must be one this caller sees; a product
 * plugin's own prompt gets suggestions of its product only.
 */
export class ArgumentCompleter {
  constructor(private readonly deps: ArgumentCompleterDeps) {}

  async complete(
    caller: CallerInfo,
    ip: string,
    ref: CompletionRef,
    argument: { name: string; value: string },
  ): Promise<CompletionAnswer> {
    const target = this.target(caller, ref, argument.name);
    if (!target) return { values: [], total: 0, hasMore: false };
    const prefix = argument.value;
    // The argument's own values first, in its order; then stored hosts and plugins' values, sorted.
    const found = new Set<string>(target.own(prefix));
    const products = this.products(caller, target.plugin);
    const more: string[] = argument.name === 'host' ? await this.hosts(caller, ip, products) : [];
    for (const plugin of this.askable(target.plugin, products))
      more.push(...(await this.fromPlugin(plugin, argument.name, prefix)));
    for (const v of more.sort()) found.add(v);
    const lower = prefix.toLowerCase();
    const matching = [...found].filter((v) => v.toLowerCase().startsWith(lower));
    return {
      values: matching.slice(0, MAX_COMPLETIONS),
      total: matching.length,
      hasMore: matching.length > MAX_COMPLETIONS,
    };
  }

  /** The prompt argument or template variable the request names, if this caller sees it. */
  private target(
    caller: CallerInfo,
    ref: CompletionRef,
    name: string,
  ): { plugin: LoadedPlugin; own: (prefix: string) => string[] } | undefined {
    const catalogue = this.deps.kernel.catalogue(caller);
    if (ref.type === 'ref/prompt') {
      if (!catalogue.prompts.some((p) => p.name === ref.name)) return undefined;
      const prompt = this.deps.registry.prompts.get(ref.name);
      const arg = prompt?.def.arguments.find((a) => a.name === name);
      if (!prompt || !arg) return undefined;
      return { plugin: prompt.plugin, own: (prefix) => arg.complete?.(prefix) ?? [] };
    }
    if (!catalogue.docs.some((d) => d.template && d.uri === ref.uri)) return undefined;
    const resource = this.deps.registry.resources.find((r) => r.uri === ref.uri);
    if (!resource?.template || resource.template.variable !== name) return undefined;
    const { def, plugin } = resource;
    return { plugin, own: () => (def.list?.(plugin.shared) ?? []).map((m) => m.name) };
  }

  /** The products the caller may use (licensed, in its scope), narrowed to a product plugin's own. */
  private products(caller: CallerInfo, plugin: LoadedPlugin): Product[] {
    const licensed = new Set(this.deps.kernel.licensedProducts());
    const usable = this.deps.kernel.permissions(caller).products.filter((p) => licensed.has(p));
    const own = plugin.def.product;
    return own === null ? usable : usable.filter((p) => p === own);
  }

  /** The hosts this caller stored credentials for, for these products: its own vault, nobody else's. */
  private async hosts(caller: CallerInfo, ip: string, products: Product[]): Promise<string[]> {
    if (products.length === 0) return [];
    const vault = this.deps.vault.forClient(caller.name, { ip });
    const out: string[] = [];
    try {
      for (const p of products) for (const e of await vault.list(p)) out.push(e.host);
    } catch (err) {
      this.deps.log.warn({ err, client: caller.name }, 'stored hosts could not be listed for completion');
    }
    return out;
  }

  /** The prompt's own plugin; for a prompt of infra or common, every active plugin of a usable product. */
  private askable(plugin: LoadedPlugin, products: Product[]): LoadedPlugin[] {
    if (plugin.def.product !== null) return products.length > 0 && plugin.active ? [plugin] : [];
    return [...this.deps.registry.plugins.values()].filter(
      (p) =>
        p === plugin || (p.active && p.def.product !== null && products.includes(p.def.product as Product)),
    );
  }

  private async fromPlugin(plugin: LoadedPlugin, name: string, prefix: string): Promise<string[]> {
    if (!plugin.def.completeArgument) return [];
    try {
      const values = await plugin.def.completeArgument(name, prefix, plugin.shared);
      return values.filter((v): v is string => typeof v === 'string');
    } catch (err) {
      // A suggestion is a convenience: a plugin that fails to give one costs the caller nothing else.
      this.deps.log.warn({ err, plugin: plugin.def.id, argument: name }, 'argument completion failed');
      return [];
    }
  }
}
