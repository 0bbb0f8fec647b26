// The node's own tools, run in a root shell on the host: crictl (talking to containerd) and
// journalctl (reading the kubelet's journal).
// upstream: cri-tools cmd/crictl (v1.36.0); systemd journalctl (short output, --since parsing as
// parse_timestamp and parse_time do)

import type { ClusterState, KubeletLogLine, NodeRuntime } from '../types.ts';
import { formatGoDuration } from '../render/duration.ts';
import { FOLLOW_HORIZON_MS, followFuture, followLogs, noFuture } from './follow.ts';
import {
  crictlImages, crictlInspect, crictlInspectp, crictlPods, crictlPodsVerbose, crictlPs, crictlPsVerbose, crictlStatusOutput, findById, listContainers, listSandboxes,
  type CrictlClock,
} from '../render/crictl.ts';
import { crictlPodsProto, crictlPsProto } from '../render/crictl-proto.ts';
import { localFields, logStamps, wallFromLocal } from '../render/localtime.ts';
import { journalLines, klogMicros } from '../render/journal.ts';
import { FlagError, type FlagSpec, type ParsedArgs, bool, int, parseFlags, str, arr } from './flags.ts';
import type { CommandResult } from './shell.ts';
import { DEFAULT_KUBELET_PID, type ExecContext, nowOf, offsetOf } from './context.ts';

const res = (stdout: string, stderr = '', exitCode = 0): CommandResult => ({ stdout, stderr, exitCode });
const fatal = (msg: string): CommandResult => res('', `FATA[0000] ${msg}\n`, 1);

function hostRuntime(ctx: ExecContext): NodeRuntime | undefined {
  const host = ctx.host ?? ctx.state.nodes[0]?.metadata.name;
  return ctx.state.runtimes.find((r) => r.node === host);
}

// ---------------------------------------------------------------------------------------------
// crictl
// ---------------------------------------------------------------------------------------------

const CRICTL_GLOBAL: FlagSpec[] = [
  { name: 'runtime-endpoint', shorthand: 'r', type: 'string' },
  { name: 'image-endpoint', shorthand: 'i', type: 'string' },
  { name: 'timeout', shorthand: 't', type: 'string' },
  { name: 'debug', shorthand: 'D', type: 'bool' },
  { name: 'config', shorthand: 'c', type: 'string' },
];

const LIST_FLAGS: FlagSpec[] = [
  { name: 'id', type: 'string' },
  { name: 'name', type: 'string' },
  { name: 'namespace', type: 'string' },
  { name: 'label', type: 'stringArray' },
  { name: 'state', shorthand: 's', type: 'string' },
  { name: 'verbose', shorthand: 'v', type: 'bool' },
  { name: 'quiet', shorthand: 'q', type: 'bool' },
  { name: 'output', shorthand: 'o', type: 'string' },
  { name: 'latest', shorthand: 'l', type: 'bool' },
  { name: 'last', shorthand: 'n', type: 'int' },
  { name: 'no-trunc', type: 'bool' },
];
const PS_FLAGS: FlagSpec[] = [
  ...LIST_FLAGS,
  { name: 'all', shorthand: 'a', type: 'bool' },
  { name: 'pod', shorthand: 'p', type: 'string' },
  { name: 'image', type: 'string' },
  { name: 'resolve-image-path', type: 'bool' },
];

/** crictl subcommands that change the node (the server replays them from a scenario's timeline). */
export function isMutatingCrictl(argv: string[]): boolean {
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-')) i++;
  return argv[i] === 'stopp';
}

/** crictl inspect's -o json (the default) and yaml are printed; go-template and table are not. */
function inspectOutput(p: ParsedArgs, sub: string): 'json' | 'yaml' | CommandResult {
  const o = str(p, 'output') || 'json';
  if (o !== 'json' && o !== 'yaml') return res('', `podlife: crictl ${sub} -o ${o} is not supported (-o json, the default, and -o yaml are; pipe the JSON into jq)\n`, 1);
  if (str(p, 'template')) return res('', `podlife: crictl ${sub} --template is not supported (pipe the JSON into jq)\n`, 1);
  return o;
}

/**
 * pods and ps: -o json|yaml|table (anything else is crictl's error, after the list call) and --label key=value
 * (cri-tools util.go parseLabelStringSlice); undefined output means the table.
 */
