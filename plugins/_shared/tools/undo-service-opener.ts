// How every product's undo reaches Control Center for a service start or stop: the product's
// serviceability client, under the same rule as `*_service_control` (admin only).
import type { ChangeRecord, ToolContext } from '../../../kernel/sdk/index.ts';
import { ProfilePermissionError } from '../../../kernel/sdk/index.ts';
import type { UndoSource } from '../changes/undo-plan.ts';
import { serviceUndoSource } from '../changes/undo-service.ts';
import type { ServiceabilityState } from '../serviceability/state.ts';

export function openServiceUndo<S extends ServiceabilityState, T>(
  ctx: ToolContext<S>,
  record: ChangeRecord,
  fn: (source: UndoSource<unknown>) => Promise<T>,
): Promise<T> {
  if (ctx.caller.profile !== 'admin')
    throw new ProfilePermissionError('only the admin profile may start or stop services, an undo as well');
  return fn(
    serviceUndoSource(
      ctx.shared.serviceability,
      ctx.vault,
      record,
      ctx.node,
      ctx.signal,
    ) as UndoSource<unknown>,
  );
}
