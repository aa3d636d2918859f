import type { ChangeRecord, ToolContext } from '../../../kernel/sdk/index.ts';
import type { UndoSource } from '../../_shared/changes/undo-plan.ts';
import { cupiUndoSource } from '../../_shared/changes/undo-cupi.ts';
import { SERVICE_UNDO_WHAT, undoChangeTool, type UndoOptions } from '../../_shared/tools/undo-change.ts';
import { openServiceUndo } from '../../_shared/tools/undo-service-opener.ts';
import { cupiChangeReader } from '../cupi/change-reader.ts';
import type { CucShared } from '../shared.ts';

/** The caller's CUPI session to the change's host; each path passes the path policy as cupi_call's do. */
function openCupiUndo<T>(
  ctx: ToolContext<CucShared>,
  record: ChangeRecord,
  fn: (source: UndoSource<unknown>) => Promise<T>,
  options: UndoOptions,
): Promise<T> {
  const { cupi } = ctx.shared;
  const reader = cupiChangeReader(cupi, ctx.vault, record.host, ctx.signal);
  const source = cupiUndoSource(
    reader,
    (r) => cupi.request(ctx.vault, record.host, r, ctx.signal),
    record,
    ctx.node,
    options.template,
  );
  return fn(source as UndoSource<unknown>);
}

export default undoChangeTool<CucShared>('cuc', {
  service: 'cupi',
  openers: { cupi: openCupiUndo, service_control: openServiceUndo },
  templates: true,
  what:
    'CUPI changes: the DELETE of a created object, a PUT back to the before-image values of what a PUT set, the re-create of a deleted object from its before-image (its ObjectId, PIN, password and the parts below it are lost; users and call handlers cannot be re-created without their template, so such an undo needs the template input). ' +
    SERVICE_UNDO_WHAT,
});
