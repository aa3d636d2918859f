import { definePlugin } from '../../kernel/sdk/index.ts';
import { setupCommon, type CommonShared } from './shared.ts';
import exportReportPdf from './tools/export-report-pdf.ts';
import readReport from './tools/read-report.ts';
import writeReport from './tools/write-report.ts';
import { reportFiles } from './reports/report-files.ts';

/**
 * Report writing, chunked reading and PDF export, per client; each client's reports and PDFs are
 * `report://<client>/<name>` resources of its own. Always loaded.
 */
export default definePlugin<CommonShared>({
  id: 'common',
  version: '1.0.0',
  kernel: '^1',
  product: null,
  module: 'common',
  requires: [],
  tools: [writeReport, readReport, exportReportPdf],
  prompts: [],
  resources: [],
  files: [reportFiles],
  setup: setupCommon,
  teardown: async (shared) => {
    await Promise.all([shared.markdown.close(), shared.pdf.close()]);
  },
});
