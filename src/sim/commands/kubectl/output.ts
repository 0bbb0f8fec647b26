// kubectl's -o printers for objects: yaml, json, name, jsonpath, custom-columns, go-template (k8s.io/cli-runtime/pkg/printers,
// k8s.io/kubectl/pkg/cmd/get/customcolumn.go).

import { GoTemplate, TemplateError, printGoTemplate } from '../../render/gotemplate.ts';
import { goJson, sortedCopy } from '../../render/json.ts';
import { JsonPath, JsonPathError, goPrint, goSyntax, relaxedJsonPathExpression } from '../../render/jsonpath.ts';
import { KUBECTL_TABLE, tabulate } from '../../render/tabwriter.ts';
import { toYaml } from '../../render/yaml.ts';
import { type FlagSpec, type ParsedArgs, bool, str } from '../flags.ts';
import { KubectlError } from './common.ts';

export type OutputFormat =
  | { kind: 'table'; wide: boolean }
  | { kind: 'yaml' }
  | { kind: 'json' }
  | { kind: 'name' }
  | { kind: 'jsonpath'; template: string; asJson?: boolean; allowMissingKeys?: boolean }
  | { kind: 'go-template'; template: GoTemplate; raw: string; allowMissingKeys: boolean }
  | { kind: 'custom-columns'; columns: CustomColumn[]; noHeaders: boolean };

/** One column of -o custom-columns: its header and its JSONPath template (`{.a.b}`). */
export interface CustomColumn {
  header: string;
  path: JsonPath;
}

const ALLOWED =
  'custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml';

/** The formats of a command that prints changed objects (no table printer): label, annotate, apply, taint. */
export const OBJECT_FORMATS = 'go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml';

/** A field order: the struct's JSON names in declaration order, and the order of each nested struct (or list of them). */
export interface Order {
  keys: string[];
  nested?: Record<string, Order>;
}

/** metav1.ObjectMeta's fields in declaration order. */
export const OBJECT_META_ORDER: Order = {
  keys: [
    'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
    'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
  ],
};

/** A copy of a typed object with its keys in struct order (keys the order does not know follow, sorted). */
export function inStructOrder(v: unknown, order: Order | undefined): unknown {
  if (Array.isArray(v)) return v.map((x) => inStructOrder(x, order));
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const known = order?.keys ?? [];
  const out: Record<string, unknown> = {};
  for (const k of [...known.filter((k) => k in o), ...Object.keys(o).filter((k) => !known.includes(k)).sort()]) {
    if (o[k] !== undefined) out[k] = inStructOrder(o[k], order?.nested?.[k]);
  }
  return out;
}

/** genericclioptions.PrintFlags.AddFlags: the flags of every command that prints objects. */
export const PRINT_FLAGS: FlagSpec[] = [
  { name: 'output', shorthand: 'o', type: 'string' },
  { name: 'template', type: 'string' },
  { name: 'allow-missing-template-keys', type: 'bool' },
  { name: 'show-managed-fields', type: 'bool' },
];

/** Reads a file a -o *-file format names (undefined: no such file). */
export type ReadFile = (path: string) => string | undefined;

/**
 * The files a command can read: those it was given, else the machine's (podlife simulate --at). Undefined where there
 * is no file system at all (the page's console): a -o *-file format is then refused, naming the inline form.
 */
export const fileReader = (ctx: { files?: Record<string, string>; readFile?: ReadFile }): ReadFile | undefined =>
  ctx.files || ctx.readFile ? (path) => ctx.files?.[path] ?? ctx.readFile?.(path) : undefined;

/** -o (or --template) of a command that prints its own line unless asked for an object format: undefined then. */
export function objectOutput(p: ParsedArgs, read?: ReadFile): OutputFormat | undefined {
  if (!str(p, 'output') && !str(p, 'template')) return undefined;
  return parseOutput(str(p, 'output'), false, str(p, 'template'), bool(p, 'allow-missing-template-keys', true), read);
}

/** objectOutput of a command whose printer has no table (apply, create, wait, events): -o wide or custom-columns is kubectl's error. */
export function objectsOnlyOutput(p: ParsedArgs, read?: ReadFile): OutputFormat | undefined {
  const format = objectOutput(p, read);
  if (format?.kind === 'table' || format?.kind === 'custom-columns') {
    throw new KubectlError(`unable to match a printer suitable for the output format ${JSON.stringify(str(p, 'output'))}, allowed formats are: ${OBJECT_FORMATS}`);
  }
  return format;
}

const TEMPLATE_FORMATS = ['template', 'go-template', 'go-template-file', 'templatefile'];

