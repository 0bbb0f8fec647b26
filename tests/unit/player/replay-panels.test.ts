// The player's fast path must show what the command layer shows: a replay recorded at build time
// reproduces the runner's run exactly, and the panels print what `kubectl get pods -o wide`,
// `kubectl get events` and `crictl ps` print — for every shipped scenario, at every event time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordReplay } from '../../../src/sim/record.ts';
import { ReplaySource, readReplay, type Replay } from '../../../components/player/replay.ts';
import type { Engine } from '../../../src/sim/types.ts';
import { PANEL_COMMANDS, type PanelName, panelText } from '../../../components/player/panel-text.ts';
import { eventTimes } from '../../../components/player/timeline.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { parseScenario } from '../../../src/sim/scenario.ts';
import { runScenario, runnable } from '../../../src/sim/run.ts';

const dir = 'content/scenarios';
const names = readdirSync(dir).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort();

describe.each(names)('scenario %s', (name) => {
  const file = join(dir, `${name}.yaml`);
  const scenario = parseScenario(readFileSync(file, 'utf8'), file);
  const seed = scenario.seed ?? 1;
  const run = runScenario(runnable(scenario), { seed });

  it('replays, from JSON, to the same trace and the same states as the runner', async () => {
    const replay = readReplay(JSON.parse(JSON.stringify(recordReplay(scenario, seed))), `${name}.replay.json`);
    // a run that patches a pod fetches the patch functions; the others replay on the engine without them
    const source = await ReplaySource.load(replay);
    expect(JSON.stringify(source.trace)).toBe(JSON.stringify(run.trace));
    expect(source.end).toBe(run.engine.now);
    for (const t of [0, ...eventTimes(run.trace)].filter((_, i, a) => i % Math.ceil(a.length / 12) === 0)) {
      expect(JSON.stringify(source.stateAt(t))).toBe(JSON.stringify(run.engine.stateAt(t)));
    }
  });

  it('prints each panel exactly as the command layer does', () => {
    const times = new Set<number>([0, run.engine.now]);
    for (const t of eventTimes(run.trace)) {
      times.add(t);
      times.add(Math.min(run.engine.now, t + 1500));
    }
    for (const t of times) {
      const state = run.engine.stateAt(t);
      for (const name of Object.keys(PANEL_COMMANDS) as PanelName[]) {
        const r = execute(PANEL_COMMANDS[name], { state });
        expect(panelText(name, state), `${PANEL_COMMANDS[name]} at ${t} ms`).toBe(r.stdout + r.stderr);
      }
    }
  });
});

/** A replay's actions sent to an engine with none of the modules a replay may load (no patches, validation or environment). */
async function bareReplay(replay: Replay, until?: number): Promise<Engine> {
  const { createEngineCore } = await import('../../../src/sim/engine-core.ts');
  const bare = createEngineCore(replay.config, { seed: 1 });
  for (const { at, action } of replay.actions) {
    bare.advanceTo(at);
    bare.apply(action);
  }
  if (until !== undefined) bare.advanceTo(until);
  return bare;
}

