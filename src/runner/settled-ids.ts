// The ids a seat has settled, for telling a late answer (ignored) from an
// answer to an id it never had (malformed). The runner numbers decisions in
// increasing order, so this is an array kept sorted by appending: a push per
// decision instead of a hash-set insert, and a few bytes per id for the whole
// match (it lives as long as the match, so what it holds is copied by every
// minor GC until promoted). Lookups, for frames nobody asked for, bisect.
export class SettledIds {
  private readonly ids: number[] = [];

  add(id: number): void {
    const ids = this.ids;
    const n = ids.length;
    if (n === 0 || id > ids[n - 1]) {
      ids.push(id);
      return;
    }
    // Out of order (not from the runner, which counts up): insert in place, once.
    const at = this.lowerBound(id);
    if (ids[at] !== id) ids.splice(at, 0, id);
  }

  has(id: number): boolean {
    const at = this.lowerBound(id);
    return at < this.ids.length && this.ids[at] === id;
  }

  /** The first index whose id is not below `id`. */
  private lowerBound(id: number): number {
    const ids = this.ids;
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid] < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
