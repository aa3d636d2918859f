// The public sources behind the Unity Connection audit: the vendor text that describes each control, and
// the references that confirm the names the evidence uses. Every entry was read at its URL; `confirms`
// lists only names that text shows. Names no public text confirms are called out in each check's
// `unverified`.
import type { Reference } from '../../_shared/audit/checklist.ts';
import { vosCliShow } from '../../_shared/audit/vos-references.ts';

export {
  VOS_TLS_MIN_VERSION as CLI_TLS_MIN_VERSION,
  VOS_HEALTH_CHECK as NTP_STATUS,
  VOS_SERVICE_LIST,
  VOS_CERT_LIST_OWN as CERT_LIST_OWN,
  VOS_SELF_SIGNED_DESCRIPTION as SELF_SIGNED_DESCRIPTION,
  VOS_CERT_OWN_VALIDITY as CERT_OWN_VALIDITY,
  VOS_SHOW_CERT_OWN_FILE as SHOW_CERT_OWN_FILE,
} from '../../_shared/audit/vos-references.ts';

/** `show password expiry maximum-age | minimum-age`, which apply to Unity Connection. */
export const CLI_SHOW_PASSWORD_EXPIRY: Reference = vosCliShow('show password expiry', [
  'show password expiry maximum-age',
  'show password expiry minimum-age',
]);

/** `show cert list own` and `show cert own <file>`, which apply to Unity Connection. */
export const CLI_SHOW_CERT: Reference = vosCliShow('show cert list; show cert own', [
  'show cert list own',
  'show cert own <filename>',
]);

const CUC_DOCS = 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/connection';
const CUPI_DOC = 'Cisco Unity Connection Provisioning Interface (CUPI) API';
const CUPI = `${CUC_DOCS}/REST-API/CUPI_API/b_CUPI-API`;
/** The CUPI guide is not per release; the chapters read carry "Updated: June 20, 2022". */
const CUPI_RELEASE = 'all releases (guide updated June 20, 2022)';
const SECURITY_15 = 'Security Guide for Cisco Unity Connection Release 15';
const SECURITY_12 = 'Security Guide for Cisco Unity Connection Release 12.x';

/** `/vmrest/authenticationrules`: the rules that govern PINs, web passwords and lockout. */
export const CUPI_AUTHENTICATION_RULES: Reference = {
  document: CUPI_DOC,
  release: CUPI_RELEASE,
  section:
    'Cisco Unity Connection Provisioning Interface (CUPI) API for System Settings: Authentication Rules (Listing Authentication Rules)',
  url: `${CUPI}/m-system-settings.html`,
  confirms: [
    '/vmrest/authenticationrules',
    'AuthenticationRule.DisplayName',
    'MinLength',
    'TrivialCredChecking',
    'MaxDays',
    'MaxHacks',
    'LockoutDuration',
    'HackResetTime',
    'PrevCredCount',
    'MinDuration',
    'Recommended Voice Mail Authentication Rule',
  ],
};

/** `/vmrest/configurationvalues` and the two CUMI settings that may be changed through the API. */
export const CUPI_CONFIGURATION_VALUES: Reference = {
  document: CUPI_DOC,
  release: CUPI_RELEASE,
  section:
    'Cisco Unity Connection Provisioning Interface (CUPI) API for System Settings: Configuration Values (Listing and Viewing; Updating)',
  url: `${CUPI}/m-system-settings.html`,
  confirms: [
    '/vmrest/configurationvalues?query=(fullname startswith System.API.Cumi)',
    'ConfigurationValue.FullName',
    'ConfigurationValue.Value',
    'System.API.CumiAccessSecureMessageAttachments',
    'System.API.CumiAllowSecureMessageHeaders',
  ],
};

/** `/vmrest/restrictiontables` and `/vmrest/restrictiontables/<id>/restrictionpatterns`. */
export const CUPI_RESTRICTION_TABLES: Reference = {
  document: CUPI_DOC,
  release: CUPI_RELEASE,
  section:
    'Cisco Unity Connection Provisioning Interface (CUPI) API for System Settings: Restriction Tables; Restriction Patterns',
  url: `${CUPI}/m-system-settings.html`,
  confirms: [
    '/vmrest/restrictiontables',
    'RestrictionTable.ObjectId',
    'RestrictionTable.DisplayName',
    'MinDigits',
    'MaxDigits',
    'Default Transfer',
    'RestrictionPattern.NumberPattern (* zero or more digits, ? one digit)',
    'RestrictionPattern.Blocked',
    'RestrictionPattern.SequenceNumber',
    'RestrictionPattern.RestrictionTableObjectId',
  ],
};

/** `/vmrest/roles`: the system roles by name. */
export const CUPI_ROLES: Reference = {
  document: CUPI_DOC,
  release: CUPI_RELEASE,
  section:
    'Cisco Unity Connection Provisioning Interface (CUPI) API for System Settings: Roles (Listing Roles)',
  url: `${CUPI}/m-system-settings.html`,
  confirms: ['/vmrest/roles', 'Role.RoleName', 'Greeting Administrator'],
};

