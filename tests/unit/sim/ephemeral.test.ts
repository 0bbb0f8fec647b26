// Ephemeral containers end to end: the API server's rules (no ephemeral containers on create, the
// pods/ephemeralcontainers subresource that only adds, the field allow-list, unique names, the target), the
// kubelet's status for them (never restarted, not in READY, killed with the pod), and `kubectl debug`.
// upstream: pkg/apis/core/validation/validation.go (ValidatePodCreate, validateEphemeralContainers,
// ValidatePodEphemeralContainersUpdate); validation_test.go TestValidatePodEphemeralContainersUpdate;
// pkg/registry/core/pod/strategy.go (podEphemeralContainersStrategy); pkg/kubelet/kubelet_pods.go
// (convertStatusToAPIStatus); k8s.io/kubectl pkg/cmd/debug/debug.go v0.36.2

import { describe, expect, it } from 'vitest';
import type { ApiStatus, ClusterAction, Engine } from '../../../src/sim/types.ts';
import { validatePodEphemeralContainersUpdate } from '../../../src/sim/api/validation.ts';
import { errorString } from '../../../src/sim/api/fielderrors.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { create, engineWith, pod, podManifest } from './helpers.ts';

type Raw = Record<string, any>;

/** An EphemeralContainer as the test table writes them (defaulted fields set). */
const ec = (name: string, image = 'busybox'): Raw => ({ name, image, imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', terminationMessagePath: '/dev/termination-log', resources: {} });

/** validation_test.go makePod: one regular container, restartPolicy OnFailure, the given ephemeral containers. */
function makePod(ephemeral: Raw[] | undefined): Raw {
  return {
    metadata: { name: 'pod', namespace: 'ns', resourceVersion: '1' },
    spec: {
      containers: [{ name: 'ctr', image: 'image', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', resources: {} }],
      restartPolicy: 'OnFailure', dnsPolicy: 'ClusterFirst', preemptionPolicy: 'PreemptLowerPriority',
      ...(ephemeral ? { ephemeralContainers: ephemeral } : {}),
    },
  };
}

describe('ValidatePodEphemeralContainersUpdate (TestValidatePodEphemeralContainersUpdate)', () => {
  // [name, new, old, substring of the aggregated error ('' = valid)]
  const cases: [string, Raw[], Raw[], string][] = [
    ['no ephemeral containers', [], [], ''],
    ['No change in Ephemeral Containers', [ec('debugger'), ec('debugger2')], [ec('debugger'), ec('debugger2')], ''],
    ['Ephemeral Container list order changes', [ec('debugger'), ec('debugger2')], [ec('debugger2'), ec('debugger')], ''],
    ['Add an Ephemeral Container', [ec('debugger')], [], ''],
    ['Add two Ephemeral Containers', [ec('debugger1'), ec('debugger2')], [], ''],
    ['Add to an existing Ephemeral Containers', [ec('debugger'), ec('debugger2')], [ec('debugger')], ''],
    ['Add to an existing Ephemeral Containers, list order changes', [ec('debugger3'), ec('debugger2'), ec('debugger')], [ec('debugger'), ec('debugger2')], ''],
    ['Remove an Ephemeral Container', [], [ec('debugger')], 'may not be removed'],
    ['Replace an Ephemeral Container', [ec('firstone')], [ec('thentheother')], 'may not be removed'],
    ['Change an Ephemeral Containers', [ec('debugger1'), ec('debugger2')], [ec('debugger1', 'debian'), ec('debugger2')], 'may not be changed'],
  ];
  it.each(cases)('%s', (_name, next, old, err) => {
    const errs = validatePodEphemeralContainersUpdate(makePod(next), makePod(old));
    const text = errs.map(errorString).join(', ');
    if (err === '') expect(text).toBe('');
    else expect(text).toContain(err);
  });
  it('names the container in the message, with the trailing newline upstream has', () => {
    const [e] = validatePodEphemeralContainersUpdate(makePod([]), makePod([ec('debugger')]));
    expect(errorString(e)).toBe('spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be removed\n');
  });
});

/** A running nginx pod (restartPolicy Always) on a fresh engine, at 20 s. */
function runningNginx(): Engine {
  const e = engineWith({ images: { nginx: { pull: 2000 }, busybox: { pull: 1000, size: 2_200_000 } } });
  create(e, podManifest('nginx', { image: 'nginx' }));
  e.advanceTo(20_000);
  return e;
}

const addEphemeral = (e: Engine, containers: Raw[], patchType: 'strategic' | 'merge' = 'strategic') =>
  e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'nginx', patchType, subresource: 'ephemeralcontainers', patch: { spec: { ephemeralContainers: containers } } });

function rejected(r: ReturnType<Engine['apply']>): ApiStatus {
  if (r.ok) throw new Error('expected the API server to refuse');
  return r.status;
}

describe('API server: ephemeral containers', () => {
  it('refuses them on create with the real message, after validating them like any container', () => {
    const e = engineWith();
    const s = rejected(e.apply({ type: 'create', namespace: 'default', obj: podManifest('p', { image: 'nginx' }, { ephemeralContainers: [{ name: 'dbg', image: 'busybox', ports: [{ containerPort: 80 }] }] }) }));
    expect(s.code).toBe(422);
    expect(s.message).toBe('Pod "p" is invalid: [spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container, spec.ephemeralContainers: Forbidden: cannot be set on create]');
  });

  it('adds one through the subresource: defaulted, generation bumped, nothing else taken from the patch', () => {
    const e = runningNginx();
    const before = pod(e, 'nginx')!;
    const r = e.apply({
      type: 'patch', kind: 'Pod', namespace: 'default', name: 'nginx', patchType: 'strategic', subresource: 'ephemeralcontainers',
      patch: { metadata: { labels: { sneaky: 'yes' } }, spec: { activeDeadlineSeconds: 5, ephemeralContainers: [{ name: 'dbg', image: 'busybox', targetContainerName: 'nginx' }] } },
    });
    if (!r.ok) throw new Error(r.status.message);
    expect(r.object.metadata.generation).toBe(2);
    expect(r.object.metadata.labels).toEqual(before.metadata.labels);
    expect(r.object.spec.activeDeadlineSeconds).toBeUndefined();
    expect(r.object.spec.ephemeralContainers).toEqual([{
      name: 'dbg', image: 'busybox', targetContainerName: 'nginx', imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', resources: {},
    }]);
    // no service-account mount: admission mutates pods only on create
    expect(r.object.spec.ephemeralContainers![0].volumeMounts).toBeUndefined();
  });

  it('forbids the fields ephemeral containers may not have, a missing target, duplicate names and subPath', () => {
    const e = runningNginx();
    const s = rejected(addEphemeral(e, [{
      name: 'nginx', image: 'busybox', targetContainerName: 'web', ports: [{ containerPort: 8080 }], resources: { limits: { cpu: '1' } },
      livenessProbe: { exec: { command: ['true'] } }, readinessProbe: { tcpSocket: { port: 80 } }, lifecycle: { preStop: { exec: { command: ['x'] } } },
      volumeMounts: [{ name: pod(e, 'nginx')!.spec.volumes![0].name, mountPath: '/x', subPath: 'token' }],
    }]));
    expect(s.details!.causes!.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.ephemeralContainers[0].name: Duplicate value: "nginx"',
      'spec.ephemeralContainers[0].targetContainerName: Not found: "web"',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].livenessProbe: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container',
    ]);
  });

  it('only adds: a merge patch that drops or changes an existing one is refused', () => {
    const e = runningNginx();
    expect(addEphemeral(e, [{ name: 'a', image: 'busybox' }]).ok).toBe(true);
    expect(rejected(addEphemeral(e, [{ name: 'b', image: 'busybox' }], 'merge')).message).toBe(
      'Pod "nginx" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "a" may not be removed\n',
    );
    expect(rejected(addEphemeral(e, [{ name: 'a', image: 'alpine' }])).message).toContain('existing ephemeral containers "a" may not be changed');
    // a strategic merge patch merges by name: sending the existing one again changes nothing
    const again = addEphemeral(e, [{ name: 'a', image: 'busybox' }]);
    expect(again.ok && again.unchanged).toBe(true);
  });

  it('the pod itself cannot be patched to add one (only the subresource can)', () => {
    const e = runningNginx();
    const action: ClusterAction = { type: 'patch', kind: 'Pod', namespace: 'default', name: 'nginx', patchType: 'strategic', patch: { spec: { ephemeralContainers: [{ name: 'x', image: 'busybox' }] } } };
    expect(rejected(e.apply(action)).message).toMatch(/^Pod "nginx" is invalid: spec: Forbidden: pod updates may not change fields other than/);
  });

  it('a pod that does not exist is 404', () => {
    const e = engineWith();
    expect(rejected(e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'nope', patchType: 'strategic', subresource: 'ephemeralcontainers', patch: {} })).code).toBe(404);
  });
});

