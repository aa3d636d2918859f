import { ReportTooComplexError, structuredReply, z } from '../../../kernel/sdk/index.ts';
import { commonTool } from '../shared.ts';
import { HANDED_OVER, handOver } from '../reports/hand-over.ts';

export default commonTool({
  name: 'export_report_pdf',
  title: 'Export a report to PDF',
  description:
    'Renders one of your Markdown reports to PDF beside it. Returns its name, size, a report:// link and a one-time download_url.',
  input: {
    name: z.string().max(128).describe('Report file name (.md)'),
  },
  output: { name: z.string(), pdf: z.string(), bytes: z.number(), ...HANDED_OVER },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: { minProfile: 'auditor' },
  service: 'report',
  task: 'optional',
  async handler(input, ctx) {
    const { limits } = ctx.shared;
    const store = ctx.shared.storeFor(ctx.caller.name);
    // Refused before any work: too large to render, or no room left for the PDF.
    const size = store.size(input.name);
    if (size > limits.exportMaxBytes) throw tooLarge(size, limits.exportMaxBytes);
    store.assertPdfRoom(input.name);
    const pdf = await ctx.shared.exports.run(
      ctx.caller.name,
      async () => {
        const markdown = await store.read(input.name);
        const bytes = Buffer.byteLength(markdown, 'utf8');
        if (bytes > limits.exportMaxBytes) throw tooLarge(bytes, limits.exportMaxBytes);
        await ctx.progress(0, 3, 'rendering');
        const html = await ctx.shared.markdown.render(markdown, { signal: ctx.signal });
        await ctx.progress(1, 3, 'printing');
        return ctx.shared.pdf.render(html, input.name);
      },
      ctx.signal,
    );
    const pdfName = await store.writePdf(input.name, pdf);
    await ctx.progress(3, 3, 'written');
    ctx.audit({ event: 'EXPORTED', status: 'OK', report: input.name, pdf: pdfName, bytes: pdf.length });
    const handed = handOver(ctx, pdfName);
    return structuredReply({ name: input.name, pdf: pdfName, bytes: pdf.length, ...handed.fields }, [
      handed.link,
    ]);
  },
});

function tooLarge(bytes: number, max: number): ReportTooComplexError {
  return new ReportTooComplexError(
    `the report is ${bytes} bytes; the largest exported is ${max} (REPORT_EXPORT_MAX_BYTES)`,
  );
}
