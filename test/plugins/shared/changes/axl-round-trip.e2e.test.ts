// Before-images, diffs and inverses against the lab CUCM over real HTTPS: for each change, read the
// object, apply the write with the AxlClient, check the node holds what the preview said it would,
// apply the computed inverse and read the object back equal by content to its before-image.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AxlClient } from '../../../../plugins/_shared/axl/axl-client.ts';
import type { Json } from '../../../../plugins/_shared/axl/schema.ts';
import { downloadAxlToolkit } from '../../../../plugins/_shared/axl/toolkit.ts';
import type { XsdModel } from '../../../../plugins/_shared/axl/xsd-model.ts';
import { readAxlBeforeImage, readAxlImage } from '../../../../plugins/_shared/changes/axl-before-image.ts';
import { intendedImage } from '../../../../plugins/_shared/changes/axl-intent.ts';
import { planAxlChange } from '../../../../plugins/_shared/changes/axl-plan.ts';
import type { Plain } from '../../../../plugins/_shared/changes/values.ts';
import { buildAxlInverse } from '../../../../plugins/_shared/changes/axl-inverse.ts';
import type { AxlTarget } from '../../../../plugins/_shared/changes/axl-target.ts';
import { resolveAxlTarget } from '../../../../plugins/_shared/changes/axl-target.ts';
import { BadRequestError, NotFoundError } from '../../../../kernel/sdk/index.ts';
import type { AxlLab } from '../axl/helpers.ts';
import { FAST_RETRY, startAxlLab } from '../axl/helpers.ts';
import { fixture } from '../../../lab/helpers.ts';
import { AXL_CHANGE_CASES } from '../../../helpers/change-cases.ts';

/**
 * The cases on the lab, requests built from `schemaDir`'s schema when given (the real 15.0 one: its
 * XPhone, its update requests), else from the lab's own toolkit schema.
 */
function suite(title: string, schemaDir: string | undefined): void {
  describe(title, () => {
    let t: AxlLab;
    let client: AxlClient;
    let xsd: XsdModel;

    before(async () => {
      t = await startAxlLab(schemaDir ? { axlSchemaDir: schemaDir } : {});
      await downloadAxlToolkit({ ...t.node, cache: t.cache, nodeVersion: '15.0', retry: FAST_RETRY });
      const schema = await t.cache.load('15.0');
      xsd = await t.cache.xsdModel('15.0');
      client = new AxlClient({ ...t.node, version: '15.0', schema, retry: FAST_RETRY });
    });
    after(async () => {
      client?.close();
      await t?.stop();
    });

    /** The elements of an image that `operation`'s request can set. */
    const settable = (operation: string, image: Plain | undefined): Record<string, Plain> => {
      const names = new Set((xsd.elementFields(operation) ?? []).map((f) => f.name));
      return Object.fromEntries(
        Object.entries((image ?? {}) as Record<string, Plain>).filter(([k]) => names.has(k)),
      );
    };

    const targetOf = (operation: string, args: Record<string, Json>): AxlTarget => {
      const target = resolveAxlTarget(xsd, operation, args);
      assert.ok('kind' in target, `${operation}: ${'reason' in target ? target.reason : ''}`);
      return target;
    };

    for (const [label, operation, args] of AXL_CHANGE_CASES) {
      it(`${label}: the node holds what the diff says, and the inverse restores the before-image`, async () => {
        const mark = t.lab.state.log.requests.length;
        const plan = await planAxlChange(client, xsd, operation, args);
        assert.ok('target' in plan, 'reason' in plan ? plan.reason : '');
        const { target, before: was, dependants, diff } = plan;
        const sent = t.lab.state.log.requests.slice(mark).map((r) => r.operation ?? '');
        assert.ok(sent.length > 0 && sent.every((o) => /^get|^executeSQLQuery$/.test(o)), sent.join());
        if (target.kind.verb === 'remove' && /on a|in a|associated/.test(label))
          assert.ok(dependants.length > 0, 'the case removes an object others depend on');
        assert.ok(diff.length > 0, 'the preview shows a change');

        const answer = (await client.call(operation, args)) as { return?: Json };
        const now = await readAxlImage(client, target, 'after');
        const meant = intendedImage(xsd, target, was, args);
        if (target.kind.verb === 'remove') assert.equal(now.state, 'absent');
        else {
          assert.equal(now.state, 'present');
          // An add reads back with what the node fills in; an update must read back as intended in every
          // element it can set (read-only ones, such as a CSS's clause, follow from them).
          if (target.kind.verb === 'update' && now.state === 'present')
            assert.deepEqual(settable(operation, now.image), settable(operation, meant));
        }

        const inverse = buildAxlInverse(
          xsd,
          target,
          was,
          { args, ...(typeof answer.return === 'string' ? { uuid: answer.return } : {}) },
          dependants,
        );
        assert.ok(inverse.requests.length > 0, JSON.stringify(inverse.losses));
        for (const r of inverse.requests) await client.call(r.operation, r.args);

        const back = await readAxlImage(client, target, 'before');
        assert.equal(back.state, was.state);
        if (back.state === 'present' && was.state === 'present') assert.deepEqual(back.image, was.image);
        for (const dep of dependants) {
          const again = await readAxlImage(client, dep.target);
          assert.ok(again.state === 'present' && dep.before.state === 'present');
          assert.deepEqual(again.image, dep.before.image, `${dep.target.kind.object} ${dep.field}`);
        }
      });
    }

    it('an update or remove of a missing object, and an add of an existing one, are refused before anything is sent', async () => {
      const mark = t.lab.state.log.requests.length;
      await assert.rejects(
        readAxlBeforeImage(client, targetOf('updatePhone', { name: 'SEPDEADBEEF0000', description: 'x' })),
        (e: unknown) => e instanceof NotFoundError && /does not exist/.test(e.message),
      );
      await assert.rejects(
        readAxlBeforeImage(
          client,
          targetOf('removeLine', { pattern: '7777', routePartitionName: 'PT_Internal' }),
        ),
        NotFoundError,
      );
      await assert.rejects(
        readAxlBeforeImage(
          client,
          targetOf('addRoutePartition', { routePartition: { name: 'PT_Internal' } }),
        ),
        (e: unknown) => e instanceof BadRequestError && /exists already/.test(e.message),
      );
      const sent = t.lab.state.log.requests.slice(mark).map((r) => r.operation ?? '');
      assert.ok(
        sent.every((o) => /^get/.test(o)),
        sent.join(', '),
      );
    });
  });
}

suite('AXL before-image, diff and inverse on the lab', undefined);

const realSchema = fixture('cucm-axl-schema', '15.0');
if (realSchema)
  suite('AXL before-image, diff and inverse on the lab, built from the real 15.0 schema', realSchema);
else
  console.log(
    'skip: the real 15.0 schema (../shared/fixtures) is absent; the lab-schema suite covers the same cases',
  );
