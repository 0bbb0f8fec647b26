// The shell around the simulated tools: words and quotes as sh reads them (single quotes literal,
// double quotes with \" \\ \$ \` escapes, backslash outside quotes), pipes, `;`, `&&`, `||`, and the
// few redirections a reader types (2>&1, >/dev/null, 2>/dev/null). Errors read as bash's.

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /**
   * Both streams in the order they were written, as a terminal shows them, when that is not simply stdout then
   * stderr (a warning before the output; commands run one after another). The texts add up to stdout and stderr.
   */
  writes?: Write[];
}

/** One write to stdout (1) or stderr (2). */
export type Write = [fd: 1 | 2, text: string];

/** A result's writes in order: stdout, then stderr, unless it records another order. */
export function writesOf(r: CommandResult): Write[] {
  return r.writes ?? [[1, r.stdout], [2, r.stderr]];
}

/** What a terminal shows of a result: both streams, in the order they were written. */
export function shown(r: CommandResult): string {
  return r.writes ? r.writes.map((w) => w[1]).join('') : r.stdout + r.stderr;
}

/** The result of these writes, in order (recorded only when stderr does not simply follow stdout). */
export function fromWrites(writes: Write[], exitCode: number): CommandResult {
  const ws = writes.filter((w) => w[1] !== '');
  let stdout = '';
  let stderr = '';
  let sawStderr = false; // a stdout write after a stderr one is out of the default order
  let reordered = false;
  for (const [fd, text] of ws) {
    if (fd === 1) {
      stdout += text;
      reordered ||= sawStderr;
    } else {
      stderr += text;
      sawStderr = true;
    }
  }
  return reordered ? { stdout, stderr, exitCode, writes: ws } : { stdout, stderr, exitCode };
}

export type Token =
  | { kind: 'word'; value: string }
  | { kind: 'op'; value: string };

export class ShellSyntaxError extends Error {
  readonly exitCode = 2;
}

const OPERATORS = ['2>&1', '&>>', '&>', '>>', '2>>', '2>', '||', '&&', '|', ';', '&', '<<', '<', '>', '(', ')'];

/** Split a command line into words and operators, as sh does (no expansions). */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let word: string | null = null;
  const flush = () => {
    if (word !== null) tokens.push({ kind: 'word', value: word });
    word = null;
  };
  for (let i = 0; i < line.length; ) {
    const c = line[i];
    if (c === ' ' || c === '\t' || c === '\n') {
      flush();
      i++;
      continue;
    }
    if (c === '#' && word === null) break;
    if (c === '\\') {
      if (line[i + 1] === '\n') {
        i += 2;
        continue;
      }
      word = (word ?? '') + (line[i + 1] ?? '');
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new ShellSyntaxError("bash: unexpected EOF while looking for matching `''");
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let s = '';
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && '$`"\\\n'.includes(line[j + 1] ?? '')) {
          if (line[j + 1] !== '\n') s += line[j + 1];
          j++;
        } else {
          if ((line[j] === '$' && /[A-Za-z_{(]/.test(line[j + 1] ?? '')) || line[j] === '`') unsupportedExpansion();
          s += line[j];
        }
      }
      if (j >= line.length) throw new ShellSyntaxError('bash: unexpected EOF while looking for matching `"\'');
      word = (word ?? '') + s;
      i = j + 1;
      continue;
    }
    if ((c === '$' && /[A-Za-z_{(]/.test(line[i + 1] ?? '')) || c === '`') unsupportedExpansion();
    // `2>` only counts as an operator at the start of a word.
    const op = OPERATORS.find((o) => line.startsWith(o, i) && (o[0] !== '2' || word === null));
    if (op) {
      flush();
      tokens.push({ kind: 'op', value: op });
      i += op.length;
      continue;
    }
    word = (word ?? '') + c;
    i++;
  }
  flush();
  return tokens;
}

function unsupportedExpansion(): never {
  throw new ShellSyntaxError('podlife: shell expansions ($VAR, $(...), `...`) are not supported in this console');
}

export interface SimpleCommand {
  argv: string[];
  /** 2>&1 */
  mergeStderr: boolean;
  discardStdout: boolean;
  discardStderr: boolean;
  /** A redirection bash cannot perform: the command fails with this message (exit 1). */
  redirectError?: string;
}

export type Pipeline = SimpleCommand[];

/** A command list: pipelines joined by `;`, `&&` or `||` (the joiner before each pipeline). */
export type CommandList = { joiner: ';' | '&&' | '||'; pipeline: Pipeline }[];

export function parse(line: string): CommandList {
  const tokens = tokenize(line);
  const list: CommandList = [];
  let joiner: ';' | '&&' | '||' = ';';
  let pipeline: Pipeline = [];
  let cmd: SimpleCommand = newCommand();
  const unexpected = (t: Token | undefined) =>
    new ShellSyntaxError(`bash: syntax error near unexpected token \`${t ? t.value : 'newline'}'`);

  const endCommand = (t: Token | undefined) => {
    if (cmd.argv.length === 0) throw unexpected(t);
    pipeline.push(cmd);
    cmd = newCommand();
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'word') {
      cmd.argv.push(t.value);
      continue;
    }
    switch (t.value) {
      case '|':
        endCommand(t);
        break;
      case ';':
      case '&&':
      case '||':
        endCommand(t);
        list.push({ joiner, pipeline });
        pipeline = [];
        joiner = t.value;
        break;
      case '2>&1':
        cmd.mergeStderr = true;
        break;
      case '>':
      case '>>':
      case '2>':
      case '2>>':
      case '&>':
      case '&>>':
      case '<': {
        const target = tokens[i + 1];
        if (!target || target.kind !== 'word') throw unexpected(target);
        i++;
        if (t.value === '<') {
          cmd.redirectError ??= `bash: ${target.value}: No such file or directory`;
          break;
        }
        if (target.value !== '/dev/null') {
          cmd.redirectError ??= 'podlife: redirecting output to a file is not supported in this console';
          break;
        }
        if (t.value.startsWith('2')) cmd.discardStderr = true;
        else if (t.value.startsWith('&')) {
          cmd.discardStdout = true;
          cmd.discardStderr = true;
        } else cmd.discardStdout = true;
        break;
      }
      case '&':
        throw new ShellSyntaxError('podlife: background jobs (&) are not supported in this console');
      case '<<':
        throw new ShellSyntaxError('podlife: here-documents (<<) are not supported in this console; put the manifest in a file for kubectl apply -f');
      default:
        throw unexpected(t);
    }
  }
  if (cmd.argv.length > 0) pipeline.push(cmd);
  else if (pipeline.length > 0 || list.length > 0) {
    // A trailing `|`, `&&` or `||` waits for more input in bash; `;` may end a line.
    if (pipeline.length > 0 || joiner !== ';') throw new ShellSyntaxError('bash: syntax error: unexpected end of file');
  }
  if (pipeline.length > 0) list.push({ joiner, pipeline });
  return list;
}

