import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configSchema } from '../../../kernel/config/schema.ts';
import { DEFAULT_REPORT_LIMITS } from '../../../plugins/common/shared.ts';

describe('report limit settings', () => {
  it("the plugin's own defaults are the configuration's", () => {
    const d = configSchema.parse({});
    assert.deepEqual(DEFAULT_REPORT_LIMITS, {
      exportMaxBytes: d.REPORT_EXPORT_MAX_BYTES,
      renderTimeoutMs: d.REPORT_RENDER_TIMEOUT_MS,
      renderMemoryMb: d.REPORT_RENDER_MEMORY_MB,
      pdfTimeoutMs: d.REPORT_PDF_TIMEOUT_MS,
      maxFilesPerClient: d.REPORTS_MAX_PER_CLIENT,
      maxBytesPerClient: d.REPORTS_MAX_BYTES_PER_CLIENT,
      browserIdleSeconds: d.REPORT_BROWSER_IDLE_SECONDS,
    });
  });
});
