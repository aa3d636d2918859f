import { randomUUID } from 'node:crypto';

/** The authentication rule for voicemail PINs, as Unity Connection ships it (CUPI API, Authentication Rules). */
export const PIN_RULE_NAME = 'Recommended Voice Mail Authentication Rule';

/** A CUPI object: every value is text, as CUPI sends it. */
export type CupiObject = Record<string, string>;

export interface CupiCollection {
  /** Path below /vmrest/: `users`, `handlers/callhandlers`. */
  path: string;
  /** List element: `Users`. */
  listName: string;
  /** Object element: `User`. */
  objectName: string;
  /** Fields a POST must carry. */
  required: string[];
  /** A field unique across the collection (`Alias`). */
  unique?: string;
  items: Map<string, CupiObject>;
}

/** A user's voicemail PIN (credential type 4) and its flags. The PIN itself is never returned. */
export interface PinCredential {
  pin: string;
  CredMustChange: string;
  DoesntExpire: string;
  Locked: string;
  HackCount: string;
  TimeChanged: string;
}

export class CupiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The Unity Connection directory as CUPI exposes it. */
export class CupiStore {
  readonly collections = new Map<string, CupiCollection>();
  /** User ObjectId to PIN. */
  readonly pins = new Map<string, PinCredential>();
  /** Restriction table ObjectId to its dial strings (`restrictiontables/<id>/restrictionpatterns`), in order. */
  readonly restrictionPatterns = new Map<string, CupiObject[]>();
  /**
   * User ObjectId to the roles it holds (`users/<id>/userroles`). An account outside the users list (the
   * lab's CUPI administrator) may hold roles too: it is the one the CUPI credential signs in as.
   */
  readonly userRoles = new Map<string, CupiObject[]>();

  define(
    path: string,
    listName: string,
    objectName: string,
    required: string[],
    unique?: string,
  ): CupiCollection {
    const c: CupiCollection = {
      path,
      listName,
      objectName,
      required,
      items: new Map(),
      ...(unique ? { unique } : {}),
    };
    this.collections.set(path, c);
    return c;
  }

  collection(path: string): CupiCollection {
    const c = this.collections.get(path);
    if (!c) throw new Error(`no CUPI collection ${path}`);
    return c;
  }

  /** Adds an object, giving it an ObjectId and URI; refuses a duplicate of the unique field. */
  create(c: CupiCollection, fields: CupiObject): CupiObject {
    for (const r of c.required) {
      if (!fields[r])
        throw new CupiError(400, 'MISSING_PARAMETER', `${r} is a required field for ${c.objectName}`);
    }
    if (c.unique) {
      const value = fields[c.unique]?.toLowerCase();
      if ([...c.items.values()].some((o) => o[c.unique as string]?.toLowerCase() === value)) {
        throw new CupiError(
          400,
          'DUPLICATE_OBJECT',
          `A ${c.objectName} with ${c.unique} ${fields[c.unique] ?? ''} already exists`,
        );
      }
    }
    const id = randomUUID();
    const obj: CupiObject = { URI: `/vmrest/${c.path}/${id}`, ObjectId: id, ...fields };
    c.items.set(id, obj);
    return obj;
  }

  find(c: CupiCollection, alias: string): CupiObject | undefined {
    const key = c.unique;
    return key ? [...c.items.values()].find((o) => o[key]?.toLowerCase() === alias.toLowerCase()) : undefined;
  }
}
