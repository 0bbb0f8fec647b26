// `kubectl events`: the namespace's events (or one object's, --for TYPE/NAME), oldest first, in the events command's
// own table: LAST SEEN with "(xN over …)" for a repeated event, and the involved object as Kind/name.
// upstream: kubectl pkg/cmd/events/events.go (v0.36.2: ToOptions, Validate, Run, SortableEvents, eventTime),
// event_printer.go (EventPrinter, getInterval)

import { parseRfc3339 } from '../../render/clock.ts';
import { eventInterval } from '../../render/table.ts';
import { KUBECTL_TABLE, tabulate } from '../../render/tabwriter.ts';
import type { ClusterState, KubeEvent } from '../../types.ts';
import { type ExecContext, nowOf } from '../context.ts';
import { type FlagSpec, type ParsedArgs, arr, bool, str } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import { KubectlError, eventsIn, namespaceOf, out, resolveKind } from './common.ts';
import { fileReader, inStructOrder, OBJECT_META_ORDER, objectsOnlyOutput, type Order, type OutputFormat, PRINT_FLAGS, printObject } from './output.ts';
import { goJson } from '../../render/json.ts';
import { select } from './selectors.ts';
import { RememberingTable, byKey, requestTimeout, watchFuture } from './watch.ts';
import { noFuture } from '../follow.ts';

export const EVENTS_FLAGS: FlagSpec[] = [
  ...PRINT_FLAGS,
  { name: 'all-namespaces', shorthand: 'A', type: 'bool' },
  { name: 'for', type: 'string' },
  { name: 'types', type: 'stringArray' },
  { name: 'watch', shorthand: 'w', type: 'bool' },
  { name: 'no-headers', type: 'bool' },
  { name: 'chunk-size', type: 'int' },
];

/** core/v1 Event and EventList, as k8s.io/api declares them. */
const EVENT_ORDER: Order = {
  keys: [
    'kind', 'apiVersion', 'metadata', 'involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count',
    'type', 'eventTime', 'series', 'action', 'related', 'reportingComponent', 'reportingInstance',
  ],
  nested: {
    metadata: OBJECT_META_ORDER,
    involvedObject: { keys: ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] },
    source: { keys: ['component', 'host'] },
  },
};
const EVENT_LIST_ORDER: Order = { keys: ['kind', 'apiVersion', 'metadata', 'items'], nested: { items: EVENT_ORDER } };

/**
 * The time `kubectl events` sorts events by: a series' last observation, else lastTimestamp, else eventTime (an
 * events.k8s.io/v1 event has no lastTimestamp). (`describe` sorts by lastTimestamp alone.)
 */
// upstream: kubectl pkg/cmd/events/events.go eventTime
function eventSortTime(e: KubeEvent): number {
  const t = e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime;
  return t ? parseRfc3339(t) : 0;
}

const KINDS: Record<string, string> = {
  pods: 'Pod', nodes: 'Node', namespaces: 'Namespace', events: 'Event', services: 'Service', configmaps: 'ConfigMap', secrets: 'Secret',
};

