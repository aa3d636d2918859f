import { randomInt } from 'node:crypto';
import type { LabProfile } from '../types.ts';
import { CupiStore } from './cupi/store.ts';

/** Weak profile: the PIN many users still have from the install-time template. */
export const DEFAULT_PIN = '12345';

const stamp = (daysAgo: number): string =>
  new Date(Date.now() - daysAgo * 86_400_000).toISOString().replace('T', ' ').slice(0, 23);

/**
 * The Unity Connection directory as shipped to the lab. Every weakness the CUC audit looks for is seeded
 * here, under `profile === 'weak'`: default PINs that never expire, a PIN policy without length or
 * trivial-PIN checks.
 */
export function seedCuc(profile: LabProfile): CupiStore {
  const weak = profile === 'weak';
  const store = new CupiStore();
  const users = store.define('users', 'Users', 'User', ['Alias'], 'Alias');
  const templates = store.define('usertemplates', 'UserTemplates', 'UserTemplate', ['Alias'], 'Alias');
  const handlers = store.define(
    'handlers/callhandlers',
    'Callhandlers',
    'Callhandler',
    ['DisplayName'],
    'DisplayName',
  );
  const policies = store.define(
    'credentialpolicies',
    'CredentialPolicies',
    'CredentialPolicy',
    ['DisplayName'],
    'DisplayName',
  );

  store.create(templates, {
    Alias: 'voicemailusertemplate',
    DisplayName: 'Voice Mail User Template',
    IsVmEnrolled: 'false',
    ListInDirectory: 'true',
    TimeZone: '35',
    Language: '1033',
  });
  store.create(templates, {
    Alias: 'adminusertemplate',
    DisplayName: 'Administrator Template',
    IsVmEnrolled: 'false',
    ListInDirectory: 'false',
    TimeZone: '35',
    Language: '1033',
  });

  store.create(policies, {
    DisplayName: 'Default Voice Mail PIN Policy',
    MinLength: weak ? '4' : '8',
    TrivialCredentialChecks: weak ? 'false' : 'true',
    ExpiryDays: weak ? '0' : '180',
    MaxHacks: weak ? '0' : '5',
    LockoutDuration: weak ? '0' : '30',
    PreviousCredentialsToCheck: weak ? '0' : '5',
  });
  store.create(policies, {
    DisplayName: 'Default Web Application Password Policy',
    MinLength: weak ? '8' : '14',
    TrivialCredentialChecks: 'true',
    ExpiryDays: weak ? '0' : '90',
    MaxHacks: weak ? '0' : '5',
    LockoutDuration: weak ? '0' : '30',
    PreviousCredentialsToCheck: weak ? '0' : '12',
  });

  const people: [string, string, string, string][] = [
    ['jsmith', 'John', 'Smith', '1001'],
    ['mlee', 'Mary', 'Lee', '1003'],
    ['rjones', 'Rita', 'Jones', '1005'],
    ['abaker', 'Alan', 'Baker', '1007'],
    ['abrown', 'Ann', 'Brown', '1009'],
  ];
  people.forEach(([alias, first, last, ext], i) => {
    const u = store.create(users, {
      Alias: alias,
      FirstName: first,
      LastName: last,
      DisplayName: `${first} ${last}`,
      DtmfAccessId: ext,
      SmtpAddress: `${alias}@lab.example.com`,
      IsVmEnrolled: 'true',
      ListInDirectory: 'true',
      CreationTime: stamp(400),
    });
    // Weak: three mailboxes still on the template PIN, never changed and set to never expire.
    const onDefault = weak && i < 3;
    store.pins.set(u.ObjectId as string, {
      pin: onDefault ? DEFAULT_PIN : String(randomInt(10_000_000, 99_999_999)),
      CredMustChange: 'false',
      DoesntExpire: onDefault ? 'true' : 'false',
      Locked: 'false',
      HackCount: '0',
      TimeChanged: onDefault ? stamp(400) : stamp(20),
    });
  });
  store.create(users, {
    Alias: 'undeliverablemessagesmailbox',
    FirstName: '',
    LastName: '',
    DisplayName: 'Undeliverable Messages',
    DtmfAccessId: '',
    SmtpAddress: '',
    IsVmEnrolled: 'false',
    ListInDirectory: 'false',
    CreationTime: stamp(400),
  });

  store.create(handlers, {
    DisplayName: 'Opening Greeting',
    DtmfAccessId: '',
    IsPrimary: 'false',
    CreationTime: stamp(400),
  });
  store.create(handlers, {
    DisplayName: 'Operator',
    DtmfAccessId: '0',
    IsPrimary: 'false',
    CreationTime: stamp(400),
  });
  store.create(handlers, {
    DisplayName: 'Goodbye',
    DtmfAccessId: '',
    IsPrimary: 'false',
    CreationTime: stamp(400),
  });
  return store;
}
