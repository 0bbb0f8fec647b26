// The excerpt model: what a Go code block in a chapter quotes from upstream Kubernetes, and its parts.
// Line indexes are 0-based positions in the excerpt's code, after the `// Source:` line is taken out;
// columns are UTF-16 code units (what tree-sitter reports for a JavaScript string).

/** Where the quoted code lives upstream (kubernetes/kubernetes at the pinned tag). */
export interface SourceRef {
  /** Repository-relative path, e.g. `pkg/kubelet/kuberuntime/kuberuntime_manager.go`. */
  path: string;
  /** Upstream line of the quoted declaration (the `func` line); null when not known yet. */
  line: number | null;
  /** How the chapter wrote it: a `// Source:` first line, or `source="..."` in the fence meta. */
  form: 'comment' | 'meta';
}

export type LineKind = 'code' | 'comment' | 'blank' | 'elision';

export interface ExcerptLine {
  text: string;
  /** `elision` is a whole `// ...` line; `comment` a line holding only a comment. */
  kind: LineKind;
  /** Columns of `...` that stand for elided arguments or composite-literal fields on this line. */
  elisions: number[];
}

export interface QuotedDecl {
  kind: 'func' | 'method' | 'type';
  name: string;
  /** Receiver type of a method, as written: `*kubeGenericRuntimeManager`. */
  receiverType?: string;
  receiverName?: string;
  /** First and last excerpt line of the declaration (doc comments above it are not included). */
  line: number;
  endLine: number;
}

/** A numbered step inside the quoted function: `// Step 4: ...` (upstream's style) or `// 4. ...`. */
export interface Step {
  /** The join key, `<Func>#<n>`: `SyncPod#4`. */
  key: string;
  /** The page anchor, the slug of the key: `syncpod-4`. */
  anchor: string;
  n: number;
  text: string;
  style: 'step' | 'numbered';
  /** Excerpt line of the step comment. */
  line: number;
  /** Exclusive end: the step's lines run until the next step or the end of the block holding it. */
  end: number;
}

/** A call inside the quoted declaration; `column`/`length` locate the callee's name on its line. */
export interface Call {
  name: string;
  line: number;
  column: number;
  length: number;
}

export interface Excerpt {
  ref: SourceRef;
  /** Lines of the code block before excerpt line 0 (1 when a `// Source:` line was taken out). */
  offset: number;
  lines: ExcerptLine[];
  decl: QuotedDecl;
  steps: Step[];
  calls: Call[];
}

export function stepKey(func: string, n: number): string {
  return `${func}#${n}`;
}

/** Anchor ids are slugs of what they name: `SyncPod#4` → `syncpod-4`. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The anchor of an excerpt as a whole (call links point here): `excerpt-createpodsandbox`. */
export function excerptAnchor(name: string): string {
  return `excerpt-${slug(name)}`;
}

/** How a chapter shows the quoted declaration: `(*kubeGenericRuntimeManager).SyncPod`. */
export function declLabel(decl: QuotedDecl): string {
  if (decl.kind === 'method' && decl.receiverType) return `(${decl.receiverType}).${decl.name}`;
  return decl.name;
}
