// A container's environment, and the kubelet's $(VAR) expansion of env values, command and args.
// The kubelet's part (makeEnvironmentVariables): the service links (the `kubernetes` Service always, and with
// enableServiceLinks the services of the pod's namespace), then the container's `env` in order, each value expanded
// against what comes before it. The runtime adds the image's PATH and the hostname, runc adds HOME.
// upstream: pkg/kubelet/kubelet_pods.go makeEnvironmentVariables, getServiceEnvVarMap; pkg/kubelet/envvars/envvars.go
// FromServices; third_party/forked/golang/expansion/expand.go Expand; pkg/kubelet/container/helpers.go
// ExpandContainerCommandAndArgs

import type { Container, Pod } from '../types.ts';
import type { SimContext } from '../core/context.ts';
import type { EnvBuiltin } from '../runtime/process.ts';

// the shell's $((...)): a `$` in what a run sends brings this module, and the arithmetic with it
export { arith } from '../runtime/arith.ts';
// the volume manager's ConfigMap and Secret volumes: the same objects the environment reads
export { VolumeManager } from './volumes.ts';
import { configSource, notFound } from './volumes.ts';

/** The PATH of the images the model knows (the Debian and Alpine base images' default). */
const IMAGE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** envvars.FromServices for one Service: NAME_SERVICE_HOST, _SERVICE_PORT(_<port name>), and the Docker-link _PORT vars. */
function serviceVars(out: Map<string, string>, name: string, ip: string, ports: [string, string, number][]): void {
  const p = name.toUpperCase().replace(/-/g, '_');
  out.set(`${p}_SERVICE_HOST`, ip);
  out.set(`${p}_SERVICE_PORT`, String(ports[0][2]));
  for (const [portName, , port] of ports) if (portName) out.set(`${p}_SERVICE_PORT_${portName.toUpperCase().replace(/-/g, '_')}`, String(port));
  const [, proto0, port0] = ports[0];
  out.set(`${p}_PORT`, `${proto0.toLowerCase()}://${ip}:${port0}`);
  for (const [, proto, port] of ports) {
    const key = `${p}_PORT_${port}_${proto}`;
    out.set(key, `${proto.toLowerCase()}://${ip}:${port}`);
    out.set(`${key}_PROTO`, proto.toLowerCase());
    out.set(`${key}_PORT`, String(port));
    out.set(`${key}_ADDR`, ip);
  }
}

/** expansion.Expand: $(VAR) from `lookup`, kept as written when undefined; $$ is a literal $. */
export function expand(input: string, lookup: (name: string) => string | undefined): string {
  if (!input.includes('$')) return input;
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c !== '$' || i + 1 >= input.length) {
      out += c;
      continue;
    }
    const next = input[i + 1];
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '(') {
      const close = input.indexOf(')', i + 2);
      if (close < 0) {
        out += '$(';
        i++;
      } else {
        const name = input.slice(i + 2, close);
        out += lookup(name) ?? `$(${name})`;
        i = close;
      }
    } else {
      out += `$${next}`;
      i++;
    }
  }
  return out;
}

/**
 * The pod's IPs as the kubelet gives them to makeEnvironmentVariables: the sandbox's and the node's, known before the
 * status manager writes them into the pod's status (a container's first run already sees status.podIP).
 */
export interface PodIPs {
  podIP?: string;
  hostIP?: string;
}

/**
 * The kubelet's environment for a container: service links, then `env` in order (value and the common fieldRefs).
 * `at`: when the container was made, for the ConfigMaps and Secrets it names (now when undefined).
 */
