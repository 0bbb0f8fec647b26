// The shell's redirections, as busybox ash reads and applies them: `N>file`, `N>>file`, `N<file`, `N>&M`, `N>&-`,
// `&>file` and `>&file` (its bash compatibility), and here-documents (`<<EOF`, `<<-EOF`, `<<'EOF'`).
// A module of its own, installed into the shell by the engine (engine.ts), and by a page's replay only for a run that
// sends a `>` or `<` (components/player/replay.ts): a run without one never reads a redirection.
// upstream: busybox shell/ash.c parseredir, openredirect, redirect, dup2_or_raise

import type { ProcessHost } from './process.ts';
import { QUOTED, ShellSyntaxError, expansion, type Redirect } from './shell.ts';

type RedirToken = { redir: Redirect['op']; fd: number | undefined; here?: string };
export type HereDoc = { tok: RedirToken; delim: string; tabs: boolean; expands: boolean };

/**
 * The redirection operator at src[i] (a `>`, `<` or `&>`), its descriptor `fd` if a digit came just before it: pushes
 * its token (a here-document's, whose text comes after the line, onto `pending` too) and returns where it ends.
 */
export function lexRedirect(src: string, i: number, fd: number | undefined, toks: RedirToken[], pending: HereDoc[]): number {
  const two = src.slice(i, i + 2);
  const op = (src[i] === '&' ? '&>' : two === '>>' || two === '>&' || two === '<&' || two === '<<' ? two : src[i]) as Redirect['op'];
  const tok: RedirToken = { redir: op, fd };
  toks.push(tok);
  i += op.length;
  if (op !== '<<') {
    // `>|` (clobber) and `<>` (read-write) open the file as `>` and `<` do
    return (op === '>' && src[i] === '|') || (op === '<' && src[i] === '>') ? i + 1 : i;
  }
  // the delimiter: a word whose quotes are removed; quoting any of it leaves the document unexpanded
  const tabs = src[i] === '-';
  if (tabs) i++;
  while (src[i] === ' ' || src[i] === '\t') i++;
  let delim = '';
  let quoted = false;
  while (i < src.length && !' \t\n;&|<>()'.includes(src[i])) {
    const c = src[i];
    if (c === "'" || c === '"') {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new ShellSyntaxError('unterminated quoted string');
      delim += src.slice(i + 1, end);
      quoted = true;
      i = end + 1;
    } else if (c === '\\') {
      delim += src[i + 1] ?? '';
      quoted = true;
      i += 2;
    } else delim += src[i++];
  }
  if (delim === '') throw new ShellSyntaxError(`syntax error: unexpected ${src[i] === undefined ? 'end of file' : src[i] === '\n' ? 'newline' : `"${src[i]}"`}`);
  tok.here = '';
  pending.push({ tok, delim, tabs, expands: !quoted });
  return i;
}

/** The here-documents of the line that ended before src[i]: their lines, up to each delimiter's line. Returns where they end. */
export function readHereDocs(src: string, i: number, pending: HereDoc[]): number {
  for (const h of pending) {
    const lines: string[] = [];
    while (i < src.length) {
      const eol = src.indexOf('\n', i);
      let line = src.slice(i, eol < 0 ? src.length : eol);
      i = eol < 0 ? src.length : eol + 1;
      if (h.tabs) line = line.replace(/^\t+/, '');
      if (line === h.delim) break;
      lines.push(line);
    }
    const body = lines.length ? `${lines.join('\n')}\n` : '';
    // under an unquoted delimiter, `$` and backquotes expand as inside double quotes
    let word = '';
    for (let j = 0; j < body.length; ) {
      if (!h.expands) {
        word = body;
        break;
      }
      if (body[j] === '\\' && '$`\\'.includes(body[j + 1] ?? '')) {
        word += body[j + 1];
        j += 2;
      } else if ((body[j] === '$' && !' \t\n'.includes(body[j + 1] ?? ' ')) || body[j] === '`') {
        const [text, next] = expansion(body, j, QUOTED);
        word += text;
        j = next;
      } else word += body[j++];
    }
    h.tok.here = word;
  }
  pending.length = 0;
  return i;
}

/** Where a descriptor goes: the shell's stdout or stderr, a file, a here-document, or nowhere (null: /dev/null, or closed). */
export type Sink = 'out' | 'err' | { file: string } | { text: string } | null;
const SHELL_FDS: ReadonlyMap<number, Sink> = new Map<number, Sink>([
  [0, null],
  [1, 'out'],
  [2, 'err'],
]);

/**
 * A command's redirections, left to right, over the shell's descriptors (`base`; unset: as the shell started): the
 * table its output goes by, or, when one fails, the status 1 (ash reports it on the stderr of the moment, and the
 * command does not run). `targets` are the redirections' words, expanded.
 */
export function openRedirects(redirects: Redirect[], targets: string[], base: ReadonlyMap<number, Sink> | undefined, host: ProcessHost, write: (sink: Sink, text: string) => void): Map<number, Sink> | number {
  const fds = new Map(base ?? SHELL_FDS);
  const fs = host.fs;
  for (const [i, r] of redirects.entries()) {
    const target = targets[i];
    const fail = (message: string): number => {
      write(fds.get(2) ?? null, `sh: ${message}`);
      return 1;
    };
    if (r.op === '<<') fds.set(r.fd, { text: target });
    else if (r.op === '<') {
      // cat reads it (the model's other commands do not read their stdin)
      if (target !== '/dev/null' && !fs.has(target) && host.read?.(target) === undefined) return fail(`can't open ${target}: no such file`);
      fds.set(r.fd, target === '/dev/null' ? null : { file: target });
    } else if (r.op === '>&' || r.op === '<&') {
      if (target === '-') fds.set(r.fd, null);
      else if (!fds.has(Number(target))) return fail(`dup2(${target},${r.fd}): Bad file descriptor`);
      else fds.set(r.fd, fds.get(Number(target))!);
    } else {
      // a file: /dev/null discards, /dev/stdout and /dev/stderr are the descriptors as they are now
      let sink: Sink;
      if (target === '/dev/null') sink = null;
      else if (target === '/dev/stdout' || target === '/dev/stderr') sink = fds.get(target === '/dev/stdout' ? 1 : 2) ?? null;
      else {
        if (target === '') return fail("can't create : nonexistent directory");
        if (host.readOnly?.(target)) return fail(`can't create ${target}: Read-only file system`);
        sink = { file: target };
        fs.add(target);
        if (r.op !== '>>') host.data?.delete(target);
      }
      fds.set(r.op === '&>' ? 1 : r.fd, sink);
      if (r.op === '&>') fds.set(2, sink);
    }
  }
  return fds;
}

/** Write a line to a file sink: the file exists, and keeps its contents for cat. */
export function writeFile(host: ProcessHost, file: string, text: string): void {
  host.fs.add(file);
  host.data?.set(file, `${host.data.get(file) ?? ''}${text}\n`);
}
