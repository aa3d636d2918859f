import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FileChangeJournal, type ChangeJournalOptions } from '../../../kernel/changes/change-journal.ts';
import { journalView } from '../../../kernel/changes/views.ts';
import { sampleChange as entry } from '../../helpers/change-entry.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const DAY = 86_400_000;
const origin = { client: 'alice', callId: 'call-1', tool: 'cucm_axl_call', product: 'cucm' as const };

describe('change journal', () => {
  const state = tempStateDir('ucmcp-journal-');
  after(() => state.cleanup());
  let n = 0;
  const journal = (o: Partial<ChangeJournalOptions> = {}) => {
    const dir = join(state.dir, `j${++n}`);
    return {
      dir,
      j: new FileChangeJournal({
        dir,
        retentionMs: 30 * DAY,
        maxBytesPerClient: 1024 * 1024,
        maxRecordBytes: 64 * 1024,
        ...o,
      }),
    };
  };

  it('appends records with the call stamped on them, lists newest first, gets one by id', async () => {
    const { dir, j } = journal();
    const a = await j.append(entry(), origin);
    const b = await j.append(entry({ operation: 'removePhone', change_class: 'destructive' }), {
      ...origin,
      callId: 'call-2',
    });
    assert.equal(a.client, 'alice');
    assert.equal(a.call_id, 'call-1');
    assert.equal(a.tool, 'cucm_axl_call');
    assert.ok(a.id < b.id, 'ids sort by time');
    const page = await j.list('alice');
    assert.deepEqual(
      page.changes.map((r) => r.id),
      [b.id, a.id],
    );
    assert.equal(page.next_cursor, null);
    assert.deepEqual(await j.get('alice', a.id), a);
    const lines = readFileSync(join(dir, 'alice.jsonl'), 'utf8').split('\n');
    assert.equal(lines.length, 3, 'one line per record, each ended');
    assert.ok(lines[0]?.startsWith('{"time":"'), 'time first: retention reads it from the first bytes');
    assert.equal(statSync(join(dir, 'alice.jsonl')).mode & 0o777, 0o600);
  });

  it("a client sees only its own records: another's id is NOT_FOUND, as an unknown one", async () => {
    const { j } = journal();
    const mine = await j.append(entry(), origin);
    await j.append(entry(), { ...origin, client: 'bob' });
    assert.equal((await j.list('bob')).changes.length, 1);
    await assert.rejects(j.get('bob', mine.id), { code: 'NOT_FOUND' });
    await assert.rejects(j.get('bob', 'chg_000000000_0000_00000000'), { code: 'NOT_FOUND' });
    await assert.rejects(j.list('../alice'), { code: 'BAD_REQUEST' });
  });

  it('filters by host, product, object and time, and pages with a cursor', async () => {
    let now = Date.parse('2026-11-20T10:00:00Z');
    const { j } = journal({ clock: () => now });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      now += 60_000;
      const r = await j.append(
        entry({
          host: i % 2 === 0 ? 'CUCM-PUB.lab' : 'cucm-sub.lab',
          object: { type: 'line', name: `line-${i}`, uuid: `{U-${i}}` },
        }),
        { ...origin, product: i === 6 ? 'cuc' : 'cucm' },
      );
      ids.push(r.id);
    }
    const even = await j.list('alice', { host: 'cucm-pub.lab', product: 'cucm' });
    assert.deepEqual(
      even.changes.map((r) => r.object.name),
      ['line-4', 'line-2', 'line-0'],
    );
    assert.deepEqual(
      (await j.list('alice', { object: 'U-5' })).changes.map((r) => r.object.name),
      ['line-5'],
    );
    const window = await j.list('alice', { since: '2026-11-20T10:02:00Z', until: '2026-11-20T10:04:00Z' });
    assert.deepEqual(
      window.changes.map((r) => r.object.name),
      ['line-3', 'line-2', 'line-1'],
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await j.list('alice', { limit: 3, ...(cursor ? { cursor } : {}) });
      assert.ok(page.changes.length <= 3);
      seen.push(...page.changes.map((r) => r.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, [...ids].reverse(), 'every record once, newest first');
    await assert.rejects(j.list('alice', { cursor: 'garbage' }), { code: 'BAD_REQUEST' });
    await assert.rejects(j.list('alice', { since: 'yesterday' }), { code: 'BAD_REQUEST' });
    await assert.rejects(j.list('alice', { limit: 0 }), { code: 'BAD_REQUEST' });
  });

  it('a torn last record (a crash mid-write) is skipped by readers and cut by the next append; earlier ones stay', async () => {
    const repairs: unknown[] = [];
    const { dir, j } = journal({ onRepair: (_c, what) => repairs.push(what) });
    const a = await j.append(entry(), origin);
    const b = await j.append(entry(), origin);
    const file = join(dir, 'alice.jsonl');
    // What a crash leaves when it interrupts the write of a third record.
    const fragment = '{"time":"2026-11-26T09:00:00.000Z","id":"chg_0000000zz_0000_abcdef01","cli';
    appendFileSync(file, fragment);
    assert.deepEqual(
      (await j.list('alice')).changes.map((r) => r.id),
      [b.id, a.id],
    );
    const c = await j.append(entry(), origin);
    assert.deepEqual(repairs, [{ tornBytes: fragment.length }]);
    const lines = readFileSync(file, 'utf8').split('\n');
    assert.equal(lines.pop(), '', 'the file ends with a newline');
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { id: string }).id),
      [a.id, b.id, c.id],
      'every line is a whole record',
    );
    // A damaged line in the middle (a bad hand edit) hides only itself.
    writeFileSync(file, `${lines[0]}\n{not json\n${lines[2]}\n`);
    assert.deepEqual(
      (await j.list('alice')).changes.map((r) => r.id),
      [c.id, a.id],
    );
  });

  it('SIGKILL during a flood of appends: every acknowledged record is there, whole', async () => {
    const { dir } = journal();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '../../helpers/journal-flood.ts'), dir],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const acked = new Set<string>();
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      for (const id of parts) acked.add(id);
    });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    assert.ok(acked.size > 5, `the child wrote records (${acked.size})`);
    const reader = new FileChangeJournal({
      dir,
      retentionMs: DAY,
      maxBytesPerClient: 1 << 30,
      maxRecordBytes: 1 << 20,
    });
    const listed = new Set<string>();
    for (let cursor: string | undefined, more = true; more;) {
      const page = await reader.list('flood', { limit: 200, ...(cursor ? { cursor } : {}) });
      for (const r of page.changes) listed.add(r.id);
      cursor = page.next_cursor ?? undefined;
      more = cursor !== undefined;
    }
    for (const id of acked) assert.ok(listed.has(id), `acknowledged ${id} is listed`);
    const text = readFileSync(join(dir, 'flood.jsonl'), 'utf8');
    const whole = text.split('\n').slice(0, -1);
    for (const l of whole) JSON.parse(l);
  });

  it('keeps each client within its byte bound (newest kept) and its retention', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const dropped: number[] = [];
    const { dir, j } = journal({
      clock: () => now,
      maxBytesPerClient: 64 * 1024,
      onRepair: (_c, what) => {
        if (what.dropped) dropped.push(what.dropped);
      },
    });
    const file = join(dir, 'alice.jsonl');
    let last = '';
    for (let i = 0; i < 120; i++) {
      now += 1000;
      last = (await j.append(entry({ before: { blob: 'x'.repeat(1500), i } }), origin)).id;
      assert.ok(statSync(file).size <= 64 * 1024, `within the bound after ${i + 1} appends`);
    }
    assert.ok(dropped.length > 0, 'old records were dropped');
    const kept = await j.list('alice', { limit: 200 });
    assert.equal(kept.changes[0]?.id, last, 'the newest is kept');
    assert.ok(kept.changes.length >= 20);

    // Thirty days on, the old records are no longer listed, and the startup sweep removes the file.
    now += 31 * DAY;
    assert.deepEqual((await j.list('alice')).changes, []);
    assert.ok((await j.sweep()) > 0);
    assert.throws(() => statSync(file), { code: 'ENOENT' });
  });

  it('never stores a password or a PIN: masked in the request and the images (the file is grepped)', async () => {
    const { dir, j } = journal();
    const r = await j.append(
      entry({
        operation: 'updateUser',
        object: { type: 'user', name: 'jdoe' },
        request: {
          userid: 'jdoe',
          password: 'Pa55-Secret-Word',
          pin: '73914',
          snmpCommunityName: 'c0mmun1ty',
        },
        before: { user: { userid: 'jdoe', digestCredentials: 'dig-3st-9911', pin: '11223' } },
        after: { user: { userid: 'jdoe', note: 'set via password=Inl1ne-Pass' } },
        error: 'node said: token=abc-tok-xyz',
      }),
      origin,
    );
    const text = readFileSync(join(dir, 'alice.jsonl'), 'utf8');
    for (const secret of [
      'Pa55-Secret-Word',
      '73914',
      'c0mmun1ty',
      'dig-3st-9911',
      '11223',
      'Inl1ne-Pass',
      'abc-tok-xyz',
    ])
      assert.ok(!text.includes(secret), `${secret} is not in the file`);
    assert.deepEqual(r.request, {
      userid: 'jdoe',
      password: '[REDACTED]',
      pin: '[REDACTED]',
      snmpCommunityName: '[REDACTED]',
    });
    assert.ok(text.includes('jdoe'), 'what is not secret is kept');
  });

  it('a record past the record bound keeps its largest images as size and digest only', async () => {
    const { j } = journal({ maxRecordBytes: 8 * 1024 });
    const r = await j.append(entry({ before: { big: 'b'.repeat(20_000) }, after: { small: 1 } }), origin);
    assert.deepEqual(r.omitted, ['before']);
    assert.equal((r.before as { omitted: boolean }).omitted, true);
    assert.match((r.before as { sha256: string }).sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(r.after, { small: 1 });
    assert.deepEqual((await j.get('alice', r.id)).omitted, ['before']);
  });

  it("ctx.changes stamps the tool call on what a tool records, and shows only the caller's records", async () => {
    const { j } = journal();
    const call = { client: 'alice', tool: 'cuc_cupi_call', product: 'cuc' as const, callId: 'c-77' };
    const mine = journalView(j, call);
    const r = await mine.record(entry({ kind: 'cupi', operation: 'DELETE /vmrest/users/1' }));
    assert.deepEqual([r.client, r.tool, r.product, r.call_id], ['alice', 'cuc_cupi_call', 'cuc', 'c-77']);
    await journalView(j, { ...call, client: 'bob' }).record(entry());
    assert.deepEqual(
      (await mine.list()).changes.map((c) => c.id),
      [r.id],
    );
    assert.deepEqual(await mine.get(r.id), r);
    await assert.rejects(journalView(j, { ...call, client: 'bob' }).get(r.id), { code: 'NOT_FOUND' });
    await assert.rejects(mine.record({ ...entry(), kind: 'smtp' } as never), /kind/);
  });

  it('two writers on one directory (two processes, or instances on a shared volume) interleave whole records', async () => {
    const dir = join(state.dir, 'shared');
    const opts = { dir, retentionMs: DAY, maxBytesPerClient: 1 << 24, maxRecordBytes: 1 << 16 };
    const a = new FileChangeJournal(opts);
    const b = new FileChangeJournal(opts);
    const written = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).append(entry({ before: { pad: 'p'.repeat(i * 200) } }), origin),
      ),
    );
    const listed = await a.list('alice', { limit: 200 });
    assert.deepEqual(new Set(listed.changes.map((r) => r.id)), new Set(written.map((r) => r.id)));
    assert.equal(readFileSync(join(dir, 'alice.jsonl'), 'utf8').split('\n').length, 41);
  });
});
