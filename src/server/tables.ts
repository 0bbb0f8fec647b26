// Server-side printing: lists and objects as meta.k8s.io Tables, with the rows made by podlife's own
// printers (printPod, printEvent, printNode), so `kubectl get pods` shows READY, STATUS, RESTARTS and AGE
// exactly as the model computes them. Every column is sent; kubectl shows the priority-1 ones with -o wide.
// upstream: pkg/printers/internalversion/printers.go AddHandlers (column definitions), printPod, printEvent,
// printNode, printNamespace, printService, printConfigMap, printSecret; staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go
// (Table, TableRow)

import type { ConfigObject, KubeEvent, Node, Pod } from '../sim/index.ts';
import { EVENT_COLUMNS, EVENT_WIDE_COLUMNS, POD_COLUMNS, POD_WIDE_COLUMNS, printEvent, printPod, podRowCondition } from '../sim/render/table.ts';
import { NAMESPACE_COLUMNS, NODE_COLUMNS, NODE_WIDE_COLUMNS, printNamespace, printNode } from '../sim/render/cluster-table.ts';
import { SERVICE_COLUMNS, SERVICE_WIDE_COLUMNS, printService } from '../sim/render/service.ts';
import { CONFIGMAP_COLUMNS, SECRET_COLUMNS, printConfigMap, printSecret } from '../sim/render/config.ts';
import type { Namespace } from '../sim/api/namespaces.ts';
import type { Service } from '../sim/api/services.ts';
import { badRequest } from './status.ts';

export type TableResource = 'pods' | 'events' | 'nodes' | 'namespaces' | 'services' | 'configmaps' | 'secrets';
export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

const DESCRIPTIONS: Record<string, string> = {
  Name: 'Name must be unique within a namespace.',
  Age: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  Ready: 'The aggregate readiness state of this pod for accepting traffic.',
  Status: 'The aggregate status of the containers in this pod.',
  Restarts: 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
  IP: 'IP address allocated to the pod.',
  Node: 'NodeName is a request to schedule this pod onto a specific node.',
  'Nominated Node': 'nominatedNodeName is set only when this pod preempts other pods on the node.',
  'Readiness Gates': 'If specified, all readiness gates will be evaluated for pod readiness.',
  'Last Seen': 'The time at which the most recent occurrence of this event was recorded.',
  Type: 'Type of this event (Normal, Warning).',
  Reason: 'This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.',
  Object: 'The object that this event is about.',
  Subobject: 'The field of the object this event is about (spec.containers{name}).',
  Source: 'The component reporting this event.',
  Message: 'A human-readable description of the status of this operation.',
  'First Seen': 'The time at which the event was first recorded.',
  Count: 'The number of times this event has occurred.',
};

// A Service's columns are described by ServiceSpec's field docs, not reproduced here (kubectl does not print them);
// its Type is not an event's. Likewise a ConfigMap's and a Secret's Data and a Secret's Type (their fields' docs).
const SERVICE_DESCRIPTIONS: Record<string, string> = { Type: '' };
const CONFIG_DESCRIPTIONS: Record<string, string> = { Type: '', Data: '' };

function definitions(all: string[], shown: string[], nameColumns: string[], own: Record<string, string> = {}): ColumnDefinition[] {
  return all.map((name) => ({
    name,
    type: 'string',
    format: nameColumns.includes(name) ? 'name' : '',
    description: own[name] ?? DESCRIPTIONS[name] ?? '',
    priority: shown.includes(name) ? 0 : 1,
  }));
}

export function columnDefinitions(resource: TableResource): ColumnDefinition[] {
  switch (resource) {
    case 'pods':
      return definitions(POD_WIDE_COLUMNS, POD_COLUMNS, ['Name']);
    case 'events':
      // The name-format column is the event's own name, a wide one (kubectl adds the kind to it with --show-kind).
      return definitions(EVENT_WIDE_COLUMNS, EVENT_COLUMNS, ['Name']);
    case 'nodes':
      return definitions(NODE_WIDE_COLUMNS, NODE_COLUMNS, ['Name']);
    case 'namespaces':
      return definitions(NAMESPACE_COLUMNS, NAMESPACE_COLUMNS, ['Name']);
    case 'services':
      return definitions(SERVICE_WIDE_COLUMNS, SERVICE_COLUMNS, ['Name'], SERVICE_DESCRIPTIONS);
    case 'configmaps':
      return definitions(CONFIGMAP_COLUMNS, CONFIGMAP_COLUMNS, ['Name'], CONFIG_DESCRIPTIONS);
    case 'secrets':
      return definitions(SECRET_COLUMNS, SECRET_COLUMNS, ['Name'], CONFIG_DESCRIPTIONS);
  }
}

/** The cells of one row: every column, wide ones included. `now` is wall-clock ms. */
function cells(resource: TableResource, o: unknown, now: number): (string | number)[] {
  switch (resource) {
    case 'pods':
      return printPod(o as Pod, now, true);
    case 'events':
      return printEvent(o as KubeEvent, now, true);
    case 'nodes':
      return printNode(o as Node, now, true);
    case 'namespaces':
      return printNamespace(o as Namespace, now);
    case 'services':
      return printService(o as Service, now, true);
    // the key counts are int64 cells (a JSON number)
    case 'configmaps': {
      const [name, data, age] = printConfigMap(o as ConfigObject, now);
      return [name, Number(data), age];
    }
    case 'secrets': {
      const [name, type, data, age] = printSecret(o as ConfigObject, now);
      return [name, type, Number(data), age];
    }
  }
}

export function parseIncludeObject(value: string | null): IncludeObject {
  if (value === null || value === '') return 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  throw badRequest(`includeObject must be one of None, Metadata or Object, not ${JSON.stringify(value)}`);
}

function rowObject(o: { metadata: unknown }, include: IncludeObject, apiVersion: string): unknown {
  if (include === 'Object') return o;
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata };
}

export interface TableOptions {
  /** Wall-clock ms the ages are computed at. */
  now: number;
  include: IncludeObject;
  version: 'v1' | 'v1beta1';
  resourceVersion?: string;
  continueToken?: string;
  /** Leave out the column definitions (watch events after the first). */
  noHeaders?: boolean;
}

export function toTable(resource: TableResource, objects: { metadata: unknown }[], o: TableOptions): unknown {
  const apiVersion = `meta.k8s.io/${o.version}`;
  const rows = objects.map((obj) => {
    const row: Record<string, unknown> = { cells: cells(resource, obj, o.now) };
    const condition = resource === 'pods' ? podRowCondition(obj as Pod) : undefined;
    if (condition) row.conditions = [condition];
    if (o.include !== 'None') row.object = rowObject(obj, o.include, apiVersion);
    return row;
  });
  const metadata: Record<string, string> = {};
  if (o.resourceVersion !== undefined) metadata.resourceVersion = o.resourceVersion;
  if (o.continueToken) metadata.continue = o.continueToken;
  return {
    kind: 'Table',
    apiVersion,
    metadata,
    columnDefinitions: o.noHeaders ? null : columnDefinitions(resource),
    rows,
  };
}
