import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BadRequestError, PayloadTooLargeError, RISError } from '../../../../kernel/sdk/index.ts';
import { generateSelfSigned } from '../../../helpers/self-signed.ts';
import type { NodeEndpoint } from '../../../../plugins/_shared/axl/transport.ts';
import { RisService } from '../../../../plugins/cucm/ris/ris-service.ts';
import { DOWNLOAD_TOOL, FAST_RETRY, startRisLab } from './helpers.ts';
import type { RisLab } from './helpers.ts';

describe('RisPort70 WSDL download from the lab', () => {
  let r: RisLab;
  before(async () => {
    r = await startRisLab();
  });
  after(() => r.stop());

  it('refuses a query before the WSDL is cached, naming the download tool, without sending anything', async () => {
    const s = r.service();
    await assert.rejects(
      s.queryEndpoint(r.node, { operation: 'selectCmDevice' }, { owner: 'alice' }),
      (err: unknown) => {
        assert.ok(err instanceof BadRequestError);
        assert.match(err.message, new RegExp(DOWNLOAD_TOOL));
        return true;
      },
    );
    assert.equal(r.risRequests(), 0);
  });

  it('stores the validated WSDL atomically under ris/70/, after which queries work', async () => {
    const s = r.service();
    const result = await s.downloadFrom(r.node);
    const file = join(r.dir, 'ris', '70', 'RISService70.wsdl');
    assert.equal(s.schema.file, file);
    const bytes = readFileSync(file);
    assert.deepEqual(result, {
      schema_folder: '70',
      operations: ['selectCmDevice', 'selectCmDeviceExt', 'selectCtiItem'],
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    assert.match(bytes.toString(), /targetNamespace="http:\/\/schemas\.cisco\.com\/ast\/soap"/);
    assert.deepEqual(readdirSync(dirname(file)), ['RISService70.wsdl'], 'no temporary file left');
    assert.equal(r.risRequests(), 0, 'a WSDL GET is not a RisPort request');
    const answer = await s.queryEndpoint(
      r.node,
      { operation: 'selectCmDevice', criteria: { selectItems: ['SEP0A1B2C3D4E03'] } },
      { owner: 'alice' },
    );
    assert.equal(answer.devices_returned, 1);
  });

  it('probes reachability, TLS and the login without spending the RisPort budget', async () => {
    const s = r.service({ perMinute: 15 });
    const before = r.risRequests();
    const probe = await s.probeEndpoint(r.node);
    assert.deepEqual(probe, { wsdl_operations: 3, authenticated: true, rate_budget_remaining: 15 });
    assert.equal(r.risRequests(), before);
    await assert.rejects(s.probeEndpoint({ ...r.node, password: 'wrong' }), (err: unknown) => {
      assert.ok(err instanceof RISError);
      assert.match(err.message, /authentication to RisPort70 .* failed \(HTTP 401\)/);
      return true;
    });
  });
});

describe('RisPort70 WSDL download refuses what is not RisPort70', () => {
  const pair = generateSelfSigned(['127.0.0.1'], 1, 'odd node');
  let status = 200;
  let body = '';
  let server: Server;
  let dir: string;
  let node: NodeEndpoint;
  const paths: string[] = [];
  before(async () => {
    server = createServer({ cert: pair.certPem, key: pair.keyPem }, (req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(status, { 'content-type': 'text/xml' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    dir = mkdtempSync(join(tmpdir(), 'ris-wsdl-'));
    node = {
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      username: 'u',
      password: 'p',
      certPem: pair.certPem,
    };
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const service = (): RisService =>
    new RisService({
      schemaCache: dir,
      downloadTool: DOWNLOAD_TOOL,
      retry: FAST_RETRY,
      maxWsdlBytes: 64 * 1024,
    });
  const wsdl = (ns: string, ops: string[]): string =>
    `<?xml version="1.0"?><wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" targetNamespace="${ns}"><wsdl:portType name="P">${ops.map((o) => `<wsdl:operation name="${o}"/>`).join('')}</wsdl:portType><wsdl:binding name="B" type="tns:P">${ops.map((o) => `<wsdl:operation name="${o}"><soap:operation soapAction="urn:${o}"/></wsdl:operation>`).join('')}</wsdl:binding></wsdl:definitions>`;

  const refused = async (why: RegExp, type: new (...a: never[]) => Error = RISError): Promise<void> => {
    await assert.rejects(service().downloadFrom(node), (err: unknown) => {
      assert.ok(err instanceof type, `${String(err)} is a ${type.name}`);
      assert.match((err as Error).message, why);
      return true;
    });
    assert.ok(!existsSync(join(dir, 'ris', '70', 'RISService70.wsdl')), 'nothing cached');
  };

  it('asks for the WSDL at the RisPort70 path', async () => {
    status = 404;
    body = 'not here';
    await refused(/HTTP 404/);
    assert.equal(paths.at(-1), '/realtimeservice2/services/RISService70?wsdl');
  });

  it('refuses an HTML page answered with 200', async () => {
    status = 200;
    body = '<html><body><form>Login</form></body></html>';
    await refused(/no wsdl:definitions/);
  });

  it("refuses another service's WSDL", async () => {
    body = wsdl('http://www.cisco.com/AXL/API/15.0', ['selectCmDevice']);
    await refused(/not RisPort70's \(target namespace "http:\/\/www\.cisco\.com\/AXL\/API\/15\.0"/);
  });

  it('refuses a RisPort namespace without selectCmDevice', async () => {
    body = wsdl('http://schemas.cisco.com/ast/soap', ['selectCtiItem']);
    await refused(/no selectCmDevice operation/);
  });

  it('refuses a DOCTYPE', async () => {
    body = `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${wsdl('http://schemas.cisco.com/ast/soap', ['selectCmDevice'])}`;
    await refused(/DOCTYPE/);
  });

  it('refuses an oversized answer', async () => {
    body = `<!-- ${'x'.repeat(70 * 1024)} -->${wsdl('http://schemas.cisco.com/ast/soap', ['selectCmDevice'])}`;
    await refused(/larger than 65536 bytes/, PayloadTooLargeError);
  });

  it('refuses HTTP 401 as an authentication failure', async () => {
    status = 401;
    body = '';
    await refused(/authentication to RisPort70 .* failed \(HTTP 401\)/);
  });

  it('caches a minimal RisPort70 WSDL, reads its SOAPActions, and refuses operations it lacks', async () => {
    status = 200;
    body = wsdl('http://schemas.cisco.com/ast/soap', ['selectCmDevice']);
    const s = service();
    assert.deepEqual((await s.downloadFrom(node)).operations, ['selectCmDevice']);
    assert.equal(s.schema.load().soapActions.get('selectCmDevice'), 'urn:selectCmDevice');
    await assert.rejects(
      s.queryEndpoint(node, { operation: 'selectCmDeviceExt' }, { owner: 'a' }),
      /no operation selectCmDeviceExt/,
    );
  });
});
