// OAuth-based login: whether Jabber and the other clients get short-lived, signed and encrypted OAuth
// access tokens with revocable refresh tokens (the "OAuth with Refresh Login Flow" enterprise
// parameter), rather than the older implicit grant flow alone.
import {
  cannotJudge,
  rowsOf,
  type Check,
  type EvidenceResult,
  type Reference,
} from '../../_shared/audit/checklist.ts';
import { excerpt, incomplete, sql, text } from './evidence.ts';
import { TOKENLESS_CTL } from './references.ts';

/** The processconfig paramname of "OAuth with Refresh Login Flow" (System > Enterprise Parameters). */
export const OAUTH_REFRESH_PARAMETER = 'oAuthWithRefreshLoginFlow';

export const SYSCONFIG_1251_JABBER: Reference = {
  document: 'System Configuration Guide for Cisco Unified Communications Manager',
  release: '12.5(1)',
  section:
    'Configure Cisco Jabber: OAuth Refresh Logins for Cisco Jabber; Configure Refresh Logins for Cisco Jabber (System > Enterprise Parameters > SSO Configuration)',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/admin/12_5_1/systemConfig/cucm_b_system-configuration-guide-1251/cucm_b_system-configuration-guide-1251_chapter_0111000.html',
  confirms: [
    'OAuth with Refresh Login Flow (Enabled / Disabled, default Disabled)',
    'OAuth Access Token Expiry Timer (minutes)',
    'OAuth Refresh Token Expiry Timer (days)',
  ],
};

/** Cisco's own sample that reads each parameter's id off the administration pages, per release. */
export const PARAMETER_NAME_MAPPER: Reference = {
  document:
    'cucm-service-param-name-mapper (CiscoDevNet sample: Unified CM parameter labels mapped to their programmatic ids)',
  release: '12.5(1)SU6 and 14',
  section:
    'output_v12.51SU6.json and output_v14.json, service "Enterprise Wide": oAuthWithRefreshLoginFlow = "OAuth with Refresh Login Flow"',
  url: 'https://github.com/CiscoDevNet/cucm-service-param-name-mapper',
  confirms: [OAUTH_REFRESH_PARAMETER],
};

const oauthParameter = sql(
  'oauthRefreshLoginFlow',
  'the "OAuth with Refresh Login Flow" enterprise parameter',
  `select paramname, paramvalue from processconfig where paramname = '${OAUTH_REFRESH_PARAMETER}'`,
);

/** The stored form of a Boolean parameter is not published: each common spelling is read, others reported. */
const ENABLED = /^(?:t|true|1|enabled?|yes)$/i;
const DISABLED = /^(?:f|false|0|disabled?|no)$/i;

export function judgeOAuthRefresh(r: Record<string, EvidenceResult>): string | undefined {
  const cut = incomplete(r.oauthRefreshLoginFlow);
  if (cut) return cut;
  const values = rowsOf(r.oauthRefreshLoginFlow).map((row) => text(row.paramvalue).trim());
  // No row is never a pass: on a release without the parameter the control cannot be judged.
  if (values.length === 0)
    return `cannot judge OAuth refresh logins: no processconfig row named ${OAUTH_REFRESH_PARAMETER} (check System > Enterprise Parameters > SSO Configuration)`;
  const odd = values.filter((v) => !ENABLED.test(v) && !DISABLED.test(v));
  if (odd.length > 0)
    return cannotJudge(`unrecognised value of OAuth with Refresh Login Flow: ${excerpt(odd.join(', '))}`);
  return values.some((v) => DISABLED.test(v)) ? 'OAuth with Refresh Login Flow is Disabled' : undefined;
}

export const OAUTH_CHECKS: Check[] = [
  {
    id: 'CUCM-OAUTH-01',
    topic: 'authentication',
    title: 'OAuth refresh logins disabled',
    rationale:
      'With OAuth refresh logins the cluster issues short-lived access tokens that are signed and encrypted (JWT) and refresh tokens an administrator can revoke per user; without them clients fall back to the implicit grant flow, and SIP OAuth (encrypted Jabber signalling without CAPF certificates) is not available.',
    evidence: [oauthParameter],
    condition: `the ${OAUTH_REFRESH_PARAMETER} enterprise parameter ("OAuth with Refresh Login Flow") is Disabled; when no row is read the setting cannot be judged (not assessed, never passed)`,
    evaluate: judgeOAuthRefresh,
    severity: 'low',
    remediation:
      'Set "OAuth with Refresh Login Flow" to Enabled (System > Enterprise Parameters > SSO Configuration), keep the access token expiry short (the default 60 minutes), and enable the same on Expressway and Unity Connection so the deployment stays consistent.',
    references: [SYSCONFIG_1251_JABBER, PARAMETER_NAME_MAPPER, TOKENLESS_CTL],
  },
];
