import { createHash, timingSafeEqual } from 'node:crypto';
import type { Cell, Database, Row } from '../../informix/database.ts';
import { holdsRole } from './roles.ts';
import { CREDENTIAL_PASSWORD } from './schema.ts';

/** How the lab stores a credential: a digest, so `select credentials from credential` shows no secret. */
export function credentialDigest(secret: string): string {
  return createHash('sha256').update(`uc-mcp-lab:${secret}`).digest('hex');
}

export type CredentialOwner = { fkenduser: string } | { fkapplicationuser: string };

/** Creates or replaces the password (`tkcredential` 3) or PIN (4) of an end user or application user. */
export function setCredential(
  db: Database,
  owner: CredentialOwner,
  kind: string,
  secret: string,
  extra: Record<string, Cell | undefined> = {},
): void {
  const table = db.table('credential');
  const [column, id] =
    'fkenduser' in owner ? ['fkenduser', owner.fkenduser] : ['fkapplicationuser', owner.fkapplicationuser];
  const existing = table.rows.find((r) => r[column] === id && r.tkcredential === kind) as Row | undefined;
  const values: Record<string, Cell | undefined> = {
    credentials: credentialDigest(secret),
    timechanged: String(Math.floor(Date.now() / 1000)),
    ...extra,
  };
  if (existing) {
    db.update('credential', existing, values);
    return;
  }
  const policy = db.table('credentialpolicy').rows[0]?.pkid ?? null;
  db.insert('credential', { [column]: id, tkcredential: kind, fkcredentialpolicy: policy, ...values });
}

function matches(row: Readonly<Row> | undefined, secret: string): boolean {
  const stored = row?.credentials;
  if (!stored) return false;
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(credentialDigest(secret), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The end user whose password this is, or undefined. */
export function authenticateEndUser(
  db: Database,
  userid: string,
  password: string,
): Readonly<Row> | undefined {
  const user = db.table('enduser').findBy('userid', userid);
  if (!user) return undefined;
  const cred = db
    .table('credential')
    .rows.find((r) => r.fkenduser === user.pkid && r.tkcredential === CREDENTIAL_PASSWORD);
  return matches(cred, password) ? user : undefined;
}

/**
 * The application user whose password this is and who holds `role` through one of its access control
 * groups (AXL needs the role "Standard AXL API Access", carried by Standard CCM Super Users or a custom
 * group), or undefined.
 */
export function authenticateAppUser(
  db: Database,
  name: string,
  password: string,
  role: string,
): Readonly<Row> | undefined {
  const user = db.table('applicationuser').findBy('name', name);
  if (!user) return undefined;
  const cred = db
    .table('credential')
    .rows.find((r) => r.fkapplicationuser === user.pkid && r.tkcredential === CREDENTIAL_PASSWORD);
  if (!matches(cred, password)) return undefined;
  return holdsRole(db, { fkapplicationuser: String(user.pkid) }, role) ? user : undefined;
}
