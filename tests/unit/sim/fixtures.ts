// Hand-built cluster states for the printer and command tests: a pod as the article's real cluster
// showed it (nginx-test on worker01, 192.168.114.148, pod IP 10.244.5.6), built field by field the
// way the API server and the kubelet fill them, independent of the engine.

import type { ClusterState, ContainerStatus, KubeEvent, Node, NodeRuntime, Pod } from '../../../src/sim/types.ts';

/** 2026-08-04T03:31:23Z: virtual time 0 of the fixtures. */
export const EPOCH = Date.UTC(2026, 7, 4, 3, 31, 23);
export const ts = (t: number) => new Date(Math.floor((EPOCH + t) / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export function pod(name: string, over: { spec?: Partial<Pod['spec']>; status?: Partial<Pod['status']>; metadata?: Partial<Pod['metadata']> } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: '3f1c2a5e-8d4b-4c7e-9a61-0b2d5e7f9c11',
      resourceVersion: '12345',
      creationTimestamp: ts(0),
      labels: { run: name },
      ...over.metadata,
    },
    spec: {
      containers: [
        {
          name,
          image: 'm.daocloud.io/docker.io/library/nginx:alpine',
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          volumeMounts: [{ name: 'kube-api-access-6fqlm', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
        },
      ],
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      schedulerName: 'default-scheduler',
      securityContext: {},
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      nodeName: 'worker01',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      volumes: [
        {
          name: 'kube-api-access-6fqlm',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
            ],
          },
        },
      ],
      ...over.spec,
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'PodReadyToStartContainers', status: 'True', lastProbeTime: null, lastTransitionTime: ts(1000) },
        { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: ts(0) },
        { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: ts(1000) },
        { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: ts(1000) },
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: ts(0) },
      ],
      hostIP: '192.168.114.148',
      hostIPs: [{ ip: '192.168.114.148' }],
      podIP: '10.244.5.6',
      podIPs: [{ ip: '10.244.5.6' }],
      startTime: ts(0),
      containerStatuses: [running(name)],
      qosClass: 'BestEffort',
      ...over.status,
    },
  };
}

export function running(name: string, startedAt = ts(1000)): ContainerStatus {
  return {
    name,
    state: { running: { startedAt } },
    lastState: {},
    ready: true,
    restartCount: 0,
    image: 'm.daocloud.io/docker.io/library/nginx:alpine',
    imageID: 'm.daocloud.io/docker.io/library/nginx@sha256:ea51152ef8c48bcf3a9a9e1b2a5b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b',
    containerID: 'containerd://67aca40f558b6b47bb0b2841709e96ee98c49d73e68f99fe5e2251d628068be3',
    started: true,
  };
}

