import type { Database, Row } from '../../informix/database.ts';
import type { XmlValue } from '../../xml/parse.ts';
import type { XmlOut } from '../../xml/write.ts';

/**
 * How one AXL element maps onto a column. `axl` may be a path (`autoRegistration/startDn`) for elements
 * nested in a plain container.
 */
export type FieldSpec =
  | { axl: string; column: string; type?: 'text' | 'bool' }
  /** A type-table enum shown by name (`product`, `securityMode`). Keys are column values. */
  | { axl: string; column: string; type: 'enum'; values: Readonly<Record<string, string>> }
  /** A foreign key shown by the referenced row's name, with its uuid as an attribute (XFkType). */
  | { axl: string; column: string; type: 'fk'; table: string; display: string }
  /** A value fixed by the family (a phone's `class` is always Phone). */
  | { axl: string; type: 'fixed'; value: string };

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
  read?(db: Database, row: Readonly<Row>): XmlOut;
  write?(db: Database, row: Row, value: XmlValue, operation: 'add' | 'update'): void;
}

export type FamilyOp = 'get' | 'list' | 'add' | 'update' | 'remove';

/** One AXL object family (Phone, Line, User...) over one table: the table drives every operation. */
export interface Family {
  /** Operation suffix: getPhone, listPhone... */
  name: string;
  /** Element holding the object in requests and answers. */
  tag: string;
  table: string;
  /** Elements that identify an object besides its uuid. */
  keys: string[];
  /** Element renaming an object on update (`newName`, `newPattern`). */
  rename?: { element: string; field: string };
  /** Column values every row of the family has (a phone is a device of class 1). */
  where?: Readonly<Row>;
  fields: FieldSpec[];
  nested?: NestedSpec[];
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

export function fieldColumn(field: FieldSpec): string | undefined {
  return field.type === 'fixed' ? undefined : field.column;
}
