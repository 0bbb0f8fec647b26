// `kubectl get -w` (--watch, --watch-only): the objects now, then one line per change the API server's watch sends
// (ADDED, MODIFIED, DELETED), each printed as the server prints it at the moment of the change. podlife reads the
// changes from the cluster's future (the moments it changed, the state at each), as `kubectl wait` does; a watch that
// would run until interrupted ends where the run shown ends, at --request-timeout, or once nothing it shows has
// changed for ten minutes (an hour at most), with a note on stderr.
// upstream: kubectl pkg/cmd/get/get.go (*GetOptions).watch; cli-runtime pkg/printers/tabwriter.go (RememberWidths);
//           apiserver pkg/storage/cacher/cache_watcher.go convertToWatchEvent (an object that stops matching a
//           selector is DELETED for the watcher, one that starts matching is ADDED)

import type { ClusterState, KubeEvent, Node, Pod } from '../../types.ts';
import type { Namespace } from '../../api/namespaces.ts';
import type { Service } from '../../api/services.ts';
import { KUBECTL_TABLE } from '../../render/tabwriter.ts';
import { formatGoDuration, parseGoDuration } from '../../render/duration.ts';
import { type ParsedArgs, arr, bool, str } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import { type ClusterFuture, type ExecContext, nowOf } from '../context.ts';
import { KubectlError, type ResourceKind, clusterScoped, namespaceOf, notFound, out, singular } from './common.ts';
import { type OutputFormat, customColumnRows, printObject } from './output.ts';
import { select } from './selectors.ts';
import { FOLLOW_HORIZON_MS, followFuture, noFuture } from '../follow.ts';
import { type TableOptions, listOf, tableCells } from './get.ts';

