import {
  defineTool,
  type ToolDefinition,
  type ToolReply,
  type ToolContext,
  type ZodShape,
} from '../../../../../../kernel/sdk/index.ts';
import type { z } from '../../../../../../kernel/sdk/index.ts';
import { LOCAL_READ_ONLY } from '../annotations.ts';

/** A fixture tool that asks the client for input (the same declaration fields for every one). */
export function inputTool<I extends ZodShape>(o: {
  name: string;
  title: string;
  description: string;
  input?: I;
  handler(input: z.infer<z.ZodObject<I>>, ctx: ToolContext): Promise<ToolReply>;
}): ToolDefinition {
  return defineTool({
    name: o.name,
    title: `${o.title} (conformance)`,
    description: `${o.description} MCP conformance fixture.`,
    input: o.input ?? ({} as I),
    annotations: LOCAL_READ_ONLY,
    access: { minProfile: 'auditor' },
    service: 'default',
    handler: o.handler,
  });
}