/**
 * Parse `-o` (k8s.io/cli-runtime/pkg/genericclioptions.PrintFlags.ToPrinter); `noHeaders`: --no-headers;
 * `template`: --template, the template of `-o jsonpath` or `-o go-template` (and, without -o, a Go template);
 * `allowMissingKeys`: --allow-missing-template-keys.
 */
export function parseOutput(value: string, noHeaders = false, template = '', allowMissingKeys = true, read?: ReadFile): OutputFormat {
  // PrintFlags: "--template argument given, even when no --output format is provided" means go-template
  if (template && value === '') value = 'go-template';
  if (template && (value === 'jsonpath' || value === 'jsonpath-as-json' || value === 'jsonpath-file' || TEMPLATE_FORMATS.includes(value))) {
    value = `${value}=${template}`;
  }
  else if (template && value.includes('=')) {
    // JSONPathPrintFlags.ToPrinter only strips "jsonpath=" without --template: the whole value is no format
    throw new KubectlError(`unable to match a printer suitable for the output format ${JSON.stringify(value)}, allowed formats are: ${ALLOWED}`);
  }
  if (value === '') return { kind: 'table', wide: false };
  if (value === 'wide') return { kind: 'table', wide: true };
  if (value === 'yaml') return { kind: 'yaml' };
  if (value === 'json') return { kind: 'json' };
  if (value === 'name') return { kind: 'name' };
  const eq = value.indexOf('=');
  let format = eq >= 0 ? value.slice(0, eq) : value;
  let arg = eq >= 0 ? value.slice(eq + 1) : '';
  // the -file formats read their template (or, for custom-columns, a header line and a spec line) from the file
  if (format.endsWith('file') && ALLOWED.split(',').includes(format) && read === undefined) {
    throw new KubectlError(`podlife: -o ${format} reads a file, which this console has none of (give the template inline: -o ${format.replace(/-?file$/, '')}=...)`);
  }
  if (format === 'custom-columns-file') {
    if (arg === '') throw new KubectlError('custom-columns format specified but no custom columns given');
    const text = read!(arg);
    if (text === undefined) throw new KubectlError(`error reading template ${arg}, open ${arg}: no such file or directory`);
    return { kind: 'custom-columns', columns: customColumnsFromTemplate(text), noHeaders: false };
  }
  if (format === 'jsonpath-file' || format === 'go-template-file' || format === 'templatefile') {
    if (arg === '') throw new KubectlError('template format specified but no template given');
    const text = read!(arg);
    if (text === undefined) throw new KubectlError(`error reading --template ${arg}, open ${arg}: no such file or directory`);
    format = format === 'jsonpath-file' ? 'jsonpath' : 'go-template';
    arg = text;
  }
  if (format === 'jsonpath' || format === 'jsonpath-as-json') {
    if (eq < 0 || arg === '') throw new KubectlError('template format specified but no template given');
    try {
      new JsonPath(arg, { allowMissingKeys: true });
    } catch (e) {
      if (e instanceof JsonPathError) throw new KubectlError(`error parsing jsonpath ${arg}, ${e.message}\n`);
      throw e;
    }
    return { kind: 'jsonpath', template: arg, asJson: format === 'jsonpath-as-json' || undefined, allowMissingKeys };
  }
  if (format === 'custom-columns') return { kind: 'custom-columns', columns: customColumns(arg), noHeaders };
  // upstream: genericclioptions.GoTemplatePrintFlags.ToPrinter, printers.NewGoTemplatePrinter
  if (format === 'go-template' || format === 'template') {
    if (arg === '') throw new KubectlError('template format specified but no template given');
    try {
      return { kind: 'go-template', template: new GoTemplate(arg), raw: arg, allowMissingKeys };
    } catch (e) {
      if (e instanceof TemplateError) throw new KubectlError(`error parsing template ${arg}, ${e.message}`);
      throw e;
    }
  }
  throw new KubectlError(
    `unable to match a printer suitable for the output format ${JSON.stringify(value)}, allowed formats are: ${ALLOWED}`,
  );
}

/**
 * The columns of `-o custom-columns=HEADER:PATH,...`, each path relaxed to a JSONPath template (`.a.b`, `a.b` and
 * `{.a.b}` all mean `{.a.b}`).
 */
// upstream: k8s.io/kubectl/pkg/cmd/get/customcolumn.go NewCustomColumnsPrinterFromSpec
function customColumns(spec: string): CustomColumn[] {
  if (spec === '') throw new KubectlError('custom-columns format specified but no custom columns given');
  return spec.split(',').map((part) => {
    const colon = part.indexOf(':');
    if (colon < 0) throw new KubectlError(`unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>`);
    try {
      return { header: part.slice(0, colon), path: new JsonPath(relaxedJsonPathExpression(part.slice(colon + 1)), { allowMissingKeys: true }) };
    } catch (e) {
      if (e instanceof JsonPathError) throw new KubectlError(e.message);
      throw e;
    }
  });
}

