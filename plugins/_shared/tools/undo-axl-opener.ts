// How the AXL products' undo reaches the node: the caller's AXL client to the change's host and the
// schema of the version it negotiated (what the inverse is shaped by).
import type { ChangeRecord, ToolContext } from '../../../kernel/sdk/index.ts';
import { axlUndoSource } from '../changes/undo-axl.ts';
import type { UndoSource } from '../changes/undo-plan.ts';
import type { AxlState } from './plugin-state.ts';

export function openAxlUndo<S extends AxlState, T>(
  ctx: ToolContext<S>,
  record: ChangeRecord,
  fn: (source: UndoSource<unknown>) => Promise<T>,
): Promise<T> {
  return ctx.shared.axl.with(
    ctx.vault,
    record.host,
    async ({ client }) => {
      const xsd = await ctx.shared.axl.cache.xsdModel(client.version);
      return fn(axlUndoSource(client, xsd, record, ctx.node) as UndoSource<unknown>);
    },
    ctx.signal,
  );
}

export const AXL_UNDO_WHAT =
  'the remove of an added object, the re-add of a removed one from its before-image (with what the remove took from other objects: a line on phones, a phone on users...), an update back to the before-image values.';
