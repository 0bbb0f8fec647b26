// `kubectl create configmap NAME` and `kubectl create secret generic NAME`: the object kubectl builds from
// --from-literal, --from-file and --from-env-file (a Secret's values base64-encoded, as Go encodes []byte), sent as
// it is (POST) or printed (--dry-run=client), with kubectl's own errors for a bad source, a bad key or a key given twice.
// upstream: k8s.io/kubectl v0.36.3 pkg/cmd/create/create_configmap.go, create_secret.go (Complete, Validate, Run,
//           createConfigMap, createSecret, the handle*Sources and addKey* functions), create.go NameFromCommandArgs;
//           pkg/util/util.go ParseLiteralSource, ParseFileSource; pkg/cmd/util/env_file.go AddFromEnvFile,
//           processEnvFileLine; apimachinery pkg/util/validation/validation.go IsConfigMapKey, IsEnvVarName

import type { ConfigObject } from '../../types.ts';
import { goJson } from '../../render/json.ts';
import { toYaml } from '../../render/yaml.ts';
import { type FlagSpec, type ParsedArgs, arr, bool, str } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import type { ExecContext } from '../context.ts';
import { KubectlError, namespaceOf, out, submit } from './common.ts';
import { fileReader, inStructOrder, OBJECT_META_ORDER, objectsOnlyOutput, type Order, type OutputFormat, PRINT_FLAGS, printObject } from './output.ts';
import { LAST_APPLIED, dryRun, validationDirective } from './mutate.ts';
import { configMapHash, secretHash } from './confighash.ts';
import { isConfigMapKey, isEnvVarName } from '../../api/validation.ts';
import { base64FromText } from '../../core/base64.ts';

/** The flags of `create configmap` (and of `create secret generic`, with --type). */
export const CREATE_CONFIGMAP_FLAGS: FlagSpec[] = [
  ...PRINT_FLAGS,
  { name: 'save-config', type: 'bool' },
  { name: 'validate', type: 'string', noOptDefault: 'strict' },
  { name: 'dry-run', type: 'string', noOptDefault: 'unchanged' },
  { name: 'from-file', type: 'stringSlice' },
  { name: 'from-literal', type: 'stringArray' },
  { name: 'from-env-file', type: 'stringSlice' },
  { name: 'append-hash', type: 'bool' },
  { name: 'field-manager', type: 'string' },
];

export const CREATE_SECRET_GENERIC_FLAGS: FlagSpec[] = [...CREATE_CONFIGMAP_FLAGS, { name: 'type', type: 'string' }];

/** core/v1 ConfigMap and Secret's fields in declaration order (TypeMeta, ObjectMeta, then their own). */
export const CONFIGMAP_ORDER: Order = { keys: ['kind', 'apiVersion', 'metadata', 'immutable', 'data', 'binaryData'], nested: { metadata: OBJECT_META_ORDER } };
export const SECRET_ORDER: Order = { keys: ['kind', 'apiVersion', 'metadata', 'immutable', 'data', 'stringData', 'type'], nested: { metadata: OBJECT_META_ORDER } };

/**
 * A typed ConfigMap or Secret as kubectl prints it with -o: YAML through a map (keys sorted), JSON in the Go struct's
 * field order (the typed client's object, not a map), anything else as for any object.
 */
export function printConfigObject(obj: ConfigObject | Record<string, unknown>, format: OutputFormat, name: string): string {
  if (format.kind === 'json') return `${goJson(inStructOrder(obj, obj.kind === 'Secret' ? SECRET_ORDER : CONFIGMAP_ORDER), '    ', false)}\n`;
  if (format.kind === 'yaml') return toYaml(obj);
  return printObject(obj, format, name);
}

/** util.ParseLiteralSource: KEY=VALUE, split at the first `=` (the value may hold more). */
function parseLiteralSource(source: string): [string, string] {
  const eq = source.indexOf('=');
  if (eq <= 0) throw new KubectlError(`invalid literal source ${source}, expected key=value`);
  return [source.slice(0, eq), source.slice(eq + 1)];
}

