import { join } from 'node:path';
import { structuredReply, writeFileAtomic, z } from '../../../kernel/sdk/index.ts';
import { commonTool } from '../shared.ts';

export default commonTool({
  name: 'export_report_pdf',
  title: 'Export a report to PDF',
  description:
    'Renders one of your Markdown reports to PDF (A4, page numbers) beside it, and returns the PDF file name and size.',
  input: {
    name: z.string().max(128).describe('Report file name (.md)'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: { minProfile: 'auditor' },
  service: 'report',
  async handler(input, ctx) {
    const store = ctx.shared.storeFor(ctx.caller.name);
    const markdown = await store.read(input.name);
    await ctx.progress(0, 2, 'rendering');
    const pdf = await ctx.shared.pdf.render(markdown, input.name);
    const pdfName = input.name.replace(/\.md$/, '.pdf');
    writeFileAtomic(join(store.dir, pdfName), pdf, 0o600);
    await ctx.progress(2, 2, 'written');
    ctx.audit({ event: 'EXPORTED', status: 'OK', report: input.name, pdf: pdfName, bytes: pdf.length });
    return structuredReply({ name: input.name, pdf: pdfName, bytes: pdf.length });
  },
});
