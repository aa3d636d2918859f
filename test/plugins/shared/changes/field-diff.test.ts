// The comparison and diff rules shared by AXL and CUPI changes, and CUPI's target and Location checks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequestError } from '../../../../kernel/sdk/index.ts';
import {
  buildCupiInverse,
  createdPath,
  cupiChangeDiff,
  resolveCupiTarget,
} from '../../../../plugins/_shared/changes/cupi-change.ts';
import { diffImages } from '../../../../plugins/_shared/changes/field-diff.ts';
import { isSecretField, normalise, sameContent } from '../../../../plugins/_shared/changes/values.ts';

describe('change images and diffs', () => {
  it('knows secrets by whole words of the name', () => {
    for (const n of [
      'password',
      'pin',
      'ldapPassword',
      'digestCredentials',
      'PinCredentials',
      'Password',
      'sharedSecret',
      'enableSecret',
    ])
      assert.ok(isSecretField(n), n);
    for (const n of [
      'pingEnabled',
      'pinnedCert',
      'spinCount',
      'description',
      'CredMustChange',
      'passwordless',
    ])
      assert.ok(!isSecretField(n), n);
  });

  it('compares content: references by name, text leaves, nothing empty, sets sorted, ordered lists by their order', () => {
    const answer = normalise({
      $attributes: { uuid: '{A}' },
      name: 'CSS_X',
      description: '',
      flag: true,
      count: 3,
      empty: {},
      members: {
        member: [
          {
            $attributes: { uuid: '{M2}' },
            index: '2',
            routePartitionName: { $value: 'PT_B', $attributes: { uuid: '{B}' } },
          },
          { index: '1', routePartitionName: 'PT_A' },
        ],
      },
      devices: { device: ['SEP2', 'SEP1'] },
    });
    assert.deepEqual(answer, {
      count: '3',
      devices: { device: ['SEP1', 'SEP2'] },
      flag: 'true',
      members: {
        member: [
          { index: '1', routePartitionName: 'PT_A' },
          { index: '2', routePartitionName: 'PT_B' },
        ],
      },
      name: 'CSS_X',
    });
    // A list of one is its item, as a request may send it.
    assert.ok(
      sameContent(normalise({ m: { member: [{ a: 'x' }] } }), normalise({ m: { member: { a: 'x' } } })),
    );
    assert.equal(normalise({ a: '', b: null }), undefined);
  });

  it('lists the differences in a stable order, list items by a naming element, secrets never shown', () => {
    const before = normalise({
      name: 'A',
      members: {
        member: [
          { routePartitionName: 'P1', index: '1' },
          { routePartitionName: 'P2', index: '2' },
        ],
      },
      pin: 'x',
    });
    const after = normalise({
      name: 'A',
      members: {
        member: [
          { routePartitionName: 'P2', index: '1' },
          { routePartitionName: 'P3', index: '2' },
        ],
      },
      pin: 'y',
    });
    assert.deepEqual(diffImages(before, after), [
      { path: 'members.member[routePartitionName=P2].index', before: '2', after: '1' },
      {
        path: 'members.member[routePartitionName=P3]',
        before: null,
        after: { index: '2', routePartitionName: 'P3' },
      },
      {
        path: 'members.member[routePartitionName=P1]',
        before: { index: '1', routePartitionName: 'P1' },
        after: null,
      },
      { path: 'pin', before: '(secret)', after: '(secret)' },
    ]);
    assert.deepEqual(diffImages(before, before), []);
    // Secrets nested in a part that appears whole are masked too.
    const added = diffImages(
      undefined,
      normalise({ credentials: { password: 'p' }, sub: { ldapPassword: 'q', host: 'h' } }),
    );
    assert.ok(!JSON.stringify(added).includes('"p"') && !JSON.stringify(added).includes('"q"'));
    assert.deepEqual(added.find((c) => c.path === 'sub')?.after, { host: 'h', ldapPassword: '(secret)' });
  });
});

describe('CUPI change targets', () => {
  it('names the object of a PUT or DELETE, the collection of a POST, and refuses the rest', () => {
    assert.deepEqual(resolveCupiTarget('PUT', '/vmrest/users/abc'), {
      verb: 'update',
      path: '/vmrest/users/abc',
      collection: 'users',
    });
    assert.deepEqual(resolveCupiTarget('DELETE', '/vmrest/handlers/callhandlers/x'), {
      verb: 'delete',
      path: '/vmrest/handlers/callhandlers/x',
      collection: 'handlers/callhandlers',
    });
    assert.deepEqual(resolveCupiTarget('POST', '/vmrest/users'), {
      verb: 'create',
      path: '/vmrest/users',
      collection: 'users',
    });
    for (const [m, p] of [
      ['GET', '/vmrest/users'],
      ['PUT', '/vmrest/users'],
      ['DELETE', '/api/x'],
    ] as const)
      assert.ok('reason' in resolveCupiTarget(m, p), `${m} ${p}`);
  });

  it('takes a created object only from a Location of the collection posted to', () => {
    assert.equal(
      createdPath('https://cuc.example:8443/vmrest/users/0a1b-2c', 'users'),
      '/vmrest/users/0a1b-2c',
    );
    assert.equal(
      createdPath('/vmrest/distributionlists/abc', 'distributionlists'),
      '/vmrest/distributionlists/abc',
    );
    for (const bad of [
      'https://cuc/vmrest/roles/abc',
      '/vmrest/users/abc/../../roles',
      '/vmrest/users/',
      'https://cuc/vmrest/users/a%2F..',
    ])
      assert.throws(() => createdPath(bad, 'users'), BadRequestError, bad);
  });

  it('diffs a PUT on what it sets, masks a PIN, and does not put back what GET never returns', () => {
    const t = resolveCupiTarget('PUT', '/vmrest/users/abc');
    assert.ok('verb' in t);
    const before = {
      state: 'present' as const,
      raw: { ObjectId: 'abc', Alias: 'a', DisplayName: 'A' },
      image: { Alias: 'a', DisplayName: 'A' },
    };
    assert.deepEqual(cupiChangeDiff(t, before, { DisplayName: 'B', Pin: '12345' }), [
      { path: 'DisplayName', before: 'A', after: 'B' },
      { path: 'Pin', before: '(not readable)', after: '(secret)' },
    ]);
    const inv = buildCupiInverse(t, before, { body: { DisplayName: 'B', Pin: '12345', Department: 'X' } });
    assert.deepEqual(inv.requests, [
      { method: 'PUT', path: '/vmrest/users/abc', body: { DisplayName: 'A', Department: '' } },
    ]);
    assert.deepEqual(
      inv.losses.map((l) => l.path),
      ['Pin'],
    );
  });
});
