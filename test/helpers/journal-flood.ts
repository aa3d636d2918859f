// Child process of the change journal's crash test: appends records of varied size as fast as it can and
// prints each id once its append resolved (acknowledged), until it is killed.
import { FileChangeJournal } from '../../kernel/changes/change-journal.ts';
import { sampleChange } from './change-entry.ts';

const dir = process.argv[2] as string;
const journal = new FileChangeJournal({
  dir,
  retentionMs: 86_400_000,
  maxBytesPerClient: 1 << 30,
  maxRecordBytes: 1 << 20,
});
const origin = { client: 'flood', callId: 'flood', tool: 'cucm_axl_call', product: 'cucm' as const };
for (let i = 0; ; i++) {
  // Large records make a kill inside a write likelier: the torn tail is what the test is about.
  const r = await journal.append(sampleChange({ before: { i, pad: 'z'.repeat((i % 7) * 40_000) } }), origin);
  process.stdout.write(`${r.id}\n`);
}