export function kubeletEnv(pod: Pod, c: Container, ips?: PodIPs, ctx?: SimContext, at?: number): Map<string, string> {
  const env = new Map<string, string>();
  const ns = pod.metadata.namespace ?? 'default';
  const links = (pod.spec as { enableServiceLinks?: boolean }).enableServiceLinks !== false;
  // the cluster's two Services (api/services.ts): kube-dns links only into kube-system's pods
  if (links && ns === 'kube-system') serviceVars(env, 'kube-dns', '10.96.0.10', [['dns', 'UDP', 53], ['dns-tcp', 'TCP', 53], ['metrics', 'TCP', 9153]]);
  serviceVars(env, 'kubernetes', '10.96.0.1', [['https', 'TCP', 443]]);
  const fields: Record<string, string | undefined> = {
    'metadata.name': pod.metadata.name, 'metadata.namespace': ns, 'metadata.uid': pod.metadata.uid,
    'spec.nodeName': pod.spec.nodeName, 'spec.serviceAccountName': pod.spec.serviceAccountName,
    'status.podIP': ips?.podIP ?? pod.status.podIP, 'status.hostIP': ips?.hostIP ?? pod.status.hostIP,
  };
  type Ref = { name?: string; key: string };
  type Var = { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string }; configMapKeyRef?: Ref; secretKeyRef?: Ref } };
  const defined = new Map<string, string>();
  // (the values the container was made with: an object changed or deleted since leaves them, as a process keeps its
  // environment; a container cannot start without the object, missingConfigSource)
  const source = (resource: 'configmap' | 'secret', name: string | undefined) => ctx && configSource(ctx, resource, ns, name, at);
  // envFrom first: every key of the ConfigMap or Secret, with the prefix. (Older kubelets skipped a key that is not
  // a C identifier, with an InvalidEnvironmentVariableNames event; under RelaxedEnvironmentVariableValidation, GA in
  // v1.34, any printable name but "=" is a variable, which every config key is.)
  // upstream: KEP-4369; pkg/kubelet/kubelet_pods.go makeEnvironmentVariables
  for (const from of (c as EnvSources).envFrom ?? []) {
    const values = from.configMapRef ? source('configmap', from.configMapRef.name) : from.secretRef && source('secret', from.secretRef.name);
    for (const [k, v] of values ?? []) defined.set((from.prefix ?? '') + k, v);
  }
  for (const v of (c.env ?? []) as Var[]) {
    let value: string | undefined;
    const from = v.valueFrom;
    if (from) {
      const ref = from.configMapKeyRef ?? from.secretKeyRef;
      value = from.fieldRef ? fields[from.fieldRef.fieldPath] : ref && source(from.configMapKeyRef ? 'configmap' : 'secret', ref.name)?.get(ref.key);
    } else value = expand(v.value ?? '', (name) => defined.get(name) ?? env.get(name));
    if (value === undefined) continue; // an optional source that is missing (or a source the model does not have)
    defined.set(v.name, value);
  }
  for (const [k, v] of defined) env.set(k, v);
  return env;
}

/** ExpandContainerCommandAndArgs: $(VAR) in command and args, from the kubelet's environment. */
export function expandCommand(pod: Pod, c: Container, ips?: PodIPs, ctx?: SimContext): { command?: string[]; args?: string[] } {
  const uses = (list?: string[]) => list?.some((x) => x.includes('$'));
  if (!uses(c.command) && !uses(c.args)) return { command: c.command, args: c.args };
  const env = kubeletEnv(pod, c, ips, ctx);
  const lookup = (name: string) => env.get(name);
  return { command: c.command?.map((x) => expand(x, lookup)), args: c.args?.map((x) => expand(x, lookup)) };
}

/**
 * Whether processEnv is the container's whole environment: an image whose config sets PATH alone (busybox, alpine,
 * debian, ubuntu; nginx's sets NGINX_VERSION and more, which the model does not have), and every `env` entry's source
 * modelled (no envFrom, no Secret or ConfigMap key).
 */
export function envComplete(pod: Pod, c: Container, ctx?: SimContext, at?: number): boolean {
  if (!/(^|\/)(busybox|alpine|debian|ubuntu)(:[^/]*)?(@.*)?$/.test(c.image)) return false;
  const env = kubeletEnv(pod, c, undefined, ctx, at);
  return (c.env ?? []).every((v) => env.has(v.name));
}

/**
 * The process's environment: the image's PATH, the hostname containerd sets, the kubelet's (`at`: when the container
 * was made), HOME as runc sets it for root.
 */
