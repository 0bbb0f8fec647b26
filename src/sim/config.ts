// The cluster part of a scenario, as the engine takes it.

import type { Taint } from './types.ts';
import type { Timings } from './core/timings.ts';

export interface NodeConfig {
  name: string;
  /** InternalIP. */
  ip: string;
  /** The node's pod CIDR; pod IPs are allocated from it in order (.2, .3, ...), as host-local IPAM does. */
  podCIDR: string;
  capacity?: { cpu?: string | number; memory?: string | number; pods?: string | number; 'ephemeral-storage'?: string | number };
  /** Images present before t = 0 (references as a pod would name them). */
  images?: string[];
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  /** The kubelet's --v: journalctl shows its log lines of at most this verbosity (default 0, kubeadm's). */
  kubeletVerbosity?: number;
}

/** How pulling one image behaves. */
export interface ImageBehaviour {
  /** Pull duration in ms (default: timings.defaultPull). */
  pull?: number;
  /** Image size in bytes, as the Pulled event reports it. */
  size?: number;
  /** The pull fails with this registry error ("not found", "unauthorized", ...). */
  error?: string;
}

export interface EngineConfig {
  /** Wall-clock epoch (ms since 1970) of virtual time 0. Default 2026-08-04T03:00:00Z. */
  start?: number;
  /** Default: one node "worker01". */
  nodes?: NodeConfig[];
  /** Pull behaviour per image reference. */
  images?: Record<string, ImageBehaviour>;
  timings?: Partial<Timings>;
}

export const DEFAULT_EPOCH = Date.UTC(2026, 7, 4, 3, 0, 0);

export const DEFAULT_NODE: NodeConfig = {
  name: 'worker01',
  ip: '192.168.114.148',
  podCIDR: '10.244.5.0/24',
  capacity: { cpu: '4', memory: '8Gi', pods: 110 },
};
