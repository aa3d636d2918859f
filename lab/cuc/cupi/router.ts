import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Credential } from '../../credentials.ts';
import {
  BodyTooLargeError,
  basicCredentials,
  cookieValue,
  readBody,
  requestPath,
  send,
} from '../../http/request.ts';
import type { LabLog } from '../../state/log.ts';
import { changePin, pinView } from './pin.ts';
import { pageOf, queryFilter, sorter } from './query.ts';
import type { Format } from './render.ts';
import { contentType, parseBody, renderError, renderList, renderObject } from './render.ts';
import type { SessionTable } from './sessions.ts';
import type { CupiCollection, CupiObject, CupiStore } from './store.ts';
import { CupiError } from './store.ts';

export const CUC_VERSION = '15.0.1.10000-1';

export interface CupiOptions {
  node: string;
  store: CupiStore;
  sessions: SessionTable;
  credential: Credential;
  log: LabLog;
  publicAddress: () => string;
  /** The cluster's servers as GET /vmrest/cluster lists them (VmsServer objects), read when asked. */
  cluster?: () => CupiObject[];
}

const IMMUTABLE = new Set(['ObjectId', 'URI']);

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The longest collection path that prefixes `rest`, and what follows it. */
function locate(store: CupiStore, rest: string): { c: CupiCollection; tail: string[] } | undefined {
  let best: { c: CupiCollection; tail: string[] } | undefined;
  for (const c of store.collections.values()) {
    if (rest === c.path || rest.startsWith(`${c.path}/`)) {
      if (!best || c.path.length > best.c.path.length)
        best = {
          c,
          tail: rest
            .slice(c.path.length)
            .split('/')
            .filter((s) => s !== ''),
        };
    }
  }
  return best;
}

/**
 * The credential policies as `/vmrest/authenticationrules` shows them (the same fields, CUPI's
 * "Authentication Rules" names). One source of truth: the PIN change logic and `credentialpolicies`
 * read the same objects, so the two resources never disagree (the lab serves this view read-only).
 */
function authenticationRules(store: CupiStore): CupiObject[] {
  return [...store.collection('credentialpolicies').items.values()].map((p) => ({
    ...p,
    URI: `/vmrest/authenticationrules/${p.ObjectId ?? ''}`,
  }));
}

/** The lists below one object: a restriction table's dial strings, a user's roles. */
function childList(
  store: CupiStore,
  parent: string,
  sub: string,
): { listName: string; objectName: string; items: (id: string) => CupiObject[] } | undefined {
  if (parent === 'restrictiontables' && sub === 'restrictionpatterns')
    return {
      listName: 'RestrictionPatterns',
      objectName: 'RestrictionPattern',
      items: (id) => store.restrictionPatterns.get(id) ?? [],
    };
  if (parent === 'users' && sub === 'userroles')
    return { listName: 'UserRoles', objectName: 'UserRole', items: (id) => store.userRoles.get(id) ?? [] };
  return undefined;
}

