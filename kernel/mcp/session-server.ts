import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type CacheHint,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { isKernelError } from '../errors/index.ts';
import { KernelServer } from './kernel-server.ts';
import type { PluginRegistry } from '../plugins/registry.ts';
import type { KernelServices } from '../sdk/kernel-services.ts';
import type { CallerInfo } from '../sdk/types.ts';
import type { ToolRunner } from './tool-runner.ts';
import type { OwnedFiles } from '../files/owned-files.ts';
import { FULL_VIEW, type ToolView } from './toolsets.ts';
import { isUnknownTool, unknownToolError } from './unknown-tool.ts';
import { installTasks, TASK_CAPABILITIES } from './tasks/task-methods.ts';
import type { TaskDirectory } from './tasks/task-directory.ts';
import { resourceNotFound } from './resource-not-found.ts';
import type { ArgumentCompleter } from './argument-completion.ts';

export interface SessionServerDeps {
  name: string;
  version: string;
  registry: PluginRegistry;
  runner: ToolRunner;
  kernel: KernelServices;
  /** completion/complete: suggestions by argument name (stored hosts, AXL operations...). */
  completions: ArgumentCompleter;
  /** Clients' own files (report://<client>/<name>): listed, and read, for their owner only. */
  files: OwnedFiles;
  /** Tool calls that outlive their request (MCP tasks); without it, every call is a plain one. */
  tasks?: TaskDirectory;
}

/**
 * How long a 2026-07-28 client may keep a list or a resource before asking again. Private: what a
 * caller sees depends on its profile and the license. A minute bounds how long a change of either
 * takes to reach a client that does not listen for change notifications; the bundled documents do
 * not change while the server runs.
 */
export const CACHE_HINTS: Record<
  'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read',
  CacheHint
> = {
  'tools/list': { ttlMs: 60_000, cacheScope: 'private' },
  'prompts/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/read': { ttlMs: 300_000, cacheScope: 'private' },
};

/**
 * One low-level MCP Server (SDK v2) bound to its caller: per 2025-11-25 session, or per 2026-07-28
 * request. Every handler goes through the kernel (runner, catalogue, prompt and doc services), so the
 * native MCP methods and the infra tools see exactly the same filtered content, in either revision.
 */
