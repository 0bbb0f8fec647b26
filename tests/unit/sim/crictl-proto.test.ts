// `crictl ps -o json|yaml` and `crictl pods -o json|yaml` on a running engine: the CRI list responses as
// crictl marshals them. cri-tools v1.36.0 cmd/crictl/util.go protobufObjectToJSON:
//   protojson.MarshalOptions{EmitDefaultValues: true, Indent: "  "}.Marshal(msg)
// and outputProtobufObjAsYAML: yaml.JSONToYAML of that JSON. Every expected value below is read from the
// engine's own state (the runtime's sandboxes and containers, the kubelet's trace), not from the output.
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { execute } from '../../../src/sim/commands/execute.ts';
import type { ClusterState, CriContainer, CriSandbox } from '../../../src/sim/types.ts';
import { rfc3339NanoLocal } from '../../../src/sim/render/clock.ts';
import { create, engineWith, podManifest } from './helpers.ts';

const OFFSET = 480; // the console's default zone, UTC+8

function crashLoop() {
  const e = engineWith({}, 7);
  create(e, podManifest('web', { image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }, {}, {
    labels: { app: 'web', tier: 'front' },
    annotations: { 'zeta/note': 'line1\nline2 "quoted" \\ <tag> & \u0001', 'alpha/x': 'y' },
  }));
  create(e, podManifest('other', { image: 'busybox:1.36', command: ['sleep', '3600'] }, {}, { labels: { app: 'other' } }));
  e.advanceTo(60_000);
  return { e, state: e.state() };
}

const sh = (state: ClusterState, line: string) => execute(line, { state, utcOffsetMinutes: OFFSET });
const nanos = (state: ClusterState, t: number) => (BigInt(Math.floor(state.epoch + t)) * 1_000_000n).toString();
const sorted = (m: Record<string, string>) => Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]]));
const newestFirst = <T extends { createdAt: number }>(list: T[]) => [...list].sort((a, b) => b.createdAt - a.createdAt);

function expectedContainer(state: ClusterState, c: CriContainer) {
  return {
    id: c.id,
    podSandboxId: c.sandboxId,
    metadata: { name: c.name, attempt: c.attempt },
    image: { image: c.imageId, annotations: {}, userSpecifiedImage: c.image, runtimeHandler: '', imageRef: '' },
    imageRef: c.imageId,
    state: c.state,
    createdAt: nanos(state, c.createdAt),
    labels: c.labels,
    annotations: c.annotations,
    imageId: '',
  };
}

