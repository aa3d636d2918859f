// The change corpus: one write per object kind and verb on the lab, shared by the tests that prove
// before-images, diffs and inverses (axl-round-trip, cupi-round-trip) and the write-safety corpus
// through MCP. Each case leaves the lab as it found it once its inverse (or undo) ran.
import type { Json } from '../../plugins/_shared/axl/schema.ts';

export type AxlChangeCase = [label: string, operation: string, args: Record<string, Json>];

/** One change per object kind and verb; each leaves the lab as it found it once its inverse ran. */
export const AXL_CHANGE_CASES: readonly AxlChangeCase[] = [
  [
    'phone fields',
    'updatePhone',
    { name: 'SEP0A1B2C3D4E02', description: 'moved', callingSearchSpaceName: 'CSS_Internal' },
  ],
  [
    'line',
    'updateLine',
    { pattern: '1002', routePartitionName: 'PT_Internal', description: 'new', alertingName: 'New' },
  ],
  ['user', 'updateUser', { userid: 'mlee', department: 'Support', firstName: 'Mae' }],
  [
    'partition rename',
    'updateRoutePartition',
    { name: 'PT_PSTN', newName: 'PT_PSTN_2', description: 'renamed' },
  ],
  [
    'CSS members',
    'updateCss',
    { name: 'CSS_National', members: { member: [{ routePartitionName: 'PT_Internal', index: '1' }] } },
  ],
  [
    'SIP trunk',
    'updateSipTrunk',
    { name: 'SIP_TO_SBC', description: 'x', callingSearchSpaceName: 'CSS_Internal' },
  ],
  [
    'hunt pilot',
    'updateHuntPilot',
    { pattern: '1900', routePartitionName: 'PT_Internal', description: 'x', alertingName: 'Y' },
  ],
  [
    'route pattern',
    'updateRoutePattern',
    { pattern: '9.011!', routePartitionName: 'PT_International', blockEnable: true },
  ],
  [
    'translation pattern',
    'updateTransPattern',
    { pattern: '8XXX', routePartitionName: 'PT_Internal', calledPartyTransformationMask: '2XXX' },
  ],
  ['device pool rename', 'updateDevicePool', { name: 'DP_HQ', newName: 'DP_Head' }],
  ['route list', 'updateRouteList', { name: 'RL_PSTN', description: 'changed' }],
  [
    'line group members',
    'updateLineGroup',
    {
      name: 'LG_Sales',
      distributionAlgorithm: 'Circular',
      members: {
        member: [
          {
            lineSelectionOrder: '1',
            directoryNumber: { pattern: '1001', routePartitionName: 'PT_Internal' },
          },
        ],
      },
    },
  ],
  ['hunt list', 'updateHuntList', { name: 'HL_Sales', description: 'changed' }],
  ['route group', 'updateRouteGroup', { name: 'RG_SBC', distributionAlgorithm: 'Circular' }],
  [
    'CSS member added',
    'updateCss',
    { name: 'CSS_Internal', addMembers: { member: [{ routePartitionName: 'PT_PSTN', index: '2' }] } },
  ],
  [
    'CSS member removed',
    'updateCss',
    { name: 'CSS_National', removeMembers: { member: [{ routePartitionName: 'PT_PSTN' }] } },
  ],
  [
    'phone line added',
    'updatePhone',
    {
      name: 'SEP0A1B2C3D4E03',
      addLines: { line: [{ index: '2', dirn: { pattern: '9000', routePartitionName: 'PT_Internal' } }] },
    },
  ],
  ['phone line removed', 'updatePhone', { name: 'SEP0A1B2C3D4E02', removeLines: { line: [{ index: '1' }] } }],
  [
    'line group member removed',
    'updateLineGroup',
    {
      name: 'LG_Sales',
      removeMembers: {
        member: [{ directoryNumber: { pattern: '1002', routePartitionName: 'PT_Internal' } }],
      },
    },
  ],
  [
    'hunt list member added',
    'updateHuntList',
    { name: 'HL_Sales', addMembers: { member: [{ lineGroupName: 'LG_Sales', selectionOrder: '2' }] } },
  ],
  [
    'SIP trunk destination added',
    'updateSipTrunk',
    {
      name: 'SIP_TO_SBC',
      addDestinations: { destination: [{ addressIpv4: '192.0.2.11', port: '5060', sortOrder: '2' }] },
    },
  ],
  [
    'remove translation pattern',
    'removeTransPattern',
    { pattern: '8XXX', routePartitionName: 'PT_Internal' },
  ],
  [
    'remove route pattern',
    'removeRoutePattern',
    { pattern: '9.011!', routePartitionName: 'PT_International' },
  ],
  ['remove hunt pilot', 'removeHuntPilot', { pattern: '1900', routePartitionName: 'PT_Internal' }],
  ['remove phone with its lines', 'removePhone', { name: 'SEP0A1B2C3D4E04' }],
  ['remove user', 'removeUser', { userid: 'rjones' }],
  [
    'remove line on a phone and in a line group',
    'removeLine',
    { pattern: '1002', routePartitionName: 'PT_Internal' },
  ],
  ['remove route group in a route list', 'removeRouteGroup', { name: 'RG_SBC' }],
  ['remove line group in a hunt list', 'removeLineGroup', { name: 'LG_Sales' }],
  ['remove SIP trunk in a route group', 'removeSipTrunk', { name: 'SIP_TO_SBC' }],
  ['remove phone owned and associated', 'removePhone', { name: 'SEP0A1B2C3D4E01' }],
  ['add partition', 'addRoutePartition', { routePartition: { name: 'PT_Lab', description: 'lab' } }],
  [
    'add line',
    'addLine',
    { line: { pattern: '2001', routePartitionName: 'PT_Internal', description: 'new line' } },
  ],
  ['add user', 'addUser', { user: { userid: 'newbie', lastName: 'Newman', firstName: 'Nora' } }],
  [
    'add CSS',
    'addCss',
    { css: { name: 'CSS_Lab', members: { member: [{ routePartitionName: 'PT_Internal', index: '1' }] } } },
  ],
  [
    'add phone',
    'addPhone',
    {
      phone: {
        name: 'SEPAABBCCDDEE01',
        product: 'Cisco 8865',
        class: 'Phone',
        protocol: 'SIP',
        protocolSide: 'User',
        devicePoolName: 'DP_HQ',
        lines: { line: [{ index: '1', dirn: { pattern: '1003', routePartitionName: 'PT_Internal' } }] },
      },
    },
  ],
  [
    'add SIP trunk',
    'addSipTrunk',
    {
      sipTrunk: {
        name: 'SIP_LAB',
        product: 'SIP Trunk',
        class: 'Trunk',
        protocol: 'SIP',
        protocolSide: 'Network',
        devicePoolName: 'DP_HQ',
        securityProfileName: 'Non Secure SIP Trunk Profile',
        destinations: { destination: [{ addressIpv4: '192.0.2.20', port: '5060', sortOrder: '1' }] },
      },
    },
  ],
  [
    'add hunt pilot',
    'addHuntPilot',
    { huntPilot: { pattern: '1901', routePartitionName: 'PT_Internal', huntListName: 'HL_Sales' } },
  ],
  [
    'add route pattern',
    'addRoutePattern',
    {
      routePattern: {
        pattern: '9.1XXX',
        routePartitionName: 'PT_PSTN',
        destination: { routeListName: 'RL_PSTN' },
      },
    },
  ],
  [
    'add translation pattern',
    'addTransPattern',
    {
      transPattern: {
        pattern: '7XXX',
        routePartitionName: 'PT_Internal',
        calledPartyTransformationMask: '1XXX',
      },
    },
  ],
  [
    'add route group',
    'addRouteGroup',
    {
      routeGroup: {
        name: 'RG_LAB',
        distributionAlgorithm: 'Top Down',
        members: { member: [{ deviceSelectionOrder: '1', deviceName: 'SIP_TO_SBC', port: '0' }] },
      },
    },
  ],
  [
    'add route list',
    'addRouteList',
    {
      routeList: {
        name: 'RL_LAB',
        callManagerGroupName: 'Default',
        members: { member: [{ routeGroupName: 'RG_SBC', selectionOrder: '1' }] },
      },
    },
  ],
  [
    'add line group',
    'addLineGroup',
    { lineGroup: { name: 'LG_LAB', distributionAlgorithm: 'Top Down', rnaReversionTimeOut: '10' } },
  ],
  [
    'add hunt list',
    'addHuntList',
    {
      huntList: {
        name: 'HL_LAB',
        callManagerGroupName: 'Default',
        members: { member: [{ lineGroupName: 'LG_Sales', selectionOrder: '1' }] },
      },
    },
  ],
  ['add device pool', 'addDevicePool', { devicePool: { name: 'DP_LAB', callManagerGroupName: 'Default' } }],
];

