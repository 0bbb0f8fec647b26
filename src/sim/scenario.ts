// Scenario files (content/scenarios/*.yaml), the contract of issue 3:
//   title, titles?, seed?, description?, start?, timings?, cluster: {nodes?, images?}, timeline: [{at, run} | {at, apply}]
// Every problem is a ScenarioError naming the file, line and column and saying what is expected; manifests under
// `apply:` go through the API server's own decoding, defaulting and validation, pointed back at their lines.

import { LineCounter, parseDocument, isMap, isScalar, isSeq, type Document, type Node as YNode, type YAMLMap } from 'yaml';
import type { Taint } from './types.ts';
import { DurationError, parseDuration } from './core/duration.ts';
import { DEFAULT_TIMINGS, type Timings } from './core/timings.ts';
import type { EngineConfig, ImageBehaviour, NodeConfig } from './config.ts';
import { parseQuantity } from './api/quantity.ts';
import { ImageRefError, parseImageRef } from './api/imageref.ts';
import { decodePod } from './api/schema.ts';
import { admitPriority, defaultPodSpec } from './api/defaults.ts';
import { validatePodCreate, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './api/validation.ts';
import { errorString } from './api/fielderrors.ts';
import { validateSimAnnotations } from './kubelet/handlers.ts';
import { clone } from './core/clone.ts';
import { decodeConfig } from './api/configs.ts';

export class ScenarioError extends Error {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly hint?: string;
  constructor(message: string, where: { file: string; line?: number; column?: number; hint?: string }) {
    super(message);
    this.name = 'ScenarioError';
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
    this.hint = where.hint;
  }
}

export interface TimelineEntry {
  /** Virtual time in ms. */
  at: number;
  /** 1-based line and column of the entry in the scenario file. */
  line: number;
  column: number;
  run?: string;
  /** The manifest under `apply:`, parsed to an object (validated). */
  apply?: unknown;
  /** The manifest text as written. */
  applyText?: string;
  /** Namespace for `apply`: the manifest's own, else "default". */
  namespace?: string;
}

/**
 * The languages a scenario's `titles:` may name: the book's (src/site.ts `languages`, which src/sim cannot
 * import; tests/unit/sim/scenario.test.ts holds the two lists equal).
 */
export const TITLE_LANGUAGES = ['zh', 'en'] as const;
export type TitleLanguage = (typeof TITLE_LANGUAGES)[number];

export interface Scenario {
  file: string;
  title: string;
  /** The title in other languages (`titles: {zh: …}`); pages of a language without one show `title`. */
  titles?: Partial<Record<TitleLanguage, string>>;
  description?: string;
  seed?: number;
  /** Wall-clock epoch (ms) of virtual time 0, from `start:`. */
  start?: number;
  timings?: Partial<Timings>;
  cluster: { nodes: NodeConfig[]; images: Record<string, ImageBehaviour> };
  timeline: TimelineEntry[];
}

/** The title a page in `lang` shows: the scenario's title in that language, else its `title`. */
export function scenarioTitle(s: Pick<Scenario, 'title' | 'titles'>, lang: string): string {
  return (s.titles as Record<string, string> | undefined)?.[lang] ?? s.title;
}

const DURATION_HINT = 'write a Go/kubectl duration such as 500ms, 10s, 8m23s, 1h or 1m30s';

/** The cluster part of a scenario as createEngine takes it. */
export function scenarioToEngineConfig(s: Scenario): EngineConfig {
  const config: EngineConfig = { nodes: s.cluster.nodes, images: s.cluster.images };
  if (s.start !== undefined) config.start = s.start;
  if (s.timings) config.timings = s.timings;
  return config;
}

class Ctx {
  readonly file: string;
  readonly lc: LineCounter;
  readonly src: string;
  constructor(file: string, lc: LineCounter, src: string) {
    this.file = file;
    this.lc = lc;
    this.src = src;
  }
  pos(node: YNode | null | undefined): { line?: number; column?: number } {
    if (!node?.range) return {};
    const p = this.lc.linePos(node.range[0]);
    return { line: p.line, column: p.col };
  }
  fail(node: YNode | null | undefined, message: string, hint?: string): never {
    throw new ScenarioError(message, { file: this.file, ...this.pos(node), hint });
  }
}

function entries(ctx: Ctx, node: YNode | null | undefined, where: string, allowed: string[], required: string[] = []): Map<string, { key: YNode; value: YNode | null }> {
  if (!isMap(node)) ctx.fail(node, `${where} must be a mapping`, `expected keys: ${allowed.join(', ')}`);
  const out = new Map<string, { key: YNode; value: YNode | null }>();
  for (const pair of (node as YAMLMap).items) {
    const key = pair.key as YNode;
    const name = isScalar(key) ? String(key.value) : '';
    if (!allowed.includes(name)) {
      ctx.fail(key, `unknown field "${name}" in ${where}`, `expected one of: ${allowed.join(', ')}`);
    }
    out.set(name, { key, value: (pair.value as YNode | null) ?? null });
  }
  for (const r of required) if (!out.has(r)) ctx.fail(node, `${where} is missing the required field "${r}"`);
  return out;
}

function str(ctx: Ctx, node: YNode | null, what: string): string {
  if (!isScalar(node) || typeof node.value !== 'string') ctx.fail(node, `${what} must be a string`);
  return (node as { value: string }).value;
}

function duration(ctx: Ctx, node: YNode | null, what: string): number {
  if (isScalar(node) && node.value === 0) return 0;
  if (isScalar(node) && typeof node.value === 'number') {
    ctx.fail(node, `${what}: ${node.value} has no unit`, DURATION_HINT);
  }
  const text = str(ctx, node, what);
  try {
    return parseDuration(text);
  } catch (e) {
    if (e instanceof DurationError) ctx.fail(node, `${what}: ${e.message}`, DURATION_HINT);
    throw e;
  }
}

function parseIPv4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((a, p) => a * 256 + p, 0);
}

