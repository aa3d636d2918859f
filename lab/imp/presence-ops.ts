import type { Database, Row } from '../informix/database.ts';
import { likeToRegExp } from '../informix/sql-executor.ts';
import type { XmlObject } from '../xml/parse.ts';
import { childOf, childText } from '../xml/parse.ts';
import type { XmlOutObject } from '../xml/write.ts';
import { uuidOf } from '../cucm/axl/family-codec.ts';
import type { Family } from '../cucm/axl/family.ts';
import { AxlFault, invalidRequest, notFound } from '../cucm/axl/fault.ts';
import type { AxlContext, AxlOperation } from '../cucm/axl/operation.ts';
import type { OperationSpec } from '../cucm/toolkit/operations.ts';
import { el } from '../cucm/toolkit/xsd.ts';

const IMP_ROLE = '2';

export const presenceRedundancyGroupFamily: Family = {
  name: 'PresenceRedundancyGroup',
  tag: 'presenceRedundancyGroup',
  label: 'Presence Redundancy Group',
  table: 'presenceredundancygroup',
  keys: ['name'],
  rename: { element: 'newName', field: 'name' },
  fields: [
    { axl: 'name', column: 'name' },
    { axl: 'description', column: 'description' },
    { axl: 'server1', column: 'fkprocessnode_1', type: 'fk', table: 'processnode', display: 'name' },
    { axl: 'server2', column: 'fkprocessnode_2', type: 'fk', table: 'processnode', display: 'name' },
    { axl: 'haEnabled', column: 'haenabled', type: 'bool' },
  ],
  nested: [
    {
      // A count the node keeps: read, never written.
      skipIn: ['add', 'update'],
      shape: { name: 'numUsers' },
      read: (db, row) =>
        db
          .table('presenceuserassignment')
          .filter(
            (a) =>
              a.fkprocessnode === row.fkprocessnode_1 ||
              (row.fkprocessnode_2 !== null && a.fkprocessnode === row.fkprocessnode_2),
          ).length,
    },
  ],
  required: ['name', 'server1'],
  search: ['name', 'description'],
  ops: ['get', 'list', 'add', 'update', 'remove'],
};

function page<T>(req: XmlObject, items: T[]): T[] {
  const skip = Number(childText(req, 'skip') ?? 0) || 0;
  const first = childText(req, 'first');
  return items.slice(skip, first ? skip + Number(first) : undefined);
}

function like(req: XmlObject, name: string): (value: string) => boolean {
  const pattern = childText(childOf(req, 'searchCriteria'), name);
  if (pattern === undefined) return () => true;
  const re = likeToRegExp(pattern.toLowerCase());
  return (value) => re.test(value.toLowerCase());
}

function groupOf(db: Database, node: string | null | undefined): Readonly<Row> | undefined {
  return db
    .table('presenceredundancygroup')
    .rows.find((g) => g.fkprocessnode_1 === node || g.fkprocessnode_2 === node);
}

function user(ctx: AxlContext, req: XmlObject): Row {
  const userid = childText(req, 'userid');
  if (!userid) throw invalidRequest('userid is required');
  const row = ctx.db.table('enduser').findBy('userid', userid);
  if (!row) throw notFound(`user ${userid}`);
  return row;
}