/** path.Base of a slash path: its last element, trailing slashes dropped ("." for "", "/" for slashes only). */
function pathBase(p: string): string {
  if (p === '') return '.';
  const trimmed = p.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** util.ParseFileSource: PATH (the key is its base name) or KEY=PATH. */
function parseFileSource(source: string): [string, string] {
  const separators = source.split('=').length - 1;
  if (separators === 0) return [pathBase(source), source];
  if (separators === 1 && source.startsWith('=')) throw new KubectlError(`key name for file path ${source.slice(1)} missing`);
  if (separators === 1 && source.endsWith('=')) throw new KubectlError(`file path for key name ${source.slice(0, -1)} missing`);
  if (separators > 1) throw new KubectlError("key names or file paths cannot contain '='");
  const [key, path] = source.split('=');
  return [key, path];
}

/**
 * The files the sources name, as os.Stat and os.ReadDir see them: a file's text, or a directory's regular files (by
 * name; a directory exists where the files this console was given have paths under it). Without a file system at
 * all (the page's console), reading one is refused.
 */
interface Files {
  read(path: string): string | undefined;
  /** The regular files directly in a directory, sorted by name (os.ReadDir), or undefined when it is none. */
  list(path: string): { name: string; path: string }[] | undefined;
}

function filesOf(ctx: ExecContext, flag: string): Files {
  const read = fileReader(ctx);
  if (!read) throw new KubectlError(`podlife: --${flag} reads a file, which this console has none of (give the values with --from-literal)`);
  return {
    read,
    list(path) {
      const dir = path.replace(/\/+$/, '');
      const prefix = `${dir}/`;
      const under = Object.keys(ctx.files ?? {}).filter((f) => f.startsWith(prefix));
      if (under.length === 0 || (ctx.files && Object.hasOwn(ctx.files, path))) return undefined;
      // subdirectories (a further slash) are not regular files: skipped, as kubectl skips them
      const names = [...new Set(under.map((f) => f.slice(prefix.length)).filter((n) => n !== '' && !n.includes('/')))].sort();
      return names.map((name) => ({ name, path: `${dir}/${name}` }));
    },
  };
}

/** cmdutil.AddFromEnvFile: each KEY=VALUE line (a BOM on the first, leading space, blank lines and # comments dropped). */
function envFileEntries(text: string): [string, string][] {
  const entries: [string, string][] = [];
  // bufio.Scanner's lines: split on \n, a trailing \r dropped, no empty last line after a final newline
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.length > 0 && lines[lines.length - 1] === '' && text.endsWith('\n')) lines.pop();
  lines.forEach((raw, i) => {
    let line = i === 0 ? raw.replace(/^\uFEFF/, '') : raw;
    line = line.replace(/^\s+/u, '');
    if (line === '' || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    const key = eq < 0 ? line : line.slice(0, eq);
    const errs = isEnvVarName(key);
    if (errs.length > 0) throw new KubectlError(`${JSON.stringify(key)} is not a valid key name: ${errs.join(';')}`);
    // a line without `=` takes the variable from kubectl's environment, which has none of the user's here
    entries.push([key, eq < 0 ? '' : line.slice(eq + 1)]);
  });
  return entries;
}

/** Read a file source's path (os.Stat: a missing path is the error), or a directory's files. */
function statFile(files: Files, path: string): { text: string } | { dir: { name: string; path: string }[] } {
  const dir = files.list(path);
  if (dir) return { dir };
  const text = files.read(path);
  if (text === undefined) throw new KubectlError(`error reading ${path}: no such file or directory`);
  return { text };
}

interface Built {
  name: string;
  data: Record<string, string>;
  binaryData: Record<string, string>;
}

/** createConfigMap: the keys of the file sources, then the literals, then the env files, each key once. */
// upstream: create_configmap.go createConfigMap, handleConfigMapFrom*Sources, addKeyFrom*ToConfigMap, validateNewConfigMap
function buildConfigMap(p: ParsedArgs, ctx: ExecContext, name: string): Built {
  const cm: Built = { name, data: {}, binaryData: {} };
  const add = (key: string, value: string) => {
    const errs = isConfigMapKey(key);
    if (errs.length > 0) throw new KubectlError(`${JSON.stringify(key)} is not a valid key name for a ConfigMap: ${errs.join(',')}`);
    if (Object.hasOwn(cm.data, key)) throw new KubectlError(`cannot add key ${JSON.stringify(key)}, another key by that name already exists in Data for ConfigMap ${JSON.stringify(cm.name)}`);
    if (Object.hasOwn(cm.binaryData, key)) throw new KubectlError(`cannot add key ${JSON.stringify(key)}, another key by that name already exists in BinaryData for ConfigMap ${JSON.stringify(cm.name)}`);
    cm.data[key] = value;
  };
  fromFiles(p, ctx, add);
  for (const source of arr(p, 'from-literal')) add(...parseLiteralSource(source));
  fromEnvFiles(p, ctx, add, 'config');
  return cm;
}

/** createSecret: the literals, then the file sources, then the env files; every value base64-encoded. */
// upstream: create_secret.go createSecret, handleSecretFrom*Sources, addKeyFromLiteralToSecret
function buildSecret(p: ParsedArgs, ctx: ExecContext, name: string): Built {
  const s: Built = { name, data: {}, binaryData: {} };
  const add = (key: string, value: string) => {
    const errs = isConfigMapKey(key);
    if (errs.length > 0) throw new KubectlError(`${JSON.stringify(key)} is not valid key name for a Secret ${errs.join(';')}`);
    if (Object.hasOwn(s.data, key)) throw new KubectlError(`cannot add key ${key}, another key by that name already exists`);
    s.data[key] = base64FromText(value);
  };
  for (const source of arr(p, 'from-literal')) add(...parseLiteralSource(source));
  fromFiles(p, ctx, add);
  fromEnvFiles(p, ctx, add, 'secret');
  return s;
}

/**
 * --from-file: each file's content under its name (or the key given as key=path); a directory's files, each under its
 * own name. (The files here are text: each is valid UTF-8, so a ConfigMap's data key; binaryData holds what is not.)
 */
// upstream: create_configmap.go handleConfigMapFromFileSources, create_secret.go handleSecretFromFileSources
function fromFiles(p: ParsedArgs, ctx: ExecContext, add: (key: string, value: string) => void): void {
  const fileSources = arr(p, 'from-file');
  if (fileSources.length === 0) return;
  const files = filesOf(ctx, 'from-file');
  for (const source of fileSources) {
    const [key, path] = parseFileSource(source);
    const found = statFile(files, path);
    if ('dir' in found) {
      if (source.includes('=')) throw new KubectlError('cannot give a key name for a directory path');
      for (const f of found.dir) add(f.name, files.read(f.path) ?? '');
    } else add(key, found.text);
  }
}

/** --from-env-file: each KEY=value line of each file (a directory is refused, naming the kind). */
// upstream: create_configmap.go handleConfigMapFromEnvFileSources, create_secret.go handleSecretFromEnvFileSources
function fromEnvFiles(p: ParsedArgs, ctx: ExecContext, add: (key: string, value: string) => void, kind: 'config' | 'secret'): void {
  const envSources = arr(p, 'from-env-file');
  if (envSources.length === 0) return;
  const files = filesOf(ctx, 'from-env-file');
  for (const path of envSources) {
    const found = statFile(files, path);
    if ('dir' in found) throw new KubectlError(`env ${kind} file cannot be a directory`);
    for (const [key, value] of envFileEntries(found.text)) add(key, value);
  }
}

/** NameFromCommandArgs: exactly one argument before any `--`. */
function nameArgument(p: ParsedArgs, command: string): string {
  const n = p.argsLenAtDash >= 0 ? p.argsLenAtDash : p.args.length;
  if (n !== 1) throw new KubectlError(`exactly one NAME is required, got ${n}`, command);
  return p.args[0];
}

/**
 * The object as the typed client encodes it (empty maps and an empty type left out), with the last-applied
 * annotation under --save-config: the object's own encoding, in struct order, without that annotation.
 */
// upstream: kubectl pkg/util/apply.go CreateOrUpdateAnnotation, GetModifiedConfiguration
function typedObject(kind: 'ConfigMap' | 'Secret', built: Built, namespace: string | undefined, type: string, saveConfig: boolean): Record<string, unknown> {
  const metadata: Record<string, unknown> = { name: built.name, ...(namespace !== undefined ? { namespace } : {}) };
  const obj: Record<string, unknown> = { kind, apiVersion: 'v1', metadata };
  if (Object.keys(built.data).length > 0) obj.data = built.data;
  if (Object.keys(built.binaryData).length > 0) obj.binaryData = built.binaryData;
  if (kind === 'Secret' && type) obj.type = type;
  if (saveConfig) {
    const order = kind === 'Secret' ? SECRET_ORDER : CONFIGMAP_ORDER;
    metadata.annotations = { [LAST_APPLIED]: `${goJson(inStructOrder(obj, order), '', false)}\n` };
  }
  return obj;
}

/** Complete, Validate and Run of both commands: what differs is the kind, how the keys are made, and --type. */
function createConfig(p: ParsedArgs, ctx: ExecContext, kind: 'ConfigMap' | 'Secret'): CommandResult {
  const command = kind === 'ConfigMap' ? 'create configmap' : 'create secret generic';
  const resource = kind === 'ConfigMap' ? 'configmap' : 'secret';
  // Complete: the name, the dry-run strategy, the printer, the validation directive
  const name = nameArgument(p, command);
  const mode = dryRun(p);
  const format = objectsOnlyOutput(p, fileReader(ctx));
  const fieldValidation = validationDirective(p);
  // Validate
  if (name === '') throw new KubectlError('name must be specified');
  if (arr(p, 'from-env-file').length > 0 && (arr(p, 'from-file').length > 0 || arr(p, 'from-literal').length > 0)) {
    throw new KubectlError('from-env-file cannot be combined with from-file or from-literal');
  }
  // Run
  const built = kind === 'ConfigMap' ? buildConfigMap(p, ctx, name) : buildSecret(p, ctx, name);
  const type = kind === 'Secret' ? str(p, 'type') : '';
  if (bool(p, 'append-hash')) {
    built.name = `${built.name}-${kind === 'ConfigMap' ? configMapHash(built.name, built.data, built.binaryData) : secretHash(built.name, type, built.data)}`;
  }
  // an explicit -n is set on the object (EnforceNamespace); the default one is not
  const namespace = namespaceOf(ctx, str(p, 'namespace'));
  const obj = typedObject(kind, built, p.flags.has('namespace') ? namespace : undefined, type, bool(p, 'save-config'));
  const shown = `${resource}/${built.name}`;
  if (mode === 'client') {
    if (format && format.kind !== 'name') return out(printConfigObject(obj, format, shown));
    return out(format ? `${shown}\n` : `${shown} created (dry run)\n`);
  }
  if (mode === 'server') throw new KubectlError('podlife: --dry-run=server is not supported by this simulation (--dry-run=client is)');
  const r = submit(ctx, { type: 'config', verb: 'create', namespace, obj, fieldValidation });
  // the client's error is wrapped ("failed to create configmap: %v"), so CheckErr prints it as a plain error
  if (!r.ok) throw new KubectlError(`failed to create ${resource}: ${r.status.message}`);
  if (format && format.kind !== 'name') return out(printConfigObject(r.object, format, shown));
  return out(format ? `${shown}\n` : `${shown} created\n`);
}

export function kubectlCreateConfigMap(p: ParsedArgs, ctx: ExecContext): CommandResult {
  return createConfig(p, ctx, 'ConfigMap');
}

export function kubectlCreateSecretGeneric(p: ParsedArgs, ctx: ExecContext): CommandResult {
  return createConfig(p, ctx, 'Secret');
}

/** `kubectl create secret` alone: DefaultSubCommandRun prints the command's help on stderr and exits 1. */
// upstream: create_secret.go NewCmdCreateSecret (secretLong); pkg/cmd/util/helpers.go DefaultSubCommandRun, RequireNoArguments
export function createSecretHelp(args: string[]): CommandResult {
  if (args.length > 0) throw new KubectlError(`unknown command ${JSON.stringify(args.join(' '))}`, 'create secret');
  return out(
    '',
    'Create a secret with specified type.\n\n' +
      ' A docker-registry type secret is for accessing a container registry.\n\n' +
      ' A generic type secret indicate an Opaque secret type.\n\n' +
      ' A tls type secret holds TLS certificate and its associated key.\n\n' +
      'Available Commands:\n' +
      '  docker-registry   Create a secret for use with a Docker registry\n' +
      '  generic           Create a secret from a local file, directory, or literal value\n' +
      '  tls               Create a TLS secret\n\n' +
      'Usage:\n  kubectl create secret (docker-registry | generic | tls) [options]\n\n' +
      'Use "kubectl create secret <command> --help" for more information about a given command.\n' +
      'Use "kubectl options" for a list of global command-line options (applies to all commands).\n',
    1,
  );
}