export function processEnv(pod: Pod, c: Container, ips?: PodIPs, ctx?: SimContext, at?: number): Map<string, string> {
  const env = new Map([['PATH', IMAGE_PATH], ['HOSTNAME', (pod.spec as { hostname?: string }).hostname || pod.metadata.name]]);
  for (const [k, v] of kubeletEnv(pod, c, ips, ctx, at)) env.set(k, v);
  if (!env.has('HOME')) env.set('HOME', '/root');
  return env;
}

/**
 * The shell's builtins over the environment, as busybox runs them: `export NAME=value` (or `export NAME`) exports a
 * variable; `env` and `printenv` print the environment a child gets (the container's, then the exported variables,
 * then the assignments before the command), and `printenv NAME...` the values it has (status 1 if one is missing).
 */
export const envBuiltin: EnvBuiltin = (bin, args, shell) => {
  if (bin === 'export') {
    for (const a of args) {
      const eq = a.indexOf('=');
      if (eq > 0) shell.vars.set(a.slice(0, eq), a.slice(eq + 1));
      shell.exported.add(eq > 0 ? a.slice(0, eq) : a);
    }
    return 0;
  }
  if (bin !== 'env' && bin !== 'printenv') return undefined;
  if (bin === 'env' && args.length) {
    shell.err('podlife: env with arguments (a command to run) is not modelled');
    return 127;
  }
  const env = new Map(shell.env);
  for (const name of shell.exported) {
    const v = shell.vars.get(name);
    if (v !== undefined) env.set(name, v);
  }
  for (const [k, v] of shell.prefix ?? []) env.set(k, v);
  if (args.length === 0) for (const [k, v] of env) shell.out(`${k}=${v}`);
  for (const name of args) if (env.has(name)) shell.out(env.get(name)!);
  return args.every((name) => env.has(name)) ? 0 : 1;
};

/** The sources of environment variables a container may name (types.ts models only a fieldRef). */
interface EnvSources {
  envFrom?: { prefix?: string; configMapRef?: { name?: string; optional?: boolean }; secretRef?: { name?: string; optional?: boolean } }[];
  env?: { valueFrom?: { configMapKeyRef?: { name?: string; key: string; optional?: boolean }; secretKeyRef?: { name?: string; key: string; optional?: boolean } } }[];
}

/**
 * Why the container's environment cannot be made, if it cannot: a ConfigMap or Secret it names (envFrom first, then
 * env) that does not exist, and is not optional, or a key it lacks. Such a container waits with
 * CreateContainerConfigError until the object is created (api/configs.ts; kube-root-ca.crt is in every namespace).
 * The messages are the kubelet's configmap and secret managers' NotFound, and makeEnvironmentVariables' own.
 */
// upstream: pkg/kubelet/kubelet_pods.go makeEnvironmentVariables; pkg/kubelet/configmap/configmap_manager.go,
//           pkg/kubelet/secret/secret_manager.go (corev1.Resource("configmap"), corev1.Resource("secret"))
export function missingConfigSource(ctx: SimContext, pod: Pod, c: Container): string | undefined {
  const { envFrom, env } = c as EnvSources;
  const ns = pod.metadata.namespace ?? 'default';
  const missing = (resource: 'configmap' | 'secret', ref: { name?: string; optional?: boolean } | undefined): string | undefined =>
    ref && !ref.optional && !configSource(ctx, resource, ns, ref.name) ? notFound(resource, ref.name) : undefined;
  for (const e of envFrom ?? []) {
    const err = missing('configmap', e.configMapRef) ?? missing('secret', e.secretRef);
    if (err) return err;
  }
  for (const v of env ?? []) {
    for (const [resource, kind] of [['configmap', 'ConfigMap'], ['secret', 'Secret']] as const) {
      const ref = resource === 'configmap' ? v.valueFrom?.configMapKeyRef : v.valueFrom?.secretKeyRef;
      if (!ref || ref.optional) continue;
      const values = configSource(ctx, resource, ns, ref.name);
      if (!values) return notFound(resource, ref.name);
      if (!values.has(ref.key)) return `couldn't find key ${ref.key} in ${kind} ${ns}/${ref.name}`;
    }
  }
  return undefined;
}
