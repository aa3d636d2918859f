// The product reads AXL faults in every shape the lab sends them, as CUCM does: AXL's own faults as
// soapenv:Server, database errors as soapenv:Client, each with its axlError detail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxlFault, faultEnvelope, notFound } from '../../../../lab/cucm/axl/fault.ts';
import { parseFault } from '../../../../plugins/_shared/axl/axl-client.ts';

describe('AXL fault parsing', () => {
  it('reads the code and message of server-side and database faults', () => {
    const missing = faultEnvelope(notFound('SEPNOSUCH'), 'getPhone');
    assert.match(missing, /<faultcode>soapenv:Server<\/faultcode>/);
    assert.match(missing, /<request>getPhone<\/request>/);
    assert.deepEqual(parseFault(missing), {
      code: 5007,
      message: 'Item not valid: The specified SEPNOSUCH was not found',
    });
    const duplicate = faultEnvelope(new AxlFault(-239, 'Could not insert new row - duplicate value'), 'addX');
    assert.match(duplicate, /<faultcode>soapenv:Client<\/faultcode>/);
    assert.equal(parseFault(duplicate)?.code, -239);
    const large = faultEnvelope(new AxlFault(-1, 'Query request too large', 'soapenv:Server'), 'listPhone');
    assert.deepEqual(parseFault(large), { code: -1, message: 'Query request too large' });
  });
});