/** The columns of `-o custom-columns-file=FILE`: a line of headers and a line of paths, split on whitespace. */
// upstream: k8s.io/kubectl/pkg/cmd/get/customcolumn.go NewCustomColumnsPrinterFromTemplate
function customColumnsFromTemplate(text: string): CustomColumn[] {
  // bufio.Scanner's lines: split on \n, a trailing \r dropped
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (text === '') throw new KubectlError('invalid template, missing header line. Expected format is one line of space separated headers, one line of space separated column specs.');
  if (lines.length < 2 || (lines.length === 2 && lines[1] === '')) {
    throw new KubectlError('invalid template, missing spec line. Expected format is one line of space separated headers, one line of space separated column specs.');
  }
  const words = (l: string) => l.split(/\s+/).filter(Boolean);
  const headers = words(lines[0]);
  const specs = words(lines[1]);
  if (headers.length !== specs.length) throw new KubectlError(`number of headers (${headers.length}) and field specifications (${specs.length}) don't match`);
  return headers.map((header, i) => {
    try {
      return { header, path: new JsonPath(relaxedJsonPathExpression(specs[i]), { allowMissingKeys: true }) };
    } catch (e) {
      if (e instanceof JsonPathError) throw new KubectlError(e.message);
      throw e;
    }
  });
}

/**
 * The custom-columns table of some objects: a header line (unless --no-headers), then per object each column's
 * values in Go's %v, joined by commas, `<none>` when the path finds nothing; aligned by kubectl's tab writer.
 */
// upstream: customcolumn.go (*CustomColumnsPrinter).PrintObj, printOneObject
export function printCustomColumns(objects: unknown[], format: { columns: CustomColumn[]; noHeaders: boolean }): string {
  const lines: string[][] = format.noHeaders ? [] : [format.columns.map((c) => c.header)];
  return tabulate([...lines, ...customColumnRows(objects, format.columns)], KUBECTL_TABLE);
}

/** The custom columns' cells of each object (printOneObject): each path's values in Go's %v, `<none>` for none. */
export function customColumnRows(objects: unknown[], columns: CustomColumn[]): string[][] {
  return objects.map((o) => {
    const data = sortedCopy(o);
    return columns.map(({ path }) => {
      const found = path.findResults(data);
      const values = found.flatMap((group) => group.map(({ v }) => goPrint(v)));
      return found.length === 0 || found[0].length === 0 ? ['<none>', ...values].join(',') : values.join(',');
    });
  });
}

/** The List kubectl wraps several objects in. */
export function asList(items: unknown[]): unknown {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}

/** Print one object (or a List) with a non-table format. */
export function printObject(obj: unknown, format: OutputFormat, name?: string): string {
  switch (format.kind) {
    case 'yaml':
      return toYaml(obj);
    case 'json':
      return `${goJson(sortedCopy(obj), '    ')}\n`;
    case 'name':
      return `${name}\n`;
    case 'custom-columns': {
      const list = obj as { kind?: string; items?: unknown[] };
      return printCustomColumns(list.kind === 'List' && Array.isArray(list.items) ? list.items : [obj], format);
    }
    case 'jsonpath': {
      const data = sortedCopy(obj);
      try {
        const path = new JsonPath(format.template, { allowMissingKeys: format.allowMissingKeys ?? true });
        // jsonpath-as-json (EnableJSONOutput): each group of results as an indented JSON array on its own line
        if (format.asJson) return path.findResults(data).map((group) => `${goJson(group.map((f) => f.v), '    ')}\n`).join('');
        return path.execute(data);
      } catch (e) {
        if (!(e instanceof JsonPathError)) throw e;
        const debug =
          `Error executing template: ${e.message}. Printing more information for debugging the template:\n` +
          `\ttemplate was:\n\t\t${format.template}\n` +
          `\tobject given to jsonpath engine was:\n\t\t${goSyntax(data)}\n\n`;
        throw new KubectlError(`error executing jsonpath ${JSON.stringify(format.template)}: ${debug}\n`);
      }
    }
    case 'go-template': {
      // kubectl writes the output so far and its debugging text to stdout, and returns a short error
      const r = printGoTemplate(format.template, format.raw, sortedCopy(obj), { allowMissingKeys: format.allowMissingKeys });
      if (r.error === undefined) return r.out;
      const err = new KubectlError(r.error);
      err.stdout = r.out;
      throw err;
    }
    default:
      throw new Error('table output is printed by the table printer');
  }
}