function newCommand(): SimpleCommand {
  return { argv: [], mergeStderr: false, discardStdout: false, discardStderr: false };
}

export type CommandHandler = (argv: string[], stdin: string) => CommandResult;

/** Run a parsed command list; `lookup` resolves a command name to its implementation. */
export function runList(list: CommandList, lookup: (name: string) => CommandHandler | undefined): CommandResult {
  const writes: Write[] = [];
  let status = 0;
  for (const { joiner, pipeline } of list) {
    if ((joiner === '&&' && status !== 0) || (joiner === '||' && status === 0)) continue;
    const r = runPipeline(pipeline, lookup);
    writes.push(...writesOf(r));
    status = r.exitCode;
  }
  return fromWrites(writes, status);
}

function runPipeline(pipeline: Pipeline, lookup: (name: string) => CommandHandler | undefined): CommandResult {
  let input = '';
  // what reaches the terminal: each command's stderr, then the last one's stdout (a lone command keeps its order)
  const shownErr: Write[] = [];
  let last: Write[] = [];
  let exitCode = 0;
  for (const cmd of pipeline) {
    const handler = lookup(cmd.argv[0]);
    const r: CommandResult = cmd.redirectError
      ? { stdout: '', stderr: `${cmd.redirectError}\n`, exitCode: 1 }
      : handler
        ? handler(cmd.argv, input)
        : { stdout: '', stderr: `bash: ${cmd.argv[0]}: command not found\n`, exitCode: 127 };
    // 2>&1 sends stderr where stdout goes, in the order written; >/dev/null and 2>/dev/null drop a stream
    const writes = writesOf(r)
      .filter(([fd]) => !(fd === 1 ? cmd.discardStdout : cmd.discardStderr))
      .map(([fd, text]): Write => [cmd.mergeStderr ? 1 : fd, text]);
    input = writes.filter(([fd]) => fd === 1).map((w) => w[1]).join('');
    if (pipeline.length === 1) last = writes;
    else {
      shownErr.push(...writes.filter(([fd]) => fd === 2));
      last = [[1, input]];
    }
    exitCode = r.exitCode;
  }
  return fromWrites([...shownErr, ...last], exitCode);
}
