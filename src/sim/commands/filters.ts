// The text filters a reader pipes the tools into: grep (GNU options -E -F -i -v -c -n -w -x -o -q,
// -A/-B/-C context with `--` separators), head, tail and wc. jq is in jq.ts.

import type { CommandResult } from './shell.ts';

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode: number): CommandResult => ({ stdout: '', stderr, exitCode });

/** Lines of a text stream; a final newline does not start another line. */
function lines(input: string): string[] {
  if (input === '') return [];
  const l = input.split('\n');
  if (l[l.length - 1] === '') l.pop();
  return l;
}

// ---------------------------------------------------------------------------------------------
// grep
// ---------------------------------------------------------------------------------------------

const GREP_USAGE = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";

const POSIX_CLASSES: Record<string, string> = {
  alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: '\\s', blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~', xdigit: '0-9A-Fa-f',
};

/** Translate a POSIX BRE or ERE into a JavaScript regular expression source. */
export function posixToJs(pattern: string, extended: boolean): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '[') {
      // Bracket expressions: copy through, translating [:class:] and escaping JS-special chars.
      let j = i + 1;
      let cls = '[';
      if (pattern[j] === '^') {
        cls += '^';
        j++;
      }
      if (pattern[j] === ']') {
        cls += '\\]';
        j++;
      }
      for (; j < pattern.length && pattern[j] !== ']'; j++) {
        const m = /^\[:(\w+):\]/.exec(pattern.slice(j));
        if (m && POSIX_CLASSES[m[1]]) {
          cls += POSIX_CLASSES[m[1]];
          j += m[0].length - 1;
        } else if (pattern[j] === '\\' || pattern[j] === '[') {
          cls += `\\${pattern[j]}`;
        } else cls += pattern[j];
      }
      out += `${cls}]`;
      i = j;
      continue;
    }
    if (extended) {
      if (c === '\\' && i + 1 < pattern.length) {
        out += `\\${pattern[++i]}`;
      } else if (c === '{' && !/^\{\d*(,\d*)?\}/.test(pattern.slice(i))) {
        out += '\\{';
      } else out += c;
      continue;
    }
    // Basic: \( \) \{ \} \| \+ \? are operators; the bare characters are literals.
    if (c === '\\' && i + 1 < pattern.length) {
      const n = pattern[++i];
      out += '(){}|+?'.includes(n) ? n : `\\${n}`;
    } else if ('(){}|+?'.includes(c)) {
      out += `\\${c}`;
    } else if (c === '*' && (i === 0 || pattern[i - 1] === '^')) {
      out += '\\*';
    } else out += c;
  }
  return out;
}

interface GrepOptions {
  mode: 'G' | 'E' | 'F';
  ignoreCase: boolean;
  invert: boolean;
  count: boolean;
  lineNumbers: boolean;
  word: boolean;
  lineRegexp: boolean;
  onlyMatching: boolean;
  quiet: boolean;
  after: number;
  before: number;
  patterns: string[];
}

