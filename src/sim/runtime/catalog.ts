// What well-known images run when the pod does not say (their ENTRYPOINT/CMD and STOPSIGNAL from the official
// Dockerfiles), and the servers the process model knows. Images the catalog does not know run a server that
// serves no ports, runs until its stop signal and then exits 0 (documented in src/sim/README.md).

import type { ServiceSpec } from './process.ts';

export interface ImageDefaults {
  entrypoint: string[];
  cmd: string[];
  stopSignal: 'SIGTERM' | 'SIGQUIT' | 'SIGWINCH' | 'SIGINT';
}

const NGINX: ServiceSpec = {
  name: 'nginx',
  ports: [80],
  startLogs: [
    { stream: 'stdout', text: '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration' },
    { stream: 'stdout', text: '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/' },
    { stream: 'stdout', text: '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh' },
    { stream: 'stdout', text: '10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf' },
    { stream: 'stdout', text: '10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf' },
    { stream: 'stdout', text: '/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh' },
    { stream: 'stdout', text: '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh' },
    { stream: 'stdout', text: '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh' },
    { stream: 'stdout', text: '/docker-entrypoint.sh: Configuration complete; ready for start up' },
    { stream: 'stderr', text: '{time} [notice] 1#1: using the "epoll" event method' },
    { stream: 'stderr', text: '{time} [notice] 1#1: nginx/1.29.1' },
    { stream: 'stderr', text: '{time} [notice] 1#1: built by gcc 14.2.0 (Alpine 14.2.0) ' },
    { stream: 'stderr', text: '{time} [notice] 1#1: OS: Linux 6.8.0-60-generic' },
    { stream: 'stderr', text: '{time} [notice] 1#1: getrlimit(RLIMIT_NOFILE): 1048576:1048576' },
    { stream: 'stderr', text: '{time} [notice] 1#1: start worker processes' },
    { stream: 'stderr', text: '{time} [notice] 1#1: start worker process 29' },
  ],
  stopsOn: {
    SIGQUIT: {
      ms: 60,
      logs: [
        '{time} [notice] 1#1: signal 3 (SIGQUIT) received, shutting down',
        '{time} [notice] 29#29: gracefully shutting down',
        '{time} [notice] 29#29: exiting',
        '{time} [notice] 29#29: exit',
        '{time} [notice] 1#1: signal 17 (SIGCHLD) received from 29',
        '{time} [notice] 1#1: worker process 29 exited with code 0',
        '{time} [notice] 1#1: exit',
      ],
    },
    SIGTERM: { ms: 30, logs: ['{time} [notice] 1#1: signal 15 (SIGTERM) received, exiting', '{time} [notice] 1#1: exit'] },
    SIGINT: { ms: 30, logs: ['{time} [notice] 1#1: signal 2 (SIGINT) received, exiting', '{time} [notice] 1#1: exit'] },
  },
  httpPaths: ['/', '/index.html', '/50x.html'],
};

const HTTPD: ServiceSpec = {
  name: 'httpd',
  ports: [80],
  startLogs: [
    { stream: 'stderr', text: "AH00558: httpd: Could not reliably determine the server's fully qualified domain name. Set the 'ServerName' directive globally to suppress this message" },
    { stream: 'stderr', text: '[mpm_event:notice] [pid 1:tid 1] AH00489: Apache/2.4.65 (Unix) configured -- resuming normal operations' },
  ],
  stopsOn: {
    SIGWINCH: { ms: 100, logs: ['[mpm_event:notice] [pid 1:tid 1] AH00492: caught SIGWINCH, shutting down gracefully'] },
    SIGTERM: { ms: 50, logs: ['[mpm_event:notice] [pid 1:tid 1] AH00491: caught SIGTERM, shutting down'] },
  },
  httpPaths: ['/', '/index.html'],
};

