import type { ToolAnnotations } from '../../../kernel/sdk/index.ts';

/** Infra tools only read the server's own state. */
export const READ_ONLY_LOCAL: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
