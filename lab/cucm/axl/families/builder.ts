import type { Family, FamilyOp, FieldSpec } from '../family.ts';

/** The fields most families share, in Cisco's element and data-dictionary names. */
export const nameField: FieldSpec = { axl: 'name', column: 'name' };
export const descriptionField: FieldSpec = { axl: 'description', column: 'description' };

export function fk(axl: string, column: string, table: string, display = 'name'): FieldSpec {
  return { axl, column, type: 'fk', table, display };
}

export function text(axl: string, column: string, skipIn?: FieldSpec['skipIn']): FieldSpec {
  return { axl, column, ...(skipIn ? { skipIn } : {}) };
}

export function bool(axl: string, column: string): FieldSpec {
  return { axl, column, type: 'bool' };
}

export function enumField(axl: string, column: string, values: Readonly<Record<string, string>>): FieldSpec {
  return { axl, column, type: 'enum', values };
}

export const CRUD: FamilyOp[] = ['get', 'list', 'add', 'update', 'remove'];

/** A family whose objects are named (`name` key, `newName` renames), the common AXL shape. */
export function named(
  spec: Pick<Family, 'name' | 'tag' | 'label' | 'table' | 'fields'> &
    Partial<
      Pick<Family, 'where' | 'matches' | 'nested' | 'order' | 'required' | 'search' | 'ops' | 'beforeAdd'>
    >,
): Family {
  return {
    keys: ['name'],
    rename: { element: 'newName', field: 'name' },
    required: ['name'],
    search: ['name'],
    ops: CRUD,
    ...spec,
  };
}