describe('a replay leaves the API server\'s validation out unless the run needs it', () => {
  /** A run that creates pod web, then sends `patch` (a merge patch) at 5 s, and any `more` timeline lines. */
  function patchedWeb(name: string, patch: string, more: string[] = []) {
    const scenario = parseScenario(
      [
        'title: t', 'timeline:',
        '  - at: 0s', '    run: kubectl run web --image=nginx:alpine --restart=Never',
        '  - at: 5s', `    run: kubectl patch pod web --type=merge -p '${patch}'`,
        ...more,
      ].join('\n'),
      `${name}.yaml`,
    );
    return { scenario, run: runScenario(runnable(scenario), { seed: 1 }) };
  }

  /** The run's replay is marked to bring the validation in, and replays to the same state; the bare engine's replay. */
  async function markedReplay(name: string, { scenario, run }: ReturnType<typeof patchedWeb>): Promise<Engine> {
    const replay = recordReplay(scenario, 1);
    expect(replay.validate).toBe(true);
    const source = await ReplaySource.load(readReplay(JSON.parse(JSON.stringify(replay)), `${name}.replay.json`));
    expect(JSON.stringify(source.stateAt(run.engine.now))).toBe(JSON.stringify(run.engine.stateAt(run.engine.now)));
    return bareReplay(replay);
  }

  it('a run with a request rejected as invalid is marked, and replays with the validation to the same states', async () => {
    // a merge patch the API server rejects (pod updates may not change the container's name): no patch module, so
    // only the replay's own mark brings the validation in
    const rejected = patchedWeb('rejected', '{"spec":{"containers":[{"name":"web","image":"nginx:alpine","workingDir":"/tmp"}]}}', [
      '  - at: 10s', '    run: kubectl get pod web -o jsonpath={.spec.containers[0].workingDir}',
    ]);
    expect(rejected.run.steps[1].stderr).toMatch(/is invalid/);
    // without the validation, the rejected patch would have changed the pod: the mark is what keeps the replay exact
    const bare = await markedReplay('rejected', rejected);
    expect((bare.state().pods[0].spec.containers[0] as { workingDir?: string }).workingDir).toBe('/tmp');
  });
  it('a request the decoding rejected marks the run too: the decoding travels with the validation', async () => {
    const undecodable = patchedWeb('undecodable', '{"metadata":{"labels":{"a":"b"}},"spec":{"activeDeadlineSeconds":"soon"}}');
    expect(undecodable.run.steps[1].stderr).toMatch(/^Error from server \(BadRequest\): .*json: cannot unmarshal string into Go struct field PodSpec\.spec\.activeDeadlineSeconds/);
    // without it, the replay would have taken the patch: the label is what the rejected request tried to add
    const bare = await markedReplay('undecodable', undecodable);
    expect(bare.state().pods[0].metadata.labels).toMatchObject({ a: 'b' });
    expect(undecodable.run.engine.state().pods[0].metadata.labels).not.toHaveProperty('a');
  });
  it('a patch whose unknown fields the decoding dropped (with a warning) marks the run too', async () => {
    const typo = patchedWeb('typo', '{"metadata":{"labels":{"a":"b"}},"spec":{"bogus":1}}');
    expect(typo.run.steps[1]).toMatchObject({ stdout: 'pod/web patched\n', stderr: 'Warning: unknown field "spec.bogus"\n' });
    // without the decoding, the replay would have kept the unknown field
    const bare = await markedReplay('typo', typo);
    expect(bare.state().pods[0].spec).toHaveProperty('bogus', 1);
    expect(typo.run.engine.state().pods[0].spec).not.toHaveProperty('bogus');
    expect(typo.run.engine.state().pods[0].metadata.labels).toMatchObject({ a: 'b' });
  });
  /** A run of one pod `name` (its timeline lines) whose logs at 20 s are `logs`, replayed to the same states; the bare engine's replay. */
  async function replayed(name: string, timeline: string[], logs: string): Promise<Engine> {
    const scenario = parseScenario(['title: t', 'timeline:', ...timeline, '  - at: 20s', `    run: kubectl logs ${name}`].join('\n'), `${name}.yaml`);
    const run = runScenario(runnable(scenario), { seed: 1 });
    expect(run.steps.at(-1)!.stdout).toBe(logs);
    const replay = recordReplay(scenario, 1);
    const source = await ReplaySource.load(readReplay(JSON.parse(JSON.stringify(replay)), `${name}.replay.json`));
    expect(JSON.stringify(source.stateAt(run.engine.now))).toBe(JSON.stringify(run.engine.stateAt(run.engine.now)));
    return bareReplay(replay, run.engine.now);
  }
  const busybox = (name: string, command: string) => [
    '  - at: 0s', `    run: kubectl run ${name} --image=m.daocloud.io/docker.io/library/busybox:1.36 --restart=Never --command -- ${command}`,
  ];
  it('a run whose pods use a $ brings the containers\' environment, and replays to the same states and logs', async () => {
    const bare = await replayed('greet', [
      '  - at: 0s', '    apply: |', '      apiVersion: v1', '      kind: Pod', '      metadata: {name: greet}', '      spec:', '        restartPolicy: Never',
      '        containers:', '        - name: c', '          image: m.daocloud.io/docker.io/library/busybox:1.36', '          env: [{name: NAME, value: Kubernetes}]',
      '          command: [sh, -c, "echo hello $(NAME) from $HOSTNAME"]',
    ], 'hello Kubernetes from greet\n');
    // without it, the kubelet would not expand $(NAME), the shell would take it for a command, and HOSTNAME would be unset
    expect(bare.state().containerLogs.map((l) => l.text)).toEqual(['sh: NAME: not found', 'hello from']);
  });
  // what a bare engine (no module) logs instead says what was left out
  it.each([
    ['prints the environment (printenv, env): the environment comes though the run sends no $', 'printenv HOSTNAME', 'who\n', ['sh: printenv: not found']],
    ['redirects output: the shell\'s redirections', 'sh -c "echo out; echo err >&2; exit 3"', 'out\nerr\n', ['sh: podlife: this engine was made without the shell redirections (runtime/redirect.ts)']],
    ['reads /etc/: the files the kubelet writes for a pod', 'cat /etc/hostname', 'who\n', ["cat: can't open '/etc/hostname': No such file or directory"]],
    ['counts ($((...))): the arithmetic, with the environment', "sh -c 'i=0; while [ $i -lt 3 ]; do i=$((i+1)); done; echo $i'", '3\n', ['sh: podlife: this engine was made without the arithmetic expansion (kubelet/envvars.ts)']],
  ])('a run whose pod %s', async (_, command, logs, bareLogs) => {
    const bare = await replayed('who', busybox('who', command), logs);
    expect(bare.state().containerLogs.map((l) => l.text)).toEqual(bareLogs);
  });
  it('a run whose pods have a probe or a hook brings the kubelet\'s hooks and probes; the bare engine cannot run one', async () => {
    const hooked = [
      '  - at: 0s', '    apply: |', '      apiVersion: v1', '      kind: Pod', '      metadata: {name: hooked}', '      spec:', '        restartPolicy: Never',
      '        containers:', '        - name: c', '          image: m.daocloud.io/docker.io/library/busybox:1.36', '          command: [sh, -c, "sleep 5; cat /tmp/started"]',
      '          lifecycle: {postStart: {exec: {command: [touch, /tmp/started]}}}',
    ];
    await expect(replayed('hooked', hooked, '')).rejects.toThrow('podlife: this engine was made without the probes and hooks (kubelet/handlers.ts)');
  });
  it('a run that creates a ConfigMap brings their store: the pod waiting for it starts with its value', async () => {
    const timeline = [
      '  - at: 0s', '    apply: |', '      apiVersion: v1', '      kind: Pod', '      metadata: {name: cfg}', '      spec:', '        restartPolicy: Never',
      '        containers:', '        - name: c', '          image: m.daocloud.io/docker.io/library/busybox:1.36', '          command: [sh, -c, "echo mode=$MODE"]',
      '          env: [{name: MODE, valueFrom: {configMapKeyRef: {name: app-config, key: mode}}}]',
      '  - at: 5s', '    apply: |', '      apiVersion: v1', '      kind: ConfigMap', '      metadata: {name: app-config}', '      data: {mode: demo}',
    ];
    const bare = await replayed('cfg', timeline, 'mode=demo\n');
    // the bare engine (no module) refuses the ConfigMap, and its container starts without the variable
    expect(bare.state()).not.toHaveProperty('configMaps');
    expect(bare.state().containerLogs.map((l) => l.text)).toEqual(['mode=']);
    // with every module but the store, the container would wait for the ConfigMap for ever
    const { createEngineCore } = await import('../../../src/sim/engine-core.ts');
    const env = await import('../../../src/sim/kubelet/envvars.ts');
    const replay = recordReplay(parseScenario(['title: t', 'timeline:', ...timeline].join('\n'), 'cfg.yaml'), 1);
    const noStore = createEngineCore(replay.config, { seed: 1 }, { env });
    for (const { at, action } of replay.actions) {
      noStore.advanceTo(at);
      noStore.apply(action);
    }
    noStore.advanceTo(20_000);
    expect(noStore.state().pods[0].status.containerStatuses?.[0].state.waiting).toEqual({ reason: 'CreateContainerConfigError', message: 'configmap "app-config" not found' });
  });
  it('a run whose every request passed is not marked', () => {
    expect(recordReplay(parseScenario(readFileSync(join(dir, 'crash-loop.yaml'), 'utf8'), 'crash-loop.yaml'), 1).validate).toBeUndefined();
  });
});

