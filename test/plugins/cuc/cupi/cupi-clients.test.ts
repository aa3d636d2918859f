// CupiClients against the lab's Unity Connection over real HTTPS, with a real vault: session reuse
// (one Basic check, then the cookie), list shapes, a user's whole life, CUPI errors, refused paths that
// send nothing, and the network failures. What reached the node is read from the lab, not trusted.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Lab, LabNodeInfo, RequestRecord } from '../../../../lab/index.ts';
import { labNode, labTlsPin } from '../../../../lab/index.ts';
import type { ClientVault } from '../../../../kernel/sdk/index.ts';
import {
  BadRequestError,
  ConnectivityError,
  CUPIError,
  PayloadTooLargeError,
} from '../../../../kernel/sdk/index.ts';
import { CupiClients } from '../../../../plugins/cuc/cupi/cupi-clients.ts';
import { startTestLab } from '../../../lab/helpers.ts';
import { vaultFixture, type VaultFixture } from '../../../kernel/vault/vault-fixture.ts';
import { HOSTILE } from './hostile-paths.ts';

/** The credential host the tests use for the lab's CUC node; where it listens is in `options.address`. */
const HOST = 'cuc-pub.lab.example';
const FAST = { backoffMs: [5, 10] };

describe('CupiClients against the lab', () => {
  let lab: Lab;
  let cuc: LabNodeInfo;
  let vf: VaultFixture;
  let alice: ClientVault;
  let cupi: CupiClients;
  const opened: CupiClients[] = [];

  /** A CupiClients closed after the suite. */
  const clients = (o: ConstructorParameters<typeof CupiClients>[0] = {}): CupiClients => {
    const c = new CupiClients({ retry: FAST, ...o });
    opened.push(c);
    return c;
  };

  /** A client's vault view holding a CUPI credential for `host` (the lab's, unless told otherwise). */
  const viewWith = async (
    client: string,
    o: { host?: string; password?: string; address?: string; ca?: boolean } = {},
  ): Promise<ClientVault> => {
    const view = vf.vault.forClient(client);
    const creds = cuc.credentials.cupi as { user: string; password: string };
    await view.store('cuc', 'cupi', o.host ?? HOST, {
      username: creds.user,
      password: o.password ?? creds.password,
      options: {
        address: o.address ?? `127.0.0.1:${cuc.ports.https as number}`,
        ...(o.ca === false ? {} : labTlsPin(lab.info, cuc)),
      },
    });
    return view;
  };

  /** CUPI requests the node received since `mark`. */
  const received = (mark: number): RequestRecord[] =>
    lab.state.log.requests.slice(mark).filter((r) => r.service === 'cupi');
  const users = () => lab.state.cuc.cupi.collection('users');

  before(async () => {
    lab = await startTestLab();
    cuc = labNode(lab.info, 'cuc');
    vf = vaultFixture();
    alice = await viewWith('alice');
    cupi = clients();
  });
  after(async () => {
    for (const c of opened) c.close();
    await lab.stop();
    await vf.cleanup();
  });

  it('reads the product version (get_version and the connectivity probe)', async () => {
    assert.deepEqual(await cupi.version(alice, HOST), {
      name: 'Cisco Unity Connection Version',
      version: '15.0.1.10000-1',
    });
    assert.deepEqual(await cupi.probe(alice, HOST), { version: '15.0.1.10000-1' });
  });

  it('logs in once with Basic and rides the JSESSIONID cookie afterwards, even for parallel calls', async () => {
    const c = clients();
    const auth0 = lab.state.cuc.sessions.authentications;
    const sessions0 = lab.state.cuc.sessions.size;
    const mark = lab.state.log.requests.length;
    // Five at once on a new session: one opens it, the others wait for its cookie.
    await Promise.all(Array.from({ length: 5 }, () => c.version(alice, HOST)));
    for (let i = 0; i < 3; i++)
      await c.list(alice, HOST, { resource: 'users', rowsPerPage: 1, pageNumber: 1 });
    assert.equal(received(mark).length, 8);
    assert.ok(received(mark).every((r) => r.status === 200));
    assert.equal(lab.state.cuc.sessions.authentications - auth0, 1, 'one Basic check for eight requests');
    assert.equal(lab.state.cuc.sessions.size - sessions0, 1, 'one session opened on the node');
    assert.equal(c.size, 1);
  });

  it('keeps sessions apart per caller and per credential', async () => {
    const c = clients();
    const bob = await viewWith('bob');
    const auth0 = lab.state.cuc.sessions.authentications;
    await c.version(alice, HOST);
    await c.version(bob, HOST);
    await c.version(alice, HOST);
    await c.version(bob, HOST);
    assert.equal(c.size, 2);
    assert.equal(lab.state.cuc.sessions.authentications - auth0, 2, 'one login per caller');
    // A changed credential opens a new session rather than riding the old one's cookie.
    await bob.update('cuc', 'cupi', HOST, {
      username: (cuc.credentials.cupi as { user: string }).user,
      password: 'not-the-password',
      options: { address: `127.0.0.1:${cuc.ports.https as number}`, ...labTlsPin(lab.info, cuc) },
    });
    await assert.rejects(c.version(bob, HOST), CUPIError);
    assert.equal(c.size, 3);
  });

  it('logs in again when the node forgot the session, and drops idle sessions', async () => {
    const c = clients({ idleMs: 60 });
    await c.version(alice, HOST);
    // The node restarts: every session it knew is gone; the stale cookie fails over to Basic.
    (lab.state.cuc.sessions as unknown as { sessions: Map<string, unknown> }).sessions.clear();
    const auth0 = lab.state.cuc.sessions.authentications;
    await c.version(alice, HOST);
    await c.version(alice, HOST);
    assert.equal(lab.state.cuc.sessions.authentications - auth0, 1, 'one new login, then the new cookie');
    assert.equal(c.size, 1);
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(c.size, 0, 'the idle session was closed');
    await c.version(alice, HOST);
    assert.equal(lab.state.cuc.sessions.authentications - auth0, 2, 'a fresh session logs in');
  });

  it('keeps at most maxSessions, closing the least recently used', async () => {
    const c = clients({ maxSessions: 2 });
    const views = [alice, await viewWith('carol'), await viewWith('dave')];
    for (const v of views) await c.version(v, HOST);
    assert.equal(c.size, 2);
  });

  it('lists many, one and no objects as arrays with the total, and pages', async () => {
    const all = await cupi.list(alice, HOST, { resource: 'users', rowsPerPage: 100, pageNumber: 1 });
    assert.equal(all.resource, '/vmrest/users');
    assert.equal(all.total, users().items.size);
    assert.equal(all.items.length, users().items.size);
    assert.equal(all.objectName, 'User');

    const one = await cupi.list(alice, HOST, {
      resource: '/vmrest/users',
      query: '(alias is jsmith)',
      rowsPerPage: 100,
      pageNumber: 1,
    });
    assert.equal(one.total, 1);
    assert.ok(Array.isArray(one.items), 'a single hit is an array too');
    assert.deepEqual(
      one.items.map((u) => (u as { Alias: string }).Alias),
      ['jsmith'],
    );

    const none = await cupi.list(alice, HOST, {
      resource: 'users',
      query: '(alias startswith zz)',
      rowsPerPage: 100,
      pageNumber: 1,
    });
    assert.deepEqual({ total: none.total, items: none.items }, { total: 0, items: [] });

    const page = await cupi.list(alice, HOST, {
      resource: 'users',
      sort: '(alias asc)',
      query: '(alias startswith ab)',
      rowsPerPage: 1,
      pageNumber: 2,
    });
    assert.equal(page.total, 2);
    assert.deepEqual(
      page.items.map((u) => (u as { Alias: string }).Alias),
      ['abrown'],
    );

    const handlers = await cupi.list(alice, HOST, {
      resource: 'handlers/callhandlers',
      rowsPerPage: 100,
      pageNumber: 1,
    });
    assert.equal(handlers.objectName, 'Callhandler');
    assert.equal(handlers.total, 3);
  });

  it('creates a user with POST (201, Location), lists, updates with PUT and deletes it, in the lab state', async () => {
    const created = await cupi.request(alice, HOST, {
      method: 'POST',
      path: '/vmrest/users',
      query: { templateAlias: 'voicemailusertemplate' },
      body: { Alias: 'cupi.test', FirstName: 'Cupi', LastName: 'Test', DtmfAccessId: '7001' },
    });
    assert.equal(created.status, 201);
    assert.match(String(created.location), /^https:\/\/[^/]+\/vmrest\/users\/[0-9a-f-]{36}$/);
    const id = String(created.location).split('/').pop() as string;
    assert.equal(users().items.get(id)?.Alias, 'cupi.test');

    const listed = await cupi.list(alice, HOST, {
      resource: 'users',
      query: '(alias is cupi.test)',
      rowsPerPage: 10,
      pageNumber: 1,
    });
    assert.equal((listed.items[0] as { ObjectId: string }).ObjectId, id);

    const put = await cupi.request(alice, HOST, {
      method: 'PUT',
      path: `/vmrest/users/${id}`,
      body: { DisplayName: 'Cupi Test (updated)' },
    });
    assert.deepEqual(put, { status: 204, path: `/vmrest/users/${id}` });
    assert.equal(users().items.get(id)?.DisplayName, 'Cupi Test (updated)');

    const read = await cupi.request(alice, HOST, { method: 'GET', path: `/vmrest/users/${id}/` });
    assert.equal((read.body as { DisplayName: string }).DisplayName, 'Cupi Test (updated)');

    const del = await cupi.request(alice, HOST, { method: 'DELETE', path: `/vmrest/users/${id}` });
    assert.equal(del.status, 204);
    assert.equal(users().items.get(id), undefined);
    const writes = lab.state.log.writes.filter((w) => w.target === id).map((w) => w.operation);
    assert.deepEqual(writes, ['POST /vmrest/users', 'PUT /vmrest/users', 'DELETE /vmrest/users']);
  });

  it("turns any non-2xx into CUPIError with the node's status and message", async () => {
    await assert.rejects(
      cupi.request(alice, HOST, { method: 'GET', path: '/vmrest/users/no-such-id' }),
      (err: unknown) =>
        err instanceof CUPIError &&
        err.message ===
          `CUPI GET /vmrest/users/no-such-id on ${HOST} answered HTTP 404 NOT_FOUND: User no-such-id not found`,
    );
    await assert.rejects(
      cupi.request(alice, HOST, { method: 'POST', path: '/vmrest/users', body: { Alias: 'x' } }),
      /HTTP 400 MISSING_PARAMETER: templateAlias is a required parameter/,
    );
    await assert.rejects(
      cupi.list(alice, HOST, { resource: 'users', query: '(alias near x)', rowsPerPage: 5, pageNumber: 1 }),
      /HTTP 400 INVALID_PARAMETER: Invalid query: \(alias near x\)/,
    );
    await assert.rejects(
      cupi.request(alice, HOST, { method: 'DELETE', path: '/vmrest/version/product' }),
      /HTTP 405 METHOD_NOT_ALLOWED/,
    );
    // A single object is not a list: said as such rather than guessed.
    const someone = [...users().items.keys()][0] as string;
    await assert.rejects(
      cupi.list(alice, HOST, { resource: `users/${someone}`, rowsPerPage: 5, pageNumber: 1 }),
      /did not answer with a list/,
    );
  });

  it('says a wrong password is an authentication failure, tries it once, and names no credential', async () => {
    const wrong = await viewWith('erin', { password: 'Wrong-Pass-1' });
    const mark = lab.state.log.requests.length;
    await assert.rejects(cupi.version(wrong, HOST), (err: unknown) => {
      assert.ok(err instanceof CUPIError);
      assert.match(err.message, /CUPI authentication failed on cuc-pub\.lab\.example \(HTTP 401\)/);
      assert.doesNotMatch(err.message, /Wrong-Pass-1|cupiadmin/);
      return true;
    });
    assert.deepEqual(
      received(mark).map((r) => r.status),
      [401],
      'no second try: it would count another failed login',
    );
  });

  it('on a 401 with a cookie, drops it and tries once more with a new login', async () => {
    const c = clients();
    await c.version(alice, HOST);
    // The password changes on the node and the session dies: the cookie is refused, then Basic is.
    const lab1 = lab.state.credentials.cupi;
    const saved = lab1.password;
    lab1.password = 'Changed-On-The-Node-1';
    try {
      (lab.state.cuc.sessions as unknown as { sessions: Map<string, unknown> }).sessions.clear();
      const mark = lab.state.log.requests.length;
      await assert.rejects(c.version(alice, HOST), /authentication failed/);
      assert.deepEqual(
        received(mark).map((r) => r.status),
        [401, 401],
      );
    } finally {
      lab1.password = saved;
    }
    const auth0 = lab.state.cuc.sessions.authentications;
    await c.version(alice, HOST);
    await c.version(alice, HOST);
    assert.equal(lab.state.cuc.sessions.authentications - auth0, 1, 'the dropped cookie is not sent again');
  });

  it('refuses every hostile path and a body on GET before any request leaves', async () => {
    const mark = lab.state.log.requests.length;
    for (const [path, why] of HOSTILE) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const)
        await assert.rejects(
          cupi.request(alice, HOST, { method, path }),
          BadRequestError,
          `${method} ${why}`,
        );
    }
    for (const resource of ['../axl', '/axl/', '%2e%2e/axl', 'users/%252e%252e'])
      await assert.rejects(
        cupi.list(alice, HOST, { resource, rowsPerPage: 1, pageNumber: 1 }),
        BadRequestError,
      );
    await assert.rejects(
      cupi.request(alice, HOST, { method: 'GET', path: '/vmrest/users', query: { 'a&b': 'x' } }),
      BadRequestError,
    );
    await assert.rejects(
      cupi.request(alice, HOST, { method: 'GET', path: '/vmrest/users', body: { a: '1' } }),
      BadRequestError,
    );
    await assert.rejects(
      clients({ maxBodyBytes: 64 }).request(alice, HOST, {
        method: 'PUT',
        path: '/vmrest/users/x',
        body: { DisplayName: 'x'.repeat(100) },
      }),
      PayloadTooLargeError,
    );
    assert.equal(lab.state.log.requests.length, mark, 'nothing reached the lab');
  });

  it('refuses an answer over the size limit with PAYLOAD_TOO_LARGE', async () => {
    const small = clients({ maxAnswerBytes: 256 });
    await assert.rejects(
      small.list(alice, HOST, { resource: 'users', rowsPerPage: 100, pageNumber: 1 }),
      PayloadTooLargeError,
    );
  });

  it('verifies TLS: without a pin the self-signed node is refused, its certificate awaiting a decision', async () => {
    const noCa = await viewWith('frank', { ca: false });
    const mark = lab.state.log.requests.length;
    await assert.rejects(cupi.version(noCa, HOST), (err: unknown) => {
      assert.ok(err instanceof ConnectivityError);
      assert.match(err.message, /first HTTPS connection to cuc host/);
      assert.ok(err.message.includes(cuc.certFingerprint as string), err.message);
      return true;
    });
    assert.equal(received(mark).length, 0);
    assert.equal(noCa.certificates.list('cuc')[0]?.state, 'pending');
  });

  describe('network failures', () => {
    let server: Server;
    let port: number;
    let connections = 0;
    before(async () => {
      // Accepts and drops every connection: a transient reset, as from an overloaded node.
      server = createServer((s: Socket) => {
        connections++;
        s.destroy();
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as { port: number }).port;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    // The connection drops before any TLS session: nothing of the request left, so even a write is sent
    // again (writes are never repeated once they may have arrived: test/reliability/faults).
    it('retries every method when the connection drops before TLS, then says ConnectivityError', async () => {
      const view = await viewWith('grace', { host: 'flaky.lab.example', address: `127.0.0.1:${port}` });
      for (const [method, attempts] of [
        ['GET', 3],
        ['PUT', 3],
        ['DELETE', 3],
        ['POST', 3],
      ] as const) {
        connections = 0;
        await assert.rejects(
          cupi.request(view, 'flaky.lab.example', {
            method,
            path: '/vmrest/users/x',
            ...(method === 'POST' || method === 'PUT' ? { body: {} } : {}),
          }),
          ConnectivityError,
          method,
        );
        assert.equal(connections, attempts, `${method}: ${attempts} attempt(s)`);
      }
    });

    it('says ConnectivityError for a closed port', async () => {
      const closed = createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const closedPort = (closed.address() as { port: number }).port;
      await new Promise<void>((r) => closed.close(() => r()));
      const view = await viewWith('heidi', { host: 'gone.lab.example', address: `127.0.0.1:${closedPort}` });
      await assert.rejects(cupi.probe(view, 'gone.lab.example'), (err: unknown) => {
        assert.ok(err instanceof ConnectivityError);
        assert.match(err.message, /unreachable after 3 attempts \(ECONNREFUSED/);
        return true;
      });
    });
  });
});
