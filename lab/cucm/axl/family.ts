import type { Database, Row } from '../../informix/database.ts';
import type { XmlValue } from '../../xml/parse.ts';
import type { XmlOut } from '../../xml/write.ts';

/**
 * How one AXL element maps onto a column. `axl` may be a path (`autoRegistration/startDn`) for elements
 * nested in a plain container.
 */
/**
 * Where a field is absent in the real schema: `add` (the X type), `update` (the update request), `list`
 * (the L type of list's returnedTags and answer). A phone's model is only read, its lines are not listed.
 */
export type OpKind = 'add' | 'update' | 'list';

interface FieldBase {
  axl: string;
  skipIn?: readonly OpKind[];
}

export type FieldSpec = FieldBase &
  (
    | { column: string; type?: 'text' | 'bool' }
    /** A type-table enum shown by name (`product`, `securityMode`). Keys are column values. */
    | { column: string; type: 'enum'; values: Readonly<Record<string, string>> }
    /** A foreign key shown by the referenced row's name, with its uuid as an attribute (XFkType). */
    | { column: string; type: 'fk'; table: string; display: string }
    /** A value fixed by the family (a phone's `class` is always Phone). */
    | { type: 'fixed'; value: string }
  );

/** The element tree of a nested part, for the generated schema. */
export interface Shape {
  name: string;
  repeated?: boolean;
  fk?: boolean;
  children?: Shape[];
}

/**
 * A part of the object kept in other tables (a phone's lines, a user's devices) or never returned
 * (passwords). `write` replaces the whole part, as AXL update does when the element is present.
 */
export interface NestedSpec {
  shape: Shape;
  skipIn?: readonly OpKind[];
  read?(db: Database, row: Readonly<Row>): XmlOut;
  write?(db: Database, row: Row, value: XmlValue, operation: 'add' | 'update'): void;
}

/**
 * The operations a family answers, each only where the real AXL schema has it (15.0 has resetSipTrunk and
 * restartSipTrunk but no applySipTrunk). apply/reset/restart take the object's keys and answer its uuid.
 */
export type FamilyOp = 'get' | 'list' | 'add' | 'update' | 'remove' | 'apply' | 'reset' | 'restart';

/** One AXL object family (Phone, Line, User...) over one table: the table drives every operation. */
export interface Family {
  /** Operation suffix: getPhone, listPhone... */
  name: string;
  /** Element holding the object in requests and answers. */
  tag: string;
  table: string;
  /** Elements that identify an object besides its uuid. */
  keys: string[];
  /** One object per cluster (LDAP system, LDAP authentication): get and update name no key at all. */
  singleton?: boolean;
  /** Element renaming an object on update (`newName`, `newPattern`). */
  rename?: { element: string; field: string };
  /** Column values every row of the family has (a phone is a device of class 1). */
  where?: Readonly<Row>;
  /** A further test where equality is not enough (phone security profiles: any model but a trunk's). */
  matches?(row: Readonly<Row>): boolean;
  fields: FieldSpec[];
  nested?: NestedSpec[];
  /**
   * Top-level elements in the order of the real schema's sequence, where fields and nested parts
   * interleave (a phone's lines come before its owner): answers and the generated types follow it.
   */
  order?: readonly string[];
  /** Elements an add must carry. */
  required: string[];
  /** `searchCriteria` elements of list, each the name of a field (`%` wildcards allowed). */
  search: string[];
  ops: FamilyOp[];
  /** What the not-found fault names the object. */
  label: string;
  /** Fills derived columns of a new row (a phone's model from its product). */
  beforeAdd?(values: Row): void;
}

/** Where an element stands in the family's `order` (unlisted ones after, in their own order). */
export function orderRank(family: Family, name: string): number {
  const i = family.order?.indexOf(name) ?? -1;
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
}

/** Whether a field or nested part belongs to an operation's shape. */
export function servedIn(part: { skipIn?: readonly OpKind[] }, op: OpKind | 'get'): boolean {
  return op === 'get' || !part.skipIn?.includes(op);
}

/**
 * Lists the real schema lets an update edit item by item (AXLSoap.xsd 15.0: UpdateCssReq and the other
 * member lists' removeMembers/addMembers, UpdatePhoneReq removeLines/addLines, UpdateSipTrunkReq
 * removeDestinations/addDestinations); a user's devices and groups are only replaced whole.
 */
const EDITABLE_LISTS: ReadonlySet<string> = new Set(['members', 'lines', 'destinations']);

/**
 * The nested lists of a family an update also edits item by item (`addMembers`, `removeMembers` beside
 * `members`): those kept whole with one repeated element inside.
 */
export function listEdits(family: Family): string[] {
  return (family.nested ?? [])
    .filter((n) => EDITABLE_LISTS.has(n.shape.name) && servedIn(n, 'update') && n.read && n.write)
    .filter((n) => n.shape.children?.length === 1)
    .filter((n) => n.shape.children?.[0]?.repeated)
    .map((n) => n.shape.name);
}

export function fieldColumn(field: FieldSpec): string | undefined {
  return field.type === 'fixed' ? undefined : field.column;
}