/** CUPI under /vmrest/: HTTP Basic once, then the JSESSIONID cookie; XML unless JSON is accepted. */
export function cupiHandler(o: CupiOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const { path, query } = requestPath(req);
    const format: Format = (req.headers.accept ?? '').toLowerCase().includes('application/json')
      ? 'json'
      : 'xml';
    const method = req.method ?? 'GET';
    const record = (status: number, user?: string): void =>
      o.log.request({
        node: o.node,
        service: 'cupi',
        method,
        path,
        status,
        operation: `${method} ${path}`,
        ...(user ? { user } : {}),
      });
    const reply = (
      status: number,
      body: string,
      headers: Record<string, string> = {},
      user?: string,
    ): void => {
      record(status, user);
      send(res, status, `${contentType(format)};charset=UTF-8`, body, headers);
    };

    let user = o.sessions.use(cookieValue(req, 'JSESSIONID'));
    const headers: Record<string, string> = {};
    if (!user) {
      const creds = basicCredentials(req);
      if (creds) o.sessions.authentications++;
      if (!creds || !same(creds.user, o.credential.user) || !same(creds.password, o.credential.password)) {
        record(401, creds?.user);
        send(
          res,
          401,
          'text/html;charset=utf-8',
          '<html><body><h1>HTTP Status 401 - Unauthorized</h1></body></html>',
          {
            'www-authenticate': 'Basic realm="Cisco Unity Connection"',
          },
        );
        return;
      }
      user = creds.user;
      headers['set-cookie'] = `JSESSIONID=${o.sessions.open(user)}; Path=/vmrest; Secure; HttpOnly`;
    }

    try {
      const rest = path.replace(/^\/vmrest\/?/, '').replace(/\/+$/, '');
      if (rest === 'version/product') {
        if (method !== 'GET') throw new CupiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here`);
        reply(
          200,
          renderObject(format, 'Version', { name: 'Cisco Unity Connection Version', version: CUC_VERSION }),
          headers,
          user,
        );
        return;
      }
      // GET /vmrest/cluster: VmsServers, one VmsServer per node with ServerName, IpAddress, HostName and
      // ClusterMemberId (Cisco DocWiki, "Cisco Unity Connection Provisioning Interface (CUPI) API --
      // Cluster"). Read-only here.
      if (rest === 'cluster' && o.cluster) {
        if (method !== 'GET') throw new CupiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here`);
        const servers = o.cluster();
        reply(200, renderList(format, 'VmsServers', 'VmsServer', servers.length, servers), headers, user);
        return;
      }
      if (rest === 'authenticationrules' || rest.startsWith('authenticationrules/')) {
        if (method !== 'GET') throw new CupiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here`);
        const [ruleId, ...more] = rest.split('/').slice(1);
        const rules = authenticationRules(o.store);
        if (ruleId === undefined) {
          const all = rules.filter(queryFilter(query.get('query')));
          const order = sorter(query.get('sort'));
          if (order) all.sort(order);
          const page = pageOf(all, query.get('rowsPerPage'), query.get('pageNumber'));
          reply(
            200,
            renderList(format, 'AuthenticationRules', 'AuthenticationRule', all.length, page),
            headers,
            user,
          );
          return;
        }
        const rule = rules.find((r) => r.ObjectId === ruleId);
        if (!rule || more.length > 0)
          throw new CupiError(404, 'NOT_FOUND', `AuthenticationRule ${ruleId} not found`);
        reply(200, renderObject(format, 'AuthenticationRule', rule), headers, user);
        return;
      }
      const target = locate(o.store, rest);
      if (!target) throw new CupiError(404, 'NOT_FOUND', `No resource at ${path}`);
      const { c, tail } = target;
      const [id, sub1, sub2, ...extra] = tail;
      if (id === undefined) {
        if (method === 'GET') {
          const filter = queryFilter(query.get('query'));
          const order = sorter(query.get('sort'));
          const all = [...c.items.values()].filter(filter);
          if (order) all.sort(order);
          const page = pageOf(all, query.get('rowsPerPage'), query.get('pageNumber'));
          reply(200, renderList(format, c.listName, c.objectName, all.length, page), headers, user);
          return;
        }
        if (method === 'POST') {
          const fields = parseBody(await readBody(req, 1024 * 1024), req.headers['content-type']);
          if (c.path === 'users') {
            const templateAlias = query.get('templateAlias');
            if (!templateAlias)
              throw new CupiError(400, 'MISSING_PARAMETER', 'templateAlias is a required parameter');
            if (!o.store.find(o.store.collection('usertemplates'), templateAlias))
              throw new CupiError(400, 'INVALID_PARAMETER', `Template ${templateAlias} not found`);
          }
          if (c.path === 'handlers/callhandlers') {
            const templateId = query.get('templateObjectId');
            if (!templateId)
              throw new CupiError(400, 'MISSING_PARAMETER', 'templateObjectId is a required parameter');
            if (!o.store.collection('callhandlertemplates').items.has(templateId))
              throw new CupiError(400, 'INVALID_PARAMETER', `Template ${templateId} not found`);
          }
          for (const k of IMMUTABLE) delete fields[k];
          const created = o.store.create(c, {
            ...fields,
            CreationTime: new Date().toISOString().replace('T', ' ').slice(0, 23),
          });
          if (c.path === 'users')
            o.store.pins.set(created.ObjectId as string, {
              pin: '',
              CredMustChange: 'true',
              DoesntExpire: 'false',
              Locked: 'false',
              HackCount: '0',
              TimeChanged: created.CreationTime as string,
            });
          o.log.write({
            node: o.node,
            via: 'cupi',
            operation: `POST /vmrest/${c.path}`,
            target: created.ObjectId as string,
          });
          reply(
            201,
            created.URI as string,
            { ...headers, location: `https://${o.publicAddress()}${created.URI as string}` },
            user,
          );
          return;
        }
        throw new CupiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on a list`);
      }
      const obj = c.items.get(id);
      if (!obj || extra.length > 0) throw new CupiError(404, 'NOT_FOUND', `${c.objectName} ${id} not found`);
      const child = sub1 !== undefined && sub2 === undefined ? childList(o.store, c.path, sub1) : undefined;
      if (child) {
        // Read-only in the lab: the audit and the agent read these; nothing here changes them.
        if (method !== 'GET') throw new CupiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here`);
        const all = child.items(id).filter(queryFilter(query.get('query')));
        const page = pageOf(all, query.get('rowsPerPage'), query.get('pageNumber'));
        reply(200, renderList(format, child.listName, child.objectName, all.length, page), headers, user);
        return;
      }
      if (sub1 !== undefined) {
        if (c.path !== 'users' || sub1 !== 'credential' || sub2 !== 'pin')
          throw new CupiError(404, 'NOT_FOUND', `No resource at ${path}`);
        const pin = o.store.pins.get(id);
        if (!pin) throw new CupiError(404, 'NOT_FOUND', 'PIN credential not found');
        if (method === 'GET') {
          reply(200, renderObject(format, 'Credential', pinView(id, pin)), headers, user);
          return;
        }
        if (method === 'PUT') {
          changePin(o.store, id, parseBody(await readBody(req, 64 * 1024), req.headers['content-type']));
          o.log.write({ node: o.node, via: 'cupi', operation: 'PUT credential/pin', target: id });
          reply(204, '', headers, user);
          return;
        }
        throw new CupiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on a credential`);
      }
      if (method === 'GET') {
        reply(200, renderObject(format, c.objectName, obj), headers, user);
        return;
      }
      if (method === 'PUT') {
        const fields = parseBody(await readBody(req, 1024 * 1024), req.headers['content-type']);
        for (const k of Object.keys(fields)) {
          if (IMMUTABLE.has(k)) throw new CupiError(400, 'INVALID_PARAMETER', `${k} cannot be changed`);
        }
        if (c.unique && fields[c.unique] !== undefined) {
          const clash = o.store.find(c, fields[c.unique] as string);
          if (clash && clash !== obj)
            throw new CupiError(
              400,
              'DUPLICATE_OBJECT',
              `A ${c.objectName} with ${c.unique} ${fields[c.unique] as string} already exists`,
            );
        }
        Object.assign(obj, fields);
        o.log.write({ node: o.node, via: 'cupi', operation: `PUT /vmrest/${c.path}`, target: id });
        reply(204, '', headers, user);
        return;
      }
      if (method === 'DELETE') {
        c.items.delete(id);
        o.store.pins.delete(id);
        o.store.userRoles.delete(id);
        o.store.restrictionPatterns.delete(id);
        o.log.write({ node: o.node, via: 'cupi', operation: `DELETE /vmrest/${c.path}`, target: id });
        reply(204, '', headers, user);
        return;
      }
      throw new CupiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on an object`);
    } catch (err) {
      if (err instanceof CupiError)
        reply(err.status, renderError(format, err.code, err.message), headers, user);
      else if (err instanceof BodyTooLargeError)
        reply(413, renderError(format, 'REQUEST_TOO_LARGE', err.message), headers, user);
      else throw err;
    }
  };
}
