// The structured result of <product>_trace_level: per node, its trace tasks or one task's state.
import { z } from '../../../kernel/sdk/index.ts';
import { TRACE_LEVELS } from '../vos/trace-output.ts';

const level = z.enum(TRACE_LEVELS);

export const traceLevelOutput = {
  task: z.string().nullable(),
  level_set: z.enum([...TRACE_LEVELS, 'disabled']).nullable(),
  nodes: z.array(
    z.object({
      node: z.string(),
      tasks: z.array(z.string()).optional(),
      task: z.string().optional(),
      enabled: z.boolean().nullable().optional(),
      level: level.nullable().optional(),
      changed: z.boolean().optional(),
      recognised: z.boolean(),
      unrecognised: z.object({ command: z.string(), excerpt: z.string() }).optional(),
    }),
  ),
  failed: z.array(z.object({ node: z.string(), error: z.object({ code: z.string(), message: z.string() }) })),
  complete: z.boolean(),
};
