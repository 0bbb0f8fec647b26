// Event recording as client-go's EventCorrelator does it before an event reaches the API server:
// aggregation (10 distinct messages for the same object+reason within 10 minutes → "(combined from similar
// events): ..."), deduplication (same source/object/reason/message → count++ and lastTimestamp), and the
// per-source+object spam filter (token bucket, burst 25, one token per 5 minutes), which drops events but still
// counts them.
// upstream: staging/src/k8s.io/client-go/tools/record/events_cache.go (EventAggregate, eventObserve, Filter)

import type { EventSeries, KubeEvent, ObjectReference } from '../types.ts';
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
const FINISH_TIME = 360_000; // tools/events finishTime
const REFRESH_TIME = 1_800_000; // tools/events refreshTime
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
  /**
   * The spam filter's token bucket. getSpamKey is the source and the object alone (no type, reason or field path):
   * every event the component records about the object, Normal or Warning, takes from this one bucket.
   */
  bucket: Bucket | undefined;
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
      source: host ? { component: input.component, host } : { component: input.component }, reasons: undefined, bucket: undefined,
    };
    this.#objects.set(o.uid, state);
    return state;
  }

  /** Record one event; returns the stored object, or undefined when the spam filter dropped it or a series counted it. */
  record(input: EventInput): KubeEvent | undefined {
    if (input.component === 'default-scheduler') return this.#recordV1(input);
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
      ev = { ...prev, message, count: prev.count! + 1, lastTimestamp: ts, metadata: { ...prev.metadata } };
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
        eventTime: null,
        reportingComponent: input.component,
        reportingInstance: host,
      };
      if (input.action) ev.action = input.action;
    }
    if (aggregated) agg.combined = ev;
    else if (at >= 0) agg.observed![at] = ev;
    else agg.observed = append(agg.observed, ev);

    // upstream: events_cache.go (*EventSourceObjectSpamFilter).Filter, getSpamKey
    let b = state.bucket;
    if (!b) state.bucket = b = { tokens: SPAM_BURST, last: now };
    b.tokens = Math.min(SPAM_BURST, b.tokens + ((now - b.last) / 1000) * SPAM_QPS);
    b.last = now;
    if (b.tokens < 1) return undefined;
    b.tokens -= 1;

    ev.metadata.resourceVersion = this.#nextRV();
    this.#write(ev);
    return ev;
  }

  // -------------------------------------------------------------------------------------------------------
  // The scheduler records through events.k8s.io/v1 (client-go tools/events), read back here as core/v1: eventTime,
  // reportingComponent and reportingInstance set; firstTimestamp and lastTimestamp null, no count, an empty source.
  // No correlator and no spam filter: an event isomorphic to one in the broadcaster's cache (same type, action,
  // reason, reporting controller and instance, and regarding object, its resourceVersion included) is counted in a
  // series instead. The second occurrence is written at once, with series {count: 2}; later ones only count in the
  // cache, which finishSeries (every 6 min: a series quiet for 6 min is written and forgotten, a lone event older
  // than that forgotten) and refreshExistingEventSeries (every 30 min: every series is written) write out.
  // upstream: client-go tools/events event_broadcaster.go (recordToSink, getKey, finishSeries,
  //           refreshExistingEventSeries; finishTime 6m, refreshTime 30m), event_recorder.go makeEvent

  readonly #isomorphic = new Map<string, { ev: KubeEvent; series?: EventSeries; eventTime: number; lastObserved: number }>();
  /** The broadcaster's wait.Until loops: their phase, and the next tick each has scheduled (-1: none). */
  #phase = -1;
  #finishAt = -1;
  #refreshAt = -1;
  /** Cached events with a series (what refreshExistingEventSeries writes). */
  #series = 0;

  #recordV1(input: EventInput): KubeEvent | undefined {
    const now = this.#ctx.now;
    const o = input.involved;
    const instance = `${input.component}-control-plane`;
    const key = `${input.type}\0${input.action}\0${input.reason}\0${input.component}\0${instance}\0${o.kind}\0${o.namespace}\0${o.name}\0${o.uid}\0${o.apiVersion}\0${o.resourceVersion}\0${o.fieldPath}`;
    const cached = this.#isomorphic.get(key);
    if (cached) {
      cached.lastObserved = now;
      const count = (cached.series?.count ?? 1) + 1;
      cached.series = { count, lastObservedTime: this.#ctx.micro(now) };
      if (count > 2) return undefined;
      this.#series++;
      this.#schedule(REFRESH_TIME);
      return this.#writeSeries(cached);
    }
    const ev: KubeEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: kept`${o.name}.${this.#eventNameSuffix(now)}`, namespace: o.namespace ?? 'default', uid: this.#ctx.rng.uuid(), resourceVersion: this.#nextRV(), creationTimestamp: this.#ctx.rfc3339(now) },
      involvedObject: o,
      reason: input.reason,
      message: input.message,
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: input.type,
      eventTime: this.#ctx.micro(now),
      reportingComponent: input.component,
      reportingInstance: instance,
    };
    if (input.action) ev.action = input.action;
    this.#isomorphic.set(key, { ev, eventTime: now, lastObserved: now });
    this.#write(ev);
    this.#schedule(FINISH_TIME);
    return ev;
  }

  /** A series patch: the cached event with its series now, as a new version. */
  #writeSeries(c: { ev: KubeEvent; series?: EventSeries }): KubeEvent {
    c.ev = { ...c.ev, series: c.series, metadata: { ...c.ev.metadata, resourceVersion: this.#nextRV() } };
    this.#write(c.ev);
    return c.ev;
  }

  /** The next tick of one of the broadcaster's loops, once one is due (both run while there is something to do). */
  #schedule(period: typeof FINISH_TIME | typeof REFRESH_TIME): void {
    const finish = period === FINISH_TIME;
    if ((finish ? this.#finishAt : this.#refreshAt) >= 0) return;
    const loop = this.#ctx.loop;
    // the scheduler started long before the run: its loops' common phase is a seeded draw
    if (this.#phase < 0) this.#phase = this.#ctx.timingRng('default-scheduler/events').int(0, FINISH_TIME - 1);
    const at = this.#phase + Math.ceil((loop.now + 1 - this.#phase) / period) * period;
    if (finish) this.#finishAt = at;
    else this.#refreshAt = at;
    loop.at(at, finish ? this.#finishSeries : this.#refreshSeries);
  }

  readonly #finishSeries = (): void => {
    this.#finishAt = -1;
    const cutoff = this.#ctx.now - FINISH_TIME;
    for (const [key, c] of this.#isomorphic) {
      if (c.series) {
        if (c.lastObserved < cutoff) {
          this.#writeSeries(c);
          this.#isomorphic.delete(key);
          this.#series--;
        }
      } else if (c.eventTime < cutoff) this.#isomorphic.delete(key);
    }
    if (this.#isomorphic.size) this.#schedule(FINISH_TIME);
  };

  readonly #refreshSeries = (): void => {
    this.#refreshAt = -1;
    for (const c of this.#isomorphic.values()) if (c.series) this.#writeSeries(c);
    if (this.#series) this.#schedule(REFRESH_TIME);
  };

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
