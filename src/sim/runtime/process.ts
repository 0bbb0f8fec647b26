// What a container's process does over virtual time: the command model. A program is either a shell script
// (`sh -c "..."`, interpreted by a small sh subset) or a single program run as PID 1 (`sleep 3600`, nginx, ...).
//
// Signal semantics follow Linux for PID 1 in a PID namespace: a signal without an installed handler is ignored,
// except SIGKILL. So `sh -c "sleep 3600"` and exec-form `sleep 3600` ignore SIGTERM and die by SIGKILL (exit 137);
// a shell with `trap '...' TERM` runs the trap when its foreground command returns (sh defers traps while it
// waits for a child), or at once while in `wait`. Servers (nginx, httpd, redis, unknown images) handle their stop
// signal and exit 0.

import type { EventLoop } from '../core/loop.ts';
import { QUOTED, UNQUOTED, closingParen, marked, parseShell, ShellSyntaxError, type RedirectModule, type Stmt } from './shell.ts';
import type { Sink } from './redirect.ts';

export type Signal = 'SIGTERM' | 'SIGKILL' | 'SIGQUIT' | 'SIGINT' | 'SIGWINCH' | 'SIGHUP';
export const SIGNUM: Record<Signal, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15, SIGWINCH: 28 };

/** A long-running server program: what it logs, which ports it serves, which signals stop it. */
export interface ServiceSpec {
  name: string;
  ports: number[];
  /** Log lines at start; `{time}` is replaced by the wall-clock time in the program's log format. */
  startLogs: { stream: 'stdout' | 'stderr'; text: string }[];
  /** Signals that make it exit 0, with the time shutdown takes. */
  stopsOn: Partial<Record<Signal, { ms: number; logs: string[] }>>;
  /** Paths an httpGet probe may ask for with a 2xx answer (others: 404). Empty = every path. */
  httpPaths?: string[];
  /** Milliseconds after the start when it has used more memory than the container's limit: the OOM killer kills it. */
  oomAfter?: number;
}

export interface ProcessHost {
  loop: EventLoop;
  /** Container stdout/stderr. */
  log(stream: 'stdout' | 'stderr', text: string): void;
  /** The container's files (the writable layer plus mounted volumes). */
  fs: Set<string>;
  /** A file's contents where the model knows them (the kubelet's /etc/hosts); others read as empty. */
  read?(path: string): string | undefined;
  /** What the container's commands wrote into files (redirections), by path: `cat` prints it. */
  data?: Map<string, string>;
  /** Whether a path is on a read-only mount (a ConfigMap, Secret, downward API or projected volume, or readOnly). */
  readOnly?(path: string): boolean;
  /** The container's hostname (the pod's): what `hostname` prints. */
  hostname?: string;
  /** The process's environment, for the shell's $VAR (unset: every variable expands to nothing). */
  env?: Map<string, string>;
  /** "2026/08/04 03:32:37": the wall clock in the format nginx logs use. */
  wallclock(t: number): Date;
  /** Called once when the process ends (`reason`: the runtime's, when the kernel killed it: OOMKilled). */
  exited(exitCode: number, signal?: number, reason?: string): void;
}

export type Program =
  | { kind: 'shell'; stmts: Stmt[] }
  | { kind: 'sleep'; ms: number }
  | { kind: 'service'; spec: ServiceSpec }
  | { kind: 'exit'; code: number; logs: { stream: 'stdout' | 'stderr'; text: string }[] };

export function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** busybox sleep's argument: "5", "1.5", "2m", "1h", "infinity". */
export function parseSleep(arg: string | undefined): number | undefined {
  if (arg === undefined) return undefined;
  if (arg === 'infinity' || arg === 'inf') return Infinity;
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(arg);
  if (!m) return undefined;
  const mult = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]]!;
  return Math.round(parseFloat(m[1]) * mult);
}

export const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh']);

const FILE_TOOLS = new Set(['cat', 'ls', 'stat', 'date', 'hostname', 'touch', 'mkdir', 'rm', 'test', 'printf', 'printenv']);

