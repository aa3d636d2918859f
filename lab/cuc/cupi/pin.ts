import type { CupiObject, CupiStore, PinCredential } from './store.ts';
import { CupiError, PIN_RULE_NAME } from './store.ts';

/** The PIN credential as CUPI shows it: flags only, never the PIN. */
export function pinView(userId: string, pin: PinCredential): CupiObject {
  const { pin: _secret, ...flags } = pin;
  return {
    URI: `/vmrest/users/${userId}/credential/pin`,
    UserObjectId: userId,
    CredentialType: '4',
    ...flags,
  };
}

function isTrivial(pin: string): boolean {
  if (/^(\d)\1+$/.test(pin)) return true;
  const ascending = '01234567890123456789';
  const descending = '98765432109876543210';
  return ascending.includes(pin) || descending.includes(pin);
}

/** Changes a PIN under the voicemail PIN policy (minimum length, trivial PINs refused when the policy says so). */
export function changePin(store: CupiStore, userId: string, fields: CupiObject): void {
  const current = store.pins.get(userId);
  if (!current) throw new CupiError(404, 'NOT_FOUND', 'PIN credential not found');
  const policy = [...store.collection('credentialpolicies').items.values()].find(
    (p) => p.DisplayName === PIN_RULE_NAME,
  );
  if (fields.Credentials !== undefined) {
    const pin = fields.Credentials;
    if (!/^\d+$/.test(pin)) throw new CupiError(400, 'INVALID_PARAMETER', 'A PIN has digits only');
    if (pin.length < Number(policy?.MinLength ?? 0))
      throw new CupiError(
        400,
        'INVALID_PARAMETER',
        `The PIN must be at least ${policy?.MinLength ?? 0} digits`,
      );
    if (policy?.TrivialCredChecking === 'true' && isTrivial(pin))
      throw new CupiError(400, 'INVALID_PARAMETER', 'The PIN is too easy to guess');
    current.pin = pin;
    current.TimeChanged = new Date().toISOString().replace('T', ' ').slice(0, 23);
  }
  for (const flag of ['CredMustChange', 'DoesntExpire', 'Locked'] as const) {
    if (fields[flag] !== undefined) current[flag] = fields[flag] === 'true' ? 'true' : 'false';
  }
}
