// The Unity Connection security audit with its credentials stored read-only (issue 23 point 6): see
// test/helpers/audit-read-only.ts.
import assert from 'node:assert/strict';
import { CUC_CHECKLIST } from '../../../../plugins/cuc/audit/checklist.ts';
import { describeReadOnlyAudit } from '../../../helpers/audit-read-only.ts';
import { cliRestart, serviceRestart } from '../../../helpers/audit-read-only-writes.ts';

describeReadOnlyAudit(CUC_CHECKLIST, [
  {
    name: 'a CUPI PUT on a user',
    tool: 'cuc_cupi_call',
    // The user is read first, with the same read-only credential: reads go through.
    async args(s, host) {
      const users = await s.ok('admin', 'cuc_cupi_call', { host, method: 'GET', path: '/vmrest/users' });
      const body = users.body as { User?: { ObjectId: string }[] | { ObjectId: string } };
      const first = Array.isArray(body.User) ? body.User[0] : body.User;
      assert.ok(first?.ObjectId, JSON.stringify(body).slice(0, 300));
      return {
        method: 'PUT',
        path: `/vmrest/users/${first.ObjectId}`,
        body: { DisplayName: 'Read-only probe' },
      };
    },
    reached: (s) => s.lab.state.log.requests.some((q) => q.service === 'cupi' && q.method === 'PUT'),
  },
  cliRestart('cuc'),
  serviceRestart('cuc'),
]);
