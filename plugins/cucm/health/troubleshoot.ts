// `cucm_troubleshoot_registration`: a guided workflow for a device that does not register (or keeps
// dropping): its RIS state, the nodes' registration counters, the call-processing and TFTP services,
// then the call-processing traces. Read-only; the operator and the admin may make every call (the
// auditor may not collect trace files).
import { RISPORT70 } from '../audit/references.ts';
import { CONTROL_CENTER_API } from '../../_shared/audit/service-evidence.ts';
import {
  CALLMANAGER_COUNTERS,
  REGISTRATION_COUNTERS,
  SERVICE_NAMES,
} from '../../_shared/health/references.ts';
import type { Workflow } from '../../_shared/health/workflow.ts';

export const CUCM_TROUBLESHOOT_REGISTRATION: Workflow = {
  product: 'cucm',
  prompt: 'cucm_troubleshoot_registration',
  title: 'CUCM device registration troubleshooting',
  description:
    "Guided workflow for a device that does not register or keeps unregistering: its RisPort70 state and reason, the nodes' PerfMon registration counters, the Cisco CallManager and Cisco Tftp services on every node, then the recent call-processing traces, with what each answer means and where to look next. Read-only.",
  profiles: ['admin', 'operator'],
  steps: [
    {
      title: 'The device as RisPort70 sees it',
      calls: [
        {
          tool: 'cucm_risport_query',
          args: { host: '{host}', select_by: 'Name', select_items: ['{device}'], status: 'Any' },
          purpose: 'the registration record of every matching device, from every node',
        },
      ],
      decisions: [
        'Registered: the device is registered now, to the node in `node`, from `ip_addresses`. If the symptom remains, it is not registration: look at the device and its lines (`cucm_axl_call` getPhone) and at call activity (step 2, CallsActive).',
        'UnRegistered: `status_reason` says why the node dropped it (keep-alive timeout, connectivity error, device initiated reset...), `node` and `timestamp` say where and when. A CallManager reset or restart points to step 3; a connectivity or keep-alive reason points to the network between the device and that node; then read the traces of that node (step 4).',
        'Rejected: the node refused the registration (no entry in the database, configuration mismatch, maximum registrations exceeded...): check the device exists and matches (`cucm_axl_call` getPhone with its name), then the traces (step 4).',
        'PartiallyRegistered: some lines did not register: compare `dir_numbers` with the configured lines.',
        '`also_reported_by`: another node holds an older record; the device moved between nodes (a failover). Step 3 tells whether its first node is down.',
        'No record at all: no node has seen the device since its service started. It never reached the cluster: check that the name is right, that the device is configured (`cucm_axl_call` getPhone), and that TFTP runs (step 3); the cause is then usually on the device or its network (DHCP, TFTP address).',
      ],
      references: [RISPORT70],
    },
    {
      title: "Each node's registration counters",
      calls: [
        {
          tool: 'cucm_perfmon_query',
          args: {
            host: '{host}',
            object: 'Cisco CallManager',
            counters: REGISTRATION_COUNTERS,
            all_nodes: true,
          },
          purpose: 'how many phones and other station devices each node holds now, and its active calls',
        },
      ],
      decisions: [
        'One node at 0 while its peers hold devices: its call processing lost them (service down, or the devices failed over): check that node in step 3.',
        'Every node lower than usual: a cluster-wide or network cause (a reset, a DHCP or TFTP outage, a network change): check TFTP in step 3 and the traces in step 4.',
        'Counters as usual and only the one device unregistered: the cause is the device, its configuration or its own network path (step 1 reason, step 4 traces).',
        'A node listed with an error: that node could not be read (its credential, its budget); read it alone later or go on with the others.',
      ],
      references: [CALLMANAGER_COUNTERS],
    },
    {
      title: 'Call-processing and TFTP services on every node',
      calls: [
        {
          tool: 'cucm_service_status',
          args: { host: '{host}', all_nodes: true, services: ['Cisco CallManager', 'Cisco Tftp'] },
          purpose: 'whether call processing and TFTP run on each node, with the reason when they do not',
        },
      ],
      decisions: [
        'Cisco CallManager not Started on the node the device registers to: the device fails over to the next node of its group or stays unregistered. Propose a restart to an administrator (`cucm_service_control`, admin only, with confirmation); do not restart it yourself.',
        'Cisco Tftp not Started where the devices get their configuration: devices that reset cannot download their configuration file and do not register.',
        'Stopped with "Service Not Activated": that node is not meant to run the service; the device should not depend on it (check its group).',
        'Both Started everywhere: the services are not the cause; read the traces (step 4).',
      ],
      references: [CONTROL_CENTER_API, SERVICE_NAMES],
    },
    {
      title: 'Recent call-processing traces',
      calls: [
        {
          tool: 'cucm_log_list',
          args: { host: '{host}', services: ['Cisco CallManager'], since_minutes: 60 },
          purpose: 'the Cisco CallManager trace files of the last hour on the node',
        },
        {
          tool: 'cucm_log_collect',
          args: { host: '{host}', files: ['/var/log/active/cm/trace/ccm/sdl/<file>'] },
          purpose: 'fetch the newest files, as resource links you read with resources/read',
          fillIn:
            'files: the paths cucm_log_list gave, newest first, at most three; for another node, host is that node',
        },
      ],
      decisions: [
        'Search the collected text for the device name (and its IP address from step 1): the registration attempt, its rejection or the unregistration with its cause is logged there.',
        'No file in the window: widen since_minutes (at most a week), or the trace level of Cisco CallManager is too low (`cucm_trace_level`).',
        'Nothing about the device in the traces of its node: it did not reach that node; go back to the network path and TFTP.',
      ],
      // The Log Collection API lists a service's logs under the service's Control Center name in the lab;
      // no public document we read lists the Log Collection names themselves.
      references: [SERVICE_NAMES],
    },
  ],
};