export const PRESENCE_OPERATIONS: AxlOperation[] = [
  {
    name: 'listAssignedPresenceUsers',
    write: false,
    handle(ctx, req) {
      const byUser = like(req, 'userid');
      const byServer = like(req, 'server');
      const byGroup = like(req, 'presenceRedundancyGroup');
      const items: XmlOutObject[] = [];
      for (const a of ctx.db.table('presenceuserassignment').rows) {
        const u = ctx.db.table('enduser').byPkid(a.fkenduser);
        const node = ctx.db.table('processnode').byPkid(a.fkprocessnode);
        const group = groupOf(ctx.db, a.fkprocessnode);
        if (
          !u ||
          !node ||
          !byUser(u.userid ?? '') ||
          !byServer(node.name ?? '') ||
          !byGroup(group?.name ?? '')
        )
          continue;
        items.push({
          '@uuid': uuidOf(a.pkid),
          userid: u.userid,
          server: { '#text': node.name ?? '', '@uuid': uuidOf(node.pkid) },
          presenceRedundancyGroup: group?.name ?? null,
        });
      }
      const out = page(req, items);
      return { body: { return: out.length > 0 ? { assignedPresenceUsers: out } : null }, rows: out.length };
    },
  },
  {
    name: 'listUnassignedPresenceUsers',
    write: false,
    handle(ctx, req) {
      const byUser = like(req, 'userid');
      const assigned = new Set(ctx.db.table('presenceuserassignment').rows.map((a) => a.fkenduser));
      const items = ctx.db
        .table('enduser')
        .filter((u) => u.enablecups === 't' && !assigned.has(u.pkid) && byUser(u.userid ?? ''))
        .map((u): XmlOutObject => ({ '@uuid': uuidOf(u.pkid), userid: u.userid }));
      const out = page(req, items);
      return { body: { return: out.length > 0 ? { unassignedPresenceUsers: out } : null }, rows: out.length };
    },
  },
  {
    name: 'listAssignedPresenceServers',
    write: false,
    handle(ctx, req) {
      const byName = like(req, 'name');
      const items = ctx.db
        .table('processnode')
        .filter((n) => n.tkprocessnoderole === IMP_ROLE && byName(n.name ?? ''))
        .map((n): XmlOutObject => ({
          '@uuid': uuidOf(n.pkid),
          name: n.name,
          description: n.description,
          nodeUsage: n.tknodeusage === '0' ? 'Publisher' : 'Subscriber',
          numUsers: ctx.db.table('presenceuserassignment').lookup('fkprocessnode', n.pkid).length,
        }));
      const out = page(req, items);
      return { body: { return: out.length > 0 ? { assignedPresenceServers: out } : null }, rows: out.length };
    },
  },
  {
    name: 'assignPresenceUser',
    write: true,
    handle(ctx, req) {
      const u = user(ctx, req);
      const serverName = childText(req, 'server');
      const node = serverName ? ctx.db.table('processnode').findBy('name', serverName) : undefined;
      if (!node || node.tkprocessnoderole !== IMP_ROLE)
        throw new AxlFault(5007, `Item not valid: The specified server ${serverName ?? ''} was not found`);
      if (u.enablecups !== 't')
        throw invalidRequest(`User ${u.userid ?? ''} is not enabled for IM and Presence`);
      const table = ctx.db.table('presenceuserassignment');
      const existing = table.findBy('fkenduser', u.pkid as string);
      if (existing) ctx.db.update('presenceuserassignment', existing, { fkprocessnode: node.pkid });
      const row =
        existing ?? ctx.db.insert('presenceuserassignment', { fkenduser: u.pkid, fkprocessnode: node.pkid });
      ctx.log.write({
        node: ctx.node,
        via: 'axl',
        operation: 'assignPresenceUser',
        target: `${u.userid ?? ''}->${node.name ?? ''}`,
      });
      return { body: { return: uuidOf(row.pkid) } };
    },
  },
  {
    name: 'unassignPresenceUser',
    write: true,
    handle(ctx, req) {
      const u = user(ctx, req);
      const existing = ctx.db.table('presenceuserassignment').findBy('fkenduser', u.pkid as string);
      if (!existing) throw notFound(`presence assignment of ${u.userid ?? ''}`);
      ctx.db.delete('presenceuserassignment', existing);
      ctx.log.write({
        node: ctx.node,
        via: 'axl',
        operation: 'unassignPresenceUser',
        target: u.userid ?? '',
      });
      return { body: { return: uuidOf(existing.pkid) } };
    },
  },
];

/** The presence operations in the toolkit schema's table. */
export const PRESENCE_SPECS: OperationSpec[] = [
  {
    name: 'listAssignedPresenceUsers',
    request: {
      children: [
        { name: 'searchCriteria', children: [el('userid'), el('server'), el('presenceRedundancyGroup')] },
        {
          name: 'returnedTags',
          optional: true,
          children: [el('userid'), el('server', 'axlapi:XFkType'), el('presenceRedundancyGroup')],
        },
        el('skip', 'xsd:unsignedLong'),
        el('first', 'xsd:unsignedLong'),
      ],
    },
    response: [
      {
        name: 'return',
        children: [
          {
            name: 'assignedPresenceUsers',
            optional: true,
            repeated: true,
            attributes: ['uuid'],
            children: [el('userid'), el('server', 'axlapi:XFkType'), el('presenceRedundancyGroup')],
          },
        ],
      },
    ],
  },
  {
    name: 'listUnassignedPresenceUsers',
    request: {
      children: [
        { name: 'searchCriteria', children: [el('userid')] },
        { name: 'returnedTags', optional: true, children: [el('userid')] },
        el('skip', 'xsd:unsignedLong'),
        el('first', 'xsd:unsignedLong'),
      ],
    },
    response: [
      {
        name: 'return',
        children: [
          {
            name: 'unassignedPresenceUsers',
            optional: true,
            repeated: true,
            attributes: ['uuid'],
            children: [el('userid')],
          },
        ],
      },
    ],
  },
  {
    name: 'listAssignedPresenceServers',
    request: {
      children: [
        { name: 'searchCriteria', children: [el('name'), el('description')] },
        {
          name: 'returnedTags',
          optional: true,
          children: [el('name'), el('description'), el('nodeUsage'), el('numUsers')],
        },
        el('skip', 'xsd:unsignedLong'),
        el('first', 'xsd:unsignedLong'),
      ],
    },
    response: [
      {
        name: 'return',
        children: [
          {
            name: 'assignedPresenceServers',
            optional: true,
            repeated: true,
            attributes: ['uuid'],
            children: [el('name'), el('description'), el('nodeUsage'), el('numUsers')],
          },
        ],
      },
    ],
  },
  {
    name: 'assignPresenceUser',
    request: { children: [el('userid', 'xsd:string', false), el('server', 'xsd:string', false)] },
    response: [el('return', 'xsd:string', false)],
  },
  {
    name: 'unassignPresenceUser',
    request: { children: [el('userid', 'xsd:string', false)] },
    response: [el('return', 'xsd:string', false)],
  },
];
