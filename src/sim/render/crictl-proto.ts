// `crictl ps -o json|yaml` and `crictl pods -o json|yaml`: the CRI ListContainersResponse and
// ListPodSandboxResponse as crictl prints them. crictl marshals the protobuf message with protojson
// (EmitDefaultValues, 2-space indent): fields in the .proto's order under their lowerCamelCase JSON names,
// zero values kept (an empty string, `[]`, `{}`), unset messages left out, int64 as a string (createdAt:
// nanoseconds since 1970), enums by name, map keys sorted, no HTML escaping. `-o yaml` is that JSON through
// sigs.k8s.io/yaml's JSONToYAML (go-yaml v2: keys sorted). Both end with fmt.Println's newline (the YAML
// already ends with one, so a blank line follows it).
// protojson adds a second space after a key's colon in one binary out of two (internal/detrand, a hash of the
// executable, to keep callers from depending on its layout); the model prints the one-space form.
// upstream: cri-tools cmd/crictl/util.go protobufObjectToJSON, outputProtobufObjAsYAML; container.go
// OutputContainers; sandbox.go OutputPodSandboxes (v1.36.0); cri-api v0.36.0 api.proto (Container,
// PodSandbox, ImageSpec); containerd internal/cri/server container_list.go toCRIContainer, sandbox_list.go
// toCRISandbox (v2.1.4); google.golang.org/protobuf internal/encoding/json encode.go appendString, prepareNext

import type { CriContainer, CriSandbox } from '../types.ts';
import type { CrictlClock } from './crictl-list.ts';
import { rfc3339NanoLocal, stampNanos } from './localtime.ts';
import { toYaml } from './yaml.ts';
import { jqJson } from './json.ts';

type Proto = string | number | boolean | Proto[] | { [k: string]: Proto };

/**
 * protojson.MarshalOptions{Indent: "  "}: members in the order given, `{}` and `[]` when empty; its appendString
 * escapes `"`, `\` and control characters (\b \f \n \r \t, else \u00XX) and nothing else: jq's printer, DEL left as is.
 */
const protoJson = (v: Proto): string => jqJson(v, false, '  ', false);

/** A proto map: protojson writes its entries sorted by key. */
const protoMap = (m: Record<string, string> | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const k of Object.keys(m ?? {}).sort()) out[k] = m![k];
  return out;
};

/** An int64 timestamp in nanoseconds, which protojson writes as a string: the model's milliseconds and a stamp's nanoseconds. */
const nanos = (clock: CrictlClock, t: number, stamp: string) => `${Math.floor(clock.epoch + t)}${String(stampNanos(stamp)).padStart(6, '0')}`;

/**
 * The sandbox config's annotations: the pod's own plus the two the kubelet's pod config adds to its copy of
 * the pod (config.go recordFirstSeenTime: time.Now() in RFC 3339 with nanoseconds, local time; the source "api").
 */
export function sandboxAnnotations(s: CriSandbox, clock: CrictlClock): Record<string, string> {
  const out: Record<string, string> = { ...s.annotations };
  if (s.configSeen !== undefined) out['kubernetes.io/config.seen'] = rfc3339NanoLocal(clock.epoch + s.configSeen, clock.utcOffsetMinutes, stampNanos(`${s.podUid}/seen`));
  out['kubernetes.io/config.source'] = 'api';
  return protoMap(out);
}

/** runtime.Container as containerd's ListContainers builds it (toCRIContainer; image_id is not set). */
function criContainer(c: CriContainer, clock: CrictlClock): Proto {
  return {
    id: c.id,
    podSandboxId: c.sandboxId,
    metadata: { name: c.name, attempt: c.attempt },
    // the ImageSpec the kubelet sent in CreateContainer: the image ID, and the image the pod names
    image: { image: c.imageId, annotations: {}, userSpecifiedImage: c.image, runtimeHandler: '', imageRef: '' },
    imageRef: c.imageId,
    state: c.state,
    createdAt: nanos(clock, c.createdAt, `${c.id}/created`),
    labels: protoMap(c.labels),
    annotations: protoMap(c.annotations),
    imageId: '',
  };
}

/** runtime.PodSandbox as containerd's ListPodSandbox builds it (toCRISandbox). */
function criSandbox(s: CriSandbox, clock: CrictlClock): Proto {
  return {
    id: s.id,
    metadata: { name: s.name, uid: s.podUid, namespace: s.namespace, attempt: s.attempt },
    state: s.state,
    createdAt: nanos(clock, s.createdAt, `${s.id}/created`),
    labels: protoMap(s.labels),
    annotations: sandboxAnnotations(s, clock),
    runtimeHandler: s.runtimeHandler,
  };
}

const print = (msg: Proto, output: 'json' | 'yaml') => (output === 'json' ? `${protoJson(msg)}\n` : `${toYaml(msg)}\n`);

/** `crictl ps -o json|yaml` of the containers `crictl ps` would list. */
export function crictlPsProto(list: CriContainer[], clock: CrictlClock, output: 'json' | 'yaml'): string {
  return print({ containers: list.map((c) => criContainer(c, clock)) }, output);
}

/** `crictl pods -o json|yaml` of the sandboxes `crictl pods` would list. */
export function crictlPodsProto(list: CriSandbox[], clock: CrictlClock, output: 'json' | 'yaml'): string {
  return print({ items: list.map((s) => criSandbox(s, clock)) }, output);
}
