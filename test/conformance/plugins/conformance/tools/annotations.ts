import type { ToolAnnotations } from '../../../../../kernel/sdk/index.ts';

/** Every fixture tool only answers: it reads nothing and changes nothing anywhere. */
export const LOCAL_READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