type Obj = Pod | KubeEvent | Node | Namespace | Service;
export type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** --request-timeout: an integer of seconds, or one with a unit (clientcmd's rule); 0 or none: no timeout. */
export function requestTimeout(p: ParsedArgs): number {
  const v = str(p, 'request-timeout');
  if (v === '' || v === '0') return 0;
  const d = /^\d+$/.test(v) ? { ok: true as const, ms: Number(v) * 1000 } : parseGoDuration(v);
  if (!d.ok || d.ms < 0) {
    throw new KubectlError('Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)');
  }
  return d.ms;
}

/**
 * kubectl's tab writer (a fork of Go's, github.com/liggitt/tabwriter, with the flag RememberWidths): each column keeps
 * the widest it has been across flushes, so the rows a watch flushes one by one stay aligned with the table before
 * them, and widen (never narrow) for a longer cell. The rows of a table all have the same cells, so each flush aligns
 * as one block: a column is as wide as its widest cell plus the padding, at least the minimum width, at least what
 * it was; the last cell of a row is not padded.
 */
// upstream: cli-runtime pkg/printers/tabwriter.go GetNewTabWriter; liggitt/tabwriter format (RememberWidths)
export class RememberingTable {
  readonly #widths: number[] = [];
  #out = '';

  flush(rows: string[][]): void {
    const { minwidth, padding } = KUBECTL_TABLE;
    const length = (s: string) => [...s].length;
    const columns = Math.max(0, ...rows.map((r) => r.length - 1));
    for (let c = 0; c < columns; c++) {
      const widest = Math.max(minwidth, ...rows.map((r) => (c < r.length - 1 ? length(r[c]) + padding : 0)));
      this.#widths[c] = Math.max(this.#widths[c] ?? 0, widest);
    }
    for (const r of rows) this.#out += `${r.map((cell, c) => (c < r.length - 1 ? cell + ' '.repeat(this.#widths[c] - length(cell)) : cell)).join('')}\n`;
  }

  get text(): string {
    return this.#out;
  }
}

/** --output-watch-events: the table printer pads each type to eight characters (formatEventType). */
// upstream: cli-runtime pkg/printers/tableprinter.go formattedEventType
const EVENT_TYPE: Record<WatchType, string> = { ADDED: 'ADDED   ', MODIFIED: 'MODIFIED', DELETED: 'DELETED ' };

const keyOf = (o: Obj): string => `${(o.metadata as { namespace?: string }).namespace ?? ''}/${o.metadata.name}`;

/** A watch's view of its objects: by storage key (namespace/name), what `watchFuture` compares. */
export const byKey = <T extends Obj>(objects: T[]): Map<string, T> => new Map(objects.map((o) => [keyOf(o), o]));
const rvOf = (o: Obj): number => Number(o.metadata.resourceVersion) || 0;

/**
 * The watch events between two views of the watched objects: deletions first, then writes in resourceVersion order.
 * An object changed when its resourceVersion did (the views may come from two runs of the same cluster: the moment
 * the command runs at, and the future it looks into).
 */
function changes<T extends Obj>(before: Map<string, T>, after: Map<string, T>): { type: WatchType; object: T }[] {
  const deleted: { type: WatchType; object: T }[] = [];
  const written: { type: WatchType; object: T }[] = [];
  for (const [key, o] of after) {
    const prev = before.get(key);
    if (prev !== undefined && prev.metadata.uid !== o.metadata.uid) deleted.push({ type: 'DELETED', object: prev });
    if (prev === undefined || prev.metadata.uid !== o.metadata.uid) written.push({ type: 'ADDED', object: o });
    else if (prev.metadata.resourceVersion !== o.metadata.resourceVersion) written.push({ type: 'MODIFIED', object: o });
  }
  for (const [key, prev] of before) if (!after.has(key)) deleted.push({ type: 'DELETED', object: prev });
  written.sort((x, y) => rvOf(x.object) - rvOf(y.object));
  return [...deleted, ...written];
}

/**
 * `sources`: how many sources the resource builder has (a name each, or a file each with -f): kubectl watches one. One
 * file of several objects is one source, which kubectl refuses with its own message.
 */
export function getWatch(
  p: ParsedArgs, ctx: ExecContext, format: OutputFormat, groups: { kind: ResourceKind; names: string[] }[], sources = groups[0]?.names.length ?? 0,
): CommandResult {
  if (groups.length !== 1) throw new KubectlError('you may only specify a single resource type');
  const events = bool(p, 'output-watch-events');
  if (events && format.kind !== 'table') throw new KubectlError('podlife: --output-watch-events is supported with the table output only');
  const timeout = requestTimeout(p);
  const { kind, names } = groups[0];
  const allNamespaces = bool(p, 'all-namespaces');
  const namespace = clusterScoped(kind) || allNamespaces ? undefined : namespaceOf(ctx, str(p, 'namespace'));
  const selector = str(p, 'selector');
  const fieldSelector = str(p, 'field-selector');
  /** What the watch shows of a state: the objects named (a name given twice, twice), or those the selectors match. */
  const objects = (state: ClusterState): Obj[] => {
    const items = listOf({ state }, kind, namespace) as Obj[];
    return select(names.length > 0 ? names.flatMap((n) => items.filter((o) => o.metadata.name === n)) : items, kind, selector, fieldSelector);
  };
  const watched = (state: ClusterState): Map<string, Obj> => byKey(objects(state));

  // the builder's objects now: a name not found is the server's NotFound, before anything is printed
  const now = objects(ctx.state);
  const first = byKey(now);
  const missing = names.find((n) => !first.has(`${namespace ?? ''}/${n}`));
  if (missing !== undefined) return bool(p, 'ignore-not-found') ? out('') : out('', notFound(kind, missing), 1);

  const table: TableOptions = {
    wide: format.kind === 'table' && format.wide, now: 0, withKind: bool(p, 'show-kind'), allNamespaces, noHeaders: bool(p, 'no-headers'),
    labelColumns: arr(p, 'label-columns').flatMap((l) => l.split(',')).filter((l) => l !== ''), showLabels: bool(p, 'show-labels'),
  };
  // one tab writer for the whole watch, flushed after the objects now and after each change
  const writer = new RememberingTable();
  let header = table.noHeaders;
  let printed = 0;
  let text = '';
  const print = (objects: Obj[], types: WatchType[], t: number): void => {
    if (objects.length === 0) return;
    // the custom-columns printer writes its header the first time, then its rows, into the watch's tab writer
    if (format.kind === 'custom-columns') {
      const rows = customColumnRows(objects, format.columns);
      writer.flush(header || format.noHeaders ? rows : [format.columns.map((c) => c.header), ...rows]);
      header = true;
      return;
    }
    if (format.kind === 'table') {
      const cells = tableCells(kind, objects, { ...table, now: t });
      const rows = events ? cells.rows.map((r, i) => [EVENT_TYPE[types[i]], ...r]) : cells.rows;
      writer.flush(header ? rows : [[...(events ? ['EVENT'] : []), ...cells.headers], ...rows]);
      header = true;
      return;
    }
    for (const o of objects) {
      // the YAML printer starts each document after its first with ---
      text += (format.kind === 'yaml' && printed > 0 ? '---\n' : '') + printObject(o, format, `${singular[kind]}/${o.metadata.name}`);
      printed++;
    }
  };
  const output = (): string => (format.kind === 'table' || format.kind === 'custom-columns' ? writer.text : text);

  const start = ctx.state.t;
  if (!bool(p, 'watch-only')) print(now, now.map(() => 'ADDED'), nowOf(ctx));
  // a watch of one object by name, or of several: kubectl prints the objects, then refuses to watch more than one source
  // upstream: cli-runtime pkg/resource/result.go (*Result).Watch
  if (sources > 1) return out(output(), 'error: you may only watch a single resource or type of resource at a time\n', 1);
  if (names.length > 1) return out(output(), `error: watch is only supported on individual resources and resource collections - ${names.length} resources were found\n`, 1);
  const future = ctx.future?.();
  if (!future) return out(output(), noFuture('watching (-w)', 'run the command again at a later time'), 0);

  // each change printed and flushed on its own, as kubectl prints the events of its watch
  const note = watchFuture(future, start, timeout, first, watched, (c, at) => print([c.object], [c.type], at + ctx.state.epoch));
  // a watch that ends (its timeout) ends kubectl get without an error
  return out(output(), note, 0);
}

/**
 * The watch's events from `start` on, read from the cluster's future: `onChange` for each, at the moment of the change.
 * The watch ends at --request-timeout (`timeout`, 0 for none), where the run shown ends, or once nothing it shows has
 * changed for ten minutes (an hour at most); the note on stderr says which, and is empty for a timeout.
 */
export function watchFuture<T extends Obj>(
  future: ClusterFuture,
  start: number,
  timeout: number,
  first: Map<string, T>,
  watched: (state: ClusterState) => Map<string, T>,
  onChange: (change: { type: WatchType; object: T }, at: number) => void,
): string {
  let before = first;
  let lastChange = start;
  const limit = start + (timeout > 0 ? timeout : FOLLOW_HORIZON_MS);
  const end = followFuture(future, start, limit, (from, to) => {
    for (const at of future.times(from, to)) {
      const after = watched(future.stateAt(at));
      const found = changes(before, after);
      for (const c of found) onChange(c, at);
      if (found.length > 0) lastChange = at;
      before = after;
    }
    return true;
  }, () => lastChange, timeout === 0);
  if (end.why === 'run') return `podlife: the run shown ends at ${formatGoDuration(end.at)}: the watch stops there (kubectl would go on watching)\n`;
  if (end.why === 'quiet') {
    return `podlife: nothing this watch shows changed from ${formatGoDuration(end.last)} to ${formatGoDuration(end.at)}: it stops there (kubectl would go on until interrupted; --request-timeout ends a watch when you choose)\n`;
  }
  return timeout === 0 ? `podlife: the watch stops after an hour, at ${formatGoDuration(limit)} (kubectl would go on until interrupted; --request-timeout ends a watch when you choose)\n` : '';
}
