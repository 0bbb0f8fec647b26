// A small POSIX-sh subset: enough to say what a container's command does over time. Parsing only; process.ts runs it.
// Supported: `;` `&&` `||` newlines, `&` (background) and `wait`, `while`/`until ...; do ...; done`, `for NAME in ...`,
// `if ...; then ...; elif ...; else ...; fi`, `{ ...; }`, `trap 'cmds' SIG...`,
// quotes and backslash escapes, redirections (`>`, `>>`, `<`, `N>&M`, `N>&-`, and busybox's bash-compatible `&>`).
// Anything else is a plain command.

import type { HereDoc } from './redirect.ts';

/**
 * One redirection of a simple command, applied left to right: `fd` is the descriptor it sets (1 for a bare `>`, 0
 * for `<`); `>&` duplicates the descriptor its target names (or closes with `-`; a file name after `>&` is `&>`).
 */
export interface Redirect {
  fd: number;
  op: '>' | '>>' | '>&' | '<' | '<&' | '&>' | '<<';
  /** The file, or the descriptor; for `<<` (a here-document), the document's text. */
  target: string;
}

export type Stmt =
  | { kind: 'cmd'; argv: string[]; redirects?: Redirect[]; background?: boolean; expands?: true }
  | { kind: 'and'; left: Stmt; right: Stmt }
  | { kind: 'or'; left: Stmt; right: Stmt }
  | { kind: 'loop'; body: Stmt[]; cond?: Stmt[]; until?: true }
  | { kind: 'for'; name: string; words: string[]; body: Stmt[] }
  | { kind: 'if'; branches: [Stmt[], Stmt[]][]; otherwise?: Stmt[] }
  | { kind: 'not'; stmt: Stmt }
  | { kind: 'block'; body: Stmt[] };

export class ShellSyntaxError extends Error {}

/** The shell's redirections (runtime/redirect.ts): an engine has them unless a page's replay left them out. */
export type RedirectModule = typeof import('./redirect.ts');

