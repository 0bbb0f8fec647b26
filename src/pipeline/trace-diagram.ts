// A mermaid sequence diagram of a scenario, generated from its trace: who talks to whom (kubectl, the API
// server, the scheduler, the controller manager, the kubelet, the container runtime, the container's process), in
// order, each message labelled with the step of quoted code that produced it. Returns the mermaid source and,
// for each message in order, its step key (so the rendered messages can link to the excerpts).
import type { TraceEvent } from '../sim/types.ts';
import { formatAt } from '../sim/run.ts';

type Who = 'U' | 'A' | 'S' | 'C' | 'K' | 'R' | 'P';

const PARTICIPANTS: Record<Who, string> = {
  U: 'kubectl',
  A: 'kube-apiserver',
  S: 'kube-scheduler',
  C: 'kube-controller-manager',
  K: 'kubelet',
  R: 'containerd (CRI)',
  P: 'container process',
};

/** Kubelet steps that are calls into the container runtime (CRI). */
const KUBELET_TO_RUNTIME = new Set(['SandboxCreated', 'EnsureImage', 'CreateContainer', 'StopContainer', 'StopSandbox']);

function route(e: TraceEvent): { from: Who; to: Who; reply?: boolean } {
  switch (e.actor) {
    case 'kubectl':
      return { from: 'U', to: 'A' };
    case 'apiserver':
      return ['PodCreated', 'PodDeleted', 'PodPatched', 'NodePatched'].includes(e.kind) ? { from: 'U', to: 'A' } : { from: 'A', to: 'A' };
    case 'controller-manager':
      return { from: 'C', to: 'A' };
    case 'scheduler':
      return e.kind === 'Bound' ? { from: 'S', to: 'A' } : { from: 'S', to: 'S' };
    case 'kubelet':
      if (e.kind === 'PodAdded' || e.kind === 'TerminatingPod') return { from: 'A', to: 'K' };
      if (e.kind === 'StatusUpdated' || e.kind === 'NodeNotSchedulable' || e.kind === 'NodeSchedulable') return { from: 'K', to: 'A' };
      if (e.kind === 'PLEGEvents') return { from: 'R', to: 'K', reply: true };
      if (KUBELET_TO_RUNTIME.has(e.kind) || (e.kind === 'StartContainer' && e.key === 'startContainer#3')) return { from: 'K', to: 'R' };
      return { from: 'K', to: 'K' };
    case 'runtime':
      return e.kind === 'SIGKILL' ? { from: 'R', to: 'P' } : { from: 'R', to: 'K', reply: true };
    case 'process':
      return { from: 'R', to: 'P' };
    default:
      return { from: 'K', to: 'K' };
  }
}

/** Mermaid message text: `#` and `;` (and brackets) written as entity codes, one line, bounded length. */
function label(text: string, max = 44): string {
  const one = text.replace(/\s+/g, ' ').trim();
  const short = one.length > max ? `${one.slice(0, max - 1)}…` : one;
  return short.replace(/[#;<>"]/g, (c) => `#${c.charCodeAt(0)};`);
}


/** "CreateSandbox" → "create sandbox". */
function words(kind: string): string {
  return kind.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').toLowerCase();
}

export interface SequenceOptions {
  /** Only events about this object ("pod/default/nginx"); default: the first pod the trace creates. */
  object?: string;
  /** First virtual time shown (ms); default 0. */
  from?: number;
  /** Last virtual time shown (ms); default: no limit. */
  until?: number;
  /** At most this many messages (default 48). */
  max?: number;
}

export interface Sequence {
  source: string;
  /** The step key of each message, in order (null where the event has none). */
  keys: (string | null)[];
  /** Whether events were left out at the end (max reached). */
  truncated: boolean;
}

export function sequenceFromTrace(trace: readonly TraceEvent[], options: SequenceOptions = {}): Sequence {
  const object = options.object ?? trace.find((e) => e.object.startsWith('pod/'))?.object;
  const max = options.max ?? 48;
  const chosen = trace.filter((e) => (!object || e.object === object || !e.object.startsWith('pod/')) && (options.from === undefined || e.t >= options.from) && (options.until === undefined || e.t <= options.until));
  const shown = chosen.slice(0, max);
  const used = new Set<Who>();
  const lines: string[] = [];
  const keys: (string | null)[] = [];
  for (const e of shown) {
    const { from, to, reply } = route(e);
    used.add(from).add(to);
    // Keyed events: the step and what it did (the excerpt holds the rest); others: their detail.
    const text = e.key ? `${formatAt(e.t)} ${e.key} ${words(e.kind)}` : `${formatAt(e.t)} ${e.detail}`;
    lines.push(`  ${from}${reply ? '-->>' : '->>'}${to}: ${label(text)}`);
    keys.push(e.key ?? null);
  }
  const order: Who[] = ['U', 'A', 'S', 'C', 'K', 'R', 'P'];
  const header = order.filter((w) => used.has(w)).map((w) => `  participant ${w} as ${PARTICIPANTS[w]}`);
  const init = '%%{init: {"sequence": {"messageFontSize": 14, "actorFontSize": 14, "actorMargin": 40}}}%%';
  return { source: [init, 'sequenceDiagram', ...header, ...lines].join('\n'), keys, truncated: chosen.length > shown.length };
}
