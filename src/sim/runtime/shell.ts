// A small POSIX-sh subset: enough to say what a container's command does over time. Parsing only; process.ts runs it.
// Supported: `;` `&&` `||` newlines, `&` (background) and `wait`, `while true|:; do ...; done`, `trap 'cmds' SIG...`,
// quotes and backslash escapes, `>`/`>>` redirections (they create files). Anything else is a plain command.

export type Stmt =
  | { kind: 'cmd'; argv: string[]; redirect?: { append: boolean; path: string }; background?: boolean; expands?: true }
  | { kind: 'and'; left: Stmt; right: Stmt }
  | { kind: 'or'; left: Stmt; right: Stmt }
  | { kind: 'loop'; body: Stmt[] }
  | { kind: 'block'; body: Stmt[] };

export class ShellSyntaxError extends Error {}

type Tok = { op: string } | { word: string };

/**
 * Where a word expands, the tokenizer leaves a mark before what follows the `$`: UNQUOTED outside quotes (the result is
 * split into fields), QUOTED inside double quotes (kept as one). `$(...)` and backquotes keep their command whole.
 * Single quotes and `\$` leave a plain `$`.
 */
export const UNQUOTED = '\uE000';
export const QUOTED = '\uE001';

/** Whether a word has an expansion the tokenizer marked. */
export const marked = (word: string): boolean => word.includes(UNQUOTED) || word.includes(QUOTED);

/** The index of the `)` that closes the `(` at text[open], or -1. */
export function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let j = open; j < text.length; j++) {
    if (text[j] === '(') depth++;
    else if (text[j] === ')' && --depth === 0) return j;
  }
  return -1;
}

/** The expansion at src[i] (a `$` or a backquote), as mark + text, and where it ends. */
function expansion(src: string, i: number, mark: string): [string, number] {
  if (src[i] === '`') {
    const end = src.indexOf('`', i + 1);
    if (end < 0) throw new ShellSyntaxError('unterminated `...`');
    return [`${mark}(${src.slice(i + 1, end)})`, end + 1];
  }
  if (src[i + 1] !== '(') return [mark, i + 1];
  const end = closingParen(src, i + 1);
  if (end < 0) throw new ShellSyntaxError('unterminated $(...)');
  return [`${mark}${src.slice(i + 1, end + 1)}`, end + 1];
}

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  let word = '';
  let inWord = false;
  const flush = (): void => {
    if (inWord) toks.push({ word });
    word = '';
    inWord = false;
  };
  while (i < src.length) {
    const c = src[i];
    if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) throw new ShellSyntaxError(`unterminated quoted string`);
      word += src.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      inWord = true;
      while (i < src.length && src[i] !== '"') {
        if (src[i] === '\\' && i + 1 < src.length && '"\\$`'.includes(src[i + 1])) {
          word += src[i + 1];
          i += 2;
        } else if ((src[i] === '$' && i + 1 < src.length && src[i + 1] !== '"') || src[i] === '`') {
          const [text, next] = expansion(src, i, QUOTED);
          word += text;
          i = next;
        } else word += src[i++];
      }
      if (i >= src.length) throw new ShellSyntaxError(`unterminated quoted string`);
      i++;
    } else if (c === '\\' && i + 1 < src.length) {
      word += src[i + 1];
      inWord = true;
      i += 2;
    } else if ((c === '$' && i + 1 < src.length && !' \t\n;&|'.includes(src[i + 1])) || c === '`') {
      const [text, next] = expansion(src, i, UNQUOTED);
      word += text;
      inWord = true;
      i = next;
    } else if (c === '#' && !inWord) {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === ' ' || c === '\t') {
      flush();
      i++;
    } else if (c === '\n' || c === ';') {
      flush();
      toks.push({ op: ';' });
      i++;
    } else if (c === '&' || c === '|' || c === '>') {
      flush();
      const two = src.slice(i, i + 2);
      if (two === '&&' || two === '||' || two === '>>') {
        toks.push({ op: two });
        i += 2;
      } else {
        toks.push({ op: c });
        i++;
      }
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  flush();
  return toks;
}

