// What the always-visible panels print, straight from the printers the command layer uses, so that the
// player's first load needs no command-line parsing: `kubectl get pods -o wide` and `kubectl get events`
// in the default namespace, and `crictl ps` on the pod's node. tests/unit/player checks every shipped
// scenario against the command layer's own output for the same lines.
// upstream: k8s.io/kubectl/pkg/cmd/get/get.go (table printing); cri-tools cmd/crictl/container.go (ps)
import type { ClusterState, KubeEvent, Pod } from '../../src/sim/types.ts';
import { DEFAULT_UTC_OFFSET_MINUTES } from '../../src/sim/render/clock.ts';
import { crictlPs } from '../../src/sim/render/crictl-list.ts';
import { EVENT_COLUMNS, POD_WIDE_COLUMNS, printEvent, printPod, renderTable } from '../../src/sim/render/table.ts';

export const PANEL_COMMANDS = {
  pods: 'kubectl get pods -o wide',
  events: 'kubectl get events',
  containers: 'crictl ps',
} as const;

export type PanelName = keyof typeof PANEL_COMMANDS;

const NAMESPACE = 'default';
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const noResources = `No resources found in ${NAMESPACE} namespace.\n`;

/** The output (stdout then stderr, as a terminal shows them) of one panel's command at `state`. */
export function panelText(name: PanelName, state: ClusterState): string {
  const now = state.epoch + state.t;
  switch (name) {
    case 'pods': {
      const pods = state.pods.filter((p: Pod) => (p.metadata.namespace ?? 'default') === NAMESPACE).sort((a, b) => byKey(a.metadata.name, b.metadata.name));
      return pods.length === 0 ? noResources : renderTable({ headers: POD_WIDE_COLUMNS, rows: pods.map((p) => printPod(p, now, true)) });
    }
    case 'events': {
      // etcd key order within the namespace: by name.
      const events = state.events.filter((e: KubeEvent) => (e.metadata.namespace ?? 'default') === NAMESPACE).sort((a, b) => byKey(a.metadata.name, b.metadata.name));
      return events.length === 0 ? noResources : renderTable({ headers: EVENT_COLUMNS, rows: events.map((e) => printEvent(e, now)) });
    }
    case 'containers': {
      const host = state.nodes[0]?.metadata.name;
      const rt = state.runtimes.find((r) => r.node === host);
      return rt ? crictlPs(rt, {}, { epoch: state.epoch, now, utcOffsetMinutes: DEFAULT_UTC_OFFSET_MINUTES }) : '';
    }
  }
}