/** Arithmetic expansion (runtime/arith.ts): the value, or ash's error message. */
export type ArithFn = (expr: string, vars: { get(name: string): string | undefined; set(name: string, value: string): void }) => { value: number } | { error: string };

/** A builtin over the environment: its status, or undefined for another command. */
export type EnvBuiltin = (
  bin: string,
  args: string[],
  shell: { vars: Map<string, string>; exported: Set<string>; env: Map<string, string> | undefined; prefix: Map<string, string> | undefined; out(text: string): void; err(text: string): void },
) => number | undefined;

export interface ProgramContext {
  /** Known server programs by binary name (nginx, httpd-foreground, redis-server, ...). */
  services: Record<string, ServiceSpec>;
  /** A server to assume for binaries the model does not know. */
  unknownService: ServiceSpec;
  /** The container has stdin open (`stdin: true`): an interactive shell then waits for input. */
  stdin: boolean;
  /** The shell's redirections, where the engine has them (a script that has one is parsed only where it does). */
  redirect?: RedirectModule;
  /** The shell's builtins over the environment (export, env, printenv), where the engine has it. */
  envBuiltin?: EnvBuiltin;
  /** The shell's arithmetic expansion, $((...)), where the engine has it (with the environment). */
  arith?: ArithFn;
}

/** Decide what an argv (ENTRYPOINT + CMD after the container's command/args) runs as PID 1. */
export function programFor(argv: string[], ctx: ProgramContext): Program {
  if (argv.length === 0) return { kind: 'exit', code: 0, logs: [] };
  const bin = baseName(argv[0]);
  if (bin === 'docker-entrypoint.sh' && argv.length > 1) return programFor(argv.slice(1), ctx);
  if (SHELLS.has(bin)) {
    const c = argv.indexOf('-c');
    if (c >= 0) {
      const script = argv[c + 1];
      if (script === undefined) return { kind: 'exit', code: 2, logs: [{ stream: 'stderr', text: `${bin}: -c requires an argument` }] };
      try {
        return { kind: 'shell', stmts: parseShell(script, ctx.redirect) };
      } catch (e) {
        const msg = e instanceof ShellSyntaxError ? e.message : String(e);
        return { kind: 'exit', code: 2, logs: [{ stream: 'stderr', text: `${bin}: ${msg}` }] };
      }
    }
    // no script and (usually) no stdin: the shell reads EOF and exits 0 at once
    return ctx.stdin ? { kind: 'sleep', ms: Infinity } : { kind: 'exit', code: 0, logs: [] };
  }
  if (bin === 'sleep') {
    const ms = parseSleep(argv[1]);
    if (ms === undefined) return { kind: 'exit', code: 1, logs: [{ stream: 'stderr', text: `sleep: invalid number '${argv[1] ?? ''}'` }] };
    return { kind: 'sleep', ms };
  }
  if (bin === 'echo') return { kind: 'exit', code: 0, logs: [{ stream: 'stdout', text: argv.slice(1).join(' ') }] };
  if (bin === 'true') return { kind: 'exit', code: 0, logs: [] };
  if (bin === 'false') return { kind: 'exit', code: 1, logs: [] };
  if (bin === 'tail' && argv.includes('-f')) return { kind: 'sleep', ms: Infinity };
  if (bin === 'cat' && argv.length === 1) return ctx.stdin ? { kind: 'sleep', ms: Infinity } : { kind: 'exit', code: 0, logs: [] };
  // a file utility as PID 1 (`cat /etc/hosts`, `ls /tmp`, `date`) runs as the shell would run it, and exits
  if (FILE_TOOLS.has(bin)) return { kind: 'shell', stmts: [{ kind: 'cmd', argv }] };
  const svc = ctx.services[bin];
  return { kind: 'service', spec: svc ?? { ...ctx.unknownService, name: bin } };
}

interface Wait {
  sleep: number;
  /** A trapped signal ends this wait at once (the `wait` builtin, busy loops). */
  interruptible: boolean;
}

/** break and continue: how many loops they leave. */
class LoopControl {
  readonly brk: boolean;
  levels: number;
  constructor(brk: boolean, levels: number) {
    this.brk = brk;
    this.levels = levels;
  }
}
const BREAK = Symbol('break');

