// The audits' service checks read Control Center (`<product>_service_status`) and fall back to the CLI's
// `utils service list` only when Control Center could not be read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Check, EvidenceResult } from '../../../../plugins/_shared/audit/checklist.ts';
import { serviceStatesOf } from '../../../../plugins/_shared/audit/service-evidence.ts';
import { CUC_CHECKLIST } from '../../../../plugins/cuc/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { IMP_CHECKLIST } from '../../../../plugins/imp/audit/checklist.ts';

const status = (...services: [string, string, string?][]): EvidenceResult => ({
  ok: true,
  data: {
    complete: true,
    nodes: [
      {
        node: 'n1',
        services: services.map(([name, s, reason]) => ({ name, status: s, reason: reason ?? null })),
      },
    ],
    failed: [],
  },
});
const cli = (output: string): EvidenceResult => ({ ok: true, data: { output } });
const failed: EvidenceResult = { ok: false, error: 'CredentialError', message: 'no AXL credential' };
const check = (checks: Check[], id: string): Check => checks.find((c) => c.id === id) as Check;

const CAPF = 'Cisco Certificate Authority Proxy Function';
const AUDIT = 'Cisco Audit Event Service';

describe('service checks from Control Center', () => {
  it('reads the states of the first node, and nothing from a failed call', () => {
    const s = serviceStatesOf(status([CAPF, 'Stopped', 'Service Not Activated']));
    assert.deepEqual(s?.get(CAPF), { state: 'STOPPED', reason: 'Service Not Activated' });
    assert.equal(serviceStatesOf(failed), undefined);
    assert.equal(serviceStatesOf({ ok: true, data: { nodes: [] } }), undefined);
  });

  it('CUCM-SVC-01 and CUCM-LOG-01 believe Control Center over the CLI, and use the CLI when it failed', () => {
    const svc = check(CUCM_CHECKLIST.checks, 'CUCM-SVC-01');
    assert.equal(
      svc.evaluate({
        serviceStatus: status([CAPF, 'Stopped', 'Service Not Activated']),
        services: cli(`${CAPF}[STARTED]`),
      }),
      `${CAPF}: STOPPED (Service Not Activated)`,
    );
    assert.equal(svc.evaluate({ serviceStatus: status([CAPF, 'Started']), services: cli('') }), undefined);
    assert.equal(svc.evaluate({ serviceStatus: failed, services: cli(`${CAPF}[STARTED]`) }), undefined);
    const log = check(CUCM_CHECKLIST.checks, 'CUCM-LOG-01');
    assert.equal(
      log.evaluate({ serviceStatus: status(['Cisco Tftp', 'Started']), services: cli(`${AUDIT}[STARTED]`) }),
      `the audit log is not written: ${AUDIT} not listed`,
    );
  });

  it('IM&P and Unity Connection checks read the same way; nothing readable is not assessed', () => {
    const svc = check(IMP_CHECKLIST.checks, 'IMP-SVC-01');
    assert.match(
      svc.evaluate({
        serviceStatus: status(['Cisco XCP Directory Service', 'Started']),
        services: cli('Cisco XCP Directory Service[STOPPED]  Service Not Activated'),
      }) ?? '',
      /activated and running: Cisco XCP Directory Service/,
    );
    const aud = check(CUC_CHECKLIST.checks, 'CUC-AUD-01');
    assert.equal(
      aud.evaluate({
        serviceStatus: status([AUDIT, 'Stopped', 'Commanded Out of Service']),
        services: cli(''),
      }),
      `${AUDIT} is STOPPED`,
    );
    assert.match(aud.evaluate({ serviceStatus: failed, services: cli('') }) ?? '', /^cannot judge/);
    const web = check(CUC_CHECKLIST.checks, 'CUC-SVC-01');
    assert.match(web.evaluate({ serviceStatus: failed, services: cli('') }) ?? '', /^cannot judge/);
  });
});