/** `/vmrest/users`: the user list and the per-user PIN, password and role URIs. */
export const CUPI_USERS: Reference = {
  document: CUPI_DOC,
  release: CUPI_RELEASE,
  section:
    'Cisco Unity Connection Provisioning Interface (CUPI) API -- User Management API: User API (Listing the Users)',
  url: `${CUPI}/m_cupi-api-user-api.html`,
  confirms: [
    '/vmrest/users',
    'User.ObjectId',
    'User.Alias',
    'User.DtmfAccessId',
    'User.CreationTime',
    '/vmrest/users/<id>/credential/pin',
    '/vmrest/users/<id>/userroles',
  ],
};

/** `/vmrest/users/<id>/credential/pin`: the PIN credential's flags (never the PIN). */
export const CUPI_PIN_SETTINGS: Reference = {
  document: CUPI_DOC,
  release: CUPI_RELEASE,
  section:
    'Cisco Unity Connection Provisioning Interface (CUPI) API -- User Password PIN Settings: Listing User PIN Settings; Explanation of Data Fields',
  url: `${CUPI}/m_cupi-api-user-pwd-pin-setting.html`,
  confirms: [
    'Credential.UserObjectId',
    'Credential.CredentialType (4 = PIN, 3 = password)',
    'Credential.CredMustChange',
    'Credential.DoesntExpire',
    'Credential.TimeChanged',
    'Credential.CredentialPolicyObjectId',
    '/vmrest/credentialpolicies',
  ],
};

/** `run cuc dbquery`: runs an SQL query on a Connection database and prints the result. */
export const CLI_RUN_CUC_DBQUERY: Reference = {
  document: 'Command Line Interface Reference Guide for Cisco Unified Communications Solutions',
  release: '12.5(1)',
  section: 'Run Commands: run cuc dbquery',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/cli_ref/12_5_1/cucm_b_cli-reference-guide-1251/cucm_b_cli-reference-guide-1251_chapter_0101.html',
  confirms: [
    'run cuc dbquery unitydirdb <sql>',
    'unitydirdb',
    'output: column names, a rule of dashes, rows',
  ],
};

/** A TAC note that reads restriction tables with `run cuc dbquery` and explains the columns. */
export const TECHNOTE_RESTRICTION_TABLES: Reference = {
  document:
    "Unity Connection: Restriction Tables Effect on 'Transfer to Alternate Contact Number' Feature (Document ID 117554)",
  release: 'Unity Connection (March 27, 2014)',
  section: 'CLI Queries: To get the Restrictions defined in the "Default Transfer" Restriction Table',
  url: 'https://www.cisco.com/c/en/us/support/docs/unified-communications/unity-connection/117554-technote-restrictiontable-00.html',
  confirms: [
    'vw_restrictiontable (objectid, displayname)',
    'vw_restrictionpattern',
    'restrictiontableobjectid',
    'sequencenumber',
    'blocked (0 permit, 1 block)',
    'numberpattern',
  ],
};

/** Toll fraud: restriction tables, international and long-distance patterns, system transfers. */
export const TOLL_FRAUD: Reference = {
  document: SECURITY_15,
  release: '15',
  section: 'Preventing Toll Fraud: Using Restriction Tables to Help Prevent Toll Fraud (Best Practices)',
  url: `${CUC_DOCS}/15/security/guide/b_15cucsecx/b_15cucsecx_chapter_01.html`,
};

/** Authentication rules: PIN and password length, trivial checks, expiry, lockout; unique initial PINs. */
export const AUTHENTICATION_RULES_GUIDE: Reference = {
  document: SECURITY_12,
  release: '12.x',
  section:
    'Passwords, PINs, and Authentication Rule Management: Defining Authentication Rules to Specify Password, PIN, and Lockout Policies (Best Practices)',
  url: `${CUC_DOCS}/12x/security/b_12xcucsecx/b_12xcucsecx_chapter_0110.html`,
};

/** Unique initial PINs and passwords: "All users created from a template are assigned the same PIN". */
export const INITIAL_PINS_GUIDE: Reference = {
  document: SECURITY_12,
  release: '12.x',
  section:
    'Passwords, PINs, and Authentication Rule Management: About the PINs and Passwords Users Use to Access Unity Connection Applications; Changing Phone PINs (Best Practice)',
  url: `${CUC_DOCS}/12x/security/b_12xcucsecx/b_12xcucsecx_chapter_0110.html`,
};

/** FIPS mode on Unity Connection and the `utils fips` commands. */
export const FIPS_GUIDE: Reference = {
  document: SECURITY_15,
  release: '15',
  section: 'FIPS Compliance in Cisco Unity Connection: Running CLI Commands for FIPS',
  url: `${CUC_DOCS}/15/security/b_15cucsecx/b_14cucsecx_chapter_0100.html`,
  confirms: ['utils fips status', 'utils fips enable'],
};