function listOutput(p: ParsedArgs, what: string): { output?: 'json' | 'yaml'; labels: Record<string, string> } | CommandResult {
  const labels: Record<string, string> = {};
  for (const l of arr(p, 'label')) {
    const pair = l.split('=');
    if (pair.length !== 2) return fatal(`incorrectly specified label: ${l}`);
    labels[pair[0]] = pair[1];
  }
  const o = str(p, 'output') || 'table';
  if (o === 'json' || o === 'yaml') return { output: o, labels };
  if (o !== 'table') return fatal(`listing ${what}: unsupported output format ${JSON.stringify(o)}`);
  return { labels };
}

/** crictl's commands a real node has that the model does not run (cri-tools cmd/crictl/main.go). */
const CRICTL_OTHER = [
  'attach', 'create', 'exec', 'info', 'inspecti', 'imagefsinfo', 'port-forward', 'rm', 'rmi', 'rmp', 'pull', 'run', 'runp',
  'start', 'stats', 'statsp', 'stop', 'update', 'config', 'completion', 'checkpoint', 'events', 'metricsp', 'metricdescs',
  'update-runtime-config', 'help', 'h',
];

export function crictl(argv: string[], ctx: ExecContext): CommandResult {
  const rt = hostRuntime(ctx);
  const clock: CrictlClock = { epoch: ctx.state.epoch, now: nowOf(ctx), utcOffsetMinutes: offsetOf(ctx) };
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-')) i++;
  const sub = argv[i];
  const rest = argv.slice(i + 1);
  if (!sub) return res('', 'podlife: crictl needs a command: pods, ps, inspect, inspectp, images, logs, stopp, version\n', 1);
  const listing = sub === 'pods' || sub === 'ps';
  const at = listing ? -1 : rest.findIndex((a) => /^(-o|--output)(=.*)?$|^-o\w|^(-v|--verbose|--label)(=.*)?$/.test(a));
  if (at >= 0 && sub !== 'inspect' && sub !== 'inspectp') {
    const flag = ['-o', '--output', '--label'].includes(rest[at]) && rest[at + 1] ? `${rest[at]} ${rest[at + 1]}` : rest[at];
    return res('', `podlife: crictl ${sub} ${flag} is not supported (the table view is; crictl inspect prints JSON)\n`, 1);
  }
  if (!rt) return fatal('validate service connection: validate CRI v1 runtime API for endpoint "unix:///run/containerd/containerd.sock": rpc error: code = Unavailable desc = connection error');
  try {
    switch (sub) {
      case 'pods': {
        const p = parseFlags(rest, [...CRICTL_GLOBAL, ...LIST_FLAGS]);
        const state = str(p, 'state').toLowerCase();
        if (state && state !== 'ready' && state !== 'notready') return fatal('--state should be ready or notready');
        const out = listOutput(p, 'pod sandboxes');
        if ('exitCode' in out) return out;
        const filter = {
          id: str(p, 'id') || undefined, name: str(p, 'name') || undefined, namespace: str(p, 'namespace') || undefined,
          state: (state || undefined) as 'ready' | 'notready' | undefined, labels: out.labels, latest: bool(p, 'latest'),
          last: int(p, 'last', 0), quiet: bool(p, 'quiet'), noTrunc: bool(p, 'no-trunc'),
        };
        // -o json|yaml first, then -q, then -v (sandbox.go OutputPodSandboxes)
        if (out.output) return res(crictlPodsProto(listSandboxes(rt, filter), clock, out.output));
        if (bool(p, 'verbose') && !filter.quiet) return res(crictlPodsVerbose(listSandboxes(rt, filter), clock));
        return res(crictlPods(rt, filter, clock));
      }
      case 'ps': {
        const p = parseFlags(rest, [...CRICTL_GLOBAL, ...PS_FLAGS]);
        const state = str(p, 'state').toLowerCase();
        if (state && !['created', 'running', 'exited', 'unknown'].includes(state)) {
          return fatal('--state should be one of created, running, exited or unknown');
        }
        const out = listOutput(p, 'containers');
        if ('exitCode' in out) return out;
        const filter = {
          all: bool(p, 'all'), id: str(p, 'id') || undefined, name: str(p, 'name') || undefined,
          namespace: str(p, 'namespace') || undefined, podId: str(p, 'pod') || undefined,
          state: (state || undefined) as 'running' | undefined, labels: out.labels, latest: bool(p, 'latest'), last: int(p, 'last', 0),
          quiet: bool(p, 'quiet'), noTrunc: bool(p, 'no-trunc'), image: str(p, 'image') || undefined,
        };
        if (out.output) return res(crictlPsProto(listContainers(rt, filter), clock, out.output));
        if (bool(p, 'verbose') && !filter.quiet) return res(crictlPsVerbose(listContainers(rt, filter), clock));
        return res(crictlPs(rt, filter, clock));
      }
      case 'images':
      case 'image':
      case 'img': {
        const p = parseFlags(rest, [...CRICTL_GLOBAL, ...LIST_FLAGS, { name: 'digests', type: 'bool' }, { name: 'pinned', type: 'bool' }]);
        return res(crictlImages(rt, { quiet: bool(p, 'quiet'), noTrunc: bool(p, 'no-trunc'), digests: bool(p, 'digests'), pinned: bool(p, 'pinned') }));
      }
      case 'inspect': {
        const p = parseFlags(rest, [...CRICTL_GLOBAL, { name: 'output', shorthand: 'o', type: 'string' }, { name: 'quiet', shorthand: 'q', type: 'bool' }, { name: 'template', type: 'string' }]);
        if (p.args.length === 0) return fatal('ID cannot be empty');
        const output = inspectOutput(p, 'inspect');
        if (typeof output !== 'string') return output;
        // every status is read before anything is printed: an ID that is not found prints nothing but the error
        const statuses = [];
        for (const id of p.args) {
          const c = findById(rt.containers, id);
          if (!c) {
            // the action wraps containerStatus's error: `get the status of containers: %w`
            return fatal(`get the status of containers: get container status: rpc error: code = NotFound desc = an error occurred when try to find container ${JSON.stringify(id)}: not found`);
          }
          statuses.push(crictlInspect(rt, c, clock));
        }
        return res(crictlStatusOutput(statuses, output, bool(p, 'quiet')));
      }
      case 'inspectp': {
        const p = parseFlags(rest, [...CRICTL_GLOBAL, { name: 'output', shorthand: 'o', type: 'string' }, { name: 'quiet', shorthand: 'q', type: 'bool' }, { name: 'template', type: 'string' }]);
        if (p.args.length === 0) return fatal('ID cannot be empty');
        const output = inspectOutput(p, 'inspectp');
        if (typeof output !== 'string') return output;
        const statuses = [];
        for (const id of p.args) {
          const s = findById(rt.sandboxes, id);
          if (!s) {
            // the action wraps podSandboxStatus's error: `get the status of pod sandboxes: %w`
            return fatal(`get the status of pod sandboxes: get pod sandbox status: rpc error: code = NotFound desc = an error occurred when try to find sandbox ${JSON.stringify(id)}: not found`);
          }
          statuses.push(crictlInspectp(s, clock));
        }
        return res(crictlStatusOutput(statuses, output, bool(p, 'quiet')));
      }
      case 'logs': {
        const p = parseFlags(rest, [...CRICTL_GLOBAL, { name: 'tail', type: 'int' }, { name: 'timestamps', shorthand: 't', type: 'bool' }, { name: 'follow', shorthand: 'f', type: 'bool' }, { name: 'previous', shorthand: 'p', type: 'bool' }]);
        if (p.args.length === 0) return fatal('ID cannot be empty');
        let c = findById(rt.containers, p.args[0]);
        if (!c) return fatal(`failed to get container status ${JSON.stringify(p.args[0])}: rpc error: code = NotFound desc = an error occurred when try to find container ${JSON.stringify(p.args[0])}: not found`);
        if (bool(p, 'previous')) {
          // upstream: cri-tools cmd/crictl/logs.go: the log file of the attempt before this container's
          const cur = c;
          if (cur.attempt === 0) return fatal(`previous terminated container ${cur.name} not found`);
          const prev = rt.containers.find((x) => x.sandboxId === cur.sandboxId && x.name === cur.name && x.attempt === cur.attempt - 1);
          // the kubelet removed that container, and its log file with it
          const path = cur.logPath.replace(/\d+\.log$/, `${cur.attempt - 1}.log`);
          if (!prev) return fatal(`failed to open log file ${JSON.stringify(path)}: open ${path}: no such file or directory`);
          c = prev;
        }
        const id = c.id;
        const all = ctx.state.containerLogs.filter((l) => l.containerId === id && l.t <= ctx.state.t);
        // -t: each line after the RFC 3339 time the runtime wrote it with
        const stamps = bool(p, 'timestamps') ? logStamps(all, id, ctx.state.epoch) : undefined;
        let lines = all.map((l, i) => ({ stream: l.stream, text: `${stamps ? `${stamps[i]} ` : ''}${l.text}\n` }));
        const tail = int(p, 'tail', -1);
        if (tail >= 0) lines = tail === 0 ? [] : lines.slice(-tail);
        // -f: a running container's new lines until it stops (an exited one's log is printed at once)
        let note = '';
        if (bool(p, 'follow') && c.state === 'CONTAINER_RUNNING') {
          const future = ctx.future?.();
          if (!future) note = noFuture('following (-f)', 'the log so far is above');
          else {
            const f = followLogs(ctx, future, [{ raw: id, prefix: '', seen: all.length, timestamps: stamps !== undefined }], 'crictl');
            lines = [...lines, ...f.lines];
            note = f.note;
          }
        }
        return {
          stdout: lines.filter((l) => l.stream === 'stdout').map((l) => l.text).join(''),
          stderr: lines.filter((l) => l.stream === 'stderr').map((l) => l.text).join('') + note,
          exitCode: 0,
        };
      }
      case 'stopp': {
        // upstream: cri-tools cmd/crictl/sandbox.go stopPodCommand, StopPodSandbox ("Stopped sandbox %s")
        const p = parseFlags(rest, CRICTL_GLOBAL);
        if (p.args.length === 0) return res('', 'podlife: crictl stopp needs one or more POD-IDs (see crictl pods)\n', 1);
        if (!ctx.apply) return res('', 'podlife: this console shows a recorded moment and cannot change the cluster\n', 1);
        let stdout = '';
        for (const id of p.args) {
          const r = ctx.apply({ type: 'stopPodSandbox', node: rt.node, id });
          if (!r.ok) {
            const rpc = r.status.reason === 'NotFound' ? `rpc error: code = NotFound desc = ${r.status.message}` : r.status.message;
            return res(stdout, `FATA[0000] stopping the pod sandbox ${JSON.stringify(id)}: ${rpc}\n`, 1);
          }
          stdout += `Stopped sandbox ${id}\n`;
        }
        return res(stdout);
      }
      case 'version':
        return res(`Version:  0.1.0\nRuntimeName:  containerd\nRuntimeVersion:  ${rt.runtimeVersion.replace(/^containerd:\/\//, 'v')}\nRuntimeApiVersion:  v1\n`);
      default:
        // crictl's other commands exist on a real node; what is not a crictl command gets urfave/cli's answer
        if (CRICTL_OTHER.includes(sub)) {
          return res('', `podlife: crictl ${sub} is not modelled by this simulation (it models pods, ps, images, inspect, inspectp, logs, stopp and version)\n`, 1);
        }
        return res('', `No help topic for '${sub}'\n`, 3);
    }
  } catch (e) {
    if (e instanceof FlagError) {
      const m = /^unknown (?:shorthand )?flag: (?:'(.)' in -.*|(--\S+))$/.exec(e.message);
      const flag = m ? (m[1] ? `-${m[1]}` : m[2].replace(/^--/, '-')) : '';
      return res('', `Incorrect Usage: ${m ? `flag provided but not defined: ${flag}` : e.message}\n`, 1);
    }
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// journalctl
// ---------------------------------------------------------------------------------------------

const JOURNAL_FLAGS: FlagSpec[] = [
  { name: 'unit', shorthand: 'u', type: 'stringArray' },
  { name: 'since', shorthand: 'S', type: 'string' },
  { name: 'until', shorthand: 'U', type: 'string' },
  { name: 'lines', shorthand: 'n', type: 'string', noOptDefault: '10' },
  { name: 'no-pager', type: 'bool' },
  { name: 'output', shorthand: 'o', type: 'string' },
  { name: 'follow', shorthand: 'f', type: 'bool' },
  { name: 'reverse', shorthand: 'r', type: 'bool' },
  { name: 'boot', shorthand: 'b', type: 'string', noOptDefault: '0' },
  { name: 'catalog', shorthand: 'x', type: 'bool' },
  { name: 'pager-end', shorthand: 'e', type: 'bool' },
  { name: 'quiet', shorthand: 'q', type: 'bool' },
  { name: 'no-hostname', type: 'bool' },
  { name: 'dmesg', shorthand: 'k', type: 'bool' },
  { name: 'all', shorthand: 'a', type: 'bool' },
];

const SPAN_UNITS: [RegExp, number][] = [
  [/^(usec|us|µs)$/, 0.001], [/^(msec|ms)$/, 1], [/^(seconds?|secs?|s)$/, 1000], [/^(minutes?|min|m)$/, 60_000],
  [/^(hours?|hr|h)$/, 3_600_000], [/^(days?|d)$/, 86_400_000], [/^(weeks?|w)$/, 604_800_000],
  [/^(months?|M)$/, 2_629_800_000], [/^(years?|y)$/, 31_557_600_000],
];

/** systemd parse_time: "30 sec", "5min", "1h 30min" → ms. */
function parseSpan(s: string): number | undefined {
  let total = 0;
  let rest = s.trim();
  if (rest === '') return undefined;
  while (rest !== '') {
    const m = /^(\d+(?:\.\d+)?)\s*([A-Za-zµ]*)\s*/.exec(rest);
    if (!m) return undefined;
    const unit = m[2] === '' ? 1000 : SPAN_UNITS.find(([re]) => re.test(m[2]))?.[1];
    if (unit === undefined) return undefined;
    total += Number(m[1]) * unit;
    rest = rest.slice(m[0].length);
  }
  return total;
}

/** systemd parse_timestamp, relative to `now` (wall ms) in the host's zone. */
export function parseJournalTime(s: string, now: number, offset: number): number | undefined {
  const t = s.trim();
  const today = localFields(now, offset);
  const midnight = (deltaDays: number) => wallFromLocal(today.y, today.mo, today.d + deltaDays, 0, 0, 0, offset);
  if (t === 'now') return now;
  if (t === 'today') return midnight(0);
  if (t === 'yesterday') return midnight(-1);
  if (t === 'tomorrow') return midnight(1);
  let m: RegExpExecArray | null;
  if ((m = /^(.*\S)\s+ago$/.exec(t))) {
    const span = parseSpan(m[1]);
    return span === undefined ? undefined : now - span;
  }
  if ((m = /^([+-])(.+)$/.exec(t))) {
    const span = parseSpan(m[2]);
    return span === undefined ? undefined : m[1] === '-' ? now - span : now + span;
  }
  if ((m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(t))) {
    return wallFromLocal(+m[1], +m[2], +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), offset);
  }
  if ((m = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(t))) {
    return wallFromLocal(today.y, today.mo, today.d, +m[1], +m[2], +(m[3] ?? 0), offset);
  }
  return undefined;
}

export function journalctl(argv: string[], ctx: ExecContext): CommandResult {
  // -n/--lines takes an optional argument, and journalctl also reads it from the next word when that is a number
  // (`-n 5`); upstream: systemd src/journal/journalctl.c parse_argv, case 'n'
  const words: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    if ((argv[i] === '-n' || argv[i] === '--lines') && /^\+?\d+$/.test(argv[i + 1] ?? '')) words.push(`--lines=${argv[++i]}`);
    else words.push(argv[i]);
  }
  let p;
  try {
    p = parseFlags(words, JOURNAL_FLAGS);
  } catch (e) {
    if (e instanceof FlagError) {
      const m = /^unknown flag: (--\S+)$/.exec(e.message) ?? /^unknown shorthand flag: '(.)'/.exec(e.message);
      return res('', m ? `journalctl: ${m[1].startsWith('--') ? `unrecognized option '${m[1]}'` : `invalid option -- '${m[1]}'`}\n` : `journalctl: ${e.message}\n`, 1);
    }
    throw e;
  }
  const output = str(p, 'output', 'short');
  if (output !== 'short') return res('', `podlife: journalctl -o ${output} is not supported (the short format is)\n`, 1);
  if (p.args.length > 0) return res('', `podlife: journalctl matches (${p.args[0]}) are not supported; select the kubelet's lines with -u kubelet\n`, 1);
  const now = nowOf(ctx);
  const offset = offsetOf(ctx);
  const since = str(p, 'since');
  const until = str(p, 'until');
  const from = since ? parseJournalTime(since, now, offset) : -Infinity;
  if (from === undefined) return res('', `Failed to parse timestamp: ${since}\n`, 1);
  const to = until ? parseJournalTime(until, now, offset) : Infinity;
  if (to === undefined) return res('', `Failed to parse timestamp: ${until}\n`, 1);
  const units = arr(p, 'unit').map((u) => (u.includes('.') ? u : `${u}.service`));
  const host = ctx.host ?? ctx.state.nodes[0]?.metadata.name;
  const kernel = bool(p, 'dmesg');
  const wanted = !kernel && (units.length === 0 || units.includes('kubelet.service'));
  const follow = bool(p, 'follow');
  if (follow && bool(p, 'reverse')) return res('', 'Please specify either --reverse or --follow, not both.\n', 1);
  // -e (jump to the end in the pager) implies -n1000, and -f -n10 unless --since is given; --no-pager, -b (every
  // line is of this boot) and -x (the kubelet's lines have no catalog entries) change nothing here
  // upstream: systemd src/journal/journalctl.c parse_argv (arg_lines after the options)
  const n = str(p, 'lines') || (follow && !since ? '10' : bool(p, 'pager-end') ? '1000' : '');
  if (n !== '' && n !== 'all' && !/^\+?\d+$/.test(n)) return res('', `Failed to parse lines '${n}'\n`, 1);
  if (follow && n.startsWith('+')) return res('', '--lines=+N is unsupported when --reverse or --follow is specified.\n', 1);
  /** The node's kubelet lines in the journal of a state (klog drops calls above the kubelet's --v before they get there). */
  const nodeLines = (state: ClusterState): KubeletLogLine[] => {
    const verbosity = state.runtimes.find((r) => r.node === host)?.kubeletVerbosity ?? 0;
    return state.kubeletLogs.filter((line) => line.node === host && (line.v ?? 0) <= verbosity);
  };
  const shown = (state: ClusterState, line: KubeletLogLine): boolean => wanted && line.t <= state.t && state.epoch + line.t >= from && state.epoch + line.t <= to;
  /** The entries of a state, as printed (no -n, no -r). */
  const entries = (state: ClusterState): string[] => {
    const pid = state.runtimes.find((r) => r.node === host)?.kubeletPid ?? DEFAULT_KUBELET_PID;
    const lines = nodeLines(state);
    const micros = klogMicros(lines);
    return lines
      .map((line, index) => ({ line, index }))
      .filter(({ line }) => shown(state, line))
      .flatMap(({ line, index }) => journalLines(line, micros[index], { epoch: state.epoch, utcOffsetMinutes: offset, kubeletPid: line.pid ?? pid }));
  };
  /** When the last line a state shows was written (the start when none). */
  const lastWritten = (state: ClusterState): number => {
    const lines = nodeLines(state);
    for (let i = lines.length - 1; i >= 0; i--) if (shown(state, lines[i])) return lines[i].t;
    return -Infinity;
  };
  // -n counts journal entries; a klog line is one entry or more, so the first or last n lines hold them all
  const bound = <T>(list: T[]): T[] =>
    n === '' || n === 'all' ? list : n.startsWith('+') ? list.slice(0, Number(n.slice(1))) : Number(n) === 0 ? [] : list.slice(-Number(n));
  const all = entries(ctx.state);
  let picked = bound(all);
  if (bool(p, 'reverse')) picked = [...picked].reverse();
  let note = '';
  if (follow) {
    const f = followJournal(ctx, entries, lastWritten, all.length);
    picked = [...picked, ...f.added];
    note = f.note;
  }
  if (picked.length === 0) return res(bool(p, 'quiet') ? '' : '-- No entries --\n', note);
  let text = picked.map((entry) => `${entry}\n`).join('');
  if (bool(p, 'no-hostname')) text = text.replace(new RegExp(`^(\\w{3} \\d{2} \\d{2}:\\d{2}:\\d{2}) ${host} `, 'gm'), '$1 ');
  return res(text, note);
}

