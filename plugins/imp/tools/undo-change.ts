import { AXL_UNDO_WHAT, openAxlUndo } from '../../_shared/tools/undo-axl-opener.ts';
import { SERVICE_UNDO_WHAT, undoChangeTool } from '../../_shared/tools/undo-change.ts';
import { openServiceUndo } from '../../_shared/tools/undo-service-opener.ts';
import type { ImpShared } from '../shared.ts';

export default undoChangeTool<ImpShared>('imp', {
  service: 'axl',
  openers: { axl: openAxlUndo, service_control: openServiceUndo },
  what: `AXL changes: ${AXL_UNDO_WHAT} ${SERVICE_UNDO_WHAT}`,
});