class ExitNow {
  readonly code: number;
  constructor(code: number) {
    this.code = code;
  }
}

/** A running PID 1. */
export class Process {
  readonly #host: ProcessHost;
  readonly #program: Program;
  readonly #ctx: ProgramContext;
  #exited = false;
  #timerToken = 0;
  #gen: Generator<Wait, number, void> | undefined;
  #currentWait: Wait | undefined;
  // only a shell sets traps: other programs share two empty collections that nothing writes to
  readonly #traps: Map<Signal, Stmt[] | null>;
  readonly #pendingTraps: Signal[];
  #lastStatus = 0;
  #bgUntil = 0;
  /** The lines a command substitution collects (its commands' stdout), while one runs. */
  #capture: string[] | undefined = undefined;
  /** The shell's own variables (NAME=value), made at the first assignment. */
  #vars: Map<string, string> | undefined = undefined;
  /** How many loops the shell is in (break and continue outside one do nothing). */
  #loops = 0;
  /** The variables `export` named: a child's environment has them. */
  #exported: Set<string> | undefined = undefined;
  /** The shell's descriptors once `exec >file 2>&1` changed them (undefined: stdout and stderr as started). */
  #fds: Map<number, Sink> | undefined = undefined;
  /** The host's environment, read at the first expansion (null: it has none). */
  #env: Map<string, string> | null | undefined = undefined;
  /** The service running as PID 1 (directly or via exec), if any: probes and signals consult it. */
  service: ServiceSpec | undefined;
  readonly startedAt: number;

  constructor(host: ProcessHost, program: Program, ctx: ProgramContext) {
    this.#host = host;
    this.#program = program;
    this.#ctx = ctx;
    const shell = program.kind === 'shell';
    this.#traps = shell ? new Map() : NO_TRAPS;
    this.#pendingTraps = shell ? [] : NO_PENDING_TRAPS;
    this.startedAt = host.loop.now;
  }

  get exited(): boolean {
    return this.#exited;
  }

  start(): void {
    const p = this.#program;
    switch (p.kind) {
      case 'exit':
        for (const l of p.logs) this.#host.log(l.stream, l.text);
        this.#finish(p.code);
        return;
      case 'sleep':
        if (Number.isFinite(p.ms)) this.#timer(p.ms, () => this.#finish(0));
        return;
      case 'service':
        this.#startService(p.spec);
        return;
      case 'shell':
        this.#gen = this.#runTop(p.stmts);
        this.#resume();
        return;
    }
  }