export function kubectlEvents(p: ParsedArgs, ctx: ExecContext): CommandResult {
  const allNamespaces = bool(p, 'all-namespaces');
  const namespace = namespaceOf(ctx, str(p, 'namespace'));
  // --for TYPE/NAME: the object's kind, apiVersion and name as a field selector
  let fieldSelector = '';
  const forObject = str(p, 'for');
  if (forObject) {
    if (!forObject.includes('/')) throw new KubectlError('--for must be in resource/name form');
    const seg = forObject.split('/');
    if (seg.length !== 2) throw new KubectlError('arguments in resource/name form may not have more than one slash');
    let kind: string;
    try {
      kind = KINDS[resolveKind(seg[0])];
    } catch (e) {
      // the RESTMapper's no-match error, which CheckErr prints as its standard message, without "error: "
      if (e instanceof KubectlError && e.message.startsWith("the server doesn't have a resource type")) return out('', `${e.message}\n`, 1);
      throw e;
    }
    fieldSelector = `involvedObject.kind=${kind},involvedObject.apiVersion=v1,involvedObject.name=${seg[1]}`;
  }
  const format = objectsOnlyOutput(p, fileReader(ctx));
  // --types: Normal and/or Warning, whatever their case
  const types = [...new Set(arr(p, 'types').flatMap((t) => t.split(',')))].sort();
  if (types.some((t) => t.toLowerCase() !== 'normal' && t.toLowerCase() !== 'warning')) throw new KubectlError('valid --types are Normal or Warning');
  const ofTypes = (e: KubeEvent): boolean => types.length === 0 || types.some((t) => t.toLowerCase() === e.type.toLowerCase());
  /** The events of a state the command shows, in the API server's storage order (namespace, name). */
  const shown = (state: ClusterState): KubeEvent[] => select(eventsIn({ state }, allNamespaces ? undefined : namespace), 'events', '', fieldSelector).filter(ofTypes);
  if (bool(p, 'watch')) return eventsWatch(p, ctx, shown, format, allNamespaces);

  const events = shown(ctx.state)
    // sort.Sort(SortableEvents): by eventTime (stable here; Go's sort of a dozen or fewer is an insertion sort)
    .map((e, i) => [e, i] as const)
    .sort(([a, i], [b, j]) => eventSortTime(a) - eventSortTime(b) || i - j)
    .map(([e]) => e);
  if (events.length === 0) return out('', allNamespaces ? 'No events found.\n' : `No events found in ${namespace} namespace.\n`);
  // the name printer refuses a typed list ("list types are not supported by name printing"), and Run does not
  // look at PrintObj's error: -o name prints nothing
  if (format?.kind === 'name') return out('');
  if (format) {
    const list = { kind: 'EventList', apiVersion: 'v1', metadata: {}, items: events.map((e) => ({ ...e, kind: 'Event', apiVersion: 'v1' })) };
    // a typed list: -o json prints it in the Go structs' field order (yaml and jsonpath sort, as ever)
    if (format.kind === 'json') return out(`${goJson(inStructOrder(list, EVENT_LIST_ORDER), '    ', false)}\n`);
    return out(printObject(list, format, ''));
  }
  const now = nowOf(ctx);
  const rows = events.map((e) => eventRow(e, now, allNamespaces));
  return out(tabulate(bool(p, 'no-headers') ? rows : [eventHeaders(allNamespaces), ...rows], KUBECTL_TABLE));
}

// upstream: kubectl pkg/cmd/events/event_printer.go printHeadings, printOneEvent
const eventHeaders = (allNamespaces: boolean): string[] => [...(allNamespaces ? ['NAMESPACE'] : []), 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'];
const eventRow = (e: KubeEvent, now: number, allNamespaces: boolean): string[] => [
  ...(allNamespaces ? [e.metadata.namespace ?? ''] : []),
  eventInterval(e, now), e.type, e.reason, `${e.involvedObject.kind}/${e.involvedObject.name}`, e.message.trim(),
];

/**
 * `kubectl events -w`: a watch of the events from now (no resourceVersion), so the API server first sends each event
 * it has as ADDED, in storage order, then each new or updated one (a repeat's count) as it happens; a deleted event
 * (an hour old) is not printed. Each is printed on its own: the table's header once, then a row per event through
 * kubectl's remembering tab writer, its LAST SEEN as of that moment. No "No events found": the watch waits.
 */
// upstream: kubectl pkg/cmd/events/events.go (*EventsOptions).runWatch; event_printer.go (EventPrinter).PrintObj
function eventsWatch(p: ParsedArgs, ctx: ExecContext, shown: (state: ClusterState) => KubeEvent[], format: OutputFormat | undefined, allNamespaces: boolean): CommandResult {
  const timeout = requestTimeout(p);
  const writer = new RememberingTable();
  let header = bool(p, 'no-headers');
  let text = '';
  let printed = 0;
  const print = (e: KubeEvent, now: number): void => {
    if (!format) {
      writer.flush(header ? [eventRow(e, now, allNamespaces)] : [eventHeaders(allNamespaces), eventRow(e, now, allNamespaces)]);
      header = true;
      return;
    }
    const ev = { ...e, kind: 'Event', apiVersion: 'v1' };
    // a typed Event: -o json in the Go struct's field order; the YAML printer starts each document after its first with ---
    if (format.kind === 'json') text += `${goJson(inStructOrder(ev, EVENT_ORDER), '    ', false)}\n`;
    else text += (format.kind === 'yaml' && printed > 0 ? '---\n' : '') + printObject(ev, format, `event/${e.metadata.name}`);
    printed++;
  };
  const first = shown(ctx.state);
  const now = nowOf(ctx);
  for (const e of first) print(e, now);
  const output = (): string => (format ? text : writer.text);
  const future = ctx.future?.();
  if (!future) return out(output(), noFuture('watching (-w)', 'run the command again at a later time'), 0);
  const note = watchFuture(future, ctx.state.t, timeout, byKey(first), (state) => byKey(shown(state)), (c, at) => {
    if (c.type !== 'DELETED') print(c.object, at + ctx.state.epoch);
  });
  // the watch's end (its timeout) is not an error: runWatch returns nil
  return out(output(), note, 0);
}
