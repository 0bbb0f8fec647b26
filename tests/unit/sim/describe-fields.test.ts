// `kubectl describe pod` for the pod fields the API server accepts and stores beyond the basics: priority and runtime
// class names, host ports, seccomp profiles, subPath mounts, env valueFrom and envFrom, httpGet URLs as Go's url.URL
// writes them, gRPC and tcpSocket probes, configMap/secret/hostPath/downwardAPI/PVC volumes, topology spread.
// upstream: k8s.io/kubectl/pkg/describe/describe.go describePod, describeContainerBasicInfo, describeContainerHostPorts,
// describeContainerEnvVars, describeContainerEnvFrom, EnvValueRetriever, describeContainerVolumes, DescribeProbe,
// describeVolumes (print*VolumeSource), describeTopologySpreadConstraints

import { describe, expect, it } from 'vitest';
import { describePod } from '../../../src/sim/render/describe.ts';
import { create, engineWith, podManifest } from './helpers.ts';

/**
 * The pod as the API server stored it (defaulted, admitted), described without events. A runtimeClassName is set on
 * the stored object: the model's cluster has no RuntimeClass, so its admission would refuse the pod, where a cluster
 * with that RuntimeClass stores it.
 */
function describeCreated(container: Record<string, unknown>, { runtimeClassName, ...spec }: Record<string, unknown> = {}, name = 'web'): string {
  const e = engineWith();
  const pod = create(e, podManifest(name, container, spec));
  const stored = runtimeClassName === undefined ? pod : { ...pod, spec: { ...pod.spec, runtimeClassName } };
  return describePod(stored, { now: Date.parse('2026-08-04T03:00:10Z'), utcOffsetMinutes: 480, events: [], showEvents: false });
}

const text = describeCreated(
  {
    image: 'nginx:1.29',
    ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 53, protocol: 'UDP', name: 'dns' }],
    resources: { limits: { cpu: '500m', memory: '128Mi' } },
    env: [
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
      { name: 'MEM_MI', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
      { name: 'STORAGE', valueFrom: { resourceFieldRef: { resource: 'limits.ephemeral-storage' } } },
      { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
      { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'app', key: 'level', optional: true } } },
    ],
    envFrom: [{ configMapRef: { name: 'app' } }, { prefix: 'DB_', secretRef: { name: 'db', optional: true } }],
    livenessProbe: { httpGet: { path: 'healthz', port: 8080 } },
    readinessProbe: { grpc: { port: 9090 } },
    startupProbe: { grpc: { port: 9090, service: 'ready' } },
    securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' } },
    volumeMounts: [
      { name: 'scratch', mountPath: '/data', subPath: 'sub' },
      { name: 'cfg', mountPath: '/etc/app', readOnly: true, subPathExpr: '$(POD_NAME)' },
    ],
  },
  {
    priorityClassName: 'system-node-critical',
    runtimeClassName: 'gvisor',
    securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
    topologySpreadConstraints: [
      {
        maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] },
      },
      { maxSkew: 2, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' },
    ],
    volumes: [
      { name: 'scratch', emptyDir: { sizeLimit: '1024Mi' } },
      { name: 'cfg', configMap: { name: 'app' } },
      { name: 'creds', secret: { secretName: 'db', optional: true } },
      { name: 'logs', hostPath: { path: '/var/log', type: 'Directory' } },
      { name: 'tmp', hostPath: { path: '/tmp' } },
      { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
      { name: 'claim', persistentVolumeClaim: { claimName: 'data' } },
    ],
  },
);