export function grep(argv: string[], stdin: string): CommandResult {
  const o: GrepOptions = {
    mode: 'G', ignoreCase: false, invert: false, count: false, lineNumbers: false, word: false,
    lineRegexp: false, onlyMatching: false, quiet: false, after: 0, before: 0, patterns: [],
  };
  const files: string[] = [];
  const args = argv.slice(1);
  const needNumber = (opt: string, v: string | undefined): number => {
    if (v === undefined) throw new GrepUsage(`grep: option requires an argument -- '${opt}'\n${GREP_USAGE}`);
    if (!/^\d+$/.test(v)) throw new GrepUsage(`grep: ${v}: invalid context length argument\n`);
    return Number(v);
  };
  try {
    let onlyFiles = false;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (onlyFiles || !a.startsWith('-') || a === '-') {
        files.push(a);
        continue;
      }
      if (a === '--') {
        onlyFiles = true;
        continue;
      }
      if (a.startsWith('--')) {
        const [name, value] = a.slice(2).split(/=(.*)/s);
        const long: Record<string, () => void> = {
          'extended-regexp': () => (o.mode = 'E'), 'fixed-strings': () => (o.mode = 'F'),
          'basic-regexp': () => (o.mode = 'G'), 'ignore-case': () => (o.ignoreCase = true),
          'invert-match': () => (o.invert = true), count: () => (o.count = true),
          'line-number': () => (o.lineNumbers = true), 'word-regexp': () => (o.word = true),
          'line-regexp': () => (o.lineRegexp = true), 'only-matching': () => (o.onlyMatching = true),
          quiet: () => (o.quiet = true), silent: () => (o.quiet = true), color: () => {}, colour: () => {},
          'after-context': () => (o.after = needNumber('A', value ?? args[++i])),
          'before-context': () => (o.before = needNumber('B', value ?? args[++i])),
          context: () => (o.after = o.before = needNumber('C', value ?? args[++i])),
          regexp: () => o.patterns.push(value ?? args[++i]),
        };
        const f = long[name];
        if (!f) throw new GrepUsage(`grep: unrecognized option '${a}'\n${GREP_USAGE}`);
        f();
        continue;
      }
      for (let j = 1; j < a.length; j++) {
        const c = a[j];
        const rest = a.slice(j + 1);
        if ('ABCe'.includes(c)) {
          const value = rest !== '' ? rest : args[++i];
          if (c === 'e') {
            if (value === undefined) throw new GrepUsage(`grep: option requires an argument -- 'e'\n${GREP_USAGE}`);
            o.patterns.push(value);
          } else {
            const n = needNumber(c, value);
            if (c !== 'B') o.after = n;
            if (c !== 'A') o.before = n;
          }
          break;
        }
        if (/\d/.test(c)) {
          const m = /^\d+/.exec(a.slice(j))![0];
          o.after = o.before = Number(m);
          j += m.length - 1;
          continue;
        }
        const flags: Record<string, () => void> = {
          E: () => (o.mode = 'E'), F: () => (o.mode = 'F'), G: () => (o.mode = 'G'), i: () => (o.ignoreCase = true),
          y: () => (o.ignoreCase = true), v: () => (o.invert = true), c: () => (o.count = true),
          n: () => (o.lineNumbers = true), w: () => (o.word = true), x: () => (o.lineRegexp = true),
          o: () => (o.onlyMatching = true), q: () => (o.quiet = true), s: () => {}, h: () => {}, H: () => {},
        };
        const f = flags[c];
        if (!f) throw new GrepUsage(`grep: invalid option -- '${c}'\n${GREP_USAGE}`);
        f();
      }
    }
  } catch (e) {
    if (e instanceof GrepUsage) return fail(e.message, 2);
    throw e;
  }
  if (o.patterns.length === 0) {
    if (files.length === 0) return fail(GREP_USAGE, 2);
    o.patterns.push(files.shift()!);
  }
  if (files.length > 0) {
    return fail(files.map((f) => `grep: ${f}: No such file or directory\n`).join(''), 2);
  }

  let re: RegExp;
  try {
    const sources = o.patterns.flatMap((p) => p.split('\n')).map((p) =>
      o.mode === 'F' ? p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : posixToJs(p, o.mode === 'E'),
    );
    let source = sources.map((s) => `(?:${s})`).join('|');
    if (o.word) source = `(?<![\\w])(?:${source})(?![\\w])`;
    if (o.lineRegexp) source = `^(?:${source})$`;
    re = new RegExp(source, `g${o.ignoreCase ? 'i' : ''}u`);
  } catch {
    return fail('grep: Unmatched ( or \\(\n', 2);
  }

  const input = lines(stdin);
  const selected = input.map((l) => {
    re.lastIndex = 0;
    return re.test(l) !== o.invert;
  });
  const total = selected.filter(Boolean).length;
  const status = total > 0 ? 0 : 1;
  if (o.quiet) return { stdout: '', stderr: '', exitCode: status };
  if (o.count) return { stdout: `${total}\n`, stderr: '', exitCode: status };

  let out = '';
  let lastPrinted = -1;
  let printedAny = false;
  let afterLeft = 0;
  const emit = (i: number, sep: string) => {
    if (printedAny && lastPrinted >= 0 && i > lastPrinted + 1 && (o.after > 0 || o.before > 0)) out += '--\n';
    out += `${o.lineNumbers ? `${i + 1}${sep}` : ''}${input[i]}\n`;
    lastPrinted = i;
    printedAny = true;
  };
  for (let i = 0; i < input.length; i++) {
    if (selected[i]) {
      for (let b = Math.max(lastPrinted + 1, i - o.before); b < i; b++) emit(b, '-');
      if (o.onlyMatching && !o.invert) {
        re.lastIndex = 0;
        for (const m of input[i].matchAll(re)) if (m[0] !== '') out += `${o.lineNumbers ? `${i + 1}:` : ''}${m[0]}\n`;
        lastPrinted = i;
        printedAny = true;
      } else emit(i, ':');
      afterLeft = o.after;
    } else if (afterLeft > 0) {
      emit(i, '-');
      afterLeft--;
    }
  }
  return { stdout: out, stderr: '', exitCode: status };
}