describe('kubelet: ephemeral containers', () => {
  it('starts it in the pod (SyncPod#6) with events on spec.ephemeralContainers{name}, reports it apart, never counts it ready', () => {
    const e = runningNginx();
    addEphemeral(e, [{ name: 'dbg', image: 'busybox', stdin: true, tty: true, targetContainerName: 'nginx' }]);
    e.advanceTo(30_000);
    expect(e.trace.filter((t) => t.key === 'SyncPod#6').map((t) => t.detail)).toEqual(['start ephemeral container dbg']);
    const p = pod(e, 'nginx')!;
    expect(p.status.containerStatuses!.map((s) => s.name)).toEqual(['nginx']);
    const [st] = p.status.ephemeralContainerStatuses!;
    expect(st).toMatchObject({ name: 'dbg', ready: false, restartCount: 0, image: 'docker.io/library/busybox:latest', lastState: {} });
    expect(st.state.running).toBeDefined();
    expect('started' in st).toBe(false);
    expect(p.status.conditions!.find((c) => c.type === 'Ready')!.status).toBe('True');
    const evs = e.state().events.filter((x) => x.involvedObject.fieldPath === 'spec.ephemeralContainers{dbg}');
    expect(evs.map((x) => `${x.reason}: ${x.message}`)).toEqual([
      'Pulling: Pulling image "busybox"',
      'Pulled: Successfully pulled image "busybox" in 1s (1s including waiting). Image size: 2200000 bytes.',
      'Created: Container created',
      'Started: Container started',
    ]);
    // the debug container joins its target's pid namespace
    const rt = e.state().runtimes[0];
    const target = rt.containers.find((c) => c.name === 'nginx')!;
    expect(rt.containers.find((c) => c.name === 'dbg')!.namespaces[0]).toEqual({ type: 'pid', path: `/proc/${target.pid}/ns/pid` });
  });

  it('is never restarted, whatever the restartPolicy (Always here)', () => {
    const e = runningNginx();
    addEphemeral(e, [{ name: 'once', image: 'busybox', command: ['sh', '-c', 'exit 3'] }]);
    e.advanceTo(200_000);
    const [st] = pod(e, 'nginx')!.status.ephemeralContainerStatuses!;
    expect(st.restartCount).toBe(0);
    expect(st.state.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(e.state().runtimes[0].containers.filter((c) => c.name === 'once')).toHaveLength(1);
    expect(e.trace.filter((t) => t.key === 'SyncPod#6')).toHaveLength(1);
  });

  it('is killed with the pod: a shell with stdin open ignores SIGTERM and dies by SIGKILL at the grace period', () => {
    const e = runningNginx();
    addEphemeral(e, [{ name: 'dbg', image: 'busybox', stdin: true }]);
    e.advanceTo(30_000);
    e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'nginx' });
    e.advanceTo(45_000);
    expect(e.state().runtimes[0].containers.find((c) => c.name === 'dbg')!.state).toBe('CONTAINER_RUNNING');
    const killing = e.state().events.filter((x) => x.reason === 'Killing').map((x) => x.involvedObject.fieldPath);
    expect(killing).toContain('spec.ephemeralContainers{dbg}');
    e.advanceTo(70_000);
    expect(pod(e, 'nginx')).toBeUndefined();
  });
});

