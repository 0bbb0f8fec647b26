// kubectl describe node's arithmetic: quantities added up and printed as resource.Quantity does, a pod's requests
// and limits as component-helpers aggregates them (sidecars, init containers, a resize), and the lease renewals.
// The layout itself is compared with the real kubectl in tests/unit/server/describe-node.test.ts.

import { describe, expect, it } from 'vitest';
import { type SumQuantity, addQuantity, formatQuantity, sumQuantity } from '../../../src/sim/api/quantity-sum.ts';
import { leaseRenewTime } from '../../../src/sim/kubelet/lease.ts';
import { parseRfc3339 } from '../../../src/sim/render/clock.ts';
import { describeNode } from '../../../src/sim/render/describe-node.ts';
import { runCommandAt } from '../../../src/sim/run.ts';
import type { Pod } from '../../../src/sim/types.ts';
import { node, pod, ts } from './fixtures.ts';
import { loadScenario } from './scenarios.ts';

describe('Quantity.String (canonical form)', () => {
  // apimachinery/pkg/api/resource/quantity_test.go (TestQuantityString, canonical forms)
  it.each<[SumQuantity, string]>([
    [{ milli: 0, format: 'DecimalSI' }, '0'],
    [{ milli: 1500, format: 'DecimalSI' }, '1500m'],
    [{ milli: 2000, format: 'DecimalSI' }, '2'],
    [{ milli: 1_500_000_000, format: 'DecimalSI' }, '1500k'],
    [{ milli: 100_000_000_000, format: 'DecimalSI' }, '100M'],
    [{ milli: 1024_000, format: 'BinarySI' }, '1Ki'],
    [{ milli: 1000_000, format: 'BinarySI' }, '1k'], // below 1024: DecimalSI
    [{ milli: 1536 * 2 ** 20 * 1000, format: 'BinarySI' }, '1536Mi'],
    [{ milli: 8 * 2 ** 30 * 1000, format: 'BinarySI' }, '8Gi'],
    [{ milli: 167_108_864_000, format: 'BinarySI' }, '167108864'], // not a whole KiB multiple of 1024
    [{ milli: 500, format: 'BinarySI' }, '500m'], // a fraction: DecimalSI
    [{ milli: 1_000_000, format: 'DecimalExponent' }, '1e3'],
    [{ milli: 500, format: 'DecimalExponent' }, '500e-3'],
  ])('%j → %s', (q, text) => {
    expect(formatQuantity(q)).toBe(text);
  });

  it('a sum keeps the format of its first term (Quantity.Add)', () => {
    expect(formatQuantity(addQuantity(sumQuantity('64Mi'), sumQuantity('64Mi')))).toBe('128Mi');
    expect(formatQuantity(addQuantity(sumQuantity('100M'), sumQuantity('64Mi')))).toBe('167108864');
    expect(formatQuantity(addQuantity(sumQuantity('1'), sumQuantity('500m')))).toBe('1500m');
    expect(formatQuantity(addQuantity(undefined, sumQuantity('0.5')))).toBe('500m');
    expect(formatQuantity(sumQuantity('8388608Ki'))).toBe('8Gi');
  });
});

const NOW = parseRfc3339(ts(3_600_000));
const rowOf = (p: Pod) =>
  describeNode(node(), { now: NOW, utcOffsetMinutes: 0, pods: [p], events: [], leaseRenewTime: NOW })
    .split('\n')
    .find((l) => l.startsWith(`  default `))!
    .trim()
    .split(/\s{2,}/);

describe('the pod rows and totals (PodRequests, PodLimits)', () => {
  it('a sidecar adds to the app containers; a regular init container only raises the total to its own need', () => {
    const c = (name: string, cpu: string, extra: object = {}) => ({ ...pod(name).spec.containers[0], name, resources: { requests: { cpu }, limits: { cpu } }, ...extra });
    const p = pod('web', {
      spec: {
        nodeName: 'worker01',
        initContainers: [c('init', '200m'), c('sidecar', '50m', { restartPolicy: 'Always' })],
        containers: [c('app', '100m')],
      },
      status: { phase: 'Running' },
    });
    // app 100m + sidecar 50m = 150m, below the 200m the init container needs alone (before the sidecar starts)
    expect(rowOf(p).slice(0, 4)).toEqual(['default', 'web', '200m (5%)', '200m (5%)']);
    const later = pod('web', { spec: { ...p.spec, initContainers: [c('sidecar', '50m', { restartPolicy: 'Always' }), c('init', '120m')] }, status: { phase: 'Running' } });
    // now the init container runs beside the sidecar: 120m + 50m = 170m, above 150m
    expect(rowOf(later).slice(2, 4)).toEqual(['170m (4%)', '170m (4%)']);
  });

  it('pods that terminated and pods of other nodes are not listed', () => {
    const text = (phase: Pod['status']['phase'], nodeName: string) =>
      describeNode(node(), { now: NOW, utcOffsetMinutes: 0, pods: [pod('x', { spec: { nodeName }, status: { phase } })], events: [], leaseRenewTime: NOW });
    expect(text('Running', 'worker01')).toContain('Non-terminated Pods:          (1 in total)');
    expect(text('Succeeded', 'worker01')).toContain('Non-terminated Pods:          (0 in total)');
    expect(text('Failed', 'worker01')).toContain('Non-terminated Pods:          (0 in total)');
    expect(text('Running', 'worker02')).toContain('Non-terminated Pods:          (0 in total)');
  });

  it('an Infeasible resize: the row counts what the kubelet allocated and the runtime applied, the totals the spec', () => {
    // resize: at 2m10s the pod asks for 6 cpus on a 4-cpu node; the kubelet keeps it at 800m (PodResizePending Infeasible)
    const out = runCommandAt(loadScenario('resize'), 135_000, 'kubectl describe node worker01').stdout;
    expect(out).toMatch(/^ {2}default +web +800m \(20%\) +800m \(20%\) +128Mi \(1%\) +128Mi \(1%\) +2m15s$/m);
    expect(out).toMatch(/^ {2}cpu +6 \(150%\) +6 \(150%\)$/m);
    // in progress (20.2s): allocated 800m, applied still 500m: the larger counts
    const mid = runCommandAt(loadScenario('resize'), 20_200, 'kubectl describe node worker01').stdout;
    expect(mid).toMatch(/^ {2}default +web +800m \(20%\) +800m \(20%\) /m);
  });
});

describe('the node lease', () => {
  it('is renewed every 10 s from the kubelet\'s first status post', () => {
    const n = node();
    const start = parseRfc3339(n.status.conditions[0].lastHeartbeatTime);
    expect(leaseRenewTime(n, start)).toBe(start);
    expect(leaseRenewTime(n, start + 9_999)).toBe(start);
    expect(leaseRenewTime(n, start + 10_000)).toBe(start + 10_000);
    expect(leaseRenewTime(n, start + 503_000)).toBe(start + 500_000);
  });
});
