// The Services of a fresh kubeadm cluster: `kubernetes` in default (the API server's own, made by the API server at
// start-up) and `kube-dns` in kube-system (kubeadm's CoreDNS addon). The model has no Service controller, endpoints
// or kube-proxy, and a scenario cannot create a Service; these two are fixed objects created with the cluster (at its
// first node's creation, as the namespaces are), so that `kubectl get all` and `get svc` read as on a real cluster.
// upstream: pkg/controlplane/controller/kubernetesservice (the default service: port "https" 443 → the API server's
//           secure port 6443, labels component=apiserver, provider=kubernetes); cmd/kubeadm/app/phases/addons/dns
//           manifests.go (kube-dns: 53/UDP dns, 53/TCP dns-tcp, 9153/TCP metrics, selector k8s-app=kube-dns, the
//           tenth address of the service CIDR); kubeadm's default service subnet 10.96.0.0/12

import type { Node } from '../types.ts';
import { stableUid } from './namespaces.ts';

export interface ServicePort {
  name: string;
  protocol: 'TCP' | 'UDP';
  port: number;
  targetPort: number;
}

export interface Service {
  apiVersion: 'v1';
  kind: 'Service';
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    resourceVersion: string;
    creationTimestamp: string;
    labels: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: {
    clusterIP: string;
    clusterIPs: string[];
    internalTrafficPolicy: 'Cluster';
    ipFamilies: ['IPv4'];
    ipFamilyPolicy: 'SingleStack';
    ports: ServicePort[];
    selector?: Record<string, string>;
    sessionAffinity: 'None';
    type: 'ClusterIP';
  };
  status: { loadBalancer: Record<string, never> };
}

/** The cluster's Services, in the API server's list order (namespace, then name). */
export function clusterServices(nodes: Node[]): Service[] {
  const created = nodes.map((n) => n.metadata.creationTimestamp).sort()[0] ?? '1970-01-01T00:00:00Z';
  const service = (namespace: string, name: string, resourceVersion: string, clusterIP: string, rest: Pick<Service['metadata'], 'labels' | 'annotations'>, ports: ServicePort[], selector?: Record<string, string>): Service => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace, uid: stableUid(`service/${namespace}/${name}`), resourceVersion, creationTimestamp: created, ...rest },
    // the fields in the order of Go's ServiceSpec, as the API server writes them (-o json keeps it)
    spec: {
      ports,
      ...(selector ? { selector } : {}),
      clusterIP,
      clusterIPs: [clusterIP],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    },
    status: { loadBalancer: {} },
  });
  return [
    service('default', 'kubernetes', '200', '10.96.0.1', { labels: { component: 'apiserver', provider: 'kubernetes' } }, [
      { name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 },
    ]),
    service(
      'kube-system', 'kube-dns', '240', '10.96.0.10',
      {
        labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
        annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
      },
      [
        { name: 'dns', protocol: 'UDP', port: 53, targetPort: 53 },
        { name: 'dns-tcp', protocol: 'TCP', port: 53, targetPort: 53 },
        { name: 'metrics', protocol: 'TCP', port: 9153, targetPort: 9153 },
      ],
      { 'k8s-app': 'kube-dns' },
    ),
  ];
}
