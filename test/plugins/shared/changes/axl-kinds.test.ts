// Target resolution, diffs and inverses over the real AXL 15.0 schema (../shared/fixtures, when it sits
// beside the checkout; the lab-schema round trips in axl-round-trip.e2e.test.ts cover a fresh clone).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Json } from '../../../../plugins/_shared/axl/schema.ts';
import { XsdModel } from '../../../../plugins/_shared/axl/xsd-model.ts';
import { imageOf } from '../../../../plugins/_shared/changes/axl-before-image.ts';
import { axlChangeDiff } from '../../../../plugins/_shared/changes/axl-intent.ts';
import { buildAxlInverse } from '../../../../plugins/_shared/changes/axl-inverse.ts';
import { describeAxlKind, isAxlKind } from '../../../../plugins/_shared/changes/axl-kinds.ts';
import type { AxlTarget } from '../../../../plugins/_shared/changes/axl-target.ts';
import { resolveAxlTarget } from '../../../../plugins/_shared/changes/axl-target.ts';
import { fixture } from '../../../lab/helpers.ts';

const dir = fixture('cucm-axl-schema', '15.0');

/** The corpus's object kinds: each must resolve for add, update and remove. */
const CORPUS: Record<string, { get: string; keys: string[] }> = {
  Phone: { get: 'getPhone', keys: ['name'] },
  Line: { get: 'getLine', keys: ['pattern', 'routePartitionName'] },
  User: { get: 'getUser', keys: ['userid'] },
  RoutePattern: {
    get: 'getRoutePattern',
    keys: ['pattern', 'routePartitionName', 'dialPlanName', 'routeFilterName'],
  },
  RoutePartition: { get: 'getRoutePartition', keys: ['name'] },
  Css: { get: 'getCss', keys: ['name'] },
  SipTrunk: { get: 'getSipTrunk', keys: ['name'] },
  HuntPilot: { get: 'getHuntPilot', keys: ['pattern', 'routePartitionName'] },
  DevicePool: { get: 'getDevicePool', keys: ['name'] },
  TransPattern: {
    get: 'getTransPattern',
    keys: ['pattern', 'routePartitionName', 'dialPlanName', 'routeFilterName'],
  },
  RouteGroup: { get: 'getRouteGroup', keys: ['name'] },
  RouteList: { get: 'getRouteList', keys: ['name'] },
  LineGroup: { get: 'getLineGroup', keys: ['name'] },
  HuntList: { get: 'getHuntList', keys: ['name'] },
};

