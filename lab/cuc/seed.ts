import { randomInt, randomUUID } from 'node:crypto';
import { DEMO_CREDENTIALS } from '../credentials.ts';
import type { LabSeeding } from '../weaknesses/index.ts';
import type { CupiObject } from './cupi/store.ts';
import { CupiStore, PIN_RULE_NAME } from './cupi/store.ts';
import { seedListsAndCoses } from './cupi/lists-and-coses.ts';

/** Weak profile: the PIN many users still have from the install-time template. */
export const DEFAULT_PIN = '12345';

const stamp = (daysAgo: number): string =>
  new Date(Date.now() - daysAgo * 86_400_000).toISOString().replace('T', ' ').slice(0, 23);

/** The roles Unity Connection ships with (CUPI `/vmrest/roles`). */
export const CUC_ROLES = [
  ['Audit Administrator', 'Manages audit logging'],
  ['Greeting Administrator', 'Records call handler greetings by phone'],
  ['Help Desk Administrator', 'Resets user PINs and passwords and unlocks accounts'],
  ['Mailbox Access Delegate Account', 'Reads and sends messages on behalf of any user'],
  ['Remote Administrator', 'Administers the database with remote tools'],
  ['System Administrator', 'Full administration of the system'],
  ['Technician', 'Runs diagnostics and reads system settings'],
  ['User Administrator', 'Creates, changes and deletes users'],
] as const;

/**
 * Dial strings of a restriction table, in order: the pattern and whether a number matching it is
 * refused. The last one is always `*`, the catch-all.
 */
type Patterns = [pattern: string, blocked: boolean][];

/**
 * The restriction tables (names as Unity Connection ships them). Hardened: dial-out tables allow internal
 * four-digit extensions and local numbers behind the access code 9 and refuse everything else; the
 * system transfer table refuses all. Weak: the shipped shape (international and long distance refused,
 * everything else allowed), except that someone opened international transfers in Default Transfer and
 * everything but international numbers in Default System Transfer, which unidentified callers use.
 */
function restrictionTables(seeding: LabSeeding): [string, Patterns][] {
  const has = (id: string): boolean => seeding.weaknesses.has(id);
  const hardenedDialOut: Patterns = [
    ['????', false],
    ['9???????', false],
    ['*', true],
  ];
  const shipped: Patterns = [
    ['9011*', true],
    ['91??????????', true],
    ['*', false],
  ];
  // The fax and outdial tables are not audited: they follow the profile.
  const dialOut = seeding.profile === 'weak' ? shipped : hardenedDialOut;
  return [
    ['Default Fax', dialOut],
    ['Default Outdial', dialOut],
    // Weak: someone "fixed" the system transfer table by blocking only international numbers.
    [
      'Default System Transfer',
      has('cuc-system-transfer-open')
        ? [
            ['9011*', true],
            ['*', false],
          ]
        : [['*', true]],
    ],
    [
      'Default Transfer',
      has('cuc-transfer-international')
        ? [
            ['9011*', false],
            ['91??????????', true],
            ['*', false],
          ]
        : hardenedDialOut,
    ],
    // Restricts which numbers users may add as alternate extensions, not what Connection dials.
    ['User-Defined and Automatically-Added Alternate Extensions', [['*', false]]],
  ];
}

/**
 * The Unity Connection directory as shipped to the lab. Every weakness the CUC audit looks for in the
 * directory is seeded here, each when its id (lab/weaknesses/cuc.ts) is in the lab's set: PINs still
 * as created and set never to expire, a PIN policy and a web-application password policy without
 * length, expiry, history or lockout, a mailbox user holding the System Administrator role, and
 * restriction tables that let calls out to international and long-distance numbers.
 */
