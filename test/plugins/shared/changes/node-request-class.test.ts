// The class of each request as a shared transport sends it (what a read-only credential is judged by):
// the change table's rows for AXL, CUPI and the CLI, the read operations of RIS and the serviceability
// APIs, and destructive for anything not named.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  classifyNodeRequest,
  SERVICEABILITY_READS,
  type LeavingRequest,
} from '../../../../plugins/_shared/changes/node-request-class.ts';
import { CDR_OPS } from '../../../../plugins/_shared/serviceability/cdr/api.ts';
import { PERFMON_OPS } from '../../../../plugins/_shared/serviceability/perfmon/api.ts';

const cases: [LeavingRequest, string][] = [
  [{ service: 'axl', operation: 'getCCMVersion', method: 'POST', path: '/axl/' }, 'read'],
  [{ service: 'axl', operation: 'executeSQLQuery', method: 'POST', path: '/axl/' }, 'read'],
  [{ service: 'axl', operation: 'addPhone', method: 'POST', path: '/axl/' }, 'change'],
  [{ service: 'axl', operation: 'executeSQLUpdate', method: 'POST', path: '/axl/' }, 'destructive'],
  [{ service: 'axl', method: 'POST', path: '/axl/' }, 'destructive'],
  [{ service: 'axl', method: 'GET', path: '/plugins/axlsqltoolkit.zip' }, 'read'],
  [{ service: 'cupi', method: 'GET', path: '/vmrest/users?query=x' }, 'read'],
  [{ service: 'cupi', method: 'PUT', path: '/vmrest/users/abc' }, 'change'],
  [{ service: 'cupi', method: 'DELETE', path: '/vmrest/users/abc' }, 'destructive'],
  [{ service: 'ris', operation: 'selectCmDeviceExt', method: 'POST' }, 'read'],
  [{ service: 'ris', operation: 'somethingElse', method: 'POST' }, 'destructive'],
  [
    { service: 'serviceability', operation: 'ControlCenterServices.soapGetServiceStatus', method: 'POST' },
    'read',
  ],
  [{ service: 'serviceability', operation: 'PerfmonService.perfmonAddCounter', method: 'POST' }, 'read'],
  [{ service: 'serviceability', operation: 'DimeGetFileService.GetOneFile', method: 'POST' }, 'read'],
  [
    { service: 'serviceability', operation: 'ControlCenterServices.soapDoControlServices', method: 'POST' },
    'destructive',
  ],
  [
    {
      service: 'serviceability',
      operation: 'ControlCenterServicesEx.soapDoServiceDeployment',
      method: 'POST',
    },
    'destructive',
  ],
  [{ service: 'phone', method: 'GET', path: '/CGI/Screenshot' }, 'read'],
  [{ service: 'phone', method: 'POST', path: '/CGI/Execute' }, 'destructive'],
  [{ service: 'ssh', operation: 'show version active' }, 'read'],
  [{ service: 'ssh', operation: 'utils service restart Cisco Tftp' }, 'destructive'],
  [{ service: 'ssh', operation: 'show status; utils system restart' }, 'destructive'],
];

describe('the class of a request as it leaves a transport', () => {
  for (const [r, cls] of cases)
    it(`${r.service} ${r.method ?? ''} ${r.operation ?? r.path ?? ''} is ${cls}`, () => {
      assert.equal(classifyNodeRequest(r), cls);
    });

  it('names every PerfMon and CDR on Demand operation the clients send (all of them reads)', () => {
    const missing = [...Object.values(PERFMON_OPS), ...Object.values(CDR_OPS)].filter(
      (op) => !SERVICEABILITY_READS.has(op),
    );
    assert.deepEqual(missing, []);
  });
});