/** Parse a script into statements. */
export function parseShell(src: string): Stmt[] {
  const toks = tokenize(src);
  let pos = 0;
  const peekWord = (): string | undefined => {
    const t = toks[pos];
    return t && 'word' in t ? t.word : undefined;
  };
  const isOp = (op: string): boolean => {
    const t = toks[pos];
    return !!t && 'op' in t && t.op === op;
  };
  const skipSeps = (): void => {
    while (isOp(';')) pos++;
  };

  const parseList = (terminators: string[]): Stmt[] => {
    const out: Stmt[] = [];
    skipSeps();
    while (pos < toks.length) {
      const w = peekWord();
      if (w !== undefined && terminators.includes(w)) break;
      out.push(parseAndOr());
      if (isOp('&')) {
        pos++;
        const last = out[out.length - 1];
        if (last.kind === 'cmd') last.background = true;
      }
      skipSeps();
    }
    return out;
  };

  const parseAndOr = (): Stmt => {
    let left = parsePipeline();
    for (;;) {
      if (isOp('&&')) {
        pos++;
        skipSeps();
        left = { kind: 'and', left, right: parsePipeline() };
      } else if (isOp('||')) {
        pos++;
        skipSeps();
        left = { kind: 'or', left, right: parsePipeline() };
      } else return left;
    }
  };

  // a pipeline runs its last command for status; earlier commands are run for their effects
  const parsePipeline = (): Stmt => {
    const parts: Stmt[] = [parseCommand()];
    while (isOp('|')) {
      pos++;
      parts.push(parseCommand());
    }
    return parts.length === 1 ? parts[0] : { kind: 'block', body: parts };
  };

  const parseCommand = (): Stmt => {
    const w = peekWord();
    if (w === 'while' || w === 'until') {
      pos++;
      const cond = parseList(['do']);
      if (peekWord() !== 'do') throw new ShellSyntaxError(`syntax error: expected "do"`);
      pos++;
      const body = parseList(['done']);
      if (peekWord() !== 'done') throw new ShellSyntaxError(`syntax error: expected "done"`);
      pos++;
      const infinite = w === 'while' && cond.length === 1 && cond[0].kind === 'cmd' && ['true', ':'].includes(cond[0].argv[0]);
      if (!infinite) throw new ShellSyntaxError(`only "while true" loops are modelled`);
      return { kind: 'loop', body };
    }
    if (w === '{') {
      pos++;
      const body = parseList(['}']);
      if (peekWord() !== '}') throw new ShellSyntaxError(`syntax error: expected "}"`);
      pos++;
      return { kind: 'block', body };
    }
    const argv: string[] = [];
    let redirect: { append: boolean; path: string } | undefined;
    while (pos < toks.length) {
      const t = toks[pos];
      if ('op' in t) {
        if (t.op === '>' || t.op === '>>') {
          pos++;
          const target = peekWord();
          if (target === undefined) throw new ShellSyntaxError('syntax error: redirection without a file');
          redirect = { append: t.op === '>>', path: target };
          pos++;
          continue;
        }
        break;
      }
      // reserved words (do, done, }) only count in command position, which parseList checks
      argv.push(t.word);
      pos++;
    }
    if (argv.length === 0) throw new ShellSyntaxError('syntax error: unexpected operator');
    // whether the command expands anything, decided once here rather than at each run
    return argv.some(marked) || (redirect && marked(redirect.path)) ? { kind: 'cmd', argv, redirect, expands: true } : { kind: 'cmd', argv, redirect };
  };

  const stmts = parseList([]);
  if (pos < toks.length) throw new ShellSyntaxError('syntax error');
  return stmts;
}
