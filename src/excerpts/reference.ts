// Source references, in both authoring forms:
//   a first line `// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L1450` (the article's form), or
//   fence meta `source="pkg/kubelet/kuberuntime/kuberuntime_manager.go#L1450"`.
// The line is the upstream line of the quoted declaration; it may be left out while it is not known.
import { ExcerptError } from './errors.ts';
import type { SourceRef } from './model.ts';

const SOURCE_LINE = /^\s*\/\/\s*source\s*:(.*)$/i;
const META_SOURCE = /(?:^|\s)source=(?:"([^"]*)"|'([^']*)'|(\S+))/;
const PATH = /^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_.\-/]+\.go$/;

const COMMENT_HINT =
  'write it as `// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L1450`: the file\'s path in ' +
  'kubernetes/kubernetes, a space, then L and the line of the quoted func (leave out " L..." while the line is unknown)';
const META_HINT =
  'write it as source="pkg/kubelet/kuberuntime/kuberuntime_manager.go#L1450": the file\'s path in ' +
  'kubernetes/kubernetes, then #L and the line of the quoted func (leave out "#L..." while the line is unknown)';

/** True when the code block's first line is a `// Source:` reference (well-formed or not). */
export function hasSourceLine(firstLine: string | undefined): boolean {
  return firstLine !== undefined && SOURCE_LINE.test(firstLine);
}

function checkPath(path: string, what: string, hint: string, column: number): void {
  if (!PATH.test(path)) {
    throw new ExcerptError(
      `malformed source reference ${what}: "${path}" is not a relative path to a .go file in kubernetes/kubernetes`,
      hint,
      { line: 0, column },
    );
  }
}

function checkLine(digits: string, what: string, hint: string, column: number): number {
  const line = Number(digits);
  if (!Number.isSafeInteger(line) || line < 1) {
    throw new ExcerptError(`malformed source reference ${what}: line ${digits} is not a line number`, hint, {
      line: 0,
      column,
    });
  }
  return line;
}

/** Parse the `// Source:` first line. Throws an ExcerptError placed on code line 0 when malformed. */
export function parseSourceLine(text: string): SourceRef {
  const match = SOURCE_LINE.exec(text);
  if (!match) throw new Error('parseSourceLine: not a // Source: line');
  const rest = match[1].trim();
  const column = text.length - match[1].length + match[1].indexOf(rest) + 1;
  const what = `\`${text.trim()}\``;
  const parts = /^(\S+?)(?:\s+L(\S*))?$/.exec(rest);
  if (!rest || !parts) {
    throw new ExcerptError(`malformed source reference ${what}: expected a path and an optional L<line>`, COMMENT_HINT, {
      line: 0,
      column,
    });
  }
  const [, path, digits] = parts;
  checkPath(path, what, COMMENT_HINT, column);
  if (digits === undefined) return { path, line: null, form: 'comment' };
  if (!/^\d+$/.test(digits)) {
    throw new ExcerptError(`malformed source reference ${what}: "L${digits}" is not L followed by a line number`, COMMENT_HINT, {
      line: 0,
      column,
    });
  }
  return { path, line: checkLine(digits, what, COMMENT_HINT, column), form: 'comment' };
}

/** Parse `source=...` from fence meta; undefined when the meta has none. */
export function parseSourceMeta(meta: string | null | undefined): SourceRef | undefined {
  if (!meta) return undefined;
  const match = META_SOURCE.exec(meta);
  if (!match) {
    if (/(?:^|\s)source=/.test(meta)) {
      throw new ExcerptError(`malformed source reference in the fence meta: ${meta}`, META_HINT, { line: -1 });
    }
    return undefined;
  }
  const value = (match[1] ?? match[2] ?? match[3]).trim();
  const what = `source="${value}"`;
  const parts = /^([^#\s]+)(?:#L(\S*))?$/.exec(value);
  if (!parts) {
    throw new ExcerptError(`malformed source reference ${what}: expected a path and an optional #L<line>`, META_HINT, {
      line: -1,
    });
  }
  const [, path, digits] = parts;
  checkPath(path, what, META_HINT, 1);
  if (digits === undefined) return { path, line: null, form: 'meta' };
  if (!/^\d+$/.test(digits)) {
    throw new ExcerptError(`malformed source reference ${what}: "#L${digits}" is not #L followed by a line number`, META_HINT, {
      line: -1,
    });
  }
  return { path, line: checkLine(digits, what, META_HINT, 1), form: 'meta' };
}

/** Both forms on one block must agree; the comment form wins for reporting. */
export function mergeRefs(comment: SourceRef | undefined, meta: SourceRef | undefined): SourceRef | undefined {
  if (comment && meta && (comment.path !== meta.path || comment.line !== meta.line)) {
    throw new ExcerptError(
      `the fence meta says source="${meta.path}${meta.line ? `#L${meta.line}` : ''}" but the first line says ` +
        `${comment.path}${comment.line ? ` L${comment.line}` : ''}`,
      'give the reference once (either form), or make both say the same path and line',
      { line: 0 },
    );
  }
  return comment ?? meta;
}