describe('describe pod: fields beyond the basics', () => {
  it('Priority Class Name after Priority, Runtime Class Name before Service Account', () => {
    expect(text).toContain(
      'Priority:             2000001000\n' +
        'Priority Class Name:  system-node-critical\n' +
        'Runtime Class Name:   gvisor\n' +
        'Service Account:      default\n',
    );
  });

  it('Host Port: the container port\'s hostPort, 0 when unset', () => {
    expect(text).toContain('    Ports:               80/TCP, 53/UDP (dns)\n    Host Ports:          8080/TCP, 0/UDP (dns)\n');
  });

  it('SeccompProfile: the pod\'s after Message, the container\'s after its host ports (Localhost with its profile)', () => {
    expect(text).toContain('Status:               Pending\nSeccompProfile:       RuntimeDefault\nIP:                   \n');
    expect(text).toContain(
      '    Host Ports:          8080/TCP, 0/UDP (dns)\n' +
        '    SeccompProfile:      Localhost\n' +
        '      LocalhostProfile:  profiles/audit.json\n' +
        '    Limits:\n',
    );
  });

  it('Mounts: a subPath as path="..." among the flags; a subPathExpr is not shown', () => {
    expect(text).toContain(
      '    Mounts:\n' +
        '      /data from scratch (rw,path="sub")\n' +
        '      /etc/app from cfg (ro)\n',
    );
  });

  it('probes: an http-get path without a leading "/" gets one after the host; gRPC with its service, "" when unset', () => {
    expect(text).toContain(
      '    Liveness:   http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3\n' +
        '    Readiness:  grpc <pod>:9090  delay=0s timeout=1s period=10s #success=1 #failure=3\n' +
        '    Startup:    grpc <pod>:9090 ready delay=0s timeout=1s period=10s #success=1 #failure=3\n',
    );
  });

  it('probes: url.URL escapes the path ("?" is %3F); tcp-socket shows its host', () => {
    const probes = describeCreated(
      {
        image: 'nginx:1.29',
        livenessProbe: { httpGet: { path: '/health?full=1', port: 'http', host: 'example.com', scheme: 'HTTPS' } },
        readinessProbe: { tcpSocket: { port: 80, host: 'localhost' } },
        ports: [{ containerPort: 80, name: 'http' }],
      },
      {},
      'probes',
    );
    expect(probes).toContain(
      '    Liveness:     http-get https://example.com:http/health%3Ffull=1 delay=0s timeout=1s period=10s #success=1 #failure=3\n' +
        '    Readiness:    tcp-socket localhost:80 delay=0s timeout=1s period=10s #success=1 #failure=3\n',
    );
  });

  it('Environment: fieldRef resolved as kubectl resolves it (metadata.name and metadata.namespace only), resource, secret and config map refs', () => {
    expect(text).toContain(
      '    Environment:\n' +
        '      POD_NAME:       web (v1:metadata.name)\n' +
        '      POD_NAMESPACE:  default (v1:metadata.namespace)\n' +
        '      NODE_NAME:       (v1:spec.nodeName)\n' +
        '      CPU:            1 (limits.cpu)\n' +
        '      MEM_MI:         128 (limits.memory)\n' +
        '      STORAGE:        0 (limits.ephemeral-storage)\n' +
        "      PASSWORD:       <set to the key 'password' in secret 'db'>    Optional: false\n" +
        "      LEVEL:          <set to the key 'level' of config map 'app'>  Optional: true\n",
    );
  });

  it('Environment: an unset cpu or memory limit reads "node allocatable"', () => {
    const env = describeCreated(
      {
        image: 'nginx:1.29',
        env: [
          { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
          { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'requests.memory' } } },
        ],
      },
      {},
      'env',
    );
    expect(env).toContain('    Environment:\n      CPU:  node allocatable (limits.cpu)\n      MEM:  0 (requests.memory)\n');
  });

  it('Environment Variables from: each source with its prefix and Optional, before Environment', () => {
    expect(text).toContain(
      '    Environment Variables from:\n' +
        "      app  ConfigMap                 Optional: false\n" +
        "      db   Secret with prefix 'DB_'  Optional: true\n" +
        '    Environment:\n',
    );
  });

  it('Volumes: configMap, secret, hostPath (type defaulted to ""), downwardAPI, PVC; an emptyDir limit as stored', () => {
    expect(text).toContain(
      'Volumes:\n' +
        '  scratch:\n' +
        "    Type:       EmptyDir (a temporary directory that shares a pod's lifetime)\n" +
        '    Medium:     \n' +
        '    SizeLimit:  1Gi\n' +
        '  cfg:\n' +
        '    Type:      ConfigMap (a volume populated by a ConfigMap)\n' +
        '    Name:      app\n' +
        '    Optional:  false\n' +
        '  creds:\n' +
        '    Type:        Secret (a volume populated by a Secret)\n' +
        '    SecretName:  db\n' +
        '    Optional:    true\n' +
        '  logs:\n' +
        '    Type:          HostPath (bare host directory volume)\n' +
        '    Path:          /var/log\n' +
        '    HostPathType:  Directory\n' +
        '  tmp:\n' +
        '    Type:          HostPath (bare host directory volume)\n' +
        '    Path:          /tmp\n' +
        '    HostPathType:  \n' +
        '  info:\n' +
        '    Type:  DownwardAPI (a volume populated by information about the pod)\n' +
        '    Items:\n' +
        '      metadata.labels -> labels\n' +
        '  claim:\n' +
        '    Type:       PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n' +
        '    ClaimName:  data\n' +
        '    ReadOnly:   false\n',
    );
  });

  it('Topology Spread Constraints after Tolerations, sorted by topology key, with the selector as FormatLabelSelector', () => {
    expect(text.endsWith(
      'Tolerations:                  node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n' +
        '                              node.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n' +
        'Topology Spread Constraints:  kubernetes.io/hostname:ScheduleAnyway when max skew 2 is exceeded\n' +
        '                              topology.kubernetes.io/zone:DoNotSchedule when max skew 1 is exceeded for selector app=web,tier in (a,b)\n',
    )).toBe(true);
  });
});
