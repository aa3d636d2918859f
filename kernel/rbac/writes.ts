// How far a call may go on a node: the class of the change it makes (from the plugins' one table,
// plugins/_shared/changes/) against the profile's `writes` setting. The kernel knows the classes and the
// setting; which operation falls in which class is the plugins' knowledge.

/**
 * `read` changes nothing on the node; `change` alters configuration or state in a way a later change can
 * put back; `destructive` removes something, interrupts service (drops calls, stops a service, restarts a
 * device) or cannot be put back from what can be read first (a replaced secret, an SQL update).
 */
export const CHANGE_CLASSES = ['read', 'change', 'destructive'] as const;
export type ChangeClass = (typeof CHANGE_CLASSES)[number];

/**
 * A profile's `writes`: `direct` applies a `change` as asked; `confirm` holds a `change` for confirmation
 * too; `preview-only` applies nothing that changes a node (every change is answered as a preview).
 * A `destructive` change needs confirmation whatever the setting.
 */
export const WRITE_MODES = ['direct', 'confirm', 'preview-only'] as const;
export type WritesSetting = (typeof WRITE_MODES)[number];

/**
 * What a profile without `writes` gets: confirmation for every change. A live profile is never
 * overwritten on upgrade, so an operator's older file falls back to the cautious setting, not to direct.
 */
export const DEFAULT_WRITES: WritesSetting = 'confirm';

/** Whether a call of this class may only go ahead after a confirmation (a plan, or the person's consent). */
export function needsConfirmation(changeClass: ChangeClass, writes: WritesSetting): boolean {
  if (changeClass === 'read') return false;
  if (changeClass === 'destructive') return true;
  return writes !== 'direct';
}

/** Whether a call of this class may only be previewed, never applied, under this setting. */
export function previewOnly(changeClass: ChangeClass, writes: WritesSetting): boolean {
  return changeClass !== 'read' && writes === 'preview-only';
}
