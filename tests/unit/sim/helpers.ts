// Shared helpers for the engine tests: build a pod manifest as kubectl would send it, run an engine, read back.
import { createEngine } from '../../../src/sim/engine.ts';
import type { EngineConfig } from '../../../src/sim/config.ts';
import type { Engine, KubeEvent, Pod } from '../../../src/sim/types.ts';
import { ZERO_LATENCY_TIMINGS } from '../../../src/sim/core/timings.ts';

export const NODE = { name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', capacity: { cpu: '4', memory: '8Gi', pods: 110 } };

export function podManifest(name: string, container: Record<string, unknown>, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...metadata },
    spec: { containers: [{ name, resources: {}, ...container }], ...spec },
  };
}

export function engineWith(config: EngineConfig = {}, seed = 1): Engine {
  return createEngine({ nodes: [NODE], ...config }, { seed });
}

export function zeroLatencyEngine(config: EngineConfig = {}, seed = 1): Engine {
  return engineWith({ ...config, timings: { ...ZERO_LATENCY_TIMINGS, ...(config.timings ?? {}) } }, seed);
}

export function create(e: Engine, obj: unknown, namespace = 'default'): Pod {
  const r = e.apply({ type: 'create', namespace, obj });
  if (!r.ok) throw new Error(r.status.message);
  return r.object;
}

export function pod(e: Engine, name: string, t?: number): Pod | undefined {
  const s = t === undefined ? e.state() : e.stateAt(t);
  return s.pods.find((p) => p.metadata.name === name);
}

/** Virtual times (ms) at which the kubelet started a container of this pod (startContainer step 3). */
export function containerStarts(e: Engine, podName: string): number[] {
  return e.trace.filter((ev) => ev.key === 'startContainer#3' && ev.object === `pod/default/${podName}`).map((ev) => ev.t);
}

/** When an event was first seen: firstTimestamp (core/v1 recorder) or eventTime (events.k8s.io/v1), in ms. */
export function eventStart(ev: KubeEvent): number {
  return Date.parse(ev.firstTimestamp ?? ev.eventTime!);
}

/** When an event was last seen: a series' last observation, lastTimestamp, or eventTime, in ms. */
export function eventEnd(ev: KubeEvent): number {
  return Date.parse(ev.series?.lastObservedTime ?? ev.lastTimestamp ?? ev.eventTime!);
}
