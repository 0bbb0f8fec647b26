// Parse a Go code block from a chapter into an Excerpt, with the real Go grammar (tree-sitter-go).
// The structure — the quoted declaration, its receiver, comments, calls, `...` elisions — comes from the
// syntax tree; regular expressions only read the text of a reference line or of a single comment.
import type { Node } from 'web-tree-sitter';
import { ExcerptError } from './errors.ts';
import { parseGo } from './grammar.ts';
import { type Call, type Excerpt, type ExcerptLine, type QuotedDecl, type Step, slug, stepKey } from './model.ts';
import { hasSourceLine, mergeRefs, parseSourceLine, parseSourceMeta } from './reference.ts';
import { isElisionComment, readStepComment } from './step-comments.ts';

const DECLARATIONS = ['method_declaration', 'function_declaration', 'type_declaration'];

function splitLines(code: string): string[] {
  const lines = code.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

/** True when the code block is an excerpt: it carries a source reference in either form. */
export function isExcerptBlock(lang: string | null | undefined, code: string, meta: string | null | undefined): boolean {
  if (lang !== 'go') return false;
  return hasSourceLine(splitLines(code)[0]) || /(?:^|\s)source=/.test(meta ?? '');
}

function all(nodes: (Node | null)[]): Node[] {
  return nodes.filter((n): n is Node => n !== null);
}

function firstDeclaration(root: Node): Node | undefined {
  // Pre-order, so a declaration that error recovery nested inside an ERROR node is still found.
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.shift()!;
    if (DECLARATIONS.includes(node.type)) return node;
    stack.unshift(...all(node.children));
  }
  return undefined;
}

function describeDecl(node: Node): Omit<QuotedDecl, 'line' | 'endLine'> | undefined {
  if (node.type === 'type_declaration') {
    const spec = all(node.namedChildren).find((c) => c.type === 'type_spec' || c.type === 'type_alias');
    const name = spec?.childForFieldName('name')?.text;
    return name ? { kind: 'type', name } : undefined;
  }
  const name = node.childForFieldName('name')?.text;
  if (!name) return undefined;
  if (node.type === 'function_declaration') return { kind: 'func', name };
  const param = all(node.childForFieldName('receiver')?.namedChildren ?? []).find(
    (c) => c.type === 'parameter_declaration',
  );
  return {
    kind: 'method',
    name,
    receiverName: param?.childForFieldName('name')?.text,
    receiverType: param?.childForFieldName('type')?.text,
  };
}

/** The line a node really ends on: recovery can end a node at column 0 of the next line. */
function lastRow(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}

/** Comments that are alone on their line, by row. */
function wholeLineComments(root: Node, lines: string[]): Map<number, Node> {
  const byRow = new Map<number, Node>();
  for (const comment of all(root.descendantsOfType('comment'))) {
    const { row, column } = comment.startPosition;
    if (comment.endPosition.row !== row) continue;
    const line = lines[row];
    const before = line.slice(0, column);
    const after = line.slice(comment.endPosition.column);
    if (before.trim() === '' && after.trim() === '') byRow.set(row, comment);
  }
  return byRow;
}

/** `...` standing for elided arguments or fields: tree-sitter puts such a `...` in an ERROR node. */
function inlineElisions(root: Node): Map<number, number[]> {
  const byRow = new Map<number, number[]>();
  for (const dots of all(root.descendantsOfType('...'))) {
    if (dots.parent?.type !== 'ERROR') continue; // `xs...` and `[...]T` are real Go
    const { row, column } = dots.startPosition;
    byRow.set(row, [...(byRow.get(row) ?? []), column]);
  }
  return byRow;
}

/** The last line of the block that holds a step comment (exclusive end for the step's lines). */
function enclosingBlockEnd(comment: Node, fallback: number): number {
  for (let node = comment.parent; node; node = node.parent) {
    if (node.type === 'ERROR') return fallback;
    if (node.type === 'block') {
      const close = node.lastChild;
      if (!close || close.type !== '}' || close.isMissing) return fallback;
      return close.startPosition.row;
    }
  }
  return fallback;
}

