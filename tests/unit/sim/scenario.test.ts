// Scenario files: the issue 3 contract, and errors that name file, line and column.
import { describe, expect, it } from 'vitest';
import { parseScenario, ScenarioError, scenarioTitle, scenarioToEngineConfig, TITLE_LANGUAGES } from '../../../src/sim/scenario.ts';
import { languages } from '../../../src/site.ts';
import { parseDuration, formatDuration } from '../../../src/sim/core/duration.ts';
import { formatGoDuration } from '../../../src/sim/render/duration.ts';
import { createEngine } from '../../../src/sim/engine.ts';

const OK = `title: CrashLoopBackOff
seed: 1
cluster:
  nodes:
    - name: worker01
      ip: 192.168.114.148
      podCIDR: 10.244.5.0/24
      capacity: {cpu: "4", memory: 8Gi, pods: 110}
      images: [m.daocloud.io/docker.io/library/nginx:alpine]
  images:
    m.daocloud.io/docker.io/busybox: {pull: 2.5s, size: 2.2MB}
    registry.invalid/app:v1: {error: "not found"}
timeline:
  - at: 0s
    run: kubectl run crash-test --image=m.daocloud.io/docker.io/busybox --restart=Always --command -- sh -c "exit 1"
  - at: 30s
    apply: |
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
      spec:
        containers:
        - name: web
          image: nginx:1.29
  - at: 8m23s
    run: kubectl get pod crash-test
`;

function error(text: string): ScenarioError {
  try {
    parseScenario(text, 'content/scenarios/x.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e;
    throw e;
  }
  throw new Error('expected a ScenarioError');
}

describe('parseScenario', () => {
  it('reads the contract example', () => {
    const s = parseScenario(OK, 'crash.yaml');
    expect(s.title).toBe('CrashLoopBackOff');
    expect(s.seed).toBe(1);
    expect(s.cluster.nodes[0]).toEqual({
      name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', capacity: { cpu: '4', memory: '8Gi', pods: 110 },
      images: ['m.daocloud.io/docker.io/library/nginx:alpine'],
    });
    expect(s.cluster.images).toEqual({ 'm.daocloud.io/docker.io/busybox': { pull: 2500, size: 2_200_000 }, 'registry.invalid/app:v1': { error: 'not found' } });
    expect(s.timeline.map((t) => [t.at, t.line, t.run ?? 'apply'])).toEqual([
      [0, 14, 'kubectl run crash-test --image=m.daocloud.io/docker.io/busybox --restart=Always --command -- sh -c "exit 1"'],
      [30_000, 16, 'apply'],
      [503_000, 26, 'kubectl get pod crash-test'],
    ]);
    expect(s.timeline[1].apply).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'web', image: 'nginx:1.29' }] } });
    expect(s.timeline[1].namespace).toBe('default');
    // and it runs
    const e = createEngine(scenarioToEngineConfig(s), { seed: s.seed });
    expect(e.state().nodes.map((n) => n.metadata.name)).toEqual(['worker01']);
  });

  const cases: [string, string, number, number, RegExp][] = [
    ['a YAML syntax error', 'title: x\ntimeline:\n  - at: 0s\n   run: foo\n', 4, 1, /^invalid YAML: /],
    ['an unknown field', 'title: x\ntimelines: []\n', 2, 1, /unknown field "timelines" in the scenario/],
    ['a missing title', 'timeline: []\n', 1, 1, /missing the required field "title"/],
    ['a wrong type', 'title: [a]\ntimeline: []\n', 1, 8, /title must be a string/],
    ['a duration without a unit', 'title: x\ntimeline:\n  - at: 30\n    run: kubectl get pods\n', 3, 9, /timeline\[0\]\.at: 30 has no unit/],
    ['a bad duration', 'title: x\ntimeline:\n  - at: 1x\n    run: kubectl get pods\n', 3, 9, /invalid duration "1x"/],
    ['entries out of time order', 'title: x\ntimeline:\n  - at: 1m\n    run: a\n  - at: 30s\n    run: b\n', 5, 9, /30s comes before the previous entry's 1m/],
    ['both run and apply', 'title: x\ntimeline:\n  - at: 1s\n    run: a\n    apply: b\n', 3, 5, /exactly one of "run"/],
    ['a bad quantity', 'title: x\ncluster:\n  nodes:\n    - name: w\n      ip: 10.0.0.1\n      podCIDR: 10.1.0.0/24\n      capacity: {cpu: lots}\ntimeline: []\n', 7, 23, /capacity\.cpu: "lots" is not a valid quantity/],
    ['a bad image reference', 'title: x\ncluster:\n  images:\n    Nginx:Latest: {pull: 1s}\ntimeline: []\n', 4, 5, /not a valid image reference: repository name must be lowercase/],
    ['a bad image size', 'title: x\ncluster:\n  images:\n    nginx: {size: big}\ntimeline: []\n', 4, 19, /size: "big" is not a size/],
    ['a bad pod CIDR', 'title: x\ncluster:\n  nodes:\n    - {name: w, ip: 10.0.0.1, podCIDR: 10.1.0.0}\ntimeline: []\n', 4, 40, /podCIDR "10.1.0.0" is not an IPv4 CIDR/],
    ['an unknown field in a manifest, pointed at its line', 'title: x\ntimeline:\n  - at: 0s\n    apply: |\n      apiVersion: v1\n      kind: Pod\n      metadata: {name: w}\n      spec:\n        containers:\n        - name: w\n          imagee: nginx\n', 11, 11, /strict decoding error: unknown field "spec.containers\[0\].imagee"/],
    ['an invalid manifest (API validation)', 'title: x\ntimeline:\n  - at: 0s\n    apply: |\n      apiVersion: v1\n      kind: Pod\n      metadata: {name: w}\n      spec:\n        restartPolicy: Sometimes\n        containers:\n        - name: w\n          image: nginx\n', 9, 9, /Pod "w" is invalid: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"/],
    ['titles that are not a mapping', 'title: x\ntitles: 容器\ntimeline: []\n', 2, 9, /titles must be a mapping of language to title/],
    ['a title in a language the book does not have', 'title: x\ntitles:\n  zh: 容器\n  fr: Conteneur\ntimeline: []\n', 4, 3, /titles: unknown language "fr"/],
    ['a title that is not a string', 'title: x\ntitles: {zh: [a]}\ntimeline: []\n', 2, 14, /titles\.zh must be a string/],
    ['an empty title in a language', 'title: x\ntitles: {zh: " "}\ntimeline: []\n', 2, 14, /titles\.zh must not be empty/],
    ['a manifest that is not valid YAML', 'title: x\ntimeline:\n  - at: 0s\n    apply: |\n      apiVersion: v1\n      kind: [Pod\n', 7, 7, /the manifest is not valid YAML/],
  ];
  for (const [name, text, line, column, message] of cases) {
    it(`reports ${name} at ${line}:${column}`, () => {
      const e = error(text);
      expect(e.file).toBe('content/scenarios/x.yaml');
      expect(e.message).toMatch(message);
      expect([e.line, e.column]).toEqual([line, column]);
    });
  }
  it('gives a hint with the expected form', () => {
    expect(error('title: x\ntimeline:\n  - at: 1x\n    run: a\n').hint).toBe('write a Go/kubectl duration such as 500ms, 10s, 8m23s, 1h or 1m30s');
    expect(error('title: x\ntimelines: []\n').hint).toBe('expected one of: title, titles, seed, description, start, timings, cluster, timeline');
    expect(error('title: x\ntitles: {de: Titel}\ntimeline: []\n').hint).toBe('write e.g. titles: {zh: "容器反复崩溃"}, with one of the book\'s languages (zh, en) per title');
  });

  it('reads a title per language; a page shows it, and falls back to title in a language without one', () => {
    const s = parseScenario('title: CrashLoopBackOff\ntitles:\n  zh: 容器反复崩溃\ntimeline: []\n', 'x.yaml');
    expect(s.title).toBe('CrashLoopBackOff');
    expect(s.titles).toEqual({ zh: '容器反复崩溃' });
    expect(scenarioTitle(s, 'zh')).toBe('容器反复崩溃');
    expect(scenarioTitle(s, 'en')).toBe('CrashLoopBackOff');
    const plain = parseScenario('title: CrashLoopBackOff\ntimeline: []\n', 'x.yaml');
    expect(plain.titles).toBeUndefined();
    expect(scenarioTitle(plain, 'zh')).toBe('CrashLoopBackOff');
  });

  it('takes titles in exactly the book\'s languages', () => {
    expect([...TITLE_LANGUAGES].sort()).toEqual([...languages].sort());
  });
});