describe('crictl ps -o json', () => {
  const { e, state } = crashLoop();
  const rt = state.runtimes[0];

  it('is ListContainersResponse: every container of `ps -a`, newest first, each from the runtime state', () => {
    const r = sh(state, 'crictl ps -a -o json');
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['containers']);
    expect(out.containers).toEqual(newestFirst(rt.containers).map((c) => expectedContainer(state, c)));
    // the crash loop left exited attempts beside the running sleeper: both states are spelled as the enum's names
    expect(new Set(out.containers.map((c: { state: string }) => c.state))).toEqual(new Set(rt.containers.map((c) => c.state)));
    expect(out.containers.some((c: { state: string }) => c.state === 'CONTAINER_EXITED')).toBe(true);
  });

  it('keeps the proto field order and protojson layout: 2-space indent, ": ", {} for an empty map, a final newline', () => {
    const text = sh(state, 'crictl ps -o json').stdout;
    const running = rt.containers.filter((c) => c.state === 'CONTAINER_RUNNING');
    expect(JSON.parse(text).containers.map((c: { id: string }) => c.id)).toEqual(newestFirst(running).map((c) => c.id));
    const first = JSON.parse(text).containers[0];
    expect(Object.keys(first)).toEqual(['id', 'podSandboxId', 'metadata', 'image', 'imageRef', 'state', 'createdAt', 'labels', 'annotations', 'imageId']);
    expect(Object.keys(first.image)).toEqual(['image', 'annotations', 'userSpecifiedImage', 'runtimeHandler', 'imageRef']);
    expect(text.startsWith('{\n  "containers": [\n    {\n      "id": "')).toBe(true);
    expect(text).toContain('\n        "annotations": {},\n');
    expect(text.endsWith('\n  ]\n}\n')).toBe(true);
    // int64 as a JSON string, uint32 as a number
    expect(text).toMatch(/\n {6}"createdAt": "\d{19}",\n/);
    expect(text).toMatch(/\n {8}"attempt": \d+\n/);
  });

  it('writes map entries sorted by key, without HTML escaping (protojson is not encoding/json)', () => {
    const text = sh(state, 'crictl ps -a -o json --name web').stdout;
    const labels = JSON.parse(text).containers[0].labels;
    expect(Object.keys(labels)).toEqual(Object.keys(labels).sort());
    const all = sh(state, 'crictl pods -o json --name web').stdout;
    expect(all).toContain('"tier": "front"');
    expect(all).toContain('"zeta/note": "line1\\nline2 \\"quoted\\" \\\\ <tag> & \\u0001"');
  });

  it('filters as the table does: --label key=value (all must match), --name, -n; bad --label and -o are crictl\'s errors', () => {
    const web = rt.containers.filter((c) => c.podName === 'web');
    const ids = (line: string) => JSON.parse(sh(state, line).stdout).containers.map((c: { id: string }) => c.id);
    expect(ids('crictl ps -a -o json --label io.kubernetes.pod.name=web')).toEqual(newestFirst(web).map((c) => c.id));
    expect(ids('crictl ps -a -o json --label io.kubernetes.pod.name=web --label io.kubernetes.container.name=nope')).toEqual([]);
    expect(ids('crictl ps -a -o json -n 1')).toEqual([newestFirst(rt.containers)[0].id]);
    expect(sh(state, 'crictl ps -a -o json --label nope').stderr).toBe('FATA[0000] incorrectly specified label: nope\n');
    expect(sh(state, 'crictl ps -o xml')).toEqual({ stdout: '', stderr: 'FATA[0000] listing containers: unsupported output format "xml"\n', exitCode: 1 });
    // -o table is crictl's default, and -q does not apply to json (crictl checks the format first)
    expect(sh(state, 'crictl ps -o table')).toEqual(sh(state, 'crictl ps'));
    expect(JSON.parse(sh(state, 'crictl ps -q -o json').stdout).containers).toHaveLength(rt.containers.filter((c) => c.state === 'CONTAINER_RUNNING').length);
    expect(sh(state, 'crictl ps -o json --label app=nothing').stdout).toBe('{\n  "containers": []\n}\n');
  });

  it('-o yaml is the same message through JSONToYAML: keys sorted, int64 quoted, a blank line at the end', () => {
    const json = JSON.parse(sh(state, 'crictl ps -a -o json').stdout);
    const text = sh(state, 'crictl ps -a -o yaml').stdout;
    expect(parseYaml(text)).toEqual(json);
    expect(text.startsWith('containers:\n- annotations:\n')).toBe(true);
    expect(text).toMatch(/\n {2}createdAt: "\d{19}"\n/);
    expect(text.endsWith('\n\n')).toBe(true);
    void e;
  });
});

