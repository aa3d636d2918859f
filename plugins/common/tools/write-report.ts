import { BadRequestError, NotFoundError, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { commonTool } from '../shared.ts';
import { headings, insertAfter, joinBlocks, resumeInto } from '../reports/sections.ts';

export default commonTool({
  name: 'write_report',
  title: 'Write a Markdown report',
  description:
    'Writes Markdown to one of your reports. Modes: create (fails if it exists), append (adds at the end of an existing report), overwrite (replaces everything), resume (continues an interrupted report: if the report already has the first heading of your content, everything from that heading on is replaced, so re-sending a section never duplicates it; otherwise appended), insert_after (inserts after the section that starts with the heading given as anchor). Returns the size and the list of section headings.',
  input: {
    name: z.string().max(128).describe('Report file name, e.g. cucm-audit-2026-11.md'),
    content: z
      .string()
      .max(10 * 1024 * 1024)
      .describe('Markdown to write'),
    mode: z.enum(['create', 'append', 'overwrite', 'resume', 'insert_after']),
    anchor: z
      .string()
      .max(512)
      .optional()
      .describe('insert_after only: the heading after whose section to insert, e.g. "## Findings"'),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  access: { minProfile: 'auditor' },
  service: 'report',
  async handler(input, ctx) {
    const store = ctx.shared.storeFor(ctx.caller.name);
    let replacedFrom: string | null = null;
    const { bytes } = await store.update(input.name, (current) => {
      switch (input.mode) {
        case 'create':
          if (current !== null)
            throw new BadRequestError(`report ${input.name} already exists; use append, overwrite or resume`);
          return input.content;
        case 'append':
          if (current === null) throw new NotFoundError(`no report named ${input.name}; create it first`);
          return joinBlocks(current, input.content);
        case 'overwrite':
          return input.content;
        case 'resume': {
          const r = resumeInto(current ?? '', input.content);
          replacedFrom = r.replacedFrom;
          return r.text;
        }
        case 'insert_after': {
          if (!input.anchor) throw new BadRequestError('insert_after needs an anchor heading');
          if (current === null) throw new NotFoundError(`no report named ${input.name}`);
          const out = insertAfter(current, input.anchor, input.content);
          if (out === null) throw new NotFoundError(`report ${input.name} has no heading "${input.anchor}"`);
          return out;
        }
      }
    });
    const text = await store.read(input.name);
    const sections = headings(text).map((h) => `${'#'.repeat(h.level)} ${h.text}`);
    ctx.audit({ event: 'WRITTEN', status: 'OK', report: input.name, mode: input.mode, bytes });
    return structuredReply({
      name: input.name,
      mode: input.mode,
      bytes,
      sections,
      last_section: sections.at(-1) ?? null,
      ...(replacedFrom ? { replaced_from: replacedFrom } : {}),
    });
  },
});
