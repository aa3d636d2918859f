import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isKernelError } from '../errors/index.ts';
import type { PluginRegistry } from '../plugins/registry.ts';
import type { KernelServices } from '../sdk/kernel-services.ts';
import type { CallerInfo } from '../sdk/types.ts';
import type { ToolRunner } from './tool-runner.ts';

export interface SessionServerDeps {
  name: string;
  version: string;
  registry: PluginRegistry;
  runner: ToolRunner;
  kernel: KernelServices;
}

/**
 * One low-level MCP Server per session, bound to its caller. Every handler goes through the kernel
 * (runner, catalogue, prompt and doc services), so the native MCP methods and the infra tools see
 * exactly the same filtered content.
 */
export function createSessionServer(deps: SessionServerDeps, caller: CallerInfo, ip: () => string): Server {
  const server = new Server(
    { name: deps.name, version: deps.version },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true },
        completions: {},
      },
      instructions:
        'Call infra_init_session first: it returns the tool and prompt catalogue and your effective RBAC matrix.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: deps.registry.activeTools().map((t) => ({
      name: t.name,
      title: t.def.title,
      description: t.def.description,
      inputSchema: t.inputJsonSchema as { type: 'object' },
      ...(t.outputJsonSchema ? { outputSchema: t.outputJsonSchema as { type: 'object' } } : {}),
      annotations: { title: t.def.title, ...t.def.annotations },
    })),
  }));

  server.setRequestHandler(lenient(CallToolRequestSchema), async (raw, extra) => {
    const req = strict(CallToolRequestSchema, raw);
    const token = req.params._meta?.progressToken;
    return deps.runner.call(req.params.name, req.params.arguments ?? {}, {
      caller,
      ip: ip(),
      signal: extra.signal,
      ...(token !== undefined
        ? {
            progress: async (progress: number, total?: number, message?: string) => {
              await extra.sendNotification({
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
  });

  server.setRequestHandler(ListPromptsRequestSchema, () =>
    wrap(() => ({
      prompts: deps.kernel.catalogue(caller).prompts.map((p) => ({
        name: p.name,
        title: p.title,
        description: p.description,
        arguments: p.arguments,
      })),
    })),
  );

  server.setRequestHandler(lenient(GetPromptRequestSchema), (raw) => {
    const req = strict(GetPromptRequestSchema, raw);
    return wrap(() =>
      deps.kernel.renderPrompt(
        caller,
        req.params.name,
        (req.params.arguments ?? {}) as Record<string, string>,
      ),
    );
  });

  server.setRequestHandler(lenient(CompleteRequestSchema), (raw) => {
    const req = strict(CompleteRequestSchema, raw);
    return wrap(() => {
      const ref = req.params.ref;
      const values: string[] = [];
      if (ref.type === 'ref/prompt') {
        const visible = deps.kernel.catalogue(caller).prompts.some((p) => p.name === ref.name);
        const arg = visible
          ? deps.registry.prompts
              .get(ref.name)
              ?.def.arguments.find((a) => a.name === req.params.argument.name)
          : undefined;
        if (arg?.complete) values.push(...arg.complete(req.params.argument.value).slice(0, 100));
      }
      return { completion: { values, total: values.length, hasMore: false } };
    });
  });

  server.setRequestHandler(ListResourcesRequestSchema, () =>
    wrap(() => ({
      resources: deps.kernel
        .catalogue(caller)
        .docs.filter((d) => !d.template)
        .map((d) => ({
          uri: d.uri,
          name: d.name,
          title: d.title,
          description: d.description,
          mimeType: d.mimeType,
        })),
    })),
  );

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () =>
    wrap(() => ({
      resourceTemplates: deps.kernel
        .catalogue(caller)
        .docs.filter((d) => d.template)
        .map((d) => ({
          uriTemplate: d.uri,
          name: d.name,
          title: d.title,
          description: d.description,
          mimeType: d.mimeType,
        })),
    })),
  );

  server.setRequestHandler(lenient(ReadResourceRequestSchema), (raw) => {
    const req = strict(ReadResourceRequestSchema, raw);
    return wrap(async () => {
      const doc = await deps.kernel.readDoc(caller, req.params.uri);
      return { contents: [{ uri: doc.uri, mimeType: doc.mimeType, text: doc.text }] };
    });
  });

  return server;
}

/**
 * The SDK checks a request against its handler's schema before calling the handler and answers a
 * mismatch as InternalError (-32603) with zod's whole issue list: a caller's malformed params looking
 * like a server fault. Handlers here are registered with params left open (`lenient`) and check them
 * themselves (`strict`), answering InvalidParams (-32602) with a one-line reason.
 */
function lenient<S extends z.ZodObject>(schema: S) {
  return schema.extend({ params: z.unknown() });
}

function strict<S extends z.ZodType>(schema: S, request: unknown): z.output<S> {
  const parsed = schema.safeParse(request);
  if (parsed.success) return parsed.data;
  const why = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(request)'}: ${i.message}`)
    .join('; ');
  throw new McpError(ErrorCode.InvalidParams, `BAD_REQUEST: invalid params: ${why}`);
}

/** Coded kernel errors become JSON-RPC errors with the code in the message; nothing else leaks. */
async function wrap<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isKernelError(err) && err.expose) {
      const code =
        err.status === 404 || err.status === 400 ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
      throw new McpError(code, `${err.code}: ${err.message}`);
    }
    throw new McpError(ErrorCode.InternalError, 'internal error');
  }
}
