import { ReportStore } from './reports/store.ts';
import { PdfRenderer } from './reports/pdf-renderer.ts';
import { toolsFor, type PluginServices } from '../../kernel/sdk/index.ts';

/** What the common plugin's tools share: the reports root, the size limit and one PDF renderer. */
export interface CommonShared {
  reportsRoot: string;
  maxBytes: number;
  pdf: PdfRenderer;
  storeFor(client: string): ReportStore;
}

export function setupCommon(services: PluginServices): CommonShared {
  const reportsRoot = services.dirs.reports;
  const maxBytes = services.settings.reportMaxBytes;
  return {
    reportsRoot,
    maxBytes,
    pdf: new PdfRenderer(services.settings.chromiumPath),
    storeFor: (client) => ReportStore.forClient(reportsRoot, client, maxBytes),
  };
}

/** defineTool for this plugin's tools (typed ctx.shared). */
export const commonTool = toolsFor<CommonShared>();
