// `crictl ps -o json|yaml` and `crictl pods -o json|yaml` on a running engine: the CRI list responses as
// crictl marshals them. cri-tools v1.36.0 cmd/crictl/util.go protobufObjectToJSON:
//   protojson.MarshalOptions{EmitDefaultValues: true, Indent: "  "}.Marshal(msg)
// and outputProtobufObjAsYAML: yaml.JSONToYAML of that JSON. Every expected value below is read from the
// engine's own state (the runtime's sandboxes and containers, the kubelet's trace), not from the output.
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { execute } from '../../../src/sim/commands/execute.ts';
import type { ClusterState, CriContainer, CriSandbox } from '../../../src/sim/types.ts';
import { rfc3339NanoLocal, stampNanos } from '../../../src/sim/render/localtime.ts';
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
// the runtime's clock has nanoseconds: the model's milliseconds and each stamp's own digits below them
const nanos = (state: ClusterState, t: number, stamp: string) => (BigInt(Math.floor(state.epoch + t)) * 1_000_000n + BigInt(stampNanos(stamp))).toString();
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
    createdAt: nanos(state, c.createdAt, `${c.id}/created`),
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
    return rfc3339NanoLocal(state.epoch + added!.t, OFFSET, stampNanos(`${s.podUid}/seen`));
  };

  it('is ListPodSandboxResponse (items): metadata with uid, the pod\'s annotations plus the kubelet\'s config.seen and config.source', () => {
    const out = JSON.parse(sh(state, 'crictl pods -o json').stdout);
    expect(Object.keys(out)).toEqual(['items']);
    const pods = new Map(state.pods.map((p) => [p.metadata.uid, p]));
    expect(out.items).toEqual(newestFirst(rt.sandboxes).map((s) => ({
      id: s.id,
      metadata: { name: s.name, uid: s.podUid, namespace: s.namespace, attempt: s.attempt },
      state: s.state,
      createdAt: nanos(state, s.createdAt, `${s.id}/created`),
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
      stderr: 'FATA[0000] get the status of containers: get container status: rpc error: code = NotFound desc = an error occurred when try to find container "nope": not found\n',
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

// cri-tools v1.36.0 cmd/crictl/container.go and sandbox.go: with -v, `ps` and `pods` print one block per item in
// place of the table (after -o json|yaml and -q are ruled out), each line a fmt.Printf of one field, maps with
// their keys sorted and a tab before each `key -> value`, and a blank line after each block.
describe('crictl ps -v and crictl pods -v', () => {
  const { e, state } = crashLoop();
  const rt = state.runtimes[0];
  const blocks = (text: string) => {
    expect(text.endsWith('\n\n')).toBe(true);
    return text.slice(0, -2).split('\n\n');
  };
  const mapLines = (title: string, m: Record<string, string>) => [`${title}:`, ...Object.keys(m).sort().map((k) => `\t${k} -> ${m[k]}`)];
  const STATE = { CONTAINER_CREATED: 'Created', CONTAINER_RUNNING: 'Running', CONTAINER_EXITED: 'Exited', CONTAINER_UNKNOWN: 'Unknown' };

  it('ps -a -v: every container, newest first, its fields from the runtime state and Created as in the table', () => {
    const list = newestFirst(rt.containers);
    // the table's CREATED column, row by row (two or more spaces separate the columns)
    const ago = sh(state, 'crictl ps -a').stdout.trimEnd().split('\n').slice(1).map((row) => row.split(/ {2,}/)[2]);
    const got = blocks(sh(state, 'crictl ps -a -v').stdout);
    expect(got).toHaveLength(list.length);
    got.forEach((block, i) => {
      const c = list[i];
      expect(block).toBe([
        `ID: ${c.id}`, `PodID: ${c.sandboxId}`, `Namespace: ${c.labels['io.kubernetes.pod.namespace']}`, `Name: ${c.name}`,
        `Attempt: ${c.attempt}`, `State: ${STATE[c.state]}`, `Image: ${c.imageId}`, `Created: ${ago[i]}`,
        ...mapLines('Labels', c.labels), ...mapLines('Annotations', c.annotations),
      ].join('\n'));
    });
    expect(new Set(got.map((b) => b.split('\n')[5]))).toEqual(new Set(['State: Running', 'State: Exited']));
  });

  it('pods -v: UID, Status, Created as Go prints a time.Time in the node\'s zone, the sandbox annotations of -o json, Runtime', () => {
    const json = JSON.parse(sh(state, 'crictl pods -o json').stdout).items as { id: string; annotations: Record<string, string> }[];
    const goTime = (wall: number, offset: number, zone: string, extraNanos: number) => {
      const iso = new Date(wall + offset * 60_000).toISOString(); // 2026-08-04T11:32:37.025Z
      const frac = `${iso.slice(20, 23)}${String(extraNanos).padStart(6, '0')}`.replace(/0+$/, '');
      const sign = offset < 0 ? '-' : '+';
      const hhmm = `${String(Math.trunc(Math.abs(offset) / 60)).padStart(2, '0')}${String(Math.abs(offset) % 60).padStart(2, '0')}`;
      return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''} ${sign}${hhmm} ${zone}`;
    };
    const list = newestFirst(rt.sandboxes);
    const got = blocks(sh(state, 'crictl pods -v').stdout);
    expect(got).toHaveLength(list.length);
    got.forEach((block, i) => {
      const s = list[i];
      expect(s.attempt).toBe(0);
      // (a value with a newline, as the pod's zeta/note annotation, is printed as it is)
      expect(block).toBe([
        `ID: ${s.id}`, `Name: ${s.name}`, `UID: ${s.podUid}`, `Namespace: ${s.namespace}`, 'Status: Ready',
        `Created: ${goTime(state.epoch + s.createdAt, OFFSET, 'CST', stampNanos(`${s.id}/created`))}`,
        ...mapLines('Labels', s.labels), ...mapLines('Annotations', json.find((j) => j.id === s.id)!.annotations), 'Runtime: (default)',
      ].join('\n'));
    });
    // a node in UTC prints Go's "+0000 UTC"
    const utc = execute('crictl pods -v', { state, utcOffsetMinutes: 0 }).stdout;
    expect(utc).toContain(`\nCreated: ${goTime(state.epoch + list[0].createdAt, 0, 'UTC', stampNanos(`${list[0].id}/created`))}\n`);
  });

  it('a stamp has the same nanoseconds in every printer (-o json, -v, inspectp), and each stamp its own', () => {
    const json = JSON.parse(sh(state, 'crictl pods -o json').stdout).items as { id: string; createdAt: string }[];
    const verbose = blocks(sh(state, 'crictl pods -v').stdout);
    for (const item of json) {
      const sub = item.createdAt.slice(-9); // the nanoseconds within the second
      const inspected = JSON.parse(sh(state, `crictl inspectp ${item.id}`).stdout).status.createdAt as string;
      expect(inspected).toContain(`.${sub.replace(/0+$/, '')}+08:00`);
      expect(verbose.find((b) => b.startsWith(`ID: ${item.id}`))).toContain(`.${sub.replace(/0+$/, '')} +0800 CST`);
    }
    // the digits below the millisecond differ from stamp to stamp, as a real clock's do
    expect(new Set(json.map((i) => i.createdAt.slice(-6))).size).toBe(json.length);
  });

  it('pods -v prints Attempt only when it is not 0: a sandbox the kubelet made again after crictl stopp', () => {
    const e2 = engineWith({}, 3);
    create(e2, podManifest('again', { image: 'busybox:1.36', command: ['sleep', '3600'] }));
    e2.advanceTo(20_000);
    const first = e2.state().runtimes[0].sandboxes[0];
    const r = e2.apply({ type: 'stopPodSandbox', node: e2.state().runtimes[0].node, id: first.id });
    expect(r.ok).toBe(true);
    e2.advanceTo(60_000);
    const st = e2.state();
    const remade = st.runtimes[0].sandboxes.find((s) => s.id !== first.id)!;
    expect(remade.attempt).toBe(1);
    const text = execute(`crictl pods -v --id ${remade.id.slice(0, 13)}`, { state: st, utcOffsetMinutes: OFFSET }).stdout;
    expect(text).toContain(`\nNamespace: default\nAttempt: 1\nStatus: Ready\n`);
    expect(execute(`crictl pods -v --id ${first.id}`, { state: st, utcOffsetMinutes: OFFSET }).stdout).toContain('\nNamespace: default\nStatus: NotReady\n');
  });

  it('-q wins over -v (IDs only), -o json|yaml win over both, and --verbose is -v', () => {
    expect(sh(state, 'crictl ps -a -q -v')).toEqual(sh(state, 'crictl ps -a -q'));
    expect(sh(state, 'crictl pods -qv')).toEqual(sh(state, 'crictl pods -q'));
    expect(sh(state, 'crictl ps -a -v -o json')).toEqual(sh(state, 'crictl ps -a -o json'));
    expect(sh(state, 'crictl pods -v -o yaml')).toEqual(sh(state, 'crictl pods -o yaml'));
    expect(sh(state, 'crictl ps -a --verbose')).toEqual(sh(state, 'crictl ps -a -v'));
    // a filter that matches nothing prints nothing at all (no header, no blank line)
    expect(sh(state, 'crictl ps -v --label app=nothing')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    // images has no verbose view in the model (its uid and username would have to be invented)
    expect(sh(state, 'crictl images -v').exitCode).toBe(1);
    void e;
  });
});
