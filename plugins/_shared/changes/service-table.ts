// The serviceability rows of the change table: Control Center actions (soapDoControlServices, whose
// ControlType is Start, Stop or Restart). Trace levels are set over the CLI (`set trace`, cli-table.ts).
import type { ChangeRule } from './change-rule.ts';

export const SERVICE_CONTROL_RULES: Readonly<Record<'start' | 'stop' | 'restart', ChangeRule>> = {
  start: { class: 'change', why: 'starts a stopped feature service; stopping it puts it back' },
  stop: {
    class: 'destructive',
    why: "stops what the service serves until it is started again (stopping Cisco CallManager unregisters the node's phones)",
  },
  restart: {
    class: 'destructive',
    why: 'interrupts what the service serves while it restarts (calls, registrations, sessions)',
  },
};