export function seedCuc(seeding: LabSeeding): CupiStore {
  const has = (id: string): boolean => seeding.weaknesses.has(id);
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

  const roles = store.define('roles', 'Roles', 'Role', ['RoleName'], 'RoleName');
  const tables = store.define(
    'restrictiontables',
    'RestrictionTables',
    'RestrictionTable',
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

  // The two rules Unity Connection ships, under the field names CUPI documents for authentication
  // rules (a credential's CredentialPolicyObjectId points to the same object under `credentialpolicies`).
  store.create(policies, {
    DisplayName: PIN_RULE_NAME,
    MinLength: has('cuc-pin-min-length') ? '4' : '8',
    TrivialCredChecking: has('cuc-pin-trivial') ? 'false' : 'true',
    MaxDays: has('cuc-pin-no-expiry') ? '0' : '180',
    MaxHacks: has('cuc-pin-no-lockout') ? '0' : '5',
    LockoutDuration: has('cuc-pin-no-lockout') ? '0' : '30',
    HackResetTime: '30',
    PrevCredCount: has('cuc-pin-no-history') ? '0' : '5',
    MinDuration: has('cuc-pin-no-min-duration') ? '0' : '1440',
    ExpiryWarningDays: '15',
    MinCharsToChange: '1',
  });
  store.create(policies, {
    DisplayName: 'Recommended Web Application Authentication Rule',
    MinLength: has('cuc-web-password-short') ? '8' : '14',
    TrivialCredChecking: has('cuc-web-trivial') ? 'false' : 'true',
    MaxDays: has('cuc-web-no-expiry') ? '0' : '90',
    MaxHacks: has('cuc-web-no-lockout') ? '0' : '5',
    LockoutDuration: has('cuc-web-no-lockout') ? '0' : '30',
    HackResetTime: '30',
    PrevCredCount: has('cuc-web-no-expiry') ? '0' : '12',
    MinDuration: '1440',
    ExpiryWarningDays: '15',
    MinCharsToChange: '1',
  });
  // System Settings > Advanced > API Settings: whether CUMI clients may fetch secure messages.
  const configuration = store.define(
    'configurationvalues',
    'ConfigurationValues',
    'ConfigurationValue',
    ['FullName'],
    'FullName',
  );
  for (const [name, value] of [
    ['System.API.CumiAccessSecureMessageAttachments', has('cuc-cumi-secure-attachments') ? '1' : '0'],
    ['System.API.CumiAllowSecureMessageHeaders', '0'],
  ] as const)
    store.create(configuration, {
      Type: '11',
      FullName: name,
      Value: value,
      UserSetting: 'true',
      RequiresRestart: 'false',
    });

  const people: [string, string, string, string][] = [
    ['jsmith', 'John', 'Smith', '1001'],
    ['mlee', 'Mary', 'Lee', '1003'],
    ['rjones', 'Rita', 'Jones', '1005'],
    ['abaker', 'Alan', 'Baker', '1007'],
    ['abrown', 'Ann', 'Brown', '1009'],
  ];
  const roleIds = new Map<string, string>(
    CUC_ROLES.map(([name, description]) => [
      name,
      store.create(roles, { RoleName: name, RoleDescription: description, IsEnabled: 'true' })
        .ObjectId as string,
    ]),
  );
  const grant = (userId: string, alias: string, roleName: string): void => {
    const roleId = roleIds.get(roleName) as string;
    const id = randomUUID();
    const held: CupiObject = {
      URI: `/vmrest/users/${userId}/userroles/${id}`,
      ObjectId: id,
      UserObjectId: userId,
      UserURI: `/vmrest/users/${userId}`,
      RoleObjectId: roleId,
      RoleURI: `/vmrest/roles/${roleId}`,
      RoleName: roleName,
      Alias: alias,
    };
    store.userRoles.set(userId, [...(store.userRoles.get(userId) ?? []), held]);
  };
  // The account the CUPI credential signs in as: an administrator without a mailbox.
  grant(randomUUID(), DEMO_CREDENTIALS.cupi.user, 'System Administrator');

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
    // Three mailboxes still on the template PIN, never changed; and (apart) set never to expire.
    const onDefault = has('cuc-default-pins') && i < 3;
    store.pins.set(u.ObjectId as string, {
      pin: onDefault ? DEFAULT_PIN : String(randomInt(10_000_000, 99_999_999)),
      CredMustChange: 'false',
      DoesntExpire: has('cuc-pins-never-expire') && i < 3 ? 'true' : 'false',
      Locked: 'false',
      HackCount: '0',
      TimeChanged: onDefault ? stamp(400) : stamp(20),
    });
    // Receptionist duty: recording greetings by phone is a role a mailbox user may well hold.
    if (alias === 'abaker') grant(u.ObjectId as string, alias, 'Greeting Administrator');
    // Weak: an end user with a mailbox was made a full administrator (and so may use CUPI).
    if (has('cuc-mailbox-admin') && alias === 'mlee')
      grant(u.ObjectId as string, alias, 'System Administrator');
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

  // A call handler is created from a template (CUPI API "Call Handlers": POST
  // /vmrest/handlers/callhandlers?templateObjectId=...); a new node holds this one ("Call Handler Templates").
  const handlerTemplates = store.define(
    'callhandlertemplates',
    'CallhandlerTemplates',
    'CallhandlerTemplate',
    ['DisplayName'],
    'DisplayName',
  );
  store.create(handlerTemplates, { DisplayName: 'System Call Handler Template', CreationTime: stamp(400) });

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

  for (const [name, patterns] of restrictionTables(seeding)) {
    const t = store.create(tables, {
      DisplayName: name,
      MinDigits: '1',
      MaxDigits: '30',
      DefaultBlocked: String(patterns[patterns.length - 1]?.[1] ?? false),
      Undeletable: 'true',
    });
    const tableId = t.ObjectId as string;
    store.restrictionPatterns.set(
      tableId,
      patterns.map(([pattern, blocked], seq) => {
        const id = randomUUID();
        return {
          URI: `/vmrest/restrictiontables/${tableId}/restrictionpatterns/${id}`,
          ObjectId: id,
          RestrictionTableObjectId: tableId,
          NumberPattern: pattern,
          Blocked: String(blocked),
          SequenceNumber: String(seq),
        };
      }),
    );
  }
  seedListsAndCoses(store, seeding.weaknesses);
  return store;
}