describe('crictl pods -o json', () => {
  const { e, state } = crashLoop();
  const rt = state.runtimes[0];
  const seen = (s: CriSandbox) => {
    const added = e.trace.find((ev) => ev.kind === 'PodAdded' && ev.object === `pod/${s.namespace}/${s.name}`);
    return rfc3339NanoLocal(state.epoch + added!.t, OFFSET);
  };

  it('is ListPodSandboxResponse (items): metadata with uid, the pod\'s annotations plus the kubelet\'s config.seen and config.source', () => {
    const out = JSON.parse(sh(state, 'crictl pods -o json').stdout);
    expect(Object.keys(out)).toEqual(['items']);
    const pods = new Map(state.pods.map((p) => [p.metadata.uid, p]));
    expect(out.items).toEqual(newestFirst(rt.sandboxes).map((s) => ({
      id: s.id,
      metadata: { name: s.name, uid: s.podUid, namespace: s.namespace, attempt: s.attempt },
      state: s.state,
      createdAt: nanos(state, s.createdAt),
      labels: s.labels,
      annotations: sorted({ ...pods.get(s.podUid)!.metadata.annotations, 'kubernetes.io/config.seen': seen(s), 'kubernetes.io/config.source': 'api' }),
      runtimeHandler: '',
    })));
    expect(out.items.map((i: { state: string }) => i.state)).toEqual(rt.sandboxes.map(() => 'SANDBOX_READY'));
    // the same annotations in crictl inspectp's status
    const web = rt.sandboxes.find((s) => s.name === 'web')!;
    expect(JSON.parse(sh(state, `crictl inspectp ${web.id.slice(0, 13)}`).stdout).status.annotations).toEqual(out.items.find((i: { id: string }) => i.id === web.id).annotations);
  });

  it('-o yaml, --label, and the errors', () => {
    const json = JSON.parse(sh(state, 'crictl pods -o json').stdout);
    expect(parseYaml(sh(state, 'crictl pods -o yaml').stdout)).toEqual(json);
    expect(sh(state, 'crictl pods -o yaml').stdout.startsWith('items:\n- annotations:\n')).toBe(true);
    const ids = JSON.parse(sh(state, 'crictl pods -o json --label app=other').stdout).items.map((i: { id: string }) => i.id);
    expect(ids).toEqual(rt.sandboxes.filter((s) => s.labels.app === 'other').map((s) => s.id));
    expect(sh(state, 'crictl pods -o wide').stderr).toBe('FATA[0000] listing pod sandboxes: unsupported output format "wide"\n');
    expect(sh(state, 'crictl pods -v').stderr).toBe('podlife: crictl pods -v is not supported (the table, -q and -o json|yaml are)\n');
  });
});

// cri-tools v1.36.0 cmd/crictl/util.go outputStatusData: "Old behavior: single entries are not encapsulated within
// an array" — so several IDs print one JSON array, and the statuses are all read before anything is printed.
describe('crictl inspect / inspectp with several IDs, -q and -o yaml', () => {
  const { state } = crashLoop();
  const rt = state.runtimes[0];
  const one = (line: string) => JSON.parse(sh(state, line).stdout);

  it('one ID prints an object; several print an array of the same objects, in the order asked', () => {
    const [a, b] = rt.containers;
    const both = one(`crictl inspect ${b.id} ${a.id.slice(0, 12)}`);
    expect(both).toEqual([one(`crictl inspect ${b.id}`), one(`crictl inspect ${a.id}`)]);
    expect(both.map((x: { status: { id: string } }) => x.status.id)).toEqual([b.id, a.id]);
    const sandboxes = one(`crictl inspectp ${rt.sandboxes.map((s) => s.id).join(' ')}`);
    expect(sandboxes.map((x: { status: { id: string } }) => x.status.id)).toEqual(rt.sandboxes.map((s) => s.id));
  });

  it('an ID that is not found prints only the error, not the statuses read before it', () => {
    expect(sh(state, `crictl inspect ${rt.containers[0].id} nope`)).toEqual({
      stdout: '', exitCode: 1,
      stderr: 'FATA[0000] get container status: rpc error: code = NotFound desc = an error occurred when try to find container "nope": not found\n',
    });
    expect(sh(state, `crictl inspectp ${rt.sandboxes[0].id} nope`).stdout).toBe('');
  });

  it('-q asks the runtime for the status without its verbose info; -o yaml is the same data', () => {
    const id = rt.containers[0].id;
    expect(one(`crictl inspect -q ${id}`)).toEqual({ status: one(`crictl inspect ${id}`).status });
    expect(parseYaml(sh(state, `crictl inspect -o yaml ${id}`).stdout)).toEqual(one(`crictl inspect ${id}`));
    expect(sh(state, `crictl inspectp -o yaml ${rt.sandboxes[0].id}`).stdout.startsWith('info:\n  image: registry.k8s.io/pause:3.10\n')).toBe(true);
  });
});
