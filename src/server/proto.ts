// Protobuf request bodies: kubectl's typed clients (`kubectl create configmap`, `kubectl create secret generic`)
// send their object as application/vnd.kubernetes.protobuf, the "k8s\0" envelope around a runtime.Unknown that holds
// the kind and the object's own bytes. Decoded here into the object as its JSON form would be: fields the Go
// struct leaves at their zero value are left out (omitempty), []byte values are base64.
// upstream: staging/src/k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go (protoEncodingPrefix,
//           Serializer.Decode); pkg/runtime/generated.proto (Unknown, TypeMeta); api/core/v1/generated.proto
//           (ConfigMap, Secret); apimachinery pkg/apis/meta/v1/generated.proto (ObjectMeta, OwnerReference, Time)

import { badRequest } from './status.ts';
import { base64FromBytes } from '../sim/core/base64.ts';

const PREFIX = [0x6b, 0x38, 0x73, 0x00];

/** One field of a message: its number and its raw value (a varint as a number, else the bytes). */
interface Field {
  n: number;
  v: number | Uint8Array;
}

class ProtoError extends Error {}

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): number => {
    let x = 0;
    let mul = 1;
    for (;;) {
      if (i >= buf.length) throw new ProtoError('unexpected EOF');
      const b = buf[i++];
      x += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return x;
      mul *= 128;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const n = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 0) out.push({ n, v: varint() });
    else if (wire === 2) {
      const len = varint();
      if (i + len > buf.length) throw new ProtoError('unexpected EOF');
      out.push({ n, v: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw new ProtoError(`illegal wireType ${wire}`);
  }
  return out;
}

const text = (v: Field['v']): string => (typeof v === 'number' ? '' : new TextDecoder().decode(v));
const bytes = (v: Field['v']): Uint8Array => (typeof v === 'number' ? new Uint8Array() : v);

/** A map field's entries (each a message of key 1, value 2). */
function mapEntry<T>(v: Field['v'], value: (v: Field['v']) => T, out: Record<string, T>): void {
  let key = '';
  let val: Field['v'] = new Uint8Array();
  for (const f of fields(bytes(v))) {
    if (f.n === 1) key = text(f.v);
    else if (f.n === 2) val = f.v;
  }
  out[key] = value(val);
}

/** metav1.Time as RFC 3339 in whole seconds (its JSON form), or undefined for the zero time. */
function time(v: Field['v']): string | undefined {
  let seconds = 0;
  for (const f of fields(bytes(v))) if (f.n === 1 && typeof f.v === 'number') seconds = f.v;
  return seconds === 0 ? undefined : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function objectMeta(v: Field['v']): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  const finalizers: string[] = [];
  const owners: Record<string, unknown>[] = [];
  const names: Record<number, string> = { 1: 'name', 2: 'generateName', 3: 'namespace', 4: 'selfLink', 5: 'uid', 6: 'resourceVersion' };
  for (const f of fields(bytes(v))) {
    if (names[f.n] !== undefined) {
      if (text(f.v) !== '') meta[names[f.n]] = text(f.v);
    } else if (f.n === 7 && f.v !== 0) meta.generation = f.v;
    else if (f.n === 8 || f.n === 9) {
      const t = time(f.v);
      if (t) meta[f.n === 8 ? 'creationTimestamp' : 'deletionTimestamp'] = t;
    } else if (f.n === 10) meta.deletionGracePeriodSeconds = f.v;
    else if (f.n === 11) mapEntry(f.v, text, labels);
    else if (f.n === 12) mapEntry(f.v, text, annotations);
    else if (f.n === 13) owners.push(ownerReference(f.v));
    else if (f.n === 14) finalizers.push(text(f.v));
  }
  if (Object.keys(labels).length) meta.labels = labels;
  if (Object.keys(annotations).length) meta.annotations = annotations;
  if (owners.length) meta.ownerReferences = owners;
  if (finalizers.length) meta.finalizers = finalizers;
  return meta;
}

function ownerReference(v: Field['v']): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const names: Record<number, string> = { 1: 'kind', 3: 'name', 4: 'uid', 5: 'apiVersion' };
  for (const f of fields(bytes(v))) {
    if (names[f.n] !== undefined) o[names[f.n]] = text(f.v);
    else if (f.n === 6) o.controller = f.v === 1;
    else if (f.n === 7) o.blockOwnerDeletion = f.v === 1;
  }
  return o;
}

/** A ConfigMap's or a Secret's fields (generated.proto), as the object's JSON has them. */
function configObject(kind: 'ConfigMap' | 'Secret', raw: Uint8Array): Record<string, unknown> {
  const obj: Record<string, unknown> = { kind, apiVersion: 'v1' };
  const data: Record<string, string> = {};
  const binaryData: Record<string, string> = {};
  const stringData: Record<string, string> = {};
  const b64 = (v: Field['v']) => base64FromBytes(bytes(v));
  for (const f of fields(raw)) {
    if (f.n === 1) obj.metadata = objectMeta(f.v);
    else if (kind === 'ConfigMap') {
      if (f.n === 2) mapEntry(f.v, text, data);
      else if (f.n === 3) mapEntry(f.v, b64, binaryData);
      else if (f.n === 4) obj.immutable = f.v === 1;
    } else if (f.n === 2) mapEntry(f.v, b64, data);
    else if (f.n === 3 && text(f.v) !== '') obj.type = text(f.v);
    else if (f.n === 4) mapEntry(f.v, text, stringData);
    else if (f.n === 5) obj.immutable = f.v === 1;
  }
  obj.metadata ??= {};
  if (Object.keys(data).length) obj.data = data;
  if (Object.keys(binaryData).length) obj.binaryData = binaryData;
  if (Object.keys(stringData).length) obj.stringData = stringData;
  return obj;
}

/**
 * A protobuf create body of a ConfigMap or a Secret (the resource's `kind`), as the JSON object it stands for. A body
 * that is not the envelope, or holds another kind, is the decoder's Bad Request.
 */
export function decodeProtobufConfig(body: Buffer, kind: 'ConfigMap' | 'Secret'): Record<string, unknown> {
  if (body.length < 4 || PREFIX.some((b, i) => body[i] !== b)) throw badRequest('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  try {
    let apiVersion = '';
    let sent = '';
    let raw: Uint8Array = new Uint8Array();
    for (const f of fields(body.subarray(4))) {
      if (f.n === 1) {
        for (const t of fields(bytes(f.v))) {
          if (t.n === 1) apiVersion = text(t.v);
          else if (t.n === 2) sent = text(t.v);
        }
      } else if (f.n === 2) raw = bytes(f.v);
    }
    if (sent !== kind || (apiVersion !== '' && apiVersion !== 'v1')) {
      throw badRequest(`the object provided is unrecognized (must be of type ${kind}): ${sent} in version ${JSON.stringify(apiVersion)} is not the ${kind} this resource holds`);
    }
    return configObject(kind, raw);
  } catch (e) {
    if (e instanceof ProtoError) throw badRequest(`the object provided is unrecognized (must be of type ${kind}): ${e.message}`);
    throw e;
  }
}