function collectCalls(decl: Node, lines: ExcerptLine[]): Call[] {
  const calls: Call[] = [];
  for (const call of all(decl.descendantsOfType('call_expression'))) {
    const fn = call.childForFieldName('function');
    let name: Node | null = null;
    if (fn?.type === 'identifier') name = fn;
    else if (fn?.type === 'selector_expression') name = fn.childForFieldName('field');
    if (!name || name.startPosition.row !== name.endPosition.row) continue;
    const line = name.startPosition.row;
    if (lines[line]?.kind !== 'code') continue;
    calls.push({ name: name.text, line, column: name.startPosition.column, length: name.text.length });
  }
  return calls.sort((a, b) => a.line - b.line || a.column - b.column);
}

export interface ParseOptions {
  /** The fence meta (`source="..."` may be there). */
  meta?: string | null;
}

/**
 * Parse one Go code block. Returns undefined when the block is not an excerpt (no source reference).
 * Throws an ExcerptError (placed on a line of the code block; -1 is the fence) for bad input.
 */
export async function parseExcerpt(code: string, options: ParseOptions = {}): Promise<Excerpt | undefined> {
  const raw = splitLines(code);
  const commentRef = hasSourceLine(raw[0]) ? parseSourceLine(raw[0]) : undefined;
  const ref = mergeRefs(commentRef, parseSourceMeta(options.meta));
  if (!ref) return undefined;
  const offset = commentRef ? 1 : 0;
  const texts = raw.slice(offset);
  const at = (line: number, column?: number) => ({ line: line + offset, column });

  const tree = await parseGo(texts.join('\n'));
  try {
    const root = tree.rootNode;
    const declNode = firstDeclaration(root);
    const described = declNode && describeDecl(declNode);
    if (!declNode || !described) {
      throw new ExcerptError(
        'no Go declaration in this excerpt: podlife quotes a func, a method or a type from upstream',
        'quote the declaration line itself (`func (m *kubeGenericRuntimeManager) SyncPod(...`) and elide what you skip with `// ...`',
        at(0),
      );
    }
    const decl: QuotedDecl = { ...described, line: declNode.startPosition.row, endLine: lastRow(declNode) };

    const comments = wholeLineComments(root, texts);
    const dots = inlineElisions(root);
    const lines: ExcerptLine[] = texts.map((text, row) => {
      const comment = comments.get(row);
      const kind =
        text.trim() === ''
          ? 'blank'
          : text.trim() === '...' || (comment && isElisionComment(comment.text))
            ? 'elision'
            : comment
              ? 'comment'
              : 'code';
      return { text, kind, elisions: kind === 'code' ? (dots.get(row) ?? []) : [] };
    });

    const steps: Step[] = [];
    if (decl.kind !== 'type') {
      const seen = new Map<number, number>();
      for (const [row, comment] of [...comments].sort(([a], [b]) => a - b)) {
        if (row <= decl.line || row > decl.endLine || lines[row].kind !== 'comment') continue;
        const step = readStepComment(comment.text);
        if (!step) continue;
        const first = seen.get(step.n);
        if (first !== undefined) {
          throw new ExcerptError(
            `step ${step.n} of ${decl.name} appears twice in this excerpt (code lines ${first + offset + 1} and ${row + offset + 1})`,
            `number each step of ${decl.name} once: renumber one of them, or merge them into one step comment`,
            at(row, comment.startPosition.column + 1),
          );
        }
        seen.set(step.n, row);
        const key = stepKey(decl.name, step.n);
        steps.push({ key, anchor: slug(key), n: step.n, text: step.text, style: step.style, line: row, end: 0 });
        const blockEnd = enclosingBlockEnd(comment, decl.endLine);
        steps.at(-1)!.end = blockEnd; // provisional: trimmed to the next step below
      }
      for (let i = 0; i < steps.length; i++) {
        const next = steps[i + 1]?.line ?? Number.POSITIVE_INFINITY;
        steps[i].end = Math.max(steps[i].line + 1, Math.min(steps[i].end, next));
      }
    }

    return { ref, offset, lines, decl, steps, calls: collectCalls(declNode, lines) };
  } finally {
    tree.delete();
  }
}