/**
 * `journalctl -f`: the entries appended after the ones there now, read from the cluster's future. journalctl follows
 * until interrupted; podlife stops where the run shown ends, or after ten minutes without a new entry (an hour at
 * most), and says so.
 */
function followJournal(
  ctx: ExecContext, entries: (state: ClusterState) => string[], lastWritten: (state: ClusterState) => number, seen: number,
): { added: string[]; note: string } {
  const future = ctx.future?.();
  if (!future) return { added: [], note: noFuture('following (-f)', 'the journal so far is above') };
  const start = ctx.state.t;
  // the journal is read whole at the end: each stretch only needs to reach the future
  const end = followFuture(future, start, start + FOLLOW_HORIZON_MS, () => true, (t) => Math.max(start, lastWritten(future.stateAt(t))));
  const note =
    end.why === 'run' ? `podlife: the run shown ends at ${formatGoDuration(end.at)}: journalctl -f stops there (it would go on following)\n`
    : end.why === 'quiet' ? `podlife: no new entry from ${formatGoDuration(end.last)} to ${formatGoDuration(end.at)}: journalctl -f stops there (it would follow until interrupted)\n`
    : `podlife: journalctl -f stops after an hour, at ${formatGoDuration(end.at)} (it would follow until interrupted)\n`;
  return { added: entries(future.stateAt(end.at)).slice(seen), note };
}