function parseNode(ctx: Ctx, node: YNode, idx: number): NodeConfig {
  const where = `cluster.nodes[${idx}]`;
  const e = entries(ctx, node, where, ['name', 'ip', 'podCIDR', 'capacity', 'images', 'labels', 'taints', 'unschedulable', 'kubeletVerbosity'], ['name', 'ip', 'podCIDR']);
  const name = str(ctx, e.get('name')!.value, `${where}.name`);
  const nameErr = isDNS1123Subdomain(name);
  if (nameErr.length) ctx.fail(e.get('name')!.value, `${where}.name "${name}" is not a valid node name: ${nameErr[0]}`);
  const ip = str(ctx, e.get('ip')!.value, `${where}.ip`);
  if (parseIPv4(ip) === undefined) ctx.fail(e.get('ip')!.value, `${where}.ip "${ip}" is not an IPv4 address`, 'for example 192.168.114.148');
  const cidrNode = e.get('podCIDR')!.value;
  const cidr = str(ctx, cidrNode, `${where}.podCIDR`);
  const cm = /^([\d.]+)\/(\d{1,2})$/.exec(cidr);
  if (!cm || parseIPv4(cm[1]) === undefined || Number(cm[2]) > 30 || Number(cm[2]) < 8) {
    ctx.fail(cidrNode, `${where}.podCIDR "${cidr}" is not an IPv4 CIDR with room for pods`, 'for example 10.244.5.0/24');
  }
  const out: NodeConfig = { name, ip, podCIDR: cidr };
  const cap = e.get('capacity');
  if (cap) {
    const ce = entries(ctx, cap.value, `${where}.capacity`, ['cpu', 'memory', 'pods', 'ephemeral-storage']);
    out.capacity = {};
    for (const [k, { value }] of ce) {
      if (!isScalar(value) || (typeof value.value !== 'string' && typeof value.value !== 'number')) {
        ctx.fail(value, `${where}.capacity.${k} must be a quantity such as "4", "500m", "8Gi"`);
      }
      const v = (value as { value: string | number }).value;
      const parsed = parseQuantity(v);
      if (parsed === undefined || parsed <= 0) {
        ctx.fail(value, `${where}.capacity.${k}: "${v}" is not a valid quantity`, 'quantities look like "4", "500m", "8Gi", "110"');
      }
      (out.capacity as Record<string, string | number>)[k] = v;
    }
  }
  const imgs = e.get('images');
  if (imgs) {
    if (!isSeq(imgs.value)) ctx.fail(imgs.value, `${where}.images must be a list of image references`);
    out.images = (imgs.value as { items: YNode[] }).items.map((item, i) => imageRef(ctx, item, `${where}.images[${i}]`));
  }
  const labels = e.get('labels');
  if (labels) {
    const le = entries(ctx, labels.value, `${where}.labels`, [...((labels.value as YAMLMap | null)?.items ?? []).map((p) => String((p.key as { value: unknown }).value))]);
    out.labels = {};
    for (const [k, { key, value }] of le) {
      const v = isScalar(value) ? String(value.value) : ctx.fail(value, `${where}.labels.${k} must be a string`);
      const errs = [...isQualifiedName(k), ...isValidLabelValue(v)];
      if (errs.length) ctx.fail(key, `${where}.labels: "${k}: ${v}" is not a valid label: ${errs[0]}`);
      out.labels[k] = v;
    }
  }
  const taints = e.get('taints');
  if (taints) {
    if (!isSeq(taints.value)) ctx.fail(taints.value, `${where}.taints must be a list`);
    out.taints = (taints.value as { items: YNode[] }).items.map((t, i) => {
      const te = entries(ctx, t, `${where}.taints[${i}]`, ['key', 'value', 'effect'], ['key', 'effect']);
      const effect = str(ctx, te.get('effect')!.value, `${where}.taints[${i}].effect`);
      if (!['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(effect)) {
        ctx.fail(te.get('effect')!.value, `${where}.taints[${i}].effect "${effect}" is not supported`, 'supported: NoSchedule, PreferNoSchedule, NoExecute');
      }
      const taint: Taint = { key: str(ctx, te.get('key')!.value, `${where}.taints[${i}].key`), effect: effect as Taint['effect'] };
      if (te.has('value')) taint.value = str(ctx, te.get('value')!.value, `${where}.taints[${i}].value`);
      return taint;
    });
  }
  const unsched = e.get('unschedulable');
  if (unsched) {
    if (!isScalar(unsched.value) || typeof unsched.value.value !== 'boolean') ctx.fail(unsched.value, `${where}.unschedulable must be true or false`);
    out.unschedulable = (unsched.value as { value: boolean }).value;
  }
  const verbosity = e.get('kubeletVerbosity');
  if (verbosity) {
    const v = verbosity.value;
    if (!isScalar(v) || typeof v.value !== 'number' || !Number.isInteger(v.value) || v.value < 0 || v.value > 10) {
      ctx.fail(v, `${where}.kubeletVerbosity must be a whole number from 0 to 10 (the kubelet's --v)`, 'for example 2, to see V(2) lines such as "Killing container with a grace period"');
    }
    out.kubeletVerbosity = (v as { value: number }).value;
  }
  return out;
}

function imageRef(ctx: Ctx, node: YNode | null, what: string): string {
  const ref = str(ctx, node, what);
  try {
    parseImageRef(ref);
  } catch (e) {
    if (e instanceof ImageRefError) ctx.fail(node, `${what}: "${ref}" is not a valid image reference: ${e.message}`, 'for example nginx:1.27, m.daocloud.io/docker.io/library/nginx:alpine or registry.example.com/team/app@sha256:<64 hex>');
    throw e;
  }
  return ref;
}

function parseImages(ctx: Ctx, node: YNode | null): Record<string, ImageBehaviour> {
  if (!isMap(node)) ctx.fail(node, 'cluster.images must be a mapping from image reference to {pull, size, error}');
  const out: Record<string, ImageBehaviour> = {};
  const seen = new Map<string, string>();
  for (const pair of (node as YAMLMap).items) {
    const key = pair.key as YNode;
    const ref = imageRef(ctx, key, 'cluster.images key');
    const norm = parseImageRef(ref).normalized;
    if (seen.has(norm)) ctx.fail(key, `cluster.images: "${ref}" names the same image as "${seen.get(norm)}"`);
    seen.set(norm, ref);
    const where = `cluster.images["${ref}"]`;
    const e = entries(ctx, pair.value as YNode, where, ['pull', 'size', 'error']);
    const b: ImageBehaviour = {};
    if (e.has('pull')) b.pull = duration(ctx, e.get('pull')!.value, `${where}.pull`);
    if (e.has('size')) {
      const v = e.get('size')!.value;
      const raw = isScalar(v) ? (v.value as string | number) : undefined;
      const size = raw === undefined ? undefined : parseByteSize(raw);
      if (size === undefined) ctx.fail(v, `${where}.size: "${String(raw)}" is not a size`, 'write bytes (2207025) or a size with a unit: 2.2MB, 30Mi, 1.5GB');
      b.size = size;
    }
    if (e.has('error')) b.error = str(ctx, e.get('error')!.value, `${where}.error`);
    out[ref] = b;
  }
  return out;
}

function parseTitles(ctx: Ctx, node: YNode | null): Partial<Record<TitleLanguage, string>> {
  const hint = `write e.g. titles: {zh: "容器反复崩溃"}, with one of the book's languages (${TITLE_LANGUAGES.join(', ')}) per title`;
  if (!isMap(node)) ctx.fail(node, 'titles must be a mapping of language to title', hint);
  const out: Partial<Record<TitleLanguage, string>> = {};
  for (const pair of (node as YAMLMap).items) {
    const key = pair.key as YNode;
    const lang = isScalar(key) ? String(key.value) : '';
    if (!(TITLE_LANGUAGES as readonly string[]).includes(lang)) ctx.fail(key, `titles: unknown language "${lang}"`, hint);
    const value = (pair.value as YNode | null) ?? null;
    const title = str(ctx, value, `titles.${lang}`);
    if (!title.trim()) ctx.fail(value, `titles.${lang} must not be empty`, hint);
    out[lang as TitleLanguage] = title;
  }
  return out;
}

function parseTimings(ctx: Ctx, node: YNode | null): Partial<Timings> {
  const keys = Object.keys(DEFAULT_TIMINGS);
  const e = entries(ctx, node, 'timings', keys);
  const out: Partial<Timings> = {};
  for (const [k, { value }] of e) {
    if (k === 'jitter') {
      if (!isScalar(value) || typeof value.value !== 'number' || value.value < 0 || value.value > 1) ctx.fail(value, 'timings.jitter must be a number between 0 and 1');
      out.jitter = (value as { value: number }).value;
      continue;
    }
    (out as Record<string, number>)[k] = duration(ctx, value, `timings.${k}`);
  }
  return out;
}

/** A manifest under `apply:`: parse it, then decode, default and validate it as the API server would. */
function parseManifest(ctx: Ctx, node: YNode | null, where: string): { obj: unknown; text: string; namespace: string } {
  if (!isScalar(node) || typeof node.value !== 'string') ctx.fail(node, `${where} must be a manifest written as a block scalar (apply: |)`);
  const scalar = node as { value: string; type?: string; range?: [number, number, number] };
  const text = scalar.value;
  const start = ctx.pos(node as YNode);
  const block = scalar.type === 'BLOCK_LITERAL' || scalar.type === 'BLOCK_FOLDED';
  // map a line/column inside the manifest to the scenario file
  const firstContentLine = block ? (start.line ?? 1) + 1 : (start.line ?? 1);
  const at = (line: number, col: number): { line: number; column: number } => ({ line: firstContentLine + line - 1, column: col + (block ? blockIndent(ctx, firstContentLine) : (start.column ?? 1) - 1) });
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length) {
    const err = doc.errors[0];
    const p = lc.linePos(err.pos[0]);
    if (err.code === 'MULTIPLE_DOCS') {
      throw new ScenarioError(`${where}: an apply holds one manifest, and this one has a second document after ---`, { file: ctx.file, ...at(p.line, p.col), hint: 'split it into two timeline entries, one apply each' });
    }
    throw new ScenarioError(`${where}: the manifest is not valid YAML: ${err.message.split('\n')[0]}`, { file: ctx.file, ...at(p.line, p.col) });
  }
  const obj = doc.toJS() as any;
  const failAtPath = (path: string, message: string, hint?: string): never => {
    const target = nodeAtPath(doc, path);
    const p = target?.range ? lc.linePos(target.range[0]) : { line: 1, col: 1 };
    throw new ScenarioError(`${where}: ${message}`, { file: ctx.file, ...at(p.line, p.col), hint });
  };
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) failAtPath('', 'the manifest must be a mapping (a Pod object)');
  if (obj.kind !== 'Pod' && obj.kind !== 'ConfigMap' && obj.kind !== 'Secret') failAtPath('kind', `kind ${obj.kind === undefined ? 'is missing' : `"${obj.kind}" is not supported`}`, 'scenarios apply Pods, ConfigMaps and Secrets: kind: Pod');
  if (obj.apiVersion !== 'v1') failAtPath('apiVersion', `apiVersion ${obj.apiVersion === undefined ? 'is missing' : `"${obj.apiVersion}" does not match the expected API version (v1)`}`, 'apiVersion: v1');
  const namespace = typeof obj.metadata?.namespace === 'string' ? obj.metadata.namespace : 'default';
  if (obj.kind !== 'Pod') {
    // the API server's own decoding and validation of a ConfigMap or Secret, pointed at the field it names
    const d = decodeConfig(namespace, obj, 'Strict', () => 'xxxxx');
    if (!d.ok) failAtPath(d.errors?.[0].field ?? /unknown field "([^"]+)"/.exec(d.status.message)?.[1] ?? '', d.status.message);
    return { obj, text, namespace };
  }
  const problem = decodePod(obj);
  if (problem) failAtPath(problem.path, `Pod in version "v1" cannot be handled as a Pod: ${problem.message}`);
  const copy = clone(obj);
  copy.metadata ??= {};
  copy.spec ??= {};
  defaultPodSpec(copy.spec, { volumeSuffix: 'xxxxx' });
  const forbidden = admitPriority(copy.spec, copy.metadata.name ?? '');
  if (forbidden) failAtPath('spec.priority', forbidden, 'set spec.priorityClassName (system-cluster-critical or system-node-critical) instead of spec.priority');
  const errs = validatePodCreate(copy);
  if (errs.length) {
    const first = errs[0];
    failAtPath(first.field, `Pod "${copy.metadata.name ?? ''}" is invalid: ${errorString(first)}`, errs.length > 1 ? `${errs.length - 1} more problem(s): ${errs.slice(1).map(errorString).join('; ')}` : undefined);
  }
  const simErrs = validateSimAnnotations(obj);
  if (simErrs.length) failAtPath('metadata.annotations', simErrs[0]);
  return { obj, text, namespace };
}