export function createSessionServer(
  deps: SessionServerDeps,
  caller: CallerInfo,
  ip: () => string,
  view: ToolView = FULL_VIEW,
): KernelServer {
  const server = new KernelServer(
    { name: deps.name, version: deps.version },
    {
      cacheHints: CACHE_HINTS,
      // A tool's multi-round-trip state is sealed by the kernel: a forged, expired or foreign one is
      // answered -32602 before the round reaches the tool (the runner checks it again, with the tool).
      requestState: {
        verify: (state) => {
          deps.runner.checkRequestState(state, caller.name);
        },
      },
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true },
        completions: {},
        ...(deps.tasks ? TASK_CAPABILITIES : {}),
      },
      instructions:
        'Call infra_init_session first: it returns the tool and prompt catalogue and your effective RBAC matrix.',
    },
  );

  const tasks = deps.tasks
    ? installTasks(server, deps.tasks, caller, (name) => {
        const t = deps.registry.tools.get(name);
        return t && deps.runner.permits(t, caller, view) ? t : undefined;
      })
    : undefined;

  // Only what this caller may call: the runner's own decision, asked again at every list, so a profile,
  // license or scope change shows in the next list (and the change notification says to ask).
  server.setRequestHandler('tools/list', () => ({
    tools: deps.registry
      .activeTools()
      .filter((t) => deps.runner.permits(t, caller, view))
      .map((t) => ({
        name: t.name,
        title: t.def.title,
        description: t.def.description,
        inputSchema: t.inputJsonSchema as { type: 'object' },
        ...(t.outputJsonSchema ? { outputSchema: t.outputJsonSchema as { type: 'object' } } : {}),
        // The title is the tool's own (since 2025-06-18); annotations.title would repeat it per tool.
        annotations: { ...t.def.annotations },
        ...(tasks && t.def.task ? { execution: { taskSupport: t.def.task } } : {}),
      })),
  }));

  server.setRequestHandler('tools/call', async (req, extra) => {
    const task = tasks?.start(req.params, extra, (signal, progress) =>
      deps.runner.call(req.params.name, req.params.arguments ?? {}, {
        caller,
        ip: ip(),
        view,
        signal,
        progress,
      }),
    );
    // A task handle, not a CallToolResult: the server's wrapper lets it past the SDK's result check.
    if (task) return task as unknown as CallToolResult;
    const token = req.params._meta?.progressToken;
    const unknown = isUnknownTool(deps.registry, req.params.name);
    const result = await deps.runner.call(req.params.name, req.params.arguments ?? {}, {
      caller,
      ip: ip(),
      view,
      signal: extra.mcpReq.signal,
      input: {
        capabilities:
          (extra.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ??
          server.getClientCapabilities(),
        responses: extra.mcpReq.inputResponses,
        state: extra.mcpReq.requestState(),
      },
      ...(token !== undefined
        ? {
            progress: async (progress: number, total?: number, message?: string) => {
              await extra.mcpReq.notify({
                method: 'notifications/progress',
                params: {
                  progressToken: token,
                  progress,
                  ...(total !== undefined ? { total } : {}),
                  ...(message ? { message } : {}),
                },
              });
            },
          }
        : {}),
    });
    if (unknown) throw unknownToolError(req.params.name);
    // The runner's results are built to the MCP content shapes; its type is the plugin contract's own.
    return result as CallToolResult | InputRequiredResult;
  });

  server.setRequestHandler('prompts/list', () =>
    wrap(() => ({
      prompts: deps.kernel.catalogue(caller).prompts.map((p) => ({
        name: p.name,
        title: p.title,
        description: p.description,
        arguments: p.arguments,
      })),
    })),
  );

  server.setRequestHandler('prompts/get', (req) =>
    wrap(() =>
      deps.kernel.getPrompt(caller, req.params.name, (req.params.arguments ?? {}) as Record<string, string>),
    ),
  );

  server.setRequestHandler('completion/complete', (req) =>
    wrap(async () => ({
      completion: await deps.completions.complete(caller, ip(), req.params.ref, req.params.argument),
    })),
  );

  server.setRequestHandler('resources/list', () =>
    wrap(() => ({
      resources: [
        ...deps.kernel
          .catalogue(caller)
          .docs.filter((d) => !d.template)
          .map((d) => ({
            uri: d.uri,
            name: d.name,
            title: d.title,
            description: d.description,
            mimeType: d.mimeType,
          })),
        ...deps.files.list(caller),
      ],
    })),
  );

  server.setRequestHandler('resources/templates/list', () =>
    wrap(() => ({
      resourceTemplates: [
        ...deps.kernel
          .catalogue(caller)
          .docs.filter((d) => d.template)
          .map((d) => ({
            uriTemplate: d.uri,
            name: d.name,
            title: d.title,
            description: d.description,
            mimeType: d.mimeType,
          })),
        ...deps.files.templates(caller),
      ],
    })),
  );

  server.setRequestHandler('resources/read', (req, extra) =>
    wrap(
      async () => {
        // A client's own file changes with every write: never kept by a 2026-07-28 client (ttlMs 0).
        if (deps.files.claims(req.params.uri))
          return { contents: [await deps.files.read(caller, req.params.uri)], ttlMs: 0 };
        const doc = await deps.kernel.readDoc(caller, req.params.uri);
        return { contents: [{ uri: doc.uri, mimeType: doc.mimeType, text: doc.text }] };
      },
      (message) => resourceNotFound(req.params.uri, extra.mcpReq.envelope, message),
    ),
  );

  return server;
}

/**
 * Coded kernel errors become JSON-RPC errors with the code in the message; nothing else leaks. A
 * method with its own not-found answer (resources/read) gives `notFound`.
 */
async function wrap<T>(fn: () => T | Promise<T>, notFound?: (message: string) => ProtocolError): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isKernelError(err) && err.expose) {
      if (notFound && err.status === 404) throw notFound(`${err.code}: ${err.message}`);
      const code =
        err.status === 404 || err.status === 400
          ? ProtocolErrorCode.InvalidParams
          : ProtocolErrorCode.InvalidRequest;
      throw new ProtocolError(code, `${err.code}: ${err.message}`);
    }
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'internal error');
  }
}