/** The certificates that secure Connection's web applications and APIs. */
export const SSL_GUIDE: Reference = {
  document: SECURITY_15,
  release: '15',
  section: 'Using SSL to Secure Client/Server Connections',
  url: `${CUC_DOCS}/15/security/guide/b_15cucsecx/b_15cucsecx_chapter_01000.html`,
};

/** The CUMI guide's note on the API Settings box that lets CUMI clients play secure messages. */
export const CUMI_SECURE_MESSAGES: Reference = {
  document: 'Cisco Unity Connection Messaging Interface (CUMI) API',
  release: 'all releases (guide updated December 23, 2018)',
  section: 'Cisco Unity Connection Messaging Interface (CUMI) API: Troubleshooting (note on secure messages)',
  url: `${CUC_DOCS}/REST-API/CUMI_API/b_CUMI-API/b_CUMI-API_chapter_00.html`,
  confirms: [
    'Allow Access to Secure Message Recordings Through the Cisco Unity Connection Messaging Interface (CUMI)',
    'System Settings > Advanced > API Settings',
    'API access to playback secure messages is off by default',
  ],
};

/** The end-user CUPI guide: the two CUMI secure-message values are set by an administrator. */
export const CUPI_END_USER_SYSTEM_CONFIGURATION: Reference = {
  document: 'Cisco Unity Connection Provisioning Interface (CUPI) API -- For End Users',
  release: 'all releases (guide updated January 24, 2019)',
  section: 'Cisco Unity Connection Provisioning Interface (CUPI) API -- SystemConfiguration API',
  url: `${CUC_DOCS}/REST-API/CUPI_API_for_End_User/b_CUPI_API_for_End_User/b_CUPI_API_for_End_User_chapter_010111.html`,
  confirms: [
    'CumiAccessSecureMessageAttachments (a configuration value an administrator sets; named there with the prefix System.Messaging)',
    'CumiAllowSecureMessageHeaders',
    '/vmrest/systemconfiguration SecureMessageAttachmentDownload',
  ],
};

/** `/vmrest/coses`: the classes of service and the COS field that grants the (Web) Inbox. */
export const CUPI_COSES: Reference = {
  document: CUPI_DOC,
  release: CUPI_RELEASE,
  section:
    'Cisco Unity Connection Provisioning Interface (CUPI) API -- Class of Service (COS) APIs: Classes of Service; Listing the Class of Services; Explanation of Data Fields',
  url: `${CUPI}/m_cupi-api-class-of-service-apis.html`,
  confirms: [
    '/vmrest/coses',
    'Cos.ObjectId',
    'Cos.DisplayName',
    'Cos.AccessVmi (whether users of the COS "can use the Cisco Unity Connection Inbox"; "a licensed feature"; default false)',
    'a COS "controls user access to licensed features such as the Cisco Unity Connection Web Inbox (Connection 8.5 and later)"',
    'PUT /vmrest/coses/<cosobjectid>',
    'Voice Mail User COS',
  ],
};

/** Cisco's advisory that names the class-of-service box as the exposure condition of CVE-2026-20035. */
export const ADVISORY_WEB_INBOX_SSRF: Reference = {
  document:
    'Cisco Security Advisory: Cisco Unity Connection Remote Code Execution and Server-Side Request Forgery Vulnerabilities (cisco-sa-unity-rce-ssrf-hENhuASy)',
  release:
    '12.5 and earlier, 14, 15 (version 1.0, first published 2026-05-06; first fixed releases 14SU5 and 15SU4)',
  section: 'Affected Products: Vulnerable Products (Determine Whether Web Inbox Is Enabled); Fixed Software',
  url: 'https://www.cisco.com/c/en/us/support/docs/csa/cisco-sa-unity-rce-ssrf-hENhuASy.html',
  confirms: [
    'Class of Service > Licensed Features > Allow Users to Use the Web Inbox and RSS Feeds',
    'CVE-2026-20035 affects Unity Connection if Web Inbox is enabled; Web Inbox is enabled by default',
  ],
};

/** Jabber's voicemail set-up checks the same class-of-service box: clearing it may cost Jabber voicemail. */
export const JABBER_VOICEMAIL_COS: Reference = {
  document: 'Cisco Jabber 11.0 Deployment and Installation Guide',
  release: '11.0 (updated June 25, 2015)',
  section: 'Configure Voicemail: Configure Cisco Unity Connection for Use with Cisco Jabber',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/jabber/11_0/CJAB_BK_D657A25F_00_deployment-installation-guide-jabber-110/CJAB_BK_D657A25F_00_deployment-installation-guide-jabber-110_chapter_01000.html',
  confirms: [
    'Class of Service: Allow Users to Use the Web Inbox and RSS Feeds',
    'Allow Users to Use Unified Client to Access Voice Mail',
  ],
};