/** One CUPI write: a collection below /vmrest/, the object it names (if any), what it sends. */
export interface CupiChangeCase {
  label: string;
  method: 'POST' | 'PUT' | 'DELETE';
  /** Below /vmrest/: `users`, `distributionlists`, `handlers/callhandlers`. */
  collection: string;
  /** The existing object the PUT or DELETE names, found by one field's value. */
  find?: { field: string; value: string };
  /** Made first through CUPI (the lab seeds no distribution list); `find` then names it. */
  seed?: Record<string, Json>;
  body?: Record<string, Json>;
  /** The template a create is made from (CUPI requires one for users and call handlers). */
  template?: 'user' | 'callhandler';
}

export const CUPI_CHANGE_CASES: readonly CupiChangeCase[] = [
  {
    label: 'CUPI user fields',
    method: 'PUT',
    collection: 'users',
    find: { field: 'Alias', value: 'mlee' },
    body: { DisplayName: 'Mae Lee', Department: 'Support' },
  },
  {
    label: 'CUPI remove user',
    method: 'DELETE',
    collection: 'users',
    find: { field: 'Alias', value: 'abrown' },
  },
  {
    label: 'CUPI add user',
    method: 'POST',
    collection: 'users',
    body: { Alias: 'newbie', DisplayName: 'New Bie', DtmfAccessId: '7781' },
    template: 'user',
  },
  {
    label: 'CUPI add distribution list',
    method: 'POST',
    collection: 'distributionlists',
    body: { Alias: 'sales-dl', DisplayName: 'Sales' },
  },
  {
    label: 'CUPI distribution list fields',
    method: 'PUT',
    collection: 'distributionlists',
    seed: { Alias: 'ops-dl', DisplayName: 'Ops' },
    find: { field: 'Alias', value: 'ops-dl' },
    body: { DisplayName: 'Operations' },
  },
  {
    label: 'CUPI remove distribution list',
    method: 'DELETE',
    collection: 'distributionlists',
    seed: { Alias: 'hr-dl', DisplayName: 'HR' },
    find: { field: 'Alias', value: 'hr-dl' },
  },
  {
    label: 'CUPI add call handler',
    method: 'POST',
    collection: 'handlers/callhandlers',
    body: { DisplayName: 'Night' },
    template: 'callhandler',
  },
  {
    label: 'CUPI call handler fields',
    method: 'PUT',
    collection: 'handlers/callhandlers',
    find: { field: 'DisplayName', value: 'Goodbye' },
    body: { DisplayName: 'Farewell', DtmfAccessId: '9' },
  },
  {
    label: 'CUPI remove call handler',
    method: 'DELETE',
    collection: 'handlers/callhandlers',
    find: { field: 'DisplayName', value: 'Operator' },
  },
];
