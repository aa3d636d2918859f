import type { ChangeEntry } from '../../kernel/sdk/changes.ts';

/** A journal entry as a write tool records it (an AXL phone update), with `over` replacing fields. */
export function sampleChange(over: Partial<ChangeEntry> = {}): ChangeEntry {
  return {
    host: 'cucm-pub.lab',
    kind: 'axl',
    operation: 'updatePhone',
    change_class: 'change',
    object: { type: 'phone', name: 'SEP001122334455', uuid: '{AAAA-1}' },
    before: { phone: { name: 'SEP001122334455', description: 'old' } },
    request: { name: 'SEP001122334455', description: 'new' },
    after: { phone: { name: 'SEP001122334455', description: 'new' } },
    outcome: 'applied',
    ...over,
  };
}