type Tok = { op: string; newline?: true } | { word: string } | { redir: Redirect['op']; fd: number | undefined; here?: string };

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
export function expansion(src: string, i: number, mark: string): [string, number] {
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

function tokenize(src: string, redirect: RedirectModule | undefined): Tok[] {
  const toks: Tok[] = [];
  /** Here-documents whose text starts after the current line. */
  const pending: HereDoc[] = [];
  let i = 0;
  let word = '';
  let inWord = false;
  /** Whether the word so far is only unquoted characters: `2>` is a redirection of fd 2, `"2">` is not. */
  let bare = true;
  const flush = (): void => {
    if (inWord) toks.push({ word });
    word = '';
    inWord = false;
    bare = true;
  };
  while (i < src.length) {
    const c = src[i];
    if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) throw new ShellSyntaxError(`unterminated quoted string`);
      word += src.slice(i + 1, end);
      inWord = true;
      bare = false;
      i = end + 1;
    } else if (c === '"') {
      i++;
      inWord = true;
      bare = false;
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
      bare = false;
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
      toks.push(c === '\n' ? { op: ';', newline: true } : { op: ';' });
      i++;
      if (c === '\n' && pending.length) i = redirect!.readHereDocs(src, i, pending);
    } else if (c === '>' || c === '<' || (c === '&' && src[i + 1] === '>')) {
      // (a replay whose run sent no `>` or `<` leaves the redirections out: it never comes here)
      if (!redirect) throw new ShellSyntaxError('podlife: this engine was made without the shell redirections (runtime/redirect.ts)');
      // an unquoted single digit just before the operator is the descriptor it redirects
      let fd: number | undefined;
      if (inWord && bare && /^\d$/.test(word)) {
        fd = Number(word);
        word = '';
        inWord = false;
      } else flush();
      i = redirect.lexRedirect(src, i, fd, toks as { redir: Redirect['op']; fd: number | undefined }[], pending);
    } else if (c === '&' || c === '|') {
      flush();
      const two = src.slice(i, i + 2);
      if (two === '&&' || two === '||') {
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

/** Parse a script into statements (with redirections where the engine has them). */
export function parseShell(src: string, redirect?: RedirectModule): Stmt[] {
  const toks = tokenize(src, redirect);
  let pos = 0;
  const peekWord = (): string | undefined => {
    const t = toks[pos];
    return t && 'word' in t ? t.word : undefined;
  };
  const isOp = (op: string): boolean => {
    const t = toks[pos];
    return !!t && 'op' in t && t.op === op;
  };
  // ash's "unexpected ..." names the token it found instead
  const unexpected = (): ShellSyntaxError => {
    const t = toks[pos];
    const name = t === undefined ? 'end of file' : 'word' in t ? 'word' : 'redir' in t ? 'redirection' : t.newline ? 'newline' : `"${t.op}"`;
    return new ShellSyntaxError(`syntax error: unexpected ${name}`);
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
    // `! pipeline` negates its status
    if (peekWord() === '!') {
      pos++;
      return { kind: 'not', stmt: parsePipeline() };
    }
    const parts: Stmt[] = [parseCommand()];
    while (isOp('|')) {
      pos++;
      parts.push(parseCommand());
    }
    return parts.length === 1 ? parts[0] : { kind: 'block', body: parts };
  };

  const parseCommand = (): Stmt => {
    const w = peekWord();
    // a compound command's reserved word, then its lists up to the next one
    const list = (word: string, terminators: string[]): Stmt[] => {
      const body = parseList(terminators);
      if (peekWord() !== word && !terminators.slice(1).includes(peekWord() ?? '')) throw new ShellSyntaxError(`syntax error: unexpected ${peekWord() === undefined ? 'end of file' : `"${peekWord()}"`} (expecting "${word}")`);
      return body;
    };
    const reserved = (word: string): void => {
      if (peekWord() !== word) throw new ShellSyntaxError(`syntax error: unexpected ${peekWord() === undefined ? 'end of file' : `"${peekWord()}"`} (expecting "${word}")`);
      pos++;
    };
    if (w === 'while' || w === 'until') {
      pos++;
      const cond = list('do', ['do']);
      reserved('do');
      const body = list('done', ['done']);
      reserved('done');
      // `while true` (or `:`) without a condition to run: a loop only a signal's trap or exit ends
      const infinite = w === 'while' && cond.length === 1 && cond[0].kind === 'cmd' && cond[0].argv.length === 1 && ['true', ':'].includes(cond[0].argv[0]);
      return infinite ? { kind: 'loop', body } : w === 'until' ? { kind: 'loop', body, cond, until: true } : { kind: 'loop', body, cond };
    }
    if (w === 'for') {
      pos++;
      const name = peekWord();
      if (name === undefined || !/^[A-Za-z_]\w*$/.test(name)) throw unexpected();
      pos++;
      const words: string[] = [];
      if (peekWord() === 'in') {
        pos++;
        for (let t = toks[pos]; t && 'word' in t; t = toks[++pos]) words.push(t.word);
      }
      skipSeps();
      reserved('do');
      const body = list('done', ['done']);
      reserved('done');
      return { kind: 'for', name, words, body };
    }
    if (w === 'if') {
      pos++;
      const branches: [Stmt[], Stmt[]][] = [];
      let otherwise: Stmt[] | undefined;
      for (;;) {
        const cond = list('then', ['then']);
        reserved('then');
        branches.push([cond, list('fi', ['fi', 'elif', 'else'])]);
        if (peekWord() === 'elif') {
          pos++;
          continue;
        }
        if (peekWord() === 'else') {
          pos++;
          otherwise = list('fi', ['fi']);
        }
        reserved('fi');
        return otherwise ? { kind: 'if', branches, otherwise } : { kind: 'if', branches };
      }
    }
    // what the model's shell does not run says so, rather than being run as a command named `case`
    if (w === 'case' || w === 'function' || (w !== undefined && /^[A-Za-z_]\w*\(\)$/.test(w))) throw new ShellSyntaxError(`podlife: ${w === 'case' ? 'case' : 'a function'} is not modelled by this shell`);
    if (w === '{') {
      pos++;
      const body = parseList(['}']);
      if (peekWord() !== '}') throw new ShellSyntaxError(`syntax error: expected "}"`);
      pos++;
      return { kind: 'block', body };
    }
    const argv: string[] = [];
    let redirects: Redirect[] | undefined;
    while (pos < toks.length) {
      const t = toks[pos];
      if ('redir' in t) {
        pos++;
        if (t.here !== undefined) {
          (redirects ??= []).push({ fd: t.fd ?? 0, op: '<<', target: t.here });
          continue;
        }
        const target = peekWord();
        if (target === undefined) throw unexpected();
        const op = t.redir === '>&' && t.fd === undefined && !/^(\d|-)$/.test(target) ? '&>' : t.redir;
        (redirects ??= []).push({ fd: t.fd ?? (op === '<' || op === '<&' ? 0 : 1), op, target });
        pos++;
        continue;
      }
      if ('op' in t) break;
      // reserved words (do, done, }) only count in command position, which parseList checks
      argv.push(t.word);
      pos++;
    }
    if (argv.length === 0 && !redirects) throw unexpected();
    // whether the command expands anything, decided once here rather than at each run
    const expands = argv.some(marked) || redirects?.some((r) => marked(r.target));
    if (redirects) return expands ? { kind: 'cmd', argv, redirects, expands: true } : { kind: 'cmd', argv, redirects };
    return expands ? { kind: 'cmd', argv, expands: true } : { kind: 'cmd', argv };
  };

  const stmts = parseList([]);
  if (pos < toks.length) throw new ShellSyntaxError('syntax error');
  return stmts;
}