describe('kubectl debug', () => {
  const session = () => {
    const e = runningNginx();
    const run = (line: string) => execute(line, { state: e.state(), apply: (a) => e.apply(a) });
    return { e, run };
  };

  it('prints what kubectl v1.36 prints and sends the strategic merge patch to the subresource', () => {
    const { e, run } = session();
    const sent: ClusterAction[] = [];
    const r = execute('kubectl debug -it nginx --image=busybox --target=nginx', { state: e.state(), apply: (a) => (sent.push(a), e.apply(a)) });
    const name = /Defaulting debug container name to (debugger-[bcdfghjklmnpqrstvwxz2456789]{5})\./.exec(r.stdout)![1];
    expect(r.stdout).toBe(
      'Targeting container "nginx". If you don\'t see processes from this container it may be because the container runtime doesn\'t support this feature.\n' +
        `Defaulting debug container name to ${name}.\n`,
    );
    expect(r.stderr).toMatch(/^podlife: not attached \(a transcript has no terminal\)/);
    expect(r.exitCode).toBe(0);
    expect(sent).toEqual([{
      type: 'patch', kind: 'Pod', namespace: 'default', name: 'nginx', patchType: 'strategic', subresource: 'ephemeralcontainers',
      patch: { spec: { ephemeralContainers: [{
        name, image: 'busybox', resources: {}, terminationMessagePolicy: 'File',
        securityContext: { capabilities: { add: ['SYS_PTRACE'] } }, stdin: true, tty: true, targetContainerName: 'nginx',
      }] } },
    }]);
    // same pod, same moment: the same name (the transcript is deterministic); a taken name is drawn again
    const other = runningNginx();
    const dry = (state: ReturnType<Engine['state']>) => execute('kubectl debug nginx --image=busybox', { state, apply: (a) => ({ ok: true, object: pod(other, 'nginx')! }) }).stdout;
    expect(dry(other.state())).toBe(`Defaulting debug container name to ${name}.\n`);
    expect(dry(e.state())).not.toContain(name);
  });

  it('-c names the container (no message), args after -- become the command, profiles set the securityContext', () => {
    const { e, run } = session();
    expect(run('kubectl debug nginx --image=busybox -c dbg --profile=sysadmin -- sleep 3600')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(run('kubectl debug nginx --image=busybox -c dbg2 --profile=restricted --arguments-only -- a b').exitCode).toBe(0);
    expect(run('kubectl debug nginx --image=busybox -c dbg3 --profile=baseline').exitCode).toBe(0);
    const [a, b, c] = pod(e, 'nginx')!.spec.ephemeralContainers!;
    expect(a).toMatchObject({ name: 'dbg', command: ['sleep', '3600'], securityContext: { privileged: true } });
    expect(b).toMatchObject({ name: 'dbg2', args: ['a', 'b'], securityContext: { capabilities: { drop: ['ALL'] }, runAsNonRoot: true, allowPrivilegeEscalation: false, seccompProfile: { type: 'RuntimeDefault' } } });
    expect(c.securityContext).toBeUndefined();
    expect(run('kubectl debug nginx --image=busybox -c dbg4 --env=B=2,A=1').exitCode).toBe(0);
    expect(pod(e, 'nginx')!.spec.ephemeralContainers![3].env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
    run('kubectl debug nginx --image=busybox -c dbg5 --profile=netadmin');
    run('kubectl debug nginx --image=busybox -c dbg6 --profile=legacy');
    const [, , , , net, legacy] = pod(e, 'nginx')!.spec.ephemeralContainers!;
    expect(net.securityContext).toEqual({ capabilities: { add: ['NET_ADMIN', 'NET_RAW'] } });
    expect(legacy.securityContext).toBeUndefined();
    // a name already taken: a regular container's is a Duplicate; an ephemeral one's merges into it (the strategic
    // merge key is the name), which changes it
    expect(run('kubectl debug nginx --image=busybox -c nginx').stderr).toBe('The Pod "nginx" is invalid: spec.ephemeralContainers[6].name: Duplicate value: "nginx"\n');
    expect(run('kubectl debug nginx --image=busybox -c dbg').stderr).toBe(
      'The Pod "nginx" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be changed\n\n',
    );
  });

  it('kubectl logs reads an ephemeral container, and names them "(ephem)" when it defaults', () => {
    const { e, run } = session();
    run('kubectl debug nginx --image=busybox -c hello -- sh -c "echo hi from debug"');
    e.advanceTo(30_000);
    const logs = execute('kubectl logs nginx -c hello', { state: e.state() });
    expect(logs).toEqual({ stdout: 'hi from debug\n', stderr: '', exitCode: 0 });
    expect(execute('kubectl logs nginx --tail=0', { state: e.state() }).stderr).toBe('Defaulted container "nginx" out of: nginx, hello (ephem)\n');
  });

  it("refuses what kubectl refuses, in kubectl's words", () => {
    const { run } = session();
    const err = (line: string) => run(line).stderr;
    expect(err('kubectl debug nginx')).toBe('error: you must specify --image when not using --copy-to.\n');
    expect(err('kubectl debug --image=busybox')).toBe('error: NAME or filename is required for debug\n');
    expect(err('kubectl debug nginx --image=busybox -t')).toBe('error: -i/--stdin is required for containers with -t/--tty=true\n');
    expect(run('kubectl debug nginx --image=busybox -t --target=nginx')).toEqual({
      stdout: 'Targeting container "nginx". If you don\'t see processes from this container it may be because the container runtime doesn\'t support this feature.\n',
      stderr: 'error: -i/--stdin is required for containers with -t/--tty=true\n',
      exitCode: 1,
    });
    expect(err('kubectl debug nginx --image=busybox --profile=admin')).toBe('error: unknown profile: admin\n');
    expect(err('kubectl debug nginx --image=busybox --image-pull-policy=Sometimes')).toBe('error: invalid image pull policy: Sometimes\n');
    expect(err('kubectl debug nginx --image=Busy:box:x')).toBe('error: invalid image name "Busy:box:x": invalid reference format\n');
    expect(err('kubectl debug nginx --image=busybox --replace')).toBe('error: --replace may only be used with --copy-to.\n');
    expect(err('kubectl debug nginx --image=busybox --env=A')).toBe('error: invalid argument "A" for "--env" flag: A must be formatted as key=value\nSee \'kubectl debug --help\' for usage.\n');
    expect(err('kubectl debug nope --image=busybox')).toBe('Error from server (NotFound): pods "nope" not found\n');
    expect(err('kubectl debug nginx --image=busybox --profile=legacy -c x')).toBe(
      '--profile=legacy is deprecated and planned to be removed in v1.39. It is recommended to specify other profile, for example "--profile=general".\n',
    );
  });

  it('says clearly which modes this simulation does not model', () => {
    const { run } = session();
    for (const [line, what] of [
      ['kubectl debug nginx --image=busybox --copy-to=copy', '--copy-to'],
      ['kubectl debug node/worker01 --image=busybox', 'node/worker01'],
      ['kubectl debug nginx --image=busybox --custom=p.json', '--custom'],
    ]) {
      const r = run(line);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/^error: podlife: this simulation models kubectl debug's ephemeral-container mode only: kubectl debug POD --image=IMAGE/);
      expect(r.stderr).toContain(what);
    }
  });
});
