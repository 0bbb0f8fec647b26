// Event recording as client-go's EventCorrelator does it before an event reaches the API server:
// aggregation (10 distinct messages for the same object+reason within 10 minutes → "(combined from similar
// events): ..."), deduplication (same source/object/reason/message → count++ and lastTimestamp), and the
// per-source+object spam filter (token bucket, burst 25, one token per 5 minutes), which drops events but still
// counts them.
// upstream: staging/src/k8s.io/client-go/tools/record/events_cache.go (EventAggregate, eventObserve, Filter)

import type { KubeEvent, ObjectReference } from '../types.ts';
import type { SimContext } from '../core/context.ts';
import { kept } from '../core/kept.ts';

export interface EventInput {
  /** Kept as the event's involvedObject (callers pass a fresh object). */
  involved: ObjectReference;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  component: 'kubelet' | 'default-scheduler' | 'taint-eviction-controller';
  host?: string;
  action?: string;
}

const MAX_EVENTS = 10; // defaultAggregateMaxEvents
const AGGREGATE_INTERVAL = 600_000; // defaultAggregateIntervalInSeconds
const SPAM_BURST = 25; // defaultSpamBurst
const SPAM_QPS = 1 / 300; // defaultSpamQPS

/**
 * The correlator's caches for one event type and reason of one source and object: the aggregator's record
 * (EventAggregatorByReasonFunc's key is the object, type and reason) and the events eventObserve keeps under
 * getEventKey (the same fields plus fieldPath and message), or under the aggregate key once combined.
 */
interface ReasonState {
  /** The object's other reasons (a list: each object has a few). */
  next: ReasonState | undefined;
  type: string;
  reason: string;
  /** The aggregate record's distinct messages (none: a new record) and last use. */
  localKeys: string[] | undefined;
  last: number;
  /** Observed events, found by fieldPath and message: few per reason (the 10th distinct message on is combined). */
  observed: KubeEvent[] | undefined;
  /** The observed combined event ("(combined from similar events): ..."). */
  combined: KubeEvent | undefined;
}

/**
 * The correlator's caches for one source (component, host) and involved object (kind, namespace, name, uid,
 * apiVersion): every key upstream builds starts with these fields, so the per-object state is found once per event
 * and the inner lookups compare only the remaining fields.
 */
interface ObjectState {
  /** The object's states of other sources (a list: one per recording component, mostly). */
  next: ObjectState | undefined;
  component: string;
  host: string;
  kind: string;
  namespace: string | undefined;
  name: string;
  apiVersion: string | undefined;
  /** The events' source: one object shared by every event of this state (events are never modified once stored). */
  source: KubeEvent['source'];
  reasons: ReasonState | undefined;
  /** getSpamKey without the object: type. */
  buckets: Record<string, Bucket>;
}
interface Bucket {
  tokens: number;
  last: number;
}

/**
 * `list` with `x` appended; a new list is made with its element, as the correlator keeps its lists for the whole run
 * (an empty list that grows by push reserves room for 17).
 */
function append<T>(list: T[] | undefined, x: T): T[] {
  if (!list) return [x];
  list.push(x);
  return list;
}

/** Writes events into the API server's store, correlated as the recording component's client-go would. */
export class EventRecorder {
  readonly #ctx: SimContext;
  readonly #write: (ev: KubeEvent) => void;
  readonly #nextRV: () => string;
  /** The per-source states of each involved object, by the object's UID. */
  readonly #objects = new Map<string | undefined, ObjectState>();
  #nameSeq = 0;

  constructor(ctx: SimContext, write: (ev: KubeEvent) => void, nextRV: () => string) {
    this.#ctx = ctx;
    this.#write = write;
    this.#nextRV = nextRV;
  }

