// The objects kubectl reads from -f files (`-` is stdin): what create, apply, delete and get -f visit, as the
// resource builder gives them, each with its source (the file, or STDIN) for the errors that name it.
// upstream: k8s.io/cli-runtime pkg/resource/builder.go (FilenameParam, LabelSelectorParam), visitor.go
//           (FileVisitor, StreamVisitor, SetNamespace, RequireNamespace, FilterByLabelSelector)

import { parseAllDocuments } from 'yaml';
import { type ParsedArgs, arr, str } from '../flags.ts';
import type { ExecContext } from '../context.ts';
import { SelectorError, labelMatcher } from '../../api/selectors.ts';
import { KubectlError, type ResourceKind, namespaceOf } from './common.ts';
import { fileReader } from './output.ts';

/** The kinds a command can visit in files: v1 Pods, and for get, create, apply and delete also ConfigMaps and Secrets. */
export type ManifestKind = 'Pod' | 'ConfigMap' | 'Secret';

/** Every kind a command can visit, and the resource of each. */
export const MANIFEST_KINDS: ManifestKind[] = ['Pod', 'ConfigMap', 'Secret'];
export const MANIFEST_RESOURCE: Record<ManifestKind, ResourceKind> = { Pod: 'pods', ConfigMap: 'configmaps', Secret: 'secrets' };

/** One object of the files: the manifest, its kind, its namespace (its own, else the command's) and where it came from. */
export interface Manifest {
  obj: Record<string, unknown>;
  kind: ManifestKind;
  name: string;
  namespace: string;
  source: string;
}

/** -f, required: FilenameOptions.RequireFilenameOrKustomize. */
export function requireFilenames(p: ParsedArgs): string[] {
  const files = arr(p, 'filename');
  if (files.length === 0) {
    if (str(p, 'kustomize')) throw new KubectlError('podlife: kustomize (-k) is not supported by this simulation');
    throw new KubectlError('must specify one of -f and -k');
  }
  return files;
}

/** -l on objects read from files: the builder's FilterByLabelSelector, evaluated here (no server sees it). */
export function labelFilter(selector: string): (labels: Record<string, string> | undefined) => boolean {
  try {
    return labelMatcher(selector);
  } catch (e) {
    if (e instanceof SelectorError) throw new KubectlError(e.message);
    throw e;
  }
}

/**
 * The v1 Pods (or the other `kinds` asked for) of the -f files that -l selects, one at a time as the builder visits
 * them (an object is acted on before the next document is read). A document that is not YAML ends the command; an
 * object in another namespace than an explicit -n is that object's error (its text), and the visit goes on
 * (ContinueOnError).
 * `verb` names what the command does in podlife's refusal of other kinds ("creating", "deleting").
 */
export function* manifests(
  p: ParsedArgs, ctx: ExecContext, stdin: string, verb: string,
  opts: {
    /** Whether an object in another namespace than -n is an error: get looks the object up first (a missing one is NotFound). */
    mismatch?: (namespace: string, name: string, kind: ManifestKind) => boolean;
    /** -l on the objects as read (get selects on the objects it fetched instead). */
    select?: boolean;
    /** The kinds the command handles (default: Pods); another is podlife's refusal. */
    kinds?: ManifestKind[];
  } = {},
): Generator<Manifest | string> {
  const matches = opts.select === false ? () => true : labelFilter(str(p, 'selector'));
  const mismatch = opts.mismatch ?? (() => true);
  const explicit = str(p, 'namespace');
  const namespace = namespaceOf(ctx, explicit);
  const read = fileReader(ctx);
  for (const file of arr(p, 'filename')) {
    const text = file === '-' ? stdin : read?.(file);
    if (text === undefined) throw new KubectlError(`the path ${JSON.stringify(file)} does not exist`);
    const source = file === '-' ? 'STDIN' : file;
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length > 0) {
        throw new KubectlError(`error parsing ${source}: error converting YAML to JSON: yaml: ${doc.errors[0].message.split('\n')[0]}`);
      }
      const obj = doc.toJS() as Record<string, unknown> | null;
      if (obj === null || obj === undefined) continue;
      if (typeof obj !== 'object' || !obj.kind || !obj.apiVersion) {
        const missing = !obj.apiVersion && !obj.kind ? 'apiVersion not set, kind not set' : !obj.kind ? 'kind not set' : 'apiVersion not set';
        throw new KubectlError(
          `error validating ${JSON.stringify(source)}: error validating data: ${missing}; if you choose to ignore these errors, turn validation off with --validate=false`,
        );
      }
      const kinds = opts.kinds ?? ['Pod'];
      if (!kinds.includes(obj.kind as ManifestKind) || obj.apiVersion !== 'v1') {
        const modelled = kinds.length === 1 ? 'v1 Pods' : 'v1 Pods, ConfigMaps and Secrets';
        throw new KubectlError(`podlife: ${verb} ${String(obj.kind)} (${String(obj.apiVersion)}) is not supported; this simulation models ${modelled}`);
      }
      const meta = (obj.metadata ?? {}) as { name?: unknown; namespace?: unknown; labels?: Record<string, string> };
      if (!matches(meta.labels)) continue;
      const own = typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : undefined;
      // RequireNamespace: an explicit -n must be the object's namespace
      if (explicit && own !== undefined && own !== explicit && mismatch(own, String(meta.name ?? ''), obj.kind as ManifestKind)) {
        yield `the namespace from the provided object ${JSON.stringify(own)} does not match the namespace ${JSON.stringify(explicit)}. You must pass '--namespace=${own}' to perform this operation.`;
        continue;
      }
      yield { obj, kind: obj.kind as ManifestKind, name: String(meta.name ?? ''), namespace: own ?? namespace, source };
    }
  }
}