function blockIndent(ctx: Ctx, fileLine: number): number {
  // the indentation of a block scalar's first content line: what YAML strips from every line
  const begin = ctx.lc.lineStarts[fileLine - 1] ?? 0;
  let n = 0;
  while (ctx.src[begin + n] === ' ') n++;
  return n;
}

/** The YAML node for a field path like "spec.containers[0].image"; the deepest existing ancestor when missing. */
function nodeAtPath(doc: Document, path: string): YNode | undefined {
  const parts = path.match(/[^.[\]]+/g) ?? [];
  let cur: YNode | undefined = doc.contents as YNode | undefined;
  for (const [i, part] of parts.entries()) {
    if (isMap(cur)) {
      const pair = cur.items.find((p) => isScalar(p.key) && String(p.key.value) === part);
      if (!pair) return cur;
      // point at the key of the last field: that is where a reader looks for "unknown field" or "invalid value"
      cur = i === parts.length - 1 || !pair.value ? (pair.key as YNode) : (pair.value as YNode);
    } else if (isSeq(cur)) {
      const item = cur.items[Number(part)] as YNode | undefined;
      if (!item) return cur;
      cur = item;
    } else return cur;
  }
  return cur;
}

/** Parse and check a scenario file's text. `file` names it in errors. */
export function parseScenario(text: string, file: string): Scenario {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  const ctx = new Ctx(file, lc, text);
  if (doc.errors.length) {
    const err = doc.errors[0];
    const p = lc.linePos(err.pos[0]);
    throw new ScenarioError(`invalid YAML: ${err.message.split('\n')[0]}`, { file, line: p.line, column: p.col, hint: 'check the indentation and quoting around this place' });
  }
  const root = doc.contents as YNode | null;
  if (!root) throw new ScenarioError('the scenario file is empty', { file, line: 1, column: 1, hint: 'a scenario needs at least title, cluster and timeline' });
  const e = entries(ctx, root, 'the scenario', ['title', 'titles', 'seed', 'description', 'start', 'timings', 'cluster', 'timeline'], ['title', 'timeline']);
  const title = str(ctx, e.get('title')!.value, 'title');
  if (!title.trim()) ctx.fail(e.get('title')!.value, 'title must not be empty');
  const scenario: Scenario = { file, title, cluster: { nodes: [], images: {} }, timeline: [] };
  if (e.has('titles')) scenario.titles = parseTitles(ctx, e.get('titles')!.value);
  if (e.has('description')) scenario.description = str(ctx, e.get('description')!.value, 'description');
  if (e.has('seed')) {
    const v = e.get('seed')!.value;
    if (!isScalar(v) || typeof v.value !== 'number' || !Number.isInteger(v.value) || v.value < 0 || v.value > 0xffffffff) {
      ctx.fail(v, 'seed must be a non-negative integer (up to 4294967295)');
    }
    scenario.seed = (v as { value: number }).value;
  }
  if (e.has('start')) {
    const v = e.get('start')!.value;
    const s = isScalar(v) ? (v.value instanceof Date ? v.value.toISOString() : String(v.value)) : '';
    const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) ? Date.parse(s) : NaN;
    if (Number.isNaN(ms)) ctx.fail(v, `start: "${s}" is not an RFC 3339 time`, 'for example 2026-08-04T03:00:00Z');
    scenario.start = ms;
  }
  if (e.has('timings')) scenario.timings = parseTimings(ctx, e.get('timings')!.value);
  if (e.has('cluster')) {
    const ce = entries(ctx, e.get('cluster')!.value, 'cluster', ['nodes', 'images']);
    const nodes = ce.get('nodes');
    if (nodes) {
      if (!isSeq(nodes.value) || nodes.value.items.length === 0) ctx.fail(nodes.value, 'cluster.nodes must be a non-empty list of nodes');
      const names = new Set<string>();
      (nodes.value as { items: YNode[] }).items.forEach((n, i) => {
        const nc = parseNode(ctx, n, i);
        if (names.has(nc.name)) ctx.fail(n, `cluster.nodes[${i}]: duplicate node name "${nc.name}"`);
        names.add(nc.name);
        scenario.cluster.nodes.push(nc);
      });
    }
    if (ce.has('images')) scenario.cluster.images = parseImages(ctx, ce.get('images')!.value);
  }
  const tl = e.get('timeline')!.value;
  if (!isSeq(tl)) ctx.fail(tl, 'timeline must be a list of {at, run} or {at, apply} entries');
  let prev = 0;
  (tl as { items: YNode[] }).items.forEach((item, i) => {
    const where = `timeline[${i}]`;
    const te = entries(ctx, item, where, ['at', 'run', 'apply'], ['at']);
    const atNode = te.get('at')!.value;
    const at = duration(ctx, atNode, `${where}.at`);
    if (at < prev) ctx.fail(atNode, `${where}.at ${formatAt(at)} comes before the previous entry's ${formatAt(prev)}`, 'timeline entries must be in time order');
    prev = at;
    const pos = ctx.pos(item);
    const entry: TimelineEntry = { at, line: pos.line ?? 1, column: pos.column ?? 1 };
    if (te.has('run') === te.has('apply')) ctx.fail(item, `${where} must have exactly one of "run" (a command line) or "apply" (a manifest)`);
    if (te.has('run')) {
      const cmd = str(ctx, te.get('run')!.value, `${where}.run`);
      if (!cmd.trim()) ctx.fail(te.get('run')!.value, `${where}.run must not be empty`);
      entry.run = cmd;
    } else {
      const m = parseManifest(ctx, te.get('apply')!.value, `${where}.apply`);
      entry.apply = m.obj;
      entry.applyText = m.text;
      entry.namespace = m.namespace;
    }
    scenario.timeline.push(entry);
  });
  return scenario;
}

function formatAt(ms: number): string {
  if (ms === 0) return '0s';
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}

/** Sizes in scenario files: "2.2MB", "30Mi", "2207025" (bytes; MB/GB decimal as registries print them). */
export function parseByteSize(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isInteger(text) && text >= 0 ? text : undefined;
  const m = /^(\d+(?:\.\d+)?)\s*(B|kB|KB|MB|GB|TB|Ki|Mi|Gi|Ti|KiB|MiB|GiB|TiB|k|M|G|T)?$/.exec(text.trim());
  if (!m) return undefined;
  const mult: Record<string, number> = {
    B: 1, k: 1e3, kB: 1e3, KB: 1e3, M: 1e6, MB: 1e6, G: 1e9, GB: 1e9, T: 1e12, TB: 1e12,
    Ki: 1024, KiB: 1024, Mi: 2 ** 20, MiB: 2 ** 20, Gi: 2 ** 30, GiB: 2 ** 30, Ti: 2 ** 40, TiB: 2 ** 40,
  };
  return Math.round(parseFloat(m[1]) * (m[2] ? mult[m[2]] : 1));
}