export function event(
  name: string,
  seq: number,
  reason: string,
  message: string,
  t: number,
  o: { type?: 'Normal' | 'Warning'; component?: string; fieldPath?: string; count?: number; first?: number } = {},
): KubeEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${name}.18a8b2c1d3e4f5${String(seq).padStart(2, '0')}`,
      namespace: 'default',
      uid: `e${seq}`,
      resourceVersion: String(100 + seq),
      creationTimestamp: ts(o.first ?? t),
    },
    involvedObject: {
      kind: 'Pod',
      namespace: 'default',
      name,
      uid: '3f1c2a5e-8d4b-4c7e-9a61-0b2d5e7f9c11',
      apiVersion: 'v1',
      resourceVersion: '12340',
      ...(o.fieldPath ? { fieldPath: o.fieldPath } : {}),
    },
    reason,
    message,
    source: { component: o.component ?? 'kubelet', ...(o.component === 'default-scheduler' ? {} : { host: 'worker01' }) },
    firstTimestamp: ts(o.first ?? t),
    lastTimestamp: ts(t),
    count: o.count ?? 1,
    type: o.type ?? 'Normal',
    eventTime: null,
    reportingComponent: o.component ?? 'kubelet',
    reportingInstance: o.component === 'default-scheduler' ? '' : 'worker01',
  };
}

export function nginxTestEvents(): KubeEvent[] {
  const f = { fieldPath: 'spec.containers{nginx-test}' };
  const image = 'm.daocloud.io/docker.io/library/nginx:alpine';
  return [
    event('nginx-test', 1, 'Scheduled', 'Successfully assigned default/nginx-test to worker01', 0, { component: 'default-scheduler' }),
    event('nginx-test', 2, 'Pulled', `Container image "${image}" already present on machine and can be accessed by the pod`, 1000, f),
    event('nginx-test', 3, 'Created', 'Container created', 1000, f),
    event('nginx-test', 4, 'Started', 'Container started', 1000, f),
  ];
}

export function node(): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'worker01',
      uid: 'node-uid',
      resourceVersion: '1',
      creationTimestamp: '2026-07-01T02:00:00Z',
      labels: { 'kubernetes.io/hostname': 'worker01', 'kubernetes.io/os': 'linux' },
    },
    spec: { podCIDR: '10.244.5.0/24', podCIDRs: ['10.244.5.0/24'] },
    status: {
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      addresses: [{ type: 'InternalIP', address: '192.168.114.148' }, { type: 'Hostname', address: 'worker01' }],
      conditions: [
        { type: 'Ready', status: 'True', lastHeartbeatTime: ts(0), lastTransitionTime: '2026-07-01T02:00:30Z', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.36.2',
        containerRuntimeVersion: 'containerd://2.1.4',
        kernelVersion: '6.8.0-60-generic',
        osImage: 'Ubuntu 24.04.2 LTS',
        operatingSystem: 'linux',
        architecture: 'amd64',
        machineID: 'm',
        systemUUID: 's',
        bootID: 'b',
      },
    },
  };
}

const SANDBOX = '5bf1e11f42767d1e0e2c4a5e6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c';
const CONTAINER = '67aca40f558b6b47bb0b2841709e96ee98c49d73e68f99fe5e2251d628068be3';

export function runtime(): NodeRuntime {
  return {
    node: 'worker01',
    kubeletPid: 2972481,
    runtimeVersion: 'containerd://2.1.4',
    sandboxes: [
      {
        id: SANDBOX, podUid: '3f1c2a5e-8d4b-4c7e-9a61-0b2d5e7f9c11', name: 'nginx-test', namespace: 'default', attempt: 0,
        state: 'SANDBOX_READY', createdAt: 600, ip: '10.244.5.6', pausePid: 2568950, runtimeHandler: '', labels: {},
      },
    ],
    containers: [
      {
        id: CONTAINER, sandboxId: SANDBOX, podUid: '3f1c2a5e-8d4b-4c7e-9a61-0b2d5e7f9c11', podName: 'nginx-test', podNamespace: 'default',
        name: 'nginx-test', attempt: 0, image: 'm.daocloud.io/docker.io/library/nginx:alpine',
        imageId: 'sha256:ea51152ef8c48bcf3a9a9e1b2a5b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b', state: 'CONTAINER_RUNNING',
        createdAt: 900, startedAt: 1000, pid: 2569001,
        namespaces: [
          { type: 'pid' },
          { type: 'ipc', path: '/proc/2568950/ns/ipc' },
          { type: 'uts', path: '/proc/2568950/ns/uts' },
          { type: 'network', path: '/proc/2568950/ns/net' },
          { type: 'mount' },
          { type: 'cgroup' },
        ],
        logPath: '/var/log/pods/default_nginx-test_3f1c2a5e-8d4b-4c7e-9a61-0b2d5e7f9c11/nginx-test/0.log',
        labels: {
          'io.kubernetes.container.name': 'nginx-test',
          'io.kubernetes.pod.name': 'nginx-test',
          'io.kubernetes.pod.namespace': 'default',
          'io.kubernetes.pod.uid': '3f1c2a5e-8d4b-4c7e-9a61-0b2d5e7f9c11',
        },
        annotations: { 'io.kubernetes.container.restartCount': '0' },
      },
    ],
    images: [
      {
        id: 'sha256:ea51152ef8c48bcf3a9a9e1b2a5b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b',
        repoTags: ['m.daocloud.io/docker.io/library/nginx:alpine'],
        repoDigests: ['m.daocloud.io/docker.io/library/nginx@sha256:ea51152ef8c48bcf3a9a9e1b2a5b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b'],
        size: 22_613_530,
      },
    ],
  };
}

/** The nginx-test cluster at virtual time t. */
export function nginxTestState(t = 74_000): ClusterState {
  return {
    t,
    epoch: EPOCH,
    pods: [pod('nginx-test')],
    events: nginxTestEvents(),
    nodes: [node()],
    runtimes: [runtime()],
    kubeletLogs: [
      { t: 40_000, node: 'worker01', severity: 'I', source: 'scope.go:122', msg: 'RemoveContainer', kv: [['containerID', `"${'4e0a84699c70ba4816ab95e88d76f542372267dea2203666ea863c5b0b3759de'}"`]] },
      { t: 41_000, node: 'worker01', severity: 'I', source: 'kubelet_volumes.go:161', msg: 'Cleaned up orphaned pod volumes dir', kv: [['podUID', '"67dc4cfb-813d-4188-973e-6c359d435d2c"'], ['path', '"/var/lib/kubelet/pods/67dc4cfb-813d-4188-973e-6c359d435d2c/volumes"']] },
    ],
    containerLogs: [
      { t: 1100, containerId: CONTAINER, stream: 'stdout', text: '/docker-entrypoint.sh: Configuration complete; ready for start up' },
    ],
  };
}