class GrepUsage extends Error {}

// ---------------------------------------------------------------------------------------------
// head, tail, wc
// ---------------------------------------------------------------------------------------------

function lineCountArg(argv: string[], tool: 'head' | 'tail'): { n: number; fromStart: boolean } | CommandResult {
  let n = 10;
  let fromStart = false;
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    let v: string | undefined;
    if (/^-\d+$/.test(a)) v = a.slice(1);
    else if (a === '-n' || a === '--lines') v = args[++i];
    else if (a.startsWith('-n')) v = a.slice(2);
    else if (a.startsWith('--lines=')) v = a.slice(8);
    else if (!a.startsWith('-')) return fail(`${tool}: cannot open '${a}' for reading: No such file or directory\n`, 1);
    else return fail(`${tool}: invalid option -- '${a.slice(1, 2)}'\nTry '${tool} --help' for more information.\n`, 1);
    if (v === undefined) return fail(`${tool}: option requires an argument -- 'n'\nTry '${tool} --help' for more information.\n`, 1);
    const m = /^([+-]?)(\d+)$/.exec(v);
    if (!m) return fail(`${tool}: invalid number of lines: ‘${v}’\n`, 1);
    n = Number(m[2]);
    fromStart = m[1] === '+' ? tool === 'tail' : m[1] === '-' && tool === 'head';
  }
  return { n, fromStart };
}

/** Keep the input's final newline (or its absence) on the last line printed. */
function joinLines(input: string, picked: string[], endsAtInputEnd: boolean): string {
  if (picked.length === 0) return '';
  const finalNewline = !endsAtInputEnd || input.endsWith('\n');
  return picked.join('\n') + (finalNewline ? '\n' : '');
}

export function head(argv: string[], stdin: string): CommandResult {
  const a = lineCountArg(argv, 'head');
  if ('exitCode' in a) return a;
  const l = lines(stdin);
  // `head -n -N`: everything but the last N lines.
  const picked = a.fromStart ? l.slice(0, Math.max(0, l.length - a.n)) : l.slice(0, a.n);
  return ok(joinLines(stdin, picked, picked.length === l.length));
}

export function tail(argv: string[], stdin: string): CommandResult {
  const a = lineCountArg(argv, 'tail');
  if ('exitCode' in a) return a;
  const l = lines(stdin);
  // `tail -n +N`: from line N on.
  const picked = a.fromStart ? l.slice(Math.max(0, a.n - 1)) : a.n === 0 ? [] : l.slice(-a.n);
  return ok(joinLines(stdin, picked, true));
}

export function wc(argv: string[], stdin: string): CommandResult {
  const opts = new Set<string>();
  for (const a of argv.slice(1)) {
    if (a === '--lines') opts.add('l');
    else if (a === '--words') opts.add('w');
    else if (a === '--bytes') opts.add('c');
    else if (a.startsWith('-') && !a.startsWith('--')) for (const c of a.slice(1)) {
      if (!'lwcm'.includes(c)) return fail(`wc: invalid option -- '${c}'\nTry 'wc --help' for more information.\n`, 1);
      opts.add(c === 'm' ? 'c' : c);
    }
    else return fail(`wc: ${a}: No such file or directory\n`, 1);
  }
  const counts = {
    l: (stdin.match(/\n/g) ?? []).length,
    w: stdin.split(/\s+/).filter(Boolean).length,
    c: new TextEncoder().encode(stdin).length,
  };
  const chosen = (['l', 'w', 'c'] as const).filter((k) => opts.size === 0 || opts.has(k));
  if (chosen.length === 1) return ok(`${counts[chosen[0]]}\n`);
  return ok(`${chosen.map((k) => String(counts[k]).padStart(7)).join(' ')}\n`);
}