  #startService(spec: ServiceSpec): void {
    this.service = spec;
    // the cgroup's OOM killer kills every process of the container (memory.oom.group): SIGKILL, 137
    if (spec.oomAfter !== undefined) this.#timer(spec.oomAfter, () => this.#finish(137, 9, 'OOMKilled'));
    let stamp: string | undefined;
    for (const l of spec.startLogs) this.#host.log(l.stream, l.text.includes('{time}') ? l.text.replace('{time}', (stamp ??= this.#stamp())) : l.text);
  }

  /** The wall clock now, as nginx stamps its log lines: "2026/08/04 03:32:37". */
  #stamp(): string {
    const d = this.#host.wallclock(this.#host.loop.now);
    return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  }

  #timer(ms: number, fn: () => void): void {
    const token = ++this.#timerToken;
    this.#host.loop.after(ms, () => {
      if (token === this.#timerToken && !this.#exited) fn();
    });
  }

  #finish(code: number, signal?: number, reason?: string): void {
    if (this.#exited) return;
    this.#exited = true;
    this.#timerToken++;
    this.#host.exited(code, signal, reason);
  }

  /** Deliver a signal, as the runtime's kill(2) would. */
  signal(sig: Signal): void {
    if (this.#exited) return;
    if (sig === 'SIGKILL') {
      this.#finish(128 + 9, 9);
      return;
    }
    const p = this.#program;
    if (this.service) {
      const stop = this.service.stopsOn[sig];
      if (stop) {
        let stamp: string | undefined;
        for (const l of stop.logs) this.#host.log('stderr', l.includes('{time}') ? l.replace('{time}', (stamp ??= this.#stamp())) : l);
        this.#timer(stop.ms, () => this.#finish(0));
      }
      return;
    }
    if (p.kind === 'shell' && this.#traps.has(sig)) {
      const handler = this.#traps.get(sig);
      if (handler === null) return; // trap '' SIG: ignored explicitly
      this.#pendingTraps.push(sig);
      if (this.#currentWait?.interruptible) {
        this.#timerToken++;
        this.#lastStatus = 128 + SIGNUM[sig];
        this.#resume();
      }
    }
    // otherwise: PID 1 without a handler ignores it
  }

  #resume(): void {
    const gen = this.#gen!;
    for (;;) {
      let r: IteratorResult<Wait, number>;
      try {
        r = gen.next();
      } catch (e) {
        if (e instanceof ExitNow) {
          this.#finish(e.code);
          return;
        }
        throw e;
      }
      if (r.done) {
        this.#finish(r.value);
        return;
      }
      this.#currentWait = r.value;
      if (r.value.sleep === 0) continue;
      if (Number.isFinite(r.value.sleep)) this.#timer(r.value.sleep, () => this.#resume());
      return;
    }
  }

  *#runTop(stmts: Stmt[]): Generator<Wait, number, void> {
    const status = yield* this.#runList(stmts);
    return status;
  }

  *#checkTraps(): Generator<Wait, void, void> {
    while (this.#pendingTraps.length) {
      const sig = this.#pendingTraps.shift()!;
      const handler = this.#traps.get(sig);
      if (handler) yield* this.#runList(handler);
    }
  }

  *#runList(stmts: Stmt[]): Generator<Wait, number, void> {
    let status = this.#lastStatus;
    for (const s of stmts) {
      status = yield* this.#run(s);
      this.#lastStatus = status;
      yield* this.#checkTraps();
    }
    return status;
  }

  /** A loop's body: its status, BREAK, or undefined for a `continue` (break and continue N leave N loops). */
  *#loopBody(body: Stmt[]): Generator<Wait, number | typeof BREAK | undefined, void> {
    this.#loops++;
    try {
      return yield* this.#runList(body);
    } catch (e) {
      if (!(e instanceof LoopControl)) throw e;
      if (--e.levels > 0) throw e;
      return e.brk ? BREAK : undefined;
    } finally {
      this.#loops--;
    }
  }

  *#run(s: Stmt): Generator<Wait, number, void> {
    switch (s.kind) {
      case 'and': {
        const l = yield* this.#run(s.left);
        return l === 0 ? yield* this.#run(s.right) : l;
      }
      case 'or': {
        const l = yield* this.#run(s.left);
        return l !== 0 ? yield* this.#run(s.right) : l;
      }
      case 'block':
        return yield* this.#runList(s.body);
      case 'not':
        return (yield* this.#run(s.stmt)) === 0 ? 1 : 0;
      case 'if':
        for (const [cond, body] of s.branches) if ((yield* this.#runList(cond)) === 0) return yield* this.#runList(body);
        return s.otherwise ? yield* this.#runList(s.otherwise) : 0;
      case 'for': {
        let status = 0;
        for (const word of yield* this.#expand(s.words)) {
          (this.#vars ??= new Map()).set(s.name, word);
          const r = yield* this.#loopBody(s.body);
          if (r === BREAK) return 0;
          status = r ?? 0;
        }
        return status;
      }
      case 'loop': {
        let status = 0;
        let spins = 0;
        for (;;) {
          const before = this.#host.loop.now;
          if (s.cond && ((yield* this.#runList(s.cond)) === 0) === !!s.until) return status;
          const r = yield* this.#loopBody(s.body);
          if (r === BREAK) return 0;
          status = r ?? 0;
          // iterations that take no time: `while true` is a busy loop at once, one with a condition after 100,000;
          // it spins until a signal's trap ends it
          if (this.#host.loop.now !== before) spins = 0;
          else if (!s.cond || ++spins >= 100_000) yield { sleep: Infinity, interruptible: true };
        }
      }
      case 'cmd':
        return yield* this.#command(s);
    }
  }

  /** A shell variable: the special parameters, else the environment (an unset one is empty). */
  #variable(name: string): string | undefined {
    switch (name) {
      case '?':
        return String(this.#lastStatus);
      case '$':
        return '1';
      case '#':
        return '0';
      case '0':
        return 'sh';
      case '!':
      case '@':
      case '*':
        // sh -c has no positional parameters
        return '';
      default:
        // the environment is the container's from its start: read from the host once
        return this.#vars?.get(name) ?? (this.#env === undefined ? (this.#env = this.#host.env ?? null) : this.#env)?.get(name);
    }
  }

  /** A command substitution: its commands run, and their stdout, without its trailing newlines, is the value. */
  *#substitute(script: string): Generator<Wait, string, void> {
    let stmts: Stmt[];
    try {
      stmts = parseShell(script, this.#ctx.redirect);
    } catch (e) {
      this.#host.log('stderr', `sh: ${e instanceof ShellSyntaxError ? e.message : 'syntax error'}`);
      return '';
    }
    const saved = this.#capture;
    const lines: string[] = [];
    this.#capture = lines;
    try {
      yield* this.#runList(stmts);
    } catch (e) {
      // `exit` in a substitution ends its subshell only
      if (!(e instanceof ExitNow)) throw e;
      this.#lastStatus = e.code;
    } finally {
      this.#capture = saved;
    }
    return lines.join('\n').replace(/\n+$/, '');
  }

  /**
   * Parameter expansion and command substitution in the words the tokenizer marked; unquoted results are split into
   * fields, except where `fields` is false (an assignment's value).
   */
  *#expand(words: string[], fields = true): Generator<Wait, string[], void> {
    const out: string[] = [];
    for (const w of words) {
      if (!marked(w)) {
        out.push(w);
        continue;
      }
      let text = '';
      let split = false;
      for (let i = 0; i < w.length; i++) {
        const c = w[i];
        if (c !== UNQUOTED && c !== QUOTED) {
          text += c;
          continue;
        }
        if (c === UNQUOTED) split = true;
        const rest = w.slice(i + 1);
        let m: RegExpExecArray | null;
        if (rest[0] === '(' && rest[1] === '(' && closingParen(rest, 1) === closingParen(rest, 0) - 1) {
          // $((expression)): arithmetic, which the environment's module brings; an error ends the shell (status 2)
          const end = closingParen(rest, 0);
          const r = this.#ctx.arith?.(rest.slice(2, end - 1), { get: (name) => this.#variable(name), set: (name, v) => (this.#vars ??= new Map()).set(name, v) }) ?? {
            error: 'podlife: this engine was made without the arithmetic expansion (kubelet/envvars.ts)',
          };
          if ('error' in r) {
            this.#host.log('stderr', `sh: ${r.error}`);
            throw new ExitNow(2);
          }
          text += String(r.value);
          i += end + 1;
        } else if (rest[0] === '(') {
          const end = closingParen(rest, 0);
          text += yield* this.#substitute(rest.slice(1, end));
          i += end + 1;
        } else if ((m = /^\{([A-Za-z_]\w*)(?:(:?)-([^}]*))?\}/.exec(rest))) {
          // ${NAME}, ${NAME-word} (unset), ${NAME:-word} (unset or empty)
          const v = this.#variable(m[1]);
          text += m[3] !== undefined && (v === undefined || (m[2] === ':' && v === '')) ? m[3] : (v ?? '');
          i += m[0].length;
        } else if ((m = /^([A-Za-z_]\w*|[?$#0!@*])/.exec(rest))) {
          text += this.#variable(m[1]) ?? '';
          i += m[0].length;
        } else text += '$';
      }
      if (split && fields) out.push(...text.split(/[ \t\n]+/).filter(Boolean));
      else out.push(text);
    }
    return out;
  }

  /** Where a descriptor's writes go: the shell's stdout (or the substitution collecting it), its stderr, a file, or nowhere. */
  #write(sink: Sink, text: string): void {
    if (sink === 'out') {
      if (this.#capture) this.#capture.push(text);
      else this.#host.log('stdout', text);
    } else if (sink === 'err') this.#host.log('stderr', text);
    else if (sink !== null && 'file' in sink) this.#ctx.redirect!.writeFile(this.#host, sink.file, text);
  }

  *#command(s: Extract<Stmt, { kind: 'cmd' }>): Generator<Wait, number, void> {
    // NAME=value words, their values expanded but not split: alone they set shell variables, before a command they are
    // its environment (which env and printenv print)
    let assigns = 0;
    let prefix: Map<string, string> | undefined;
    for (let word: string; ASSIGNMENT.test((word = s.argv[assigns] ?? '')); assigns++) {
      const eq = word.indexOf('=');
      (prefix ??= new Map()).set(word.slice(0, eq), marked(word) ? (yield* this.#expand([word.slice(eq + 1)], false))[0] : word.slice(eq + 1));
    }
    if (prefix && assigns === s.argv.length && !s.redirects) {
      for (const [k, v] of prefix) (this.#vars ??= new Map()).set(k, v);
      return 0;
    }
    const words = assigns > 0 ? s.argv.slice(assigns) : s.argv;
    const argv = s.expands ? yield* this.#expand(words) : words;
    let fds = this.#fds;
    if (s.redirects) {
      // each target is one word, even where it expands to several
      const targets: string[] = [];
      for (const r of s.redirects) targets.push(marked(r.target) ? (yield* this.#expand([r.target])).join(' ') : r.target);
      const table = this.#ctx.redirect!.openRedirects(s.redirects, targets, this.#fds, this.#host, (sink, text) => this.#write(sink, text));
      if (typeof table === 'number') return table;
      // `exec` without a command keeps its redirections for the rest of the shell
      if (argv.length === 1 && argv[0] === 'exec') {
        this.#fds = table;
        return 0;
      }
      fds = table;
    }
    if (argv.length === 0) return 0;
    const [name, ...args] = argv;
    const bin = baseName(name);
    const fs = this.#host.fs;
    // what the command writes goes where its descriptors 1 and 2 point (a file's contents are kept for cat)
    const out = (text: string): void => this.#write(fds ? (fds.get(1) ?? null) : 'out', text);
    const err = (text: string): void => this.#write(fds ? (fds.get(2) ?? null) : 'err', text);
    if (s.background) {
      const ms = bin === 'sleep' ? parseSleep(args[0]) : Infinity;
      this.#bgUntil = Math.max(this.#bgUntil, this.#host.loop.now + (ms ?? 0));
      return 0;
    }
    switch (bin) {
      case ':':
      case 'true':
        return 0;
      case 'false':
        return 1;
      case 'break':
      case 'continue':
        if (this.#loops > 0) throw new LoopControl(bin === 'break', Math.min(this.#loops, Math.max(1, parseInt(args[0] ?? '1', 10) || 1)));
        return 0;
      case 'exit': {
        const code = args[0] === undefined ? this.#lastStatus : parseInt(args[0], 10) & 255;
        throw new ExitNow(Number.isNaN(code) ? 2 : code);
      }
      case 'echo': {
        // busybox echo's -n, -e and -E, alone or together (-en); output is lines, so -n only drops a last line break
        let i = 0;
        let flags = '';
        while (/^-[neE]+$/.test(args[i] ?? '')) flags += args[i++];
        let text = args.slice(i).join(' ');
        // the last of -e and -E wins
        if (flags.lastIndexOf('e') > flags.lastIndexOf('E')) text = text.replace(/\\([nt\\])/g, (_, c: string) => ({ n: '\n', t: '\t' })[c] ?? c);
        if (flags.includes('n')) text = text.replace(/\n$/, '');
        for (const line of text.split('\n')) out(line);
        return 0;
      }
      case 'printf':
        out((args[0] ?? '').replace(/\\n$/, '').replace(/%s/g, () => args[1] ?? ''));
        return 0;
      case 'date': {
        // busybox date's default format, "%a %b %e %H:%M:%S %Z %Y" (the container's zone is UTC)
        const [wd, day, mon, year, time] = this.#host.wallclock(this.#host.loop.now).toUTCString().replace(',', '').split(' ');
        out(`${wd} ${mon} ${String(Number(day)).padStart(2)} ${time} UTC ${year}`);
        return 0;
      }
      case 'sleep': {
        const ms = parseSleep(args[0]);
        if (ms === undefined) {
          err(`sleep: invalid number '${args[0] ?? ''}'`);
          return 1;
        }
        yield { sleep: ms, interruptible: false };
        return 0;
      }
      case 'wait': {
        const left = this.#bgUntil - this.#host.loop.now;
        if (left > 0) yield { sleep: left, interruptible: true };
        return this.#pendingTraps.length ? this.#lastStatus : 0;
      }
      case 'trap': {
        if (args.length < 2) return 0;
        const [action, ...sigs] = args;
        for (const raw of sigs) {
          const sig = normaliseSignal(raw);
          if (!sig) continue;
          if (action === '-') this.#traps.delete(sig);
          else if (action === '') this.#traps.set(sig, null);
          else this.#traps.set(sig, parseShell(action, this.#ctx.redirect));
        }
        return 0;
      }
      case 'exec': {
        if (args.length === 0) return 0;
        const program = programFor(args, this.#ctx);
        if (program.kind === 'service') {
          this.#startService(program.spec);
          yield { sleep: Infinity, interruptible: false };
          return 0;
        }
        if (program.kind === 'sleep') {
          this.#traps.clear();
          yield { sleep: program.ms, interruptible: false };
          throw new ExitNow(0);
        }
        if (program.kind === 'exit') {
          for (const l of program.logs) this.#host.log(l.stream, l.text);
          throw new ExitNow(program.code);
        }
        return yield* this.#runList(program.stmts);
      }
      case 'touch':
      case 'mkdir': {
        let status = 0;
        for (const a of args) {
          if (a.startsWith('-')) continue;
          // a file the mount has may still be touched: busybox touch opens it only to create it, else sets its times,
          // which a read-only file system refuses too
          if (this.#host.readOnly?.(a)) {
            err(bin === 'touch' ? `touch: ${a}: Read-only file system` : `mkdir: can't create directory '${a}': Read-only file system`);
            status = 1;
            continue;
          }
          fs.add(a);
        }
        return status;
      }
      case 'rm': {
        // busybox rm: -f quiets a missing file, -r takes a directory with what is in it; each failure is reported and
        // the others are still removed
        const flags = args.filter((a) => a[0] === '-').join('');
        let status = 0;
        for (const a of args) {
          if (a[0] === '-') continue;
          const inside = [...fs].filter((x) => x.startsWith(`${a.replace(/\/+$/, '')}/`));
          const why = inside.length && !/[rR]/.test(flags) ? 'Is a directory'
            : !inside.length && !fs.has(a) && this.#host.read?.(a) === undefined ? (flags.includes('f') ? '' : 'No such file or directory')
            : this.#host.readOnly?.(a) ? 'Read-only file system' : undefined;
          if (why === undefined) {
            for (const x of [a, ...inside]) {
              fs.delete(x);
              this.#host.data?.delete(x);
            }
          } else if (why) {
            err(`rm: can't remove '${a}': ${why}`);
            status = 1;
          }
        }
        return status;
      }
      case 'cat':
      case 'stat': {
        const files = args.filter((a) => !a.startsWith('-'));
        const stdin = bin === 'cat' && files.length === 0 ? fds?.get(0) : undefined;
        if (typeof stdin === 'object' && stdin !== null) {
          if ('file' in stdin) files.push(stdin.file);
          else if (stdin.text) for (const line of stdin.text.replace(/\n$/, '').split('\n')) out(line);
        }
        for (const f of files) {
          if (!fs.has(f) && this.#host.read?.(f) === undefined) {
            err(bin === 'cat' ? `cat: can't open '${f}': No such file or directory` : `${bin}: ${f}: No such file or directory`);
            return 1;
          }
          // a file whose contents the model knows prints them, line by line
          const text = bin === 'cat' ? (this.#host.data?.get(f) ?? this.#host.read?.(f)) : undefined;
          if (text) for (const line of text.replace(/\n$/, '').split('\n')) out(line);
        }
        return 0;
      }
      case 'ls': {
        // busybox ls: the files named first, then each directory's entries (under a "dir:" header when several
        // were named); a directory exists while something is in it (mkdir, or a file touched there)
        const paths = args.filter((a) => !a.startsWith('-'));
        const named: string[] = [];
        const dirs: [string, string[]][] = [];
        let status = 0;
        for (const f of paths) {
          const dir = `${f.replace(/\/+$/, '')}/`;
          const entries = [...new Set([...fs].filter((x) => x.startsWith(dir)).map((x) => x.slice(dir.length).split('/')[0]))].sort();
          if (entries.length) dirs.push([f, entries]);
          else if (fs.has(f) || this.#host.read?.(f) !== undefined) named.push(f);
          else {
            err(`ls: ${f}: No such file or directory`);
            status = 1;
          }
        }
        for (const f of named.sort()) out(f);
        let first = named.length === 0;
        for (const [d, entries] of dirs.sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
          if (paths.length > 1) {
            if (!first) out('');
            out(`${d}:`);
          }
          first = false;
          for (const e of entries) out(e);
        }
        return status;
      }
      case 'hostname':
        if (this.#host.hostname === undefined) {
          err(`sh: ${name}: not found`);
          return 127;
        }
        out(this.#host.hostname);
        return 0;
      case 'test':
      case '[': {
        // busybox test: files, strings, integers (-eq -ne -lt -le -gt -ge), a leading !; status 2 for its errors
        if (bin === '[' && args[args.length - 1] !== ']') {
          err('sh: missing ]');
          return 2;
        }
        let a = bin === '[' ? args.slice(0, -1) : args;
        const not = a.length > 1 && a[0] === '!';
        if (not) a = a.slice(1);
        let r: boolean;
        if (a.length === 2 && ['-f', '-e', '-d', '-s'].includes(a[0])) r = fs.has(a[1]) || this.#host.read?.(a[1]) !== undefined;
        else if (a.length === 2 && (a[0] === '-z' || a[0] === '-n')) r = (a[1] === '') === (a[0] === '-z');
        else if (a.length === 3 && ['=', '==', '!='].includes(a[1])) r = (a[0] === a[2]) === (a[1] !== '!=');
        else if (a.length === 3 && /^-(eq|ne|lt|le|gt|ge)$/.test(a[1])) {
          const bad = [a[0], a[2]].find((x) => !/^\s*[-+]?\d+\s*$/.test(x));
          if (bad !== undefined) {
            err(`sh: ${bad}: bad number`);
            return 2;
          }
          const [x, y] = [Number(a[0]), Number(a[2])];
          r = { '-eq': x === y, '-ne': x !== y, '-lt': x < y, '-le': x <= y, '-gt': x > y, '-ge': x >= y }[a[1]]!;
        } else r = a.length === 1 && a[0] !== '';
        return r !== not ? 0 : 1;
      }
      default: {
        // export, env and printenv come with the containers' environment (kubelet/envvars.ts)
        const builtin = this.#ctx.envBuiltin?.(bin, args, { vars: (this.#vars ??= new Map()), exported: (this.#exported ??= new Set()), env: this.#host.env, prefix, out, err });
        if (builtin !== undefined) return builtin;
        const svc = this.#ctx.services[bin];
        if (svc) {
          // a server in the shell's foreground: the shell (PID 1) waits for it, and keeps ignoring SIGTERM
          yield { sleep: Infinity, interruptible: false };
          return 0;
        }
        err(`sh: ${name}: not found`);
        return 127;
      }
    }
  }
}

/** A variable assignment word (its name unquoted): NAME=value. */
export const ASSIGNMENT = /^([A-Za-z_]\w*)=/;

const NO_TRAPS = new Map<Signal, Stmt[] | null>();
const NO_PENDING_TRAPS: Signal[] = [];

export function normaliseSignal(raw: string): Signal | undefined {
  const up = raw.toUpperCase();
  const byNum: Record<string, Signal> = { '1': 'SIGHUP', '2': 'SIGINT', '3': 'SIGQUIT', '15': 'SIGTERM', '28': 'SIGWINCH' };
  if (byNum[up]) return byNum[up];
  const name = (up.startsWith('SIG') ? up : `SIG${up}`) as Signal;
  return name in SIGNUM && name !== 'SIGKILL' ? name : undefined;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