describe('reading a replay', () => {
  it('refuses what is not one, naming the file', () => {
    expect(() => readReplay(null, 'x.replay.json')).toThrow('x.replay.json: not a simulation replay');
    expect(() => readReplay({ version: 0 }, 'x.replay.json')).toThrow('replay version 0, expected 1 (rebuild the site)');
    expect(() => readReplay({ version: 1, seed: 1 }, 'x.replay.json')).toThrow('needs seed, config, actions and end');
  });
});

// The modules a replay loads for what its run sent: the environment's (a ConfigMap the env names), the files' (a
// termination message), the decoding (a quantity written in canonical form, a default few pods need): without any of
// them, the page's replay would part from the runner's run.
describe('a replay loads what its pods need, and so matches the runner', () => {
  const pod = (name: string, container: string, spec = '') =>
    `  - at: 0s\n    apply: |\n      apiVersion: v1\n      kind: Pod\n      metadata: {name: ${name}}\n      spec:\n        restartPolicy: Never\n${spec}        containers:\n        - ${container}\n`;
  const cases: [string, string][] = [
    ['a ConfigMap the environment names', pod('cfg', '{name: c, image: busybox, command: [sleep, "60"], env: [{name: M, valueFrom: {configMapKeyRef: {name: app, key: m}}}]}')],
    ['a termination message', pod('msg', '{name: c, image: busybox, terminationMessagePolicy: FallbackToLogsOnError, command: [sh, -c, "echo oops; exit 2"]}')],
    ['a quantity and a default the decoding writes', pod('dec', '{name: c, image: busybox, command: [sleep, "60"], resources: {requests: {cpu: "0.5"}}}', '        volumes: [{name: h, hostPath: {path: /tmp}}]\n')],
    ['a ConfigMap a volume names', pod('vol', '{name: c, image: busybox, command: [sleep, "60"], volumeMounts: [{name: v, mountPath: /v}]}', '        volumes: [{name: v, configMap: {name: app}}]\n')],
    ['a command the image lacks', pod('typo', '{name: c, image: busybox, args: [/bin/bash]}')],
    // the files the kubelet writes into a volume, read by the container's command: a ConfigMap's, the service account's
    ['a container that reads its volume\'s files', `  - at: 0s\n    run: kubectl create configmap app --from-literal=k=v\n${pod('files', '{name: c, image: busybox, command: [cat, /config/k], volumeMounts: [{name: v, mountPath: /config}]}', '        volumes: [{name: v, configMap: {name: app}}]\n')}`],
    // a ConfigMap patched while a pod mounts it: a strategic merge patch, which the patch module applies
    ['a ConfigMap patched while a pod mounts it', `  - at: 0s\n    run: kubectl create configmap app --from-literal=k=v\n${pod('upd', '{name: c, image: busybox, command: [sleep, "600"], volumeMounts: [{name: v, mountPath: /config}]}', '        volumes: [{name: v, configMap: {name: app}}]\n')}  - at: 5s\n    run: kubectl patch configmap app -p '{"data":{"k":"w"}}'\n`],
    ['a container that reads the service account\'s namespace', pod('sa', '{name: c, image: busybox, command: [cat, /var/run/secrets/kubernetes.io/serviceaccount/namespace]}')],
    ['an active deadline', pod('deadline', '{name: c, image: busybox, command: [sleep, "60"]}', '        activeDeadlineSeconds: 5\n')],
    // refused by the RuntimeClass admission plugin, which comes with the validation: the replay is marked
    ['a pod the admission refuses', `  - at: 0s\n    run: kubectl run x --image=nginx --overrides='{"spec":{"runtimeClassName":"kata"}}'\n`],
  ];
  it.each(cases)('%s', async (_, timeline) => {
    const scenario = parseScenario(`title: t\ntimeline:\n${timeline}  - at: 30s\n    run: kubectl get pods\n`, 't.yaml');
    const run = runScenario(runnable(scenario), { seed: 1 });
    const source = await ReplaySource.load(readReplay(JSON.parse(JSON.stringify(recordReplay(scenario, 1))), 't.replay.json'));
    expect(JSON.stringify(source.trace)).toBe(JSON.stringify(run.trace));
    expect(JSON.stringify(source.stateAt(run.engine.now))).toBe(JSON.stringify(run.engine.stateAt(run.engine.now)));
  });
});
