// The change feed behind watches and list resourceVersions: every change to a Pod, Event, Node, ConfigMap or Secret
// (those a run creates: each namespace's kube-root-ca.crt is fixed), in order,
// with the virtual time it happened at. The engine keeps its history privately and answers stateAt(t) for
// any past moment; objects are immutable (a change stores a new object), so two moments differ exactly
// where an object's identity differs. The feed finds each change by bisecting the interval since it last
// looked down to one millisecond: O(changes × log(interval)) stateAt calls, so a watcher sees every
// intermediate state (Pending → ContainerCreating → Running → ...) even when time jumps by minutes.

import type { ClusterState, ConfigObject, Engine, KubeEvent, Node, Pod } from '../sim/index.ts';

export type FeedKind = 'pods' | 'events' | 'nodes' | 'configmaps' | 'secrets';
export type FeedObject = Pod | KubeEvent | Node | ConfigObject;
export type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface Change {
  kind: FeedKind;
  type: WatchType;
  /** The object after the change (for DELETED: its last state, with the deletion's resourceVersion). */
  object: FeedObject;
  /** The object before the change (MODIFIED, DELETED). */
  previous?: FeedObject;
  /** Virtual time (ms) of the change. */
  t: number;
  /** The change's resourceVersion: the object's, or one the feed assigns to a deletion. */
  rv: number;
}

type Snapshot = Record<FeedKind, Map<string, FeedObject>>;

const KINDS: FeedKind[] = ['pods', 'events', 'nodes', 'configmaps', 'secrets'];

export function objectKey(o: FeedObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;
}

function snapshotOf(state: ClusterState): Snapshot {
  const snap: Snapshot = { pods: new Map(), events: new Map(), nodes: new Map(), configmaps: new Map(), secrets: new Map() };
  for (const p of state.pods) snap.pods.set(objectKey(p), p);
  for (const e of state.events) snap.events.set(objectKey(e), e);
  for (const n of state.nodes) snap.nodes.set(objectKey(n), n);
  for (const c of state.configMaps ?? []) snap.configmaps.set(objectKey(c), c);
  for (const s of state.secrets ?? []) snap.secrets.set(objectKey(s), s);
  return snap;
}

function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  for (const k of KINDS) {
    const x = a[k];
    const y = b[k];
    if (x.size !== y.size) return false;
    for (const [key, o] of x) if (y.get(key) !== o) return false;
  }
  return true;
}

const rvOf = (o: FeedObject): number => Number(o.metadata.resourceVersion) || 0;

export type FeedListener = (changes: readonly Change[]) => void;

export class ChangeFeed {
  readonly #engine: Engine;
  #snap: Snapshot;
  /** The virtual time #snap was taken at. */
  #t: number;
  readonly #log: Change[] = [];
  #maxRv = 0;
  readonly #listeners = new Set<FeedListener>();

  constructor(engine: Engine) {
    this.#engine = engine;
    this.#t = engine.now;
    this.#snap = snapshotOf(engine.stateAt(engine.now));
    const initial: Change[] = [];
    for (const kind of KINDS) {
      for (const o of this.#snap[kind].values()) initial.push({ kind, type: 'ADDED', object: o, t: this.#t, rv: rvOf(o) });
    }
    initial.sort((a, b) => a.rv - b.rv);
    for (const c of initial) this.#maxRv = Math.max(this.#maxRv, c.rv);
    this.#log.push(...initial);
  }

  /** The list resourceVersion: no change the feed has recorded is newer. */
  get resourceVersion(): string {
    return String(this.#maxRv);
  }

  /** The objects of a kind as of the last sync, in storage key order (namespace, then name). */
  objects(kind: FeedKind): FeedObject[] {
    const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    return [...this.#snap[kind].values()].sort(
      (a, b) => cmp(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || cmp(a.metadata.name, b.metadata.name),
    );
  }

  /** Changes newer than a resourceVersion a client got from a list or an earlier watch event. */
  since(rv: number): Change[] {
    return this.#log.filter((c) => c.rv > rv);
  }

  subscribe(listener: FeedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Record every change from the last sync up to the engine's current time, and tell the listeners. */
  sync(): readonly Change[] {
    const now = this.#engine.now;
    const found: Change[] = [];
    // Requests applied at the last synced moment itself (a create at t), then everything after it.
    const atT = snapshotOf(this.#engine.stateAt(this.#t));
    this.#collect(this.#t, this.#snap, this.#t, atT, found);
    if (now > this.#t) this.#collect(this.#t, atT, now, snapshotOf(this.#engine.stateAt(now)), found);
    this.#t = now;
    if (found.length > 0) {
      this.#log.push(...found);
      for (const l of this.#listeners) l(found);
    }
    return found;
  }

  #collect(lo: number, sLo: Snapshot, hi: number, sHi: Snapshot, out: Change[]): void {
    if (sameSnapshot(sLo, sHi)) return;
    if (hi - lo <= 1) {
      out.push(...this.#diff(sLo, sHi, hi));
      this.#snap = sHi;
      return;
    }
    const mid = Math.floor((lo + hi) / 2);
    const sMid = snapshotOf(this.#engine.stateAt(mid));
    this.#collect(lo, sLo, mid, sMid, out);
    this.#collect(mid, sMid, hi, sHi, out);
  }

  /**
   * The changes between two moments one millisecond apart. A deletion has no resourceVersion in the
   * snapshots (the object is gone), so the feed gives it the next unused number: the engine counts every
   * write, so later objects' versions are always larger. A name that now holds another object (another
   * uid: deleted and created again within the millisecond) is a deletion and an addition.
   */
  #diff(a: Snapshot, b: Snapshot, t: number): Change[] {
    const deleted: Change[] = [];
    const written: Change[] = [];
    const remove = (kind: FeedKind, prev: FeedObject): void => {
      const rv = ++this.#maxRv;
      const object = { ...prev, metadata: { ...prev.metadata, resourceVersion: String(rv) } } as FeedObject;
      deleted.push({ kind, type: 'DELETED', object, previous: prev, t, rv });
    };
    for (const kind of KINDS) {
      for (const [key, o] of b[kind]) {
        const prev = a[kind].get(key);
        if (prev !== undefined && prev !== o && prev.metadata.uid !== o.metadata.uid) remove(kind, prev);
        if (prev === undefined || prev.metadata.uid !== o.metadata.uid) written.push({ kind, type: 'ADDED', object: o, t, rv: rvOf(o) });
        else if (prev !== o) written.push({ kind, type: 'MODIFIED', object: o, previous: prev, t, rv: rvOf(o) });
      }
      for (const [key, prev] of a[kind]) if (!b[kind].has(key)) remove(kind, prev);
    }
    written.sort((x, y) => x.rv - y.rv);
    for (const c of written) this.#maxRv = Math.max(this.#maxRv, c.rv);
    return [...deleted, ...written];
  }
}
