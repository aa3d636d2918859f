import { structuredReply, z } from '../../../kernel/sdk/index.ts';
import { commonTool } from '../shared.ts';
import { DEFAULT_CHUNK_BYTES } from '../reports/store.ts';

export default commonTool({
  name: 'read_report',
  title: 'Read a report',
  description:
    'Reads one of your reports in chunks; pass next_cursor to go on (null at the end). Without a name, lists your reports.',
  input: {
    name: z.string().max(128).optional().describe('Report file name; omit to list your reports'),
    cursor: z.number().int().min(0).default(0).describe('Byte offset from a previous next_cursor'),
    max_bytes: z
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024)
      .default(DEFAULT_CHUNK_BYTES),
  },
  // Without a name, the list of reports; with one, a chunk of it.
  output: {
    reports: z.array(z.object({ name: z.string(), bytes: z.number(), modified: z.string() })).optional(),
    name: z.string().optional(),
    size: z.number().optional(),
    cursor: z.number().optional(),
    next_cursor: z.number().nullable().optional(),
    eof: z.boolean().optional(),
    content: z.string().optional(),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: { minProfile: 'auditor' },
  service: 'report',
  async handler(input, ctx) {
    const store = ctx.shared.storeFor(ctx.caller.name);
    if (!input.name) return structuredReply({ reports: store.list() });
    const chunk = store.readChunk(input.name, input.cursor, input.max_bytes);
    return structuredReply({
      name: input.name,
      size: chunk.size,
      cursor: input.cursor,
      next_cursor: chunk.next,
      eof: chunk.next === null,
      content: chunk.text,
    });
  },
});
