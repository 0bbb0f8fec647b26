// ConfigMaps and Secrets as kubectl prints them: the server-side table rows of `kubectl get cm|secret` and the
// describers of `kubectl describe cm|secret`. Kept out of render/table.ts and render/describe.ts's pod code paths,
// which the player's first load carries: only the console and `podlife serve` print these.
// upstream: pkg/printers/internalversion/printers.go printConfigMap, printSecret (configMapColumnDefinitions,
//           secretColumnDefinitions); k8s.io/kubectl v0.36.3 pkg/describe/describe.go (*ConfigMapDescriber).Describe,
//           describeSecret

import type { ConfigObject, KubeEvent } from '../types.ts';
import { PrefixWriter, describeEvents, printAnnotationsMultiline, printLabelsMultiline } from './describe.ts';
import { translateTimestampSince } from './table.ts';
import { base64DecodedLength, textFromBase64 } from '../core/base64.ts';

export const CONFIGMAP_COLUMNS = ['Name', 'Data', 'Age'];
export const SECRET_COLUMNS = ['Name', 'Type', 'Data', 'Age'];

const count = (m: Record<string, string> | undefined): number => Object.keys(m ?? {}).length;
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A ConfigMap's row: its name, how many keys (data and binaryData together), its age. */
export function printConfigMap(cm: ConfigObject, now: number): string[] {
  return [cm.metadata.name, String(count(cm.data) + count(cm.binaryData)), translateTimestampSince(cm.metadata.creationTimestamp, now)];
}

/** A Secret's row: its name, its type (as stored: the API server defaults it to Opaque), how many keys, its age. */
export function printSecret(s: ConfigObject, now: number): string[] {
  return [s.metadata.name, s.type ?? '', String(count(s.data)), translateTimestampSince(s.metadata.creationTimestamp, now)];
}

/**
 * `kubectl describe configmap`: each data key with its value under a `----` rule, each binaryData key with its size
 * in bytes, and the events of the ConfigMap (kind, name, namespace and uid; the model records none).
 */
export function describeConfigMap(cm: ConfigObject, o: { now: number; events: KubeEvent[]; showEvents: boolean }): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${cm.metadata.name}\n`);
  w.write(0, `Namespace:\t${cm.metadata.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', cm.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', cm.metadata.annotations);
  w.write(0, '\nData\n====\n');
  for (const k of Object.keys(cm.data ?? {}).sort(byKey)) {
    w.write(0, `${k}:\n----\n`);
    w.write(0, `${cm.data![k]}\n`);
    w.write(0, '\n');
  }
  w.write(0, '\nBinaryData\n====\n');
  for (const k of Object.keys(cm.binaryData ?? {}).sort(byKey)) w.write(0, `${k}: ${base64DecodedLength(cm.binaryData![k])} bytes\n`);
  w.write(0, '\n');
  if (o.showEvents) {
    const own = o.events.filter(
      (e) => e.involvedObject.kind === 'ConfigMap' && e.involvedObject.name === cm.metadata.name &&
        (e.involvedObject.namespace ?? '') === (cm.metadata.namespace ?? '') && e.involvedObject.uid === cm.metadata.uid,
    );
    describeEvents(w, own, o.now);
  }
  return w.finish();
}

/**
 * `kubectl describe secret`: its type, then each key with the size of its value in bytes, but a service account
 * token Secret's token, which is shown. A Secret has no events section.
 */
export function describeSecret(s: ConfigObject): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${s.metadata.name}\n`);
  w.write(0, `Namespace:\t${s.metadata.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', s.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', s.metadata.annotations);
  w.write(0, `\nType:\t${s.type ?? ''}\n`);
  w.write(0, '\nData\n====\n');
  for (const k of Object.keys(s.data ?? {}).sort(byKey)) {
    if (k === 'token' && s.type === 'kubernetes.io/service-account-token') w.write(0, `${k}:\t${textFromBase64(s.data![k])}\n`);
    else w.write(0, `${k}:\t${base64DecodedLength(s.data![k])} bytes\n`);
  }
  return w.finish();
}
