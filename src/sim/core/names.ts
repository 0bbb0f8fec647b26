// Strings derived from a pod's namespace and name ("default/web", "pod/default/web", "\"default/web\""), built once
// per pod and shared by every map key, trace event and log line that names it: V8 hashes a shared string once,
// and a trace of many events keeps one copy instead of one per event. A pure memo, so engines may share it.

export interface PodNames {
  /** The API server's storage key: "namespace/name". */
  key: string;
  /** The trace's object: "pod/namespace/name". */
  object: string;
  /** klog.KObj as the kubelet's log prints it: "\"namespace/name\"". */
  kobj: string;
}

const byNamespace = new Map<string, Map<string, PodNames>>();
let size = 0;
const MAX_SIZE = 100_000;
// consecutive calls mostly name the same pod (a sync traces many steps of one pod)
let lastNamespace: string | undefined;
let lastName: string | undefined;
let lastNames: PodNames | undefined;

// and nearly all pods share one namespace: its map is kept at hand
let lastByName: Map<string, PodNames> | undefined;

export function podNames(namespace: string, name: string): PodNames {
  if (lastName === name && lastNamespace === namespace && lastNames !== undefined) return lastNames;
  let byName = lastNamespace === namespace ? lastByName : undefined;
  if (byName === undefined) {
    byName = byNamespace.get(namespace);
    if (!byName) byNamespace.set(namespace, (byName = new Map()));
  }
  let names = byName.get(name);
  if (!names) {
    if (++size > MAX_SIZE) {
      byNamespace.clear();
      byNamespace.set(namespace, byName);
      byName.clear();
      size = 1;
    }
    const key = `${namespace}/${name}`;
    names = { key, object: `pod/${key}`, kobj: JSON.stringify(key) };
    byName.set(name, names);
  }
  lastNamespace = namespace;
  lastByName = byName;
  lastName = name;
  lastNames = names;
  return names;
}
