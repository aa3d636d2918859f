import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFrame, FrameReader } from '../../../plugins/common/reports/frames.ts';

const wire = (...frames: Buffer[][]): Buffer => Buffer.concat(frames.flat());

describe('report worker frames', () => {
  it('reassembles frames whatever the chunking, in order, bodies intact', () => {
    const body = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    const bytes = wire(
      encodeFrame({ type: 'ready' }),
      encodeFrame({ id: 1, ok: true }, body),
      encodeFrame({ id: 2, ok: false, reason: 'x' }),
    );
    for (const size of [1, 7, 8, 9, 1000, 65_536, bytes.length]) {
      const reader = new FrameReader(1 << 20);
      const got = [];
      for (let i = 0; i < bytes.length; i += size) got.push(...reader.push(bytes.subarray(i, i + size)));
      assert.deepEqual(
        got.map((f) => f.head),
        [{ type: 'ready' }, { id: 1, ok: true }, { id: 2, ok: false, reason: 'x' }],
        `chunks of ${size}`,
      );
      assert.ok(got[1]?.body.equals(body), `body intact in chunks of ${size}`);
      assert.equal(got[0]?.body.length, 0);
    }
  });

  it('refuses a frame over its bound before gathering it, and a head that is not an object', () => {
    const big = wire(encodeFrame({ id: 1 }, Buffer.alloc(2048)));
    assert.throws(() => new FrameReader(1024).push(big.subarray(0, 8)), /passes the 1024 byte bound/);
    const prefix = Buffer.alloc(8);
    prefix.writeUInt32BE(2, 0);
    assert.throws(
      () => new FrameReader(1024).push(Buffer.concat([prefix, Buffer.from('[]')])),
      /not a JSON object/,
    );
  });

  it('a body that is a view into a larger buffer is sent as the view only', () => {
    const backing = Buffer.from('xxxxHELLOyyyy');
    const [f] = new FrameReader(1024).push(wire(encodeFrame({ id: 3 }, backing.subarray(4, 9))));
    assert.equal(f?.body.toString(), 'HELLO');
  });
});