describe('durations', () => {
  it('parses Go/kubectl durations into milliseconds', () => {
    expect(['500ms', '10s', '8m23s', '1h', '1m30s', '2.5s', '0', '1h0m0s', '1.5h'].map(parseDuration)).toEqual([500, 10_000, 503_000, 3_600_000, 90_000, 2500, 0, 3_600_000, 5_400_000]);
    expect(() => parseDuration('10')).toThrow('missing unit');
    expect(() => parseDuration('-1s')).toThrow('negative');
    expect(() => parseDuration('1.0001ms')).toThrow('whole number of milliseconds');
  });
  it("formats as Go's time.Duration.String()", () => {
    expect([0, 612, 1523, 2500, 40_000, 80_000, 160_000, 300_000, 3_600_000, 3_723_500].map(formatGoDuration)).toEqual(['0s', '612ms', '1.523s', '2.5s', '40s', '1m20s', '2m40s', '5m0s', '1h0m0s', '1h2m3.5s']);
    // the whole milliseconds of a measured duration, as the kubelet's lines have always shown them
    expect([1234.567, -1500.7, 0.4, 59_999.9].map(formatGoDuration)).toEqual(['1.234s', '-1.5s', '0s', '59.999s']);
    expect([503_000, 500, 90_000, 2500, 3_600_000].map(formatDuration)).toEqual(['8m23s', '500ms', '1m30s', '2.5s', '1h']);
  });
});

describe('cluster.nodes[].kubeletVerbosity (the kubelet\'s --v)', () => {
  const withV = (v: string) => OK.replace('      podCIDR: 10.244.5.0/24\n', `      podCIDR: 10.244.5.0/24\n      kubeletVerbosity: ${v}\n`);
  it('is read into the node config and reaches the node runtime the journal reads', () => {
    const s = parseScenario(withV('2'), 'x.yaml');
    expect(s.cluster.nodes[0].kubeletVerbosity).toBe(2);
    const e = createEngine(scenarioToEngineConfig(s), { seed: 1 });
    expect(e.state().runtimes[0].kubeletVerbosity).toBe(2);
    // not set: the runtime says nothing (journalctl then uses klog's default, 0)
    expect(createEngine(scenarioToEngineConfig(parseScenario(OK, 'x.yaml'))).state().runtimes[0].kubeletVerbosity).toBeUndefined();
  });
  it.each(['-1', '11', '2.5', '"2"', 'high'])('rejects %s with the file, line and column', (v) => {
    const err = error(withV(v));
    expect(err.message).toBe('cluster.nodes[0].kubeletVerbosity must be a whole number from 0 to 10 (the kubelet\'s --v)');
    expect([err.file, err.line, err.column]).toEqual(['content/scenarios/x.yaml', 8, 25]);
  });
});