  #state(input: EventInput, host: string): ObjectState {
    const o = input.involved;
    const states = this.#objects.get(o.uid);
    for (let s = states; s; s = s.next) {
      if (s.component === input.component && s.host === host && s.kind === o.kind && s.namespace === o.namespace && s.name === o.name && s.apiVersion === o.apiVersion) return s;
    }
    const state: ObjectState = {
      next: states, component: input.component, host, kind: o.kind, namespace: o.namespace, name: o.name, apiVersion: o.apiVersion,
      source: host ? { component: input.component, host } : { component: input.component }, reasons: undefined, buckets: {},
    };
    this.#objects.set(o.uid, state);
    return state;
  }

  /** Record one event; returns the stored object, or undefined when the spam filter dropped it. */
  record(input: EventInput): KubeEvent | undefined {
    const now = this.#ctx.now;
    const o = input.involved;
    const host = input.host ?? '';
    const state = this.#state(input, host);
    // upstream: events_cache.go EventAggregatorByReasonFunc
    let agg = state.reasons;
    while (agg && (agg.reason !== input.reason || agg.type !== input.type)) agg = agg.next;
    if (!agg) {
      agg = { next: state.reasons, type: input.type, reason: input.reason, localKeys: undefined, last: now, observed: undefined, combined: undefined };
      state.reasons = agg;
    } else if (now - agg.last > AGGREGATE_INTERVAL) agg.localKeys = undefined; // the record expired: a new one
    if (!agg.localKeys?.includes(input.message)) agg.localKeys = append(agg.localKeys, input.message);
    agg.last = now;
    let message = input.message;
    // upstream: events_cache.go eventObserve, getEventKey (fieldPath, type, reason, message; the aggregate key once combined)
    const aggregated = agg.localKeys!.length >= MAX_EVENTS;
    let at = -1;
    if (aggregated) {
      agg.localKeys!.shift();
      message = `(combined from similar events): ${input.message}`;
    } else {
      const fieldPath = o.fieldPath ?? '';
      at = agg.observed?.findIndex((ev) => ev.message === message && (ev.involvedObject.fieldPath ?? '') === fieldPath) ?? -1;
    }
    const prev = aggregated ? agg.combined : agg.observed?.[at];

    const ts = this.#ctx.rfc3339(now);
    let ev: KubeEvent;
    if (prev) {
      ev = { ...prev, message, count: prev.count + 1, lastTimestamp: ts, metadata: { ...prev.metadata } };
    } else {
      const name = kept`${o.name}.${this.#eventNameSuffix(now)}`;
      ev = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: o.namespace ?? 'default', uid: this.#ctx.rng.uuid(), resourceVersion: '', creationTimestamp: ts },
        involvedObject: aggregated ? withoutFieldPath(o) : o,
        reason: input.reason,
        message,
        source: state.source,
        firstTimestamp: ts,
        lastTimestamp: ts,
        count: 1,
        type: input.type,
        eventTime: input.component === 'default-scheduler' ? this.#ctx.micro(now) : null,
        reportingComponent: input.component,
        reportingInstance: input.component === 'default-scheduler' ? 'default-scheduler-control-plane' : host,
      };
      if (input.action) ev.action = input.action;
    }
    if (aggregated) agg.combined = ev;
    else if (at >= 0) agg.observed![at] = ev;
    else agg.observed = append(agg.observed, ev);

    // upstream: events_cache.go (*EventSourceObjectSpamFilter).Filter, getSpamKey
    let b = state.buckets[input.type];
    if (!b) state.buckets[input.type] = b = { tokens: SPAM_BURST, last: now };
    b.tokens = Math.min(SPAM_BURST, b.tokens + ((now - b.last) / 1000) * SPAM_QPS);
    b.last = now;
    if (b.tokens < 1) return undefined;
    b.tokens -= 1;

    ev.metadata.resourceVersion = this.#nextRV();
    this.#write(ev);
    return ev;
  }

  // event names are "<object>.<hex of UnixNano>"; a sequence keeps names unique within one millisecond
  #eventNameSuffix(now: number): string {
    return unixNanoHex(this.#ctx.epoch + now, (this.#nameSeq++ % 1000) * 1000);
  }
}

function withoutFieldPath({ fieldPath: _, ...o }: ObjectReference): ObjectReference {
  return o;
}

const TWO_32 = 2 ** 32;

/**
 * Hex of ms × 10⁶ + extraNanos (< 10⁶), exactly, without BigInt: the product can exceed 2⁵³, so it is computed in
 * two 32-bit halves (each partial product stays below 2⁵³).
 */
export function unixNanoHex(ms: number, extraNanos: number): string {
  const msHi = Math.floor(ms / TWO_32);
  const lo = (ms - msHi * TWO_32) * 1_000_000 + extraNanos;
  const carry = Math.floor(lo / TWO_32);
  const hi = msHi * 1_000_000 + carry;
  const lo32 = lo - carry * TWO_32;
  // above 2³¹ the low half is a double, whose toString(16) is slow: it is written as two padded 16-bit halves
  return hi === 0 ? lo32.toString(16) : hi.toString(16) + hex4(lo32 >>> 16) + hex4(lo32 & 65535);
}

const hex4 = (v: number): string => (v + 65536).toString(16).slice(1);
