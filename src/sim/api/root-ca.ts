// The ConfigMap kube-root-ca.crt, which kube-controller-manager's root CA publisher makes in every namespace: its
// name, its one key and the key's value. A leaf module (no imports): the kubelet's volumes (a lazily loaded module)
// read it, and the namespaces' fixed objects (api/namespaces.ts) print it.
// upstream: pkg/controller/certificates/rootcacertpublisher/publisher.go (RootCACertConfigMapName)

export const ROOT_CA_NAME = 'kube-root-ca.crt';
export const ROOT_CA_KEY = 'ca.crt';

/** The certificate's value: not modelled, a placeholder (what the kubelet reads too: kubelet/volumes.ts). */
export const ROOT_CA_CERT = '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n';
