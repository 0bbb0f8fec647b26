// resource.Quantity as the API server stores it: parsed, then written back with Quantity.String(). Ported tables:
// TestQuantityParseEmit, the alternates of TestQuantityString, and the rounding rows of TestQuantityParse
// (staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_test.go; a row's Quantity written as its String()).
// Then the decoding path: a pod's container resources stored in canonical form, through create and resize.
import { describe, expect, it } from 'vitest';
import { canonicalQuantity } from '../../../src/sim/api/quantity-sum.ts';
import { recordReplay } from '../../../src/sim/record.ts';
import { parseScenario } from '../../../src/sim/scenario.ts';
import { create, engineWith, pod, podManifest } from './helpers.ts';

const PARSE_EMIT: [string, string][] = [
  ['1Ki', '1Ki'], ['1Mi', '1Mi'], ['1Gi', '1Gi'], ['1024Mi', '1Gi'], ['1000M', '1G'],
  ['.001Ki', '1024m'], ['.000001Ki', '1024u'], ['.000000001Ki', '1024n'], ['.000000000001Ki', '2n'],
];

// TestQuantityString: each alternate spelling parses to a quantity whose String() is the canonical one
const STRING_ALTERNATES: [string, string][] = [
  ['1024Mi', '1Gi'], ['307200Ki', '300Mi'], ['1025024Mi', '1001Gi'], ['1024Gi', '1Ti'], ['5000m', '5'], ['0.5', '500m'],
  ['1000M', '1G'], ['0.001T', '1G'], ['1000u', '1m'], ['1.08', '1080m'], ['1080000000n', '1080m'],
  ['.001e12', '1e9'], ['0.001e0', '1e-3'], ['1000e-12', '1e-9'], ['00', '0'],
];

// TestQuantityParse: things that round up to the nano-unit, fractional binary quantities, and odd spellings
const PARSE_ROUNDING: [string, string][] = [
  ['3.001n', '4n'], ['1.1E-9', '2e-9'], ['0.0000000001', '1n'], ['0.0000000005', '1n'], ['0.00000000050', '1n'], ['0.5e-9', '1e-9'],
  ['0.9n', '1n'], ['0.00000012345', '124n'], ['0.00000012354', '124n'], ['12E', '12E'],
  ['100.035Ki', '102435840m'], ['0.5Mi', '512Ki'], ['0.05Gi', '53687091200m'], ['0.025Ti', '27487790694400m'],
  ['0.000000000001Ki', '2n'], ['.001', '1m'], ['.0001k', '100m'], ['1.', '1'], ['1.G', '1G'],
];

describe('Quantity.String() of a parsed quantity (canonicalQuantity)', () => {
  it.each([...PARSE_EMIT, ...STRING_ALTERNATES, ...PARSE_ROUNDING])('%s → %s', (input, canonical) => {
    expect(canonicalQuantity(input)).toBe(canonical);
    // a canonical quantity is its own canonical form, and the negative one has the sign in front
    expect(canonicalQuantity(canonical)).toBe(canonical);
    if (canonical !== '0') expect(canonicalQuantity(`-${input}`)).toBe(`-${canonical}`);
  });
  it('a JSON number is parsed from its digits; text that is not a quantity has no canonical form', () => {
    expect(canonicalQuantity(0.5)).toBe('500m');
    expect(canonicalQuantity(2)).toBe('2');
    for (const bad of ['1.1.M', '0.1mi', '0.1am', 'aoeu', '.5i', '1i', '-3.01e-', ' 1', '1 ', '']) expect(canonicalQuantity(bad), bad).toBeUndefined();
  });
});

describe('the API server stores a container\'s resources in canonical form', () => {
  it('on create: numbers and non-canonical text are written as Quantity.String() writes them', () => {
    const e = engineWith();
    create(e, podManifest('q', {
      image: 'registry.k8s.io/pause:3.10',
      resources: { requests: { cpu: 0.5, memory: '1.5Gi', 'ephemeral-storage': '1e3' }, limits: { cpu: '1000m', memory: '2Gi', 'ephemeral-storage': '2000' } },
    }));
    expect(pod(e, 'q')!.spec.containers[0].resources).toEqual({
      requests: { cpu: '500m', memory: '1536Mi', 'ephemeral-storage': '1e3' },
      limits: { cpu: '1', memory: '2Gi', 'ephemeral-storage': '2k' },
    });
  });
  it('on a resize: the patched resources too', () => {
    const e = engineWith();
    const guaranteed = { requests: { cpu: '500m', memory: '128Mi' }, limits: { cpu: '500m', memory: '128Mi' } };
    create(e, podManifest('web', { image: 'registry.k8s.io/pause:3.10', resources: guaranteed }));
    e.advanceTo(10_000);
    const r = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'strategic', subresource: 'resize', patch: { spec: { containers: [{ name: 'web', resources: { requests: { cpu: 0.8 }, limits: { cpu: '0.8' } } }] } } });
    expect(r.ok).toBe(true);
    expect(pod(e, 'web')!.spec.containers[0].resources).toEqual({ requests: { cpu: '800m', memory: '128Mi' }, limits: { cpu: '800m', memory: '128Mi' } });
  });
  it('a replay that sent such a quantity asks the page for the decoding module, which writes it so', () => {
    const yaml = (cpu: string) => `title: q\ntimeline:\n  - at: 0s\n    run: kubectl run q --image=nginx\n  - at: 1s\n    apply: |\n      apiVersion: v1\n      kind: Pod\n      metadata: {name: r}\n      spec:\n        containers:\n        - {name: r, image: nginx, resources: {requests: {cpu: ${cpu}}}}\n`;
    expect(recordReplay(parseScenario(yaml('"0.5"'), 'q.yaml'), 1).validate).toBe(true);
    expect(recordReplay(parseScenario(yaml('500m'), 'q.yaml'), 1).validate).toBeUndefined();
  });
});
