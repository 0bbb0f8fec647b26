// The player's source of moments when it replays a recorded run (src/sim/replay.ts) on the engine alone:
// no scenario parser, YAML library or command layer on the first load.
import { createEngineCore, type EngineModules } from '../../src/sim/engine-core.ts';
import type { Replay } from '../../src/sim/replay.ts';
import type { ClusterState, Engine, TraceEvent } from '../../src/sim/types.ts';
import type { SimSource } from './source.ts';

export { readReplay, type Replay } from '../../src/sim/replay.ts';

export class ReplaySource implements SimSource {
  readonly title: string;
  readonly #engine: Engine;

  /**
   * Replay a recorded run; JSON patch and strategic merge patch are fetched only for a run that sends one (or patches
   * a node, a ConfigMap or a Secret, or sends an action beyond create, delete and patch: crictl stopp), the
   * resize support only for a run that resizes a pod, the API server's validation only for a run that needs it
   * (one with a request it rejected as invalid, which the replay says, or one that loads the patch module), the
   * containers' environment (and the volumes' ConfigMaps and Secrets) only for a run that sends a `$`, one of env,
   * printenv and export, or a configMap or secret, the shell's
   * redirections only for one that sends a `>` or `<`, the kubelet's hooks and probes only for one whose pods have
   * a probe, a lifecycle hook or an active deadline, the files the kubelet writes for a pod only for one that names a file in /etc/
   * or /var/run/secrets/, a termination message or a volume mount, which programs an image has only for one whose pods name a command or args, and the
   * store of ConfigMaps and Secrets only for one that creates, patches or deletes one.
   */
  static async load(replay: Replay): Promise<ReplaySource> {
    const patch = (f: (a: Extract<Replay['actions'][number]['action'], { type: 'patch' }>) => boolean): boolean =>
      replay.actions.some(({ action: a }) => a.type === 'patch' && f(a));
    const other = replay.actions.some(({ action: a }) => a.type !== 'create' && a.type !== 'delete' && a.type !== 'patch' && a.type !== 'config');
    const patching = other || patch((a) => a.kind === 'Node' || a.patchType !== 'merge' || a.subresource !== undefined) ||
      replay.actions.some(({ action: a }) => a.type === 'config' && a.verb === 'patch' && a.patchType !== 'merge');
    // a `$` anywhere in what the run sent may be a $(VAR) or a shell's $VAR: the containers' environment comes along
    const sent = replay.actions.map(({ action }) => JSON.stringify(action));
    // (and env, printenv or export print or set it; a container's env or envFrom, or a volume, may name a ConfigMap or
    // a Secret)
    const env = sent.some((a) => /\$|\b(env|envFrom|printenv|export|configMap|secret)\b/.test(a));
    const [patches, resize, validation, envSupport, redirect, handlers, files, binaries, configs] = await Promise.all([
      patching ? import('../../src/sim/api/patch.ts') : undefined,
      patch((a) => a.kind === 'Pod' && a.subresource === 'resize') ? import('../../src/sim/resize.ts') : undefined,
      patching || replay.validate ? import('../../src/sim/api/validation.ts') : undefined,
      env ? import('../../src/sim/kubelet/envvars.ts') : undefined,
      sent.some((a) => a.includes('>') || a.includes('<')) ? import('../../src/sim/runtime/redirect.ts') : undefined,
      // a pod with a probe (livenessProbe, readinessProbe, startupProbe), a lifecycle hook or an active deadline
      sent.some((a) => a.includes('Probe"') || a.includes('"lifecycle"') || a.includes('activeDeadlineSeconds')) ? import('../../src/sim/kubelet/handlers.ts') : undefined,
      // a container that reads /etc/hosts, /etc/hostname or /etc/resolv.conf names it; one that leaves a termination
      // message writes it to /dev/termination-log, or names its terminationMessagePath or terminationMessagePolicy; one
      // that reads a volume's files mounts it (or reads the service account's, which every pod mounts)
      sent.some((a) => a.includes('/etc/') || a.includes('termination') || a.includes('"volumeMounts"') || a.includes('/var/run/secrets/')) ? import('../../src/sim/kubelet/etcfiles.ts') : undefined,
      // a container whose command or args replace its image's may name a program the image lacks
      sent.some((a) => a.includes('"command"') || a.includes('"args"')) ? import('../../src/sim/runtime/binaries.ts') : undefined,
      // a run that creates, patches or deletes a ConfigMap or a Secret
      replay.actions.some(({ action: a }) => a.type === 'config') ? import('../../src/sim/api/configs.ts') : undefined,
    ]);
    return new ReplaySource(replay, { patches: patches && { ...patches, resize }, validation, env: envSupport, redirect, handlers, files, binaries, configs });
  }

  private constructor(replay: Replay, modules: EngineModules) {
    this.title = replay.title;
    const engine = createEngineCore(replay.config, { seed: replay.seed }, modules);
    for (const { at, action } of replay.actions) {
      engine.advanceTo(at);
      engine.apply(action);
    }
    engine.advanceTo(replay.end);
    this.#engine = engine;
  }

  get trace(): readonly TraceEvent[] {
    return this.#engine.trace;
  }

  get end(): number {
    return this.#engine.now;
  }

  stateAt(t: number): ClusterState {
    return this.#engine.stateAt(Math.min(Math.max(0, t), this.#engine.now));
  }
}
