import { BadRequestError, NotFoundError, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { commonTool } from '../shared.ts';
import { HANDED_OVER, handOver } from '../reports/hand-over.ts';
import { insertAfter, joinBlocks, outline, quoteHeadingText, resumeInto } from '../reports/sections.ts';

/** Headings listed in a write's answer; a report with more says how many it has. */
const SECTIONS_LISTED = 1000;

export default commonTool({
  name: 'write_report',
  title: 'Write a Markdown report',
  description:
    "Writes Markdown to one of your reports. mode: create, append, overwrite, resume (replaces from your content's first heading if present, else appends), insert_after (after the section headed anchor). Returns size, headings, a report:// link and a one-time download_url.",
  input: {
    name: z.string().max(128).describe('Report file name, e.g. cucm-audit-2026-11.md'),
    content: z.string().max(10 * 1024 * 1024),
    mode: z.enum(['create', 'append', 'overwrite', 'resume', 'insert_after']),
    anchor: z.string().max(512).optional().describe('insert_after: the section heading, e.g. "## Findings"'),
  },
  output: {
    name: z.string(),
    mode: z.string(),
    bytes: z.number(),
    sections: z.array(z.string()),
    sections_total: z.number().optional(),
    last_section: z.string().nullable(),
    replaced_from: z.string().optional(),
    ...HANDED_OVER,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  access: { minProfile: 'auditor' },
  service: 'report',
  async handler(input, ctx) {
    const store = ctx.shared.storeFor(ctx.caller.name);
    let replacedFrom: string | null = null;
    const { bytes, text } = await store.update(input.name, (current) => {
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
          replacedFrom = r.replacedFrom === null ? null : quoteHeadingText(r.replacedFrom);
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
    const sections = outline(text, SECTIONS_LISTED);
    ctx.audit({ event: 'WRITTEN', status: 'OK', report: input.name, mode: input.mode, bytes });
    const handed = handOver(ctx, input.name);
    return structuredReply(
      {
        name: input.name,
        mode: input.mode,
        bytes,
        sections: sections.listed,
        ...(sections.total > sections.listed.length ? { sections_total: sections.total } : {}),
        last_section: sections.last,
        ...(replacedFrom ? { replaced_from: replacedFrom } : {}),
        ...handed.fields,
      },
      [handed.link],
    );
  },
});
