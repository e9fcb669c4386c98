// One write's view of the document: reads see the live records, and what the
// write sets, deletes or edits in place is collected as journal operations
// instead of touching the live document (which changes only once the line is
// durable). This replaces copying the whole document per write.
import { COLLECTIONS, type Collection, type StoreDoc } from './doc';
import type { Op } from './journal';

const DELETED = Symbol('deleted');

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

export class Draft {
  /** The document as the write sees it: collections are views, scalars plain. */
  readonly doc: StoreDoc;
  private readonly set = new Map<string, { coll: Collection; id: string; rec: unknown }>();
  /** Records handed out for reading, copied so an edit in place is seen (and the live one untouched). */
  private readonly lent = new Map<string, { coll: Collection; id: string; orig: unknown; rec: unknown }>();

  constructor(private readonly live: StoreDoc) {
    const doc = { ...live } as StoreDoc;
    for (const c of COLLECTIONS) (doc as unknown as Record<string, unknown>)[c] = this.view(c);
    this.doc = doc;
  }

  private view(coll: Collection): Record<string, unknown> {
    const map = this.live[coll] as Record<string, unknown>;
    const at = (id: string) => `${coll}\u0000${id}`;
    const read = (id: string): unknown => {
      const s = this.set.get(at(id));
      if (s) return s.rec === DELETED ? undefined : s.rec;
      if (!Object.hasOwn(map, id)) return undefined;
      let l = this.lent.get(at(id));
      if (!l) this.lent.set(at(id), (l = { coll, id, orig: map[id], rec: clone(map[id]) }));
      return l.rec;
    };
    const has = (id: string): boolean => {
      const s = this.set.get(at(id));
      return s ? s.rec !== DELETED : Object.hasOwn(map, id);
    };
    return new Proxy(map, {
      get: (target, id) => (typeof id === 'string' ? (has(id) ? read(id) : undefined) : Reflect.get(target, id)),
      has: (_t, id) => typeof id === 'string' && has(id),
      set: (_t, id, rec) => {
        if (typeof id !== 'string' || id === '__proto__') return false;
        this.lent.delete(at(id));
        this.set.set(at(id), { coll, id, rec });
        return true;
      },
      deleteProperty: (_t, id) => {
        if (typeof id !== 'string') return false;
        this.lent.delete(at(id));
        this.set.set(at(id), { coll, id, rec: DELETED });
        return true;
      },
      ownKeys: () => {
        const keys = new Set(Object.keys(map));
        for (const s of this.set.values()) if (s.coll === coll) s.rec === DELETED ? keys.delete(s.id) : keys.add(s.id);
        return [...keys];
      },
      getOwnPropertyDescriptor: (_t, id) => {
        if (typeof id !== 'string' || !has(id)) return undefined;
        return { value: read(id), writable: true, enumerable: true, configurable: true };
      },
    });
  }

  /**
   * What the write changed, as journal operations (records copied, so later edits by the caller cannot reach the
   * store).
   */
  ops(): Op[] {
    const out: Op[] = [];
    for (const s of this.set.values()) out.push([s.coll, s.id, s.rec === DELETED ? null : clone(s.rec)]);
    for (const l of this.lent.values()) {
      if (JSON.stringify(l.rec) !== JSON.stringify(l.orig)) out.push([l.coll, l.id, clone(l.rec)]);
    }
    return out;
  }
}