const REDIS: ServiceSpec = {
  name: 'redis-server',
  ports: [6379],
  startLogs: [
    { stream: 'stdout', text: '1:C Redis version=8.2.1, bits=64, commit=00000000, modified=0, pid=1, just started' },
    { stream: 'stdout', text: '1:M * Server initialized' },
    { stream: 'stdout', text: '1:M * Ready to accept connections tcp' },
  ],
  stopsOn: {
    SIGTERM: { ms: 80, logs: ['1:signal-handler Received SIGTERM scheduling shutdown...', '1:M # Redis is now ready to exit, bye bye...'] },
    SIGINT: { ms: 80, logs: ['1:signal-handler Received SIGINT scheduling shutdown...', '1:M # Redis is now ready to exit, bye bye...'] },
  },
  httpPaths: [],
};

// The pause binary handles SIGINT and SIGTERM: "Shutting down, got signal", exit 0.
// upstream: build/pause/linux/pause.c sigdown
const PAUSE: ServiceSpec = {
  name: 'pause',
  ports: [],
  startLogs: [],
  stopsOn: { SIGTERM: { ms: 1, logs: ['Shutting down, got signal: Terminated'] }, SIGINT: { ms: 1, logs: ['Shutting down, got signal: Interrupt'] } },
};

export const UNKNOWN_SERVICE: ServiceSpec = {
  name: 'app',
  ports: [],
  startLogs: [],
  stopsOn: { SIGTERM: { ms: 100, logs: [] }, SIGINT: { ms: 100, logs: [] }, SIGQUIT: { ms: 100, logs: [] } },
};

export const SERVICES: Record<string, ServiceSpec> = {
  nginx: NGINX,
  httpd: HTTPD,
  'httpd-foreground': HTTPD,
  'redis-server': REDIS,
  pause: PAUSE,
};

/** ENTRYPOINT/CMD/STOPSIGNAL by repository name (the last path component, e.g. "nginx" for any registry). */
const DEFAULTS: Record<string, ImageDefaults> = {
  nginx: { entrypoint: ['/docker-entrypoint.sh'], cmd: ['nginx', '-g', 'daemon off;'], stopSignal: 'SIGQUIT' },
  httpd: { entrypoint: [], cmd: ['httpd-foreground'], stopSignal: 'SIGWINCH' },
  redis: { entrypoint: ['docker-entrypoint.sh'], cmd: ['redis-server'], stopSignal: 'SIGTERM' },
  busybox: { entrypoint: [], cmd: ['sh'], stopSignal: 'SIGTERM' },
  alpine: { entrypoint: [], cmd: ['/bin/sh'], stopSignal: 'SIGTERM' },
  ubuntu: { entrypoint: [], cmd: ['/bin/bash'], stopSignal: 'SIGTERM' },
  debian: { entrypoint: [], cmd: ['bash'], stopSignal: 'SIGTERM' },
  pause: { entrypoint: ['/pause'], cmd: [], stopSignal: 'SIGTERM' },
};

/** Defaults for an image repository (e.g. "m.daocloud.io/docker.io/library/nginx"). */
export function imageDefaults(repository: string): ImageDefaults {
  const last = repository.slice(repository.lastIndexOf('/') + 1);
  return DEFAULTS[last] ?? { entrypoint: [], cmd: [`/usr/local/bin/${last}`], stopSignal: 'SIGTERM' };
}

/** The argv a container runs: Kubernetes `command` replaces ENTRYPOINT, `args` replaces CMD. */
// upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go generateContainerConfig (kubecontainer.ExpandContainerCommandAndArgs)
export function containerArgv(defaults: ImageDefaults, command: string[] | undefined, args: string[] | undefined): string[] {
  if (command && command.length) return args ? command.concat(args) : command.slice();
  return defaults.entrypoint.concat(args && args.length ? args : defaults.cmd);
}

/**
 * containerd's sandbox image (the CRI plugin's default `sandbox_image` in containerd 2.1): ensured by RunPodSandbox,
 * listed by `crictl images` from then on, and pinned (image GC keeps it). The ID and digest are the real ones;
 * the size is what crictl shows as 320kB (the exact byte count is not verified).
 */
export const SANDBOX_IMAGE = {
  ref: 'registry.k8s.io/pause:3.10',
  id: 'sha256:873ed75102791e5b0b8a7fcd41606c92fcec98d56d05ead4ac5131650004c136',
  repoDigest: 'registry.k8s.io/pause@sha256:ee6521f290b2168b6e0935a181d4cff9be1ac3f505666ef0e3c98fae8199917a',
  size: 320_368,
};
