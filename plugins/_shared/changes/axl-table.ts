// The AXL rows of the change table: a class per operation-name prefix, with the operations whose prefix
// would mislead listed by name. Derived from the operation list of the AXL 15.0 schema (1,068 operations:
// get, list, add, update, remove, apply, reset, restart, do, execute, wipe, lock, assign, unassign); the
// unit test checks every one of them lands on a row here, none on the unknown fallback.
import type { ChangeRule } from './change-rule.ts';

const READ_ROWS = 'answers rows or an object; nothing on the node changes';

/** A prefix matches when the next character starts the object's name (an upper-case letter). */
export const AXL_PREFIX_RULES: Readonly<Record<string, ChangeRule>> = {
  get: { class: 'read', why: READ_ROWS },
  list: { class: 'read', why: READ_ROWS },
  add: { class: 'change', why: 'creates one object; removing it puts the configuration back' },
  update: {
    class: 'change',
    why: 'changes fields of one object; its earlier values can be read first and written back',
  },
  assign: {
    class: 'change',
    why: 'assignPresenceUser places users on an IM and Presence node; unassigning puts it back',
  },
  remove: {
    class: 'destructive',
    why: 'deletes the object (and what the node removes with it); only a full re-creation brings it back',
  },
  unassign: {
    class: 'destructive',
    why: 'unassignPresenceUser takes IM and Presence service away from the users at once',
  },
  apply: {
    class: 'destructive',
    why: "Apply Config makes the devices that use the object (every phone of a device pool, every trunk of a SIP profile) re-read their configuration and restart or reset where the change needs it, which drops a device's calls",
  },
  reset: {
    class: 'destructive',
    why: 'a reset shuts the devices down and re-registers them: calls in progress drop',
  },
  restart: {
    class: 'destructive',
    why: 'a restart re-registers the devices without a full power cycle; calls in progress on them can drop',
  },
  lock: {
    class: 'destructive',
    why: 'lockPhone locks a lost device remotely: its user loses the device until it is unlocked',
  },
  wipe: { class: 'destructive', why: "wipePhone erases the device's data: nothing brings it back" },
};

/**
 * Operations whose prefix says too little. `do*` names actions of every weight, so each one is listed
 * and a `do*` operation missing here falls to the unknown row (destructive). `execute*` likewise.
 */
export const AXL_OPERATION_RULES: Readonly<Record<string, ChangeRule>> = {
  executeSQLQuery: { class: 'read', why: 'a SELECT on the database; the node refuses other statements here' },
  executeSQLQueryInactive: {
    class: 'read',
    why: 'a SELECT on the inactive partition (after an upgrade); the node refuses other statements',
  },
  executeSQLUpdate: {
    class: 'destructive',
    why: 'any INSERT, UPDATE or DELETE on any table: no before-image can be known from the operation',
  },
  doAuthenticateUser: {
    class: 'change',
    why: "checks a password or PIN, but a failed check counts toward the credential policy's lockout: it can lock the user out",
  },
  doChangeDNDStatus: {
    class: 'change',
    why: "turns a user's Do Not Disturb on or off; the next call puts it back",
  },
  doDeviceLogin: {
    class: 'change',
    why: 'an Extension Mobility login: what the user does at the phone every day, undone by a logout',
  },
  doDeviceLogout: {
    class: 'change',
    why: 'an Extension Mobility logout: the phone returns to its own profile, undone by a login',
  },
  doDeviceReset: { class: 'destructive', why: 'resets a device: calls in progress on it drop' },
  doEnterpriseParametersReset: {
    class: 'destructive',
    why: 'resets every enterprise parameter to its default at once, across the cluster',
  },
  doServiceParametersReset: {
    class: 'destructive',
    why: "resets a service's parameters to their defaults at once",
  },
  doLdapSync: {
    class: 'destructive',
    why: 'a directory synchronisation marks users no longer in LDAP inactive, and the node deletes them later: users can disappear',
  },
  doSmartLicenseRegister: {
    class: 'change',
    why: 'registers the cluster with Smart Licensing; deregistering puts it back',
  },
  doSmartLicenseReRegister: {
    class: 'change',
    why: 'registers the cluster again with a new token; the licences in use stay',
  },
  doSmartLicenseDeRegister: {
    class: 'destructive',
    why: 'deregisters the cluster from Smart Licensing: its licences are released and registering again needs a new token',
  },
  doSmartLicenseRenewAuthorization: {
    class: 'change',
    why: 'renews the licence authorisation early; nothing is taken away',
  },
  doSmartLicenseRenewRegistration: {
    class: 'change',
    why: 'renews the registration certificate early; nothing is taken away',
  },
  doSmartEntitlementRequest: {
    class: 'change',
    why: 'asks Smart Licensing for entitlements; nothing is taken away',
  },
  doUpdateLicenseUsage: {
    class: 'change',
    why: 'recomputes and reports licence usage; no configuration changes',
  },
  doUpdateRemoteCluster: {
    class: 'change',
    why: 'refreshes what the node knows of a remote (ILS) cluster',
  },
  doUpdateTransportSettings: {
    class: 'change',
    why: 'changes the Smart Licensing transport settings; their earlier values can be written back',
  },
};

export const AXL_UNKNOWN: ChangeRule = {
  class: 'destructive',
  why: 'an operation this table does not know: treated as the worst case until it is classified',
};

/**
 * Top-level request fields that replace a secret. A secret cannot be read back, so an update that sets
 * one cannot be undone from a before-image: the old password or PIN is gone.
 */
export const AXL_SECRET_FIELDS: ReadonlySet<string> = new Set(['password', 'pin', 'digestCredentials']);

export const AXL_SECRET_UPDATE: ChangeRule = {
  class: 'destructive',
  why: 'an update that sets a password, PIN or digest credential: the old secret cannot be read back or restored',
};
