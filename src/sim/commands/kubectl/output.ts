// kubectl's -o printers for objects: yaml, json, name, jsonpath (k8s.io/cli-runtime/pkg/printers).

import { goJson, sortedCopy } from '../../render/json.ts';
import { JsonPath, JsonPathError, goSyntax } from '../../render/jsonpath.ts';
import { toYaml } from '../../render/yaml.ts';
import { KubectlError } from './common.ts';

export type OutputFormat =
  | { kind: 'table'; wide: boolean }
  | { kind: 'yaml' }
  | { kind: 'json' }
  | { kind: 'name' }
  | { kind: 'jsonpath'; template: string };

const ALLOWED =
  'custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml';

/** Parse `-o` (k8s.io/cli-runtime/pkg/genericclioptions.PrintFlags.ToPrinter). */
export function parseOutput(value: string): OutputFormat {
  if (value === '') return { kind: 'table', wide: false };
  if (value === 'wide') return { kind: 'table', wide: true };
  if (value === 'yaml') return { kind: 'yaml' };
  if (value === 'json') return { kind: 'json' };
  if (value === 'name') return { kind: 'name' };
  const eq = value.indexOf('=');
  const format = eq >= 0 ? value.slice(0, eq) : value;
  const arg = eq >= 0 ? value.slice(eq + 1) : '';
  if (format === 'jsonpath') {
    if (eq < 0 || arg === '') throw new KubectlError('template format specified but no template given');
    try {
      new JsonPath(arg, { allowMissingKeys: true });
    } catch (e) {
      if (e instanceof JsonPathError) throw new KubectlError(`error parsing jsonpath ${arg}, ${e.message}\n`);
      throw e;
    }
    return { kind: 'jsonpath', template: arg };
  }
  if (ALLOWED.split(',').includes(format)) {
    throw new KubectlError(`podlife: -o ${format} is not supported by this simulation (use yaml, json, jsonpath, name or wide)`);
  }
  throw new KubectlError(
    `unable to match a printer suitable for the output format ${JSON.stringify(value)}, allowed formats are: ${ALLOWED}`,
  );
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
    case 'jsonpath': {
      const data = sortedCopy(obj);
      try {
        return new JsonPath(format.template, { allowMissingKeys: true }).execute(data);
      } catch (e) {
        if (!(e instanceof JsonPathError)) throw e;
        const debug =
          `Error executing template: ${e.message}. Printing more information for debugging the template:\n` +
          `\ttemplate was:\n\t\t${format.template}\n` +
          `\tobject given to jsonpath engine was:\n\t\t${goSyntax(data)}\n\n`;
        throw new KubectlError(`error executing jsonpath ${JSON.stringify(format.template)}: ${debug}\n`);
      }
    }
    default:
      throw new Error('table output is printed by the table printer');
  }
}