describe(
  'AXL change targets over the real 15.0 schema',
  {
    skip:
      dir === undefined && 'no ../shared/fixtures/cucm-axl-schema/15.0 (a fresh clone has no Cisco schema)',
  },
  () => {
    let xsd: XsdModel;
    let operations: string[];
    before(() => {
      const root = dir as string;
      xsd = new XsdModel(['AXLSoap.xsd', 'AXLEnums.xsd'].map((f) => readFileSync(join(root, f), 'utf8')));
      const wsdl = readFileSync(join(root, 'AXLAPI.wsdl'), 'utf8');
      operations = [...new Set([...wsdl.matchAll(/<operation name="(\w+)"/g)].map((m) => m[1] as string))];
    });

    const target = (operation: string, args: Record<string, Json>): AxlTarget => {
      const t = resolveAxlTarget(xsd, operation, args);
      assert.ok('kind' in t, `${operation}: ${'reason' in t ? t.reason : ''}`);
      return t;
    };

    it('resolves every add, update and remove to a get, or says why there is no before-image', () => {
      const writes = operations.filter((o) => /^(add|update|remove)[A-Z]/.test(o));
      const kinds = writes.map((o) => describeAxlKind(xsd, o));
      const resolved = kinds.filter(isAxlKind);
      const refused = kinds.filter((k) => !isAxlKind(k));
      console.log(
        `AXL 15.0: ${writes.length} add/update/remove operations, ${resolved.length} resolve to a get, ${refused.length} have no before-image`,
      );
      for (const r of refused)
        console.log(`  no before-image: ${r.operation}: ${'reason' in r ? r.reason : ''}`);
      assert.equal(writes.length, 549);
      assert.equal(resolved.length + refused.length, writes.length);
      assert.ok(resolved.length >= 520, `${resolved.length} resolved`);
      // The XSD's get is an operation the WSDL binds (two sources, read apart).
      for (const k of resolved) assert.ok(operations.includes(k.get), `${k.operation} → ${k.get}`);
      for (const r of refused) assert.ok('reason' in r && r.reason.length > 10, r.operation);
      // Where the schema names one value twice, the override reads it (RemoveSNMPCommunityStringReq).
      const snmp = describeAxlKind(xsd, 'removeSNMPCommunityString');
      assert.ok(isAxlKind(snmp) && snmp.get === 'getSNMPCommunityString');
      // A singleton is read with no key at all.
      const ldap = describeAxlKind(xsd, 'updateLdapSystem');
      assert.ok(isAxlKind(ldap) && ldap.keys.length === 0 && !ldap.byUuid);
    });

    it('resolves the corpus kinds for add, update and remove, with their siblings', () => {
      for (const [object, want] of Object.entries(CORPUS)) {
        for (const verb of ['add', 'update', 'remove']) {
          const k = describeAxlKind(xsd, `${verb}${object}`);
          assert.ok(isAxlKind(k), `${verb}${object}: ${'reason' in k ? k.reason : ''}`);
          assert.equal(k.get, want.get);
          assert.deepEqual(k.keys, want.keys, object);
          assert.ok(k.byUuid && k.add && k.update && k.remove, object);
        }
      }
      const line = describeAxlKind(xsd, 'updateLine');
      assert.ok(isAxlKind(line));
      assert.deepEqual(line.renames, { newPattern: 'pattern', newRoutePartitionName: 'routePartitionName' });
    });

    it('names the object before and after the change from the arguments', () => {
      assert.deepEqual(target('addPhone', { phone: { name: 'SEP1', product: 'Cisco 8865' } }).before, {
        name: 'SEP1',
      });
      const renamed = target('updateLine', {
        pattern: '1002',
        routePartitionName: { $value: 'PT_A', $attributes: { uuid: '{X}' } } as unknown as Json,
        newPattern: '2002',
      });
      assert.deepEqual(renamed.before, { pattern: '1002', routePartitionName: 'PT_A' });
      assert.deepEqual(renamed.after, { pattern: '2002', routePartitionName: 'PT_A' });
      assert.deepEqual(target('removeTransPattern', { uuid: '{AB}' }).before, { uuid: '{AB}' });
      assert.deepEqual(target('updateUser', { userid: 'jsmith', newUserid: 'js' }).after, { userid: 'js' });
      assert.deepEqual(target('updateLdapSystem', { syncEnabled: true }).before, {});
      const nameless = resolveAxlTarget(xsd, 'updatePhone', { description: 'x' });
      assert.ok('reason' in nameless && /none of name, uuid/.test(nameless.reason));
      const unknown = resolveAxlTarget(xsd, 'addUserPhoneAssociation', {});
      assert.ok('reason' in unknown && /no getUserPhoneAssociation/.test(unknown.reason));
    });

    const phoneAnswer: Json = {
      return: {
        phone: {
          $attributes: { uuid: '{11111111-2222-3333-4444-555555555555}' },
          name: 'SEP0A1B2C3D4E02',
          description: 'John',
          product: 'Cisco 7965',
          model: 'Cisco 7965',
          class: 'Phone',
          protocol: 'SCCP',
          devicePoolName: { $attributes: { uuid: '{D}' }, $value: 'DP_HQ' },
          callingSearchSpaceName: { $attributes: { uuid: '{C}' }, $value: 'CSS_National' },
          lines: {
            line: [
              {
                $attributes: { uuid: '{L2}' },
                index: '2',
                dirn: { pattern: '1003', routePartitionName: { $value: 'PT_Internal' } },
              },
              {
                $attributes: { uuid: '{L1}' },
                index: '1',
                dirn: { pattern: '1002', routePartitionName: { $value: 'PT_Internal' } },
              },
            ],
          },
          mobilityUserIdName: '',
        },
      },
    } as unknown as Json;

    it('diffs an update field by field, lists by their keys, a line moved by its index', () => {
      const t = target('updatePhone', { name: 'SEP0A1B2C3D4E02' });
      const was = imageOf(phoneAnswer, 'phone');
      const diff = axlChangeDiff(xsd, t, was, {
        name: 'SEP0A1B2C3D4E02',
        description: 'Jane',
        callingSearchSpaceName: 'CSS_National',
        lines: { line: [{ index: '1', dirn: { pattern: '1002', routePartitionName: 'PT_Internal' } }] },
      });
      assert.deepEqual(diff, [
        { path: 'description', before: 'John', after: 'Jane' },
        {
          path: 'lines.line[index=2]',
          before: { dirn: { pattern: '1003', routePartitionName: 'PT_Internal' }, index: '2' },
          after: null,
        },
      ]);
    });

    it('diffs an add as everything new and a remove as everything gone, secrets masked', () => {
      const add = axlChangeDiff(
        xsd,
        target('addUser', { user: { userid: 'u1' } }),
        { state: 'absent' },
        {
          user: { userid: 'u1', lastName: 'One', password: 'hunter2', pin: '123456' },
        },
      );
      assert.deepEqual(add, [
        { path: 'lastName', before: null, after: 'One' },
        { path: 'password', before: null, after: '(secret)' },
        { path: 'pin', before: null, after: '(secret)' },
        { path: 'userid', before: null, after: 'u1' },
      ]);
      const upd = axlChangeDiff(
        xsd,
        target('updateUser', { userid: 'u1' }),
        imageOf({ return: { user: { userid: 'u1', lastName: 'One' } } }, 'user'),
        { userid: 'u1', pin: '999999' },
      );
      assert.deepEqual(upd, [{ path: 'pin', before: '(not readable)', after: '(secret)' }]);
      assert.ok(!JSON.stringify(upd).includes('999999'));
      const gone = axlChangeDiff(
        xsd,
        target('removePhone', { name: 'SEP0A1B2C3D4E02' }),
        imageOf(phoneAnswer, 'phone'),
        {},
      );
      assert.deepEqual(
        gone.map((c) => c.path),
        [
          'callingSearchSpaceName',
          'class',
          'description',
          'devicePoolName',
          'lines',
          'model',
          'name',
          'product',
          'protocol',
        ],
      );
      assert.ok(gone.every((c) => c.after === null));
    });

    it('builds the add of a removed phone from its get answer: what XPhone takes, references by name, its lines', () => {
      const t = target('removePhone', { name: 'SEP0A1B2C3D4E02' });
      const inv = buildAxlInverse(xsd, t, imageOf(phoneAnswer, 'phone'), {
        args: { name: 'SEP0A1B2C3D4E02' },
      });
      assert.equal(inv.requests.length, 1);
      const [req] = inv.requests;
      assert.equal(req?.operation, 'addPhone');
      const phone = (req?.args as { phone: Record<string, Json> }).phone;
      assert.equal(phone.devicePoolName, 'DP_HQ');
      assert.equal(phone.callingSearchSpaceName, 'CSS_National');
      assert.ok(!('uuid' in phone) && !('$attributes' in phone));
      assert.ok(!('model' in phone), 'model is read-only: XPhone has no such element');
      assert.deepEqual((phone.lines as { line: Json[] }).line, [
        { index: '2', dirn: { pattern: '1003', routePartitionName: 'PT_Internal' } },
        { index: '1', dirn: { pattern: '1002', routePartitionName: 'PT_Internal' } },
      ]);
      assert.ok(inv.losses.some((l) => l.path === 'uuid'));
    });

    it('re-adds a removed user and says its password and PIN cannot come back', () => {
      const t = target('removeUser', { userid: 'u1' });
      const inv = buildAxlInverse(
        xsd,
        t,
        imageOf({ return: { user: { userid: 'u1', lastName: 'One' } } }, 'user'),
        { args: { userid: 'u1' } },
      );
      assert.deepEqual(inv.requests, [
        { operation: 'addUser', args: { user: { lastName: 'One', userid: 'u1' } } },
      ]);
      const lost = inv.losses.map((l) => l.path);
      for (const p of ['password', 'pin']) assert.ok(lost.includes(p), p);
    });

    it('updates back what an update set: earlier values, a cleared field, the old name, a whole list', () => {
      const t = target('updatePhone', { name: 'SEP0A1B2C3D4E02', newName: 'SEP0A1B2C3D4E09' });
      const was = imageOf(phoneAnswer, 'phone');
      const inv = buildAxlInverse(xsd, t, was, {
        args: {
          name: 'SEP0A1B2C3D4E02',
          newName: 'SEP0A1B2C3D4E09',
          description: 'Jane',
          locationName: 'Hub_None',
          addLines: { line: [{ index: '3', dirn: { pattern: '1004', routePartitionName: 'PT_Internal' } }] },
        },
      });
      assert.deepEqual(inv.requests, [
        {
          operation: 'updatePhone',
          args: {
            uuid: '{11111111-2222-3333-4444-555555555555}',
            newName: 'SEP0A1B2C3D4E02',
            description: 'John',
            locationName: '',
            lines: {
              line: [
                { index: '2', dirn: { pattern: '1003', routePartitionName: 'PT_Internal' } },
                { index: '1', dirn: { pattern: '1002', routePartitionName: 'PT_Internal' } },
              ],
            },
          },
        },
      ]);
      assert.deepEqual(inv.losses, []);
    });

    it('removes what an add created by the uuid it answered', () => {
      const t = target('addLine', { line: { pattern: '2001', routePartitionName: 'PT_Internal' } });
      assert.deepEqual(buildAxlInverse(xsd, t, { state: 'absent' }, { args: {}, uuid: '{AB}' }).requests, [
        { operation: 'removeLine', args: { uuid: '{AB}' } },
      ]);
      assert.deepEqual(buildAxlInverse(xsd, t, { state: 'absent' }, { args: {} }).requests, [
        { operation: 'removeLine', args: { pattern: '2001', routePartitionName: 'PT_Internal' } },
      ]);
    });
  },
);
