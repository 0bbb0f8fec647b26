// ConfigMaps and Secrets through podlife's kubectl: `get` and `describe` (each namespace's kube-root-ca.crt among
// them), `create configmap`, `create secret generic`, `create|apply|delete -f` and `delete configmap|secret`, against
// a real engine. The expected texts follow kubectl v0.36.3's source, cited at each test; the errors and the
// client-side objects were also checked against the local kubectl (v1.32), whose code for them is the same.
// upstream: k8s.io/kubectl pkg/cmd/create/create_configmap.go, create_secret.go, create.go NameFromCommandArgs;
//           pkg/util/util.go ParseLiteralSource, ParseFileSource; pkg/cmd/util/env_file.go; pkg/util/hash/hash.go;
//           pkg/describe/describe.go (*ConfigMapDescriber).Describe, describeSecret;
//           kubernetes pkg/printers/internalversion/printers.go printConfigMap, printSecret

import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/sim/index.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import type { ClusterAction } from '../../../src/sim/types.ts';

/** An engine 5s into its run, files for -f and --from-file, every request recorded. */
function cluster(files: Record<string, string> = {}) {
  const engine = createEngine({}, { seed: 1 });
  engine.advanceTo(5000);
  const sent: ClusterAction[] = [];
  const ctx = { get state() { return engine.state(); }, apply: (a: ClusterAction) => (sent.push(a), engine.apply(a)), files };
  const run = (line: string) => execute(line, ctx);
  return { engine, sent, run, files };
}

const ROOT_CA_YAML = (namespace: string, rv: number, uid: string) => `apiVersion: v1
data:
  ca.crt: |
    -----BEGIN CERTIFICATE-----
    -----END CERTIFICATE-----
kind: ConfigMap
metadata:
  annotations:
    kubernetes.io/description: Contains a CA bundle that can be used to verify the
      kube-apiserver when using internal endpoints such as the internal service IPs
      or kubernetes.default.svc. No other usage is guaranteed across distributions
      of Kubernetes clusters.
  creationTimestamp: "2026-06-28T03:00:00Z"
  name: kube-root-ca.crt
  namespace: ${namespace}
  resourceVersion: "${rv}"
  uid: ${uid}
`;

describe('kubectl get configmaps|secrets (printers.go printConfigMap: NAME DATA AGE; printSecret: NAME TYPE DATA AGE)', () => {
  it("lists each namespace's kube-root-ca.crt (the root CA publisher's, made with the namespace) with what the run created, by namespace then name", () => {
    const c = cluster();
    expect(c.run('kubectl get cm')).toEqual({ stdout: 'NAME               DATA   AGE\nkube-root-ca.crt   1      37d\n', stderr: '', exitCode: 0 });
    expect(c.run('kubectl create configmap app --from-literal=a=1 --from-literal=b=2').stdout).toBe('configmap/app created\n');
    c.engine.advanceTo(65_000);
    for (const type of ['configmap', 'configmaps', 'cm', 'ConfigMap']) {
      expect(c.run(`kubectl get ${type}`).stdout, type).toBe('NAME               DATA   AGE\napp                2      60s\nkube-root-ca.crt   1      37d\n');
    }
    expect(c.run('kubectl get configmaps -A').stdout).toBe(
      'NAMESPACE         NAME               DATA   AGE\n' +
        'default           app                2      60s\n' +
        'default           kube-root-ca.crt   1      37d\n' +
        'kube-node-lease   kube-root-ca.crt   1      37d\n' +
        'kube-public       kube-root-ca.crt   1      37d\n' +
        'kube-system       kube-root-ca.crt   1      37d\n',
    );
    // no column of priority 1: -o wide is the same table
    expect(c.run('kubectl get cm -o wide').stdout).toBe(c.run('kubectl get cm').stdout);
    expect(c.run('kubectl get cm app kube-root-ca.crt -o name').stdout).toBe('configmap/app\nconfigmap/kube-root-ca.crt\n');
    expect(c.run('kubectl get configmap/app').stdout).toBe('NAME   DATA   AGE\napp    2      60s\n');
  });

  it('counts data and binaryData together; a Secret shows its type (defaulted to Opaque by the API server) and its keys', () => {
    const c = cluster({ 'bin.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bin\ndata:\n  a: x\nbinaryData:\n  b: AAEC\n  c: AA==\n' });
    expect(c.run('kubectl create -f bin.yaml').stdout).toBe('configmap/bin created\n');
    expect(c.run('kubectl create secret generic db --from-literal=user=admin --from-literal=password=hunter2').stdout).toBe('secret/db created\n');
    expect(c.run('kubectl create secret generic tok --type=example.com/token --from-literal=t=x').stdout).toBe('secret/tok created\n');
    expect(c.run('kubectl get cm bin').stdout).toBe('NAME   DATA   AGE\nbin    3      0s\n');
    expect(c.run('kubectl get secrets').stdout).toBe('NAME   TYPE                DATA   AGE\ndb     Opaque              2      0s\ntok    example.com/token   1      0s\n');
    expect(c.run('kubectl get secret -A').stdout).toMatch(/^NAMESPACE   NAME   TYPE {16}DATA   AGE\ndefault {5}db {5}Opaque/);
    // kubectl get cm,secret: one table per type, the names with their kind
    expect(c.run('kubectl get cm,secret').stdout).toBe(
      'NAME                         DATA   AGE\nconfigmap/bin                3      0s\nconfigmap/kube-root-ca.crt   1      37d\n\n' +
        'NAME         TYPE                DATA   AGE\nsecret/db    Opaque              2      0s\nsecret/tok   example.com/token   1      0s\n',
    );
  });

  it("NotFound, an empty namespace, -l, --field-selector (secrets: type), --show-labels; `get all` leaves them out as on a real cluster", () => {
    const c = cluster({ 'l.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  labels: {app: web}\n' });
    c.run('kubectl create -f l.yaml');
    c.run('kubectl create secret generic s --from-literal=a=b');
    expect(c.run('kubectl get cm nope')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): configmaps "nope" not found\n', exitCode: 1 });
    expect(c.run('kubectl get secret nope')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): secrets "nope" not found\n', exitCode: 1 });
    expect(c.run('kubectl get secrets -n kube-system')).toEqual({ stdout: '', stderr: 'No resources found in kube-system namespace.\n', exitCode: 0 });
    expect(c.run('kubectl get cm -l app=web -o name').stdout).toBe('configmap/web\n');
    expect(c.run('kubectl get cm -l app=db')).toEqual({ stdout: '', stderr: 'No resources found in default namespace.\n', exitCode: 0 });
    expect(c.run('kubectl get secret --field-selector type=Opaque -o name').stdout).toBe('secret/s\n');
    expect(c.run('kubectl get secret --field-selector type=kubernetes.io/tls')).toEqual({ stdout: '', stderr: 'No resources found in default namespace.\n', exitCode: 0 });
    expect(c.run('kubectl get cm -A --field-selector metadata.namespace=kube-public -o name').stdout).toBe('configmap/kube-root-ca.crt\n');
    // generic.ObjectMetaFieldsSet: a ConfigMap selects on its name and namespace only
    expect(c.run('kubectl get cm --field-selector type=x').stderr).toBe(
      'Error from server (BadRequest): Unable to find "/v1, Resource=configmaps" that match label selector "", field selector "type=x": field label not supported: type\n',
    );
    expect(c.run('kubectl get cm --show-labels').stdout).toBe('NAME               DATA   AGE   LABELS\nkube-root-ca.crt   1      37d   <none>\nweb                0      0s    app=web\n');
    expect(c.run('kubectl get all').stdout).not.toMatch(/configmap|secret/);
  });

  it('-o yaml is the stored object with its keys sorted (kube-root-ca.crt: its description folded by go-yaml), -o json and jsonpath too', () => {
    const c = cluster();
    // created with the cluster: at its first node's creation, as the namespaces are
    const ns = c.run('kubectl get ns -o jsonpath={.items[0].metadata.creationTimestamp}').stdout;
    expect(ns).toBe('2026-06-28T03:00:00Z');
    const uid = c.run('kubectl get cm kube-root-ca.crt -o jsonpath={.metadata.uid}').stdout;
    expect(c.run('kubectl get cm kube-root-ca.crt -o yaml').stdout).toBe(ROOT_CA_YAML('default', 330, uid));
    expect(c.run('kubectl get cm kube-root-ca.crt -n kube-system -o yaml').stdout).toMatch(/\n  namespace: kube-system\n  resourceVersion: "333"\n/);
    // a stable uid per namespace, the same in every run
    expect(cluster().run('kubectl get cm kube-root-ca.crt -o jsonpath={.metadata.uid}').stdout).toBe(uid);
    expect(c.run('kubectl get cm kube-root-ca.crt -n kube-system -o jsonpath={.metadata.uid}').stdout).not.toBe(uid);

    c.run('kubectl create secret generic s --from-literal=password=hunter2');
    const s = c.engine.state().secrets![0].metadata;
    expect(c.run('kubectl get secret s -o json').stdout).toBe(`{
    "apiVersion": "v1",
    "data": {
        "password": "aHVudGVyMg=="
    },
    "kind": "Secret",
    "metadata": {
        "creationTimestamp": "2026-08-04T03:00:05Z",
        "name": "s",
        "namespace": "default",
        "resourceVersion": "${s.resourceVersion}",
        "uid": "${s.uid}"
    },
    "type": "Opaque"
}
`);
    expect(c.run("kubectl get secret s -o jsonpath='{.data.password}'").stdout).toBe('aHVudGVyMg==');
    expect(c.run('kubectl get cm -o jsonpath={.items[*].metadata.name}').stdout).toBe('kube-root-ca.crt');
  });
});

describe('kubectl describe configmap|secret (describe.go (*ConfigMapDescriber).Describe, describeSecret)', () => {
  it('a ConfigMap: each data key, a rule and its value, then BinaryData with sizes, then its events (none)', () => {
    const c = cluster({
      'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  labels: {tier: web, app: shop}\n  annotations: {note: hi}\ndata:\n  b.conf: "line1\\nline2\\n"\n  a: "1"\nbinaryData:\n  logo: AAECAw==\n',
    });
    c.run('kubectl create -f cm.yaml');
    expect(c.run('kubectl describe cm app')).toEqual({
      stdout:
        'Name:         app\nNamespace:    default\nLabels:       app=shop\n              tier=web\nAnnotations:  note: hi\n\n' +
        'Data\n====\na:\n----\n1\n\nb.conf:\n----\nline1\nline2\n\n\n\nBinaryData\n====\nlogo: 4 bytes\n\nEvents:  <none>\n',
      stderr: '',
      exitCode: 0,
    });
    expect(c.run('kubectl describe configmap/app').stdout).toBe(c.run('kubectl describe cm app').stdout);
  });

  it("kube-root-ca.crt: its long description shortened to 138 characters and '...' (printAnnotationsMultiline)", () => {
    const c = cluster();
    expect(c.run('kubectl describe cm kube-root-ca.crt -n kube-public').stdout).toBe(
      'Name:         kube-root-ca.crt\nNamespace:    kube-public\nLabels:       <none>\nAnnotations:  kubernetes.io/description:\n' +
        '                Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IPs or kuber...\n\n' +
        'Data\n====\nca.crt:\n----\n-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n\n\n\nBinaryData\n====\n\nEvents:  <none>\n',
    );
  });

  it('a Secret: its type, and each key with the size of its value, never the value', () => {
    const c = cluster();
    c.run('kubectl create secret generic db --from-literal=user=admin --from-literal=password=hunter2 --from-literal=empty=');
    expect(c.run('kubectl describe secret db')).toEqual({
      stdout: 'Name:         db\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n\nType:  Opaque\n\nData\n====\nempty:     0 bytes\npassword:  7 bytes\nuser:      5 bytes\n',
      stderr: '',
      exitCode: 0,
    });
    expect(c.run('kubectl describe secret nope')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): secrets "nope" not found\n', exitCode: 1 });
    // several objects: each described, separated by a blank line (events left out, as kubectl 1.36 does)
    expect(c.run('kubectl describe cm,secret').stdout).toMatch(/^Name:         kube-root-ca\.crt\n[\s\S]*\n\nBinaryData\n====\n\n\n\nName:         db\n/);
    expect(c.run('kubectl describe secrets -n kube-system')).toEqual({ stdout: '', stderr: 'No resources found in kube-system namespace.\n', exitCode: 0 });
  });
});

describe('kubectl create configmap (create_configmap.go)', () => {
  const FILES = { 'f.txt': 'hello\n', 'dir/one': 'x', 'dir/two': 'y', 'dir/sub/three': 'z', 'e.env': '\uFEFF# c\n\n  A=1\nB=2=3\nC\n', 'bad.env': '1A=1\n' };

  it('builds the object from the file sources, then the literals, then the env files, and sends it (POST) as kubectl does', () => {
    const c = cluster(FILES);
    expect(c.run('kubectl create configmap app --from-file=f.txt --from-file=k=dir/one --from-literal=x=a=b')).toEqual({ stdout: 'configmap/app created\n', stderr: '', exitCode: 0 });
    expect(c.sent).toEqual([
      { type: 'config', verb: 'create', namespace: 'default', fieldValidation: 'Strict', obj: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'app' }, data: { 'f.txt': 'hello\n', k: 'x', x: 'a=b' } } },
    ]);
    // -n is set on the object (EnforceNamespace), and the request goes to that namespace
    c.run('kubectl create cm app -n kube-system --from-literal=a=b');
    expect(c.sent[1]).toMatchObject({ namespace: 'kube-system', obj: { metadata: { name: 'app', namespace: 'kube-system' } } });
    expect(c.engine.state().configMaps!.map((x) => `${x.metadata.namespace}/${x.metadata.name}`)).toEqual(['default/app', 'kube-system/app']);
  });

  it('--from-file and --from-env-file are StringSlices: comma-separated, a field in double quotes may hold a comma (pflag readAsCSV)', () => {
    const c = cluster({ ...FILES, 'a,b': 'comma' });
    expect(c.run(`kubectl create cm x '--from-file=f.txt,"k=a,b"' --from-file=dir/one --dry-run=client -o jsonpath={.data}`).stdout).toBe(
      '{"f.txt":"hello\\n","k":"comma","one":"x"}',
    );
    // an empty value is no source at all
    expect(c.run('kubectl create cm x --from-file= --dry-run=client -o name').stdout).toBe('configmap/x\n');
  });

  it('--dry-run=client prints the typed object: -o yaml through a map (sorted), -o json in the struct order, no null creationTimestamp (v1.34+)', () => {
    const c = cluster(FILES);
    expect(c.run('kubectl create cm x --from-literal=b=2 --from-literal=a=1 --dry-run=client')).toEqual({ stdout: 'configmap/x created (dry run)\n', stderr: '', exitCode: 0 });
    expect(c.run('kubectl create cm x --from-file=dir -o yaml --dry-run=client').stdout).toBe('apiVersion: v1\ndata:\n  one: x\n  two: "y"\nkind: ConfigMap\nmetadata:\n  name: x\n');
    expect(c.run('kubectl create cm x --from-env-file=e.env -o yaml --dry-run=client').stdout).toBe(
      'apiVersion: v1\ndata:\n  A: "1"\n  B: 2=3\n  C: ""\nkind: ConfigMap\nmetadata:\n  name: x\n',
    );
    expect(c.run('kubectl create cm x --from-literal=b=2 --from-literal=a=1 --save-config --dry-run=client -o json').stdout).toBe(`{
    "kind": "ConfigMap",
    "apiVersion": "v1",
    "metadata": {
        "name": "x",
        "annotations": {
            "kubectl.kubernetes.io/last-applied-configuration": "{\\"kind\\":\\"ConfigMap\\",\\"apiVersion\\":\\"v1\\",\\"metadata\\":{\\"name\\":\\"x\\"},\\"data\\":{\\"a\\":\\"1\\",\\"b\\":\\"2\\"}}\\n"
        }
    },
    "data": {
        "a": "1",
        "b": "2"
    }
}
`);
    expect(c.run('kubectl create cm x --dry-run=client -o name').stdout).toBe('configmap/x\n');
    // hash.ConfigMapHash: sha256 of {"data":…,"kind":"ConfigMap","name":…}, ten hex digits, 0 1 3 a e → g h k m t
    expect(c.run('kubectl create cm x -n foo --append-hash --from-literal=a=b --dry-run=client -o yaml').stdout).toBe(
      'apiVersion: v1\ndata:\n  a: b\nkind: ConfigMap\nmetadata:\n  name: x-64686gkt6c\n  namespace: foo\n',
    );
    expect(c.sent).toEqual([]);
  });

  it('the created object as the server answers it: -o yaml sorted, -o json in the struct order (the typed client\'s object)', () => {
    const c = cluster();
    const yaml = c.run('kubectl create cm x --from-literal=a=b -o yaml').stdout;
    const x = c.engine.state().configMaps![0].metadata;
    expect(yaml).toBe(`apiVersion: v1\ndata:\n  a: b\nkind: ConfigMap\nmetadata:\n  creationTimestamp: "2026-08-04T03:00:05Z"\n  name: x\n  namespace: default\n  resourceVersion: "${x.resourceVersion}"\n  uid: ${x.uid}\n`);
    const json = c.run('kubectl create cm y --from-literal=a=b -o json').stdout;
    const y = c.engine.state().configMaps!.find((o) => o.metadata.name === 'y')!.metadata;
    expect(json).toBe(`{
    "kind": "ConfigMap",
    "apiVersion": "v1",
    "metadata": {
        "name": "y",
        "namespace": "default",
        "uid": "${y.uid}",
        "resourceVersion": "${y.resourceVersion}",
        "creationTimestamp": "2026-08-04T03:00:05Z"
    },
    "data": {
        "a": "b"
    }
}
`);
    // get reads it as a map: keys sorted
    expect(c.run('kubectl get cm y -o json').stdout).toMatch(/^\{\n {4}"apiVersion": "v1",\n {4}"data": /);
  });

  it("kubectl's own errors, in the order Complete, Validate and Run meet them", () => {
    const c = cluster(FILES);
    const err = (line: string) => {
      const r = c.run(line);
      expect(r.exitCode, line).toBe(1);
      expect(r.stdout, line).toBe('');
      return r.stderr;
    };
    // create.go NameFromCommandArgs: a usage error naming the command (cm is an alias of configmap)
    expect(err('kubectl create cm')).toBe("error: exactly one NAME is required, got 0\nSee 'kubectl create configmap -h' for help and examples\n");
    expect(err('kubectl create configmap a b')).toBe("error: exactly one NAME is required, got 2\nSee 'kubectl create configmap -h' for help and examples\n");
    expect(err('kubectl create cm -- x y')).toBe("error: exactly one NAME is required, got 0\nSee 'kubectl create configmap -h' for help and examples\n");
    expect(err('kubectl create cm x --dry-run=foo')).toBe('error: Invalid dry-run value (foo). Must be "none", "server", or "client".\n');
    expect(err('kubectl create cm x -o wide')).toBe(
      'error: unable to match a printer suitable for the output format "wide", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml\n',
    );
    expect(err('kubectl create cm x --validate=foo')).toBe('error: invalid - validate option "foo"; must be one of: strict (or true), warn, ignore (or false)\n');
    // Validate
    expect(err("kubectl create cm ''")).toBe('error: name must be specified\n');
    expect(err('kubectl create cm x --from-env-file=e.env --from-literal=a=b')).toBe('error: from-env-file cannot be combined with from-file or from-literal\n');
    // util.ParseLiteralSource
    expect(err('kubectl create cm x --from-literal=a')).toBe('error: invalid literal source a, expected key=value\n');
    expect(err('kubectl create cm x --from-literal==a')).toBe('error: invalid literal source =a, expected key=value\n');
    // validateNewConfigMap: IsConfigMapKey, then a key given twice
    expect(err('kubectl create cm x --from-literal=a=1 --from-literal=a=2')).toBe('error: cannot add key "a", another key by that name already exists in Data for ConfigMap "x"\n');
    expect(err('kubectl create cm x --from-file=f.txt --from-literal=f.txt=2')).toBe('error: cannot add key "f.txt", another key by that name already exists in Data for ConfigMap "x"\n');
    expect(err('kubectl create cm x --from-literal=a/b=1')).toBe(
      `error: "a/b" is not a valid key name for a ConfigMap: a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')\n`,
    );
    expect(err('kubectl create cm x --from-literal=..a=1')).toBe(`error: "..a" is not a valid key name for a ConfigMap: must not start with '..'\n`);
    // util.ParseFileSource, os.Stat, the directory rules
    expect(err('kubectl create cm x --from-file=nope')).toBe('error: error reading nope: no such file or directory\n');
    expect(err('kubectl create cm x --from-file=k=dir')).toBe('error: cannot give a key name for a directory path\n');
    expect(err('kubectl create cm x --from-file==f.txt')).toBe('error: key name for file path f.txt missing\n');
    expect(err('kubectl create cm x --from-file=k=')).toBe('error: file path for key name k missing\n');
    expect(err('kubectl create cm x --from-file=a=b=c')).toBe("error: key names or file paths cannot contain '='\n");
    // env_file.go processEnvFileLine: IsEnvVarName
    expect(err('kubectl create cm x --from-env-file=bad.env')).toBe(
      `error: "1A" is not a valid key name: a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')\n`,
    );
    expect(err('kubectl create cm x --from-env-file=dir')).toBe('error: env config file cannot be a directory\n');
    // --from-file is a StringSlice: each value one CSV record (pflag readAsCSV), its parse error pflag's
    expect(err('kubectl create cm x \'--from-file=a"b\'')).toBe(
      'error: invalid argument "a\\"b" for "--from-file" flag: parse error on line 1, column 2: bare " in non-quoted-field\nSee \'kubectl create configmap --help\' for usage.\n',
    );
    expect(err('kubectl create cm x \'--from-file="ab\'')).toBe(
      'error: invalid argument "\\"ab" for "--from-file" flag: parse error on line 1, column 4: extraneous or missing " in quoted-field\nSee \'kubectl create configmap --help\' for usage.\n',
    );
    expect(err('kubectl create cm x --from-file=c,nope')).toBe('error: error reading c: no such file or directory\n');
    // create's own flags are not the subcommand's
    expect(err('kubectl create cm x -f cm.yaml')).toBe("error: unknown shorthand flag: 'f' in -f\nSee 'kubectl create configmap --help' for usage.\n");
    expect(c.sent).toEqual([]);
  });

  it("the server's refusals, wrapped by the client (\"failed to create configmap: %v\") and printed as a plain error", () => {
    const c = cluster();
    expect(c.run('kubectl create cm x --from-literal=a=b').exitCode).toBe(0);
    expect(c.run('kubectl create cm x --from-literal=a=b')).toEqual({ stdout: '', stderr: 'error: failed to create configmap: configmaps "x" already exists\n', exitCode: 1 });
    expect(c.run('kubectl create cm kube-root-ca.crt')).toEqual({ stdout: '', stderr: 'error: failed to create configmap: configmaps "kube-root-ca.crt" already exists\n', exitCode: 1 });
    expect(c.run('kubectl create cm X_Y').stderr).toMatch(/^error: failed to create configmap: ConfigMap "X_Y" is invalid: metadata\.name: Invalid value: "X_Y": a lowercase RFC 1123 subdomain /);
    expect(c.run('kubectl create cm x -n nope').stderr).toBe('error: failed to create configmap: namespaces "nope" not found\n');
  });

  it('the deprecated bare --dry-run is client, with klog\'s warning; --dry-run=server is refused by name', () => {
    const c = cluster();
    const r = c.run('kubectl create cm y --dry-run');
    expect(r.stdout).toBe('configmap/y created (dry run)\n');
    expect(r.stderr).toMatch(/^W0804 11:00:05\.000000 {3}48213 helpers\.go:719\] --dry-run is deprecated and can be replaced with --dry-run=client\.\n$/);
    expect(c.run('kubectl create cm y --dry-run=server').stderr).toBe('error: podlife: --dry-run=server is not supported by this simulation (--dry-run=client is)\n');
  });

  it('without a file system (the page\'s console) a file source is refused by name; a console that cannot change the cluster says so', () => {
    const engine = createEngine({}, { seed: 1 });
    engine.advanceTo(5000);
    const live = { get state() { return engine.state(); }, apply: (a: ClusterAction) => engine.apply(a) };
    expect(execute('kubectl create cm x --from-file=a.txt', live).stderr).toBe('error: podlife: --from-file reads a file, which this console has none of (give the values with --from-literal)\n');
    expect(execute('kubectl create cm x --from-literal=a=b', { state: engine.state() }).stderr).toBe('error: podlife: this console shows a recorded moment and cannot change the cluster\n');
  });
});

describe('kubectl create secret generic (create_secret.go)', () => {
  it('base64-encodes the literals, then the files, then the env files; --type is sent as given', () => {
    const c = cluster({ 'id_rsa': 'KEY\n', 'e.env': 'X=1\n' });
    expect(c.run('kubectl create secret generic s --from-literal=pw=hunter2 --from-file=ssh=id_rsa --type=example.com/ssh')).toEqual({ stdout: 'secret/s created\n', stderr: '', exitCode: 0 });
    expect(c.sent[0]).toEqual({
      type: 'config', verb: 'create', namespace: 'default', fieldValidation: 'Strict',
      obj: { kind: 'Secret', apiVersion: 'v1', metadata: { name: 's' }, data: { pw: 'aHVudGVyMg==', ssh: 'S0VZCg==' }, type: 'example.com/ssh' },
    });
    expect(c.run('kubectl create secret generic e --from-env-file=e.env -o yaml --dry-run=client').stdout).toBe('apiVersion: v1\ndata:\n  X: MQ==\nkind: Secret\nmetadata:\n  name: e\n');
    // without --type the field is left out (omitempty); the API server makes it Opaque
    expect(c.run('kubectl create secret generic o --from-literal=a=b -o jsonpath={.type}').stdout).toBe('Opaque');
  });

  it('--dry-run=client: -o json in the Secret struct order (data before type), --save-config, --append-hash (hash.SecretHash)', () => {
    const c = cluster();
    expect(c.run('kubectl create secret generic s --from-literal=a=b --dry-run=client -o json').stdout).toBe(
      '{\n    "kind": "Secret",\n    "apiVersion": "v1",\n    "metadata": {\n        "name": "s"\n    },\n    "data": {\n        "a": "Yg=="\n    }\n}\n',
    );
    expect(c.run('kubectl create secret generic s --from-literal=a=1 --type=foo --save-config --dry-run=client -o yaml').stdout).toBe(
      'apiVersion: v1\ndata:\n  a: MQ==\nkind: Secret\nmetadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n' +
        '      {"kind":"Secret","apiVersion":"v1","metadata":{"name":"s"},"data":{"a":"MQ=="},"type":"foo"}\n  name: s\ntype: foo\n',
    );
    expect(c.run('kubectl create secret generic x --append-hash --from-literal=a=b --dry-run=client -o name').stdout).toBe('secret/x-k694gm4m9h\n');
  });

  it("its own error texts (addKeyFromLiteralToSecret differs from the ConfigMap's), the subcommand's usage path, `create secret` alone", () => {
    const c = cluster({ 'dir/a': 'x' });
    expect(c.run('kubectl create secret generic x --from-literal=a=1 --from-literal=a=2').stderr).toBe('error: cannot add key a, another key by that name already exists\n');
    expect(c.run('kubectl create secret generic x --from-literal=a/b=1').stderr).toBe(
      `error: "a/b" is not valid key name for a Secret a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')\n`,
    );
    expect(c.run('kubectl create secret generic x --from-env-file=dir').stderr).toBe('error: env secret file cannot be a directory\n');
    expect(c.run('kubectl create secret generic --from-literal=a=b').stderr).toBe("error: exactly one NAME is required, got 0\nSee 'kubectl create secret generic -h' for help and examples\n");
    expect(c.run('kubectl create secret generic x --foo').stderr).toBe("error: unknown flag: --foo\nSee 'kubectl create secret generic --help' for usage.\n");
    expect(c.run('kubectl create secret generic x --from-literal=a=b').exitCode).toBe(0);
    expect(c.run('kubectl create secret generic x --from-literal=a=b').stderr).toBe('error: failed to create secret: secrets "x" already exists\n');
    // DefaultSubCommandRun: the help on stderr, exit 1; an argument is RequireNoArguments' usage error
    const help = c.run('kubectl create secret');
    expect(help.exitCode).toBe(1);
    expect(help.stderr).toMatch(/^Create a secret with specified type\.\n\n A docker-registry type secret[\s\S]*\nUsage:\n {2}kubectl create secret \(docker-registry \| generic \| tls\) \[options\]\n/);
    expect(c.run('kubectl create secret foo x').stderr).toBe("error: unknown command \"foo x\"\nSee 'kubectl create secret -h' for help and examples\n");
    expect(c.run('kubectl create secret docker-registry r --docker-server=x').stderr).toBe(
      'error: podlife: "kubectl create secret docker-registry" is not supported by this simulation (kubectl create secret generic is)\n',
    );
  });
});

describe('kubectl create|apply|delete -f and delete configmap|secret', () => {
  const FILES = {
    'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  a: b\n',
    'cm2.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  a: c\n',
    's.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  pw: hunter2\n',
    'both.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c2\ndata:\n  k: v\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx\n',
    'dep.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n',
  };

  it('create -f sends each object to its own endpoint and prints kind/name; AlreadyExists names the file', () => {
    const c = cluster(FILES);
    expect(c.run('kubectl create -f both.yaml')).toEqual({ stdout: 'configmap/c2 created\npod/p created\n', stderr: '', exitCode: 0 });
    expect(c.sent.map((a) => a.type)).toEqual(['config', 'create']);
    expect(c.run('kubectl create -f s.yaml -o name').stdout).toBe('secret/s\n');
    // the server writes stringData into data
    expect(c.run('kubectl get secret s -o jsonpath={.data}').stdout).toBe('{"pw":"aHVudGVyMg=="}');
    expect(c.run('kubectl create -f s.yaml')).toEqual({ stdout: '', stderr: 'Error from server (AlreadyExists): error when creating "s.yaml": secrets "s" already exists\n', exitCode: 1 });
    expect(c.run('kubectl create -f cm.yaml --dry-run=client').stdout).toBe('configmap/app created (dry run)\n');
    expect(c.run('kubectl create -f dep.yaml').stderr).toBe('error: podlife: creating Deployment (apps/v1) is not supported; this simulation models v1 Pods, ConfigMaps and Secrets\n');
  });

  it('apply -f: created with the last-applied annotation, then unchanged; a change is applied locally with --dry-run=client, else sent as a strategic merge patch', () => {
    const c = cluster(FILES);
    expect(c.run('kubectl apply -f cm.yaml')).toEqual({ stdout: 'configmap/app created\n', stderr: '', exitCode: 0 });
    expect(c.engine.state().configMaps![0].metadata.annotations).toEqual({
      'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"v1","data":{"a":"b"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"app","namespace":"default"}}\n',
    });
    expect(c.run('kubectl apply -f cm.yaml')).toEqual({ stdout: 'configmap/app unchanged\n', stderr: '', exitCode: 0 });
    expect(c.run('kubectl apply -f cm2.yaml --dry-run=client')).toEqual({ stdout: 'configmap/app configured (dry run)\n', stderr: '', exitCode: 0 });
    expect(c.run('kubectl apply -f cm2.yaml --dry-run=client -o jsonpath={.data.a}').stdout).toBe('c');
    c.sent.length = 0;
    const rv = c.engine.state().configMaps![0].metadata.resourceVersion;
    expect(c.run('kubectl apply -f cm2.yaml')).toEqual({ stdout: 'configmap/app configured\n', stderr: '', exitCode: 0 });
    // the three-way patch: the changed value and the new last-applied configuration
    expect(c.sent).toEqual([{
      type: 'config', verb: 'patch', kind: 'ConfigMap', namespace: 'default', name: 'app', patchType: 'strategic', fieldValidation: 'Strict',
      patch: {
        data: { a: 'c' },
        metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"v1","data":{"a":"c"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"app","namespace":"default"}}\n' } },
      },
    }]);
    const cm = c.engine.state().configMaps![0];
    expect(cm.data).toEqual({ a: 'c' });
    expect(Number(cm.metadata.resourceVersion)).toBeGreaterThan(Number(rv));
    expect(c.run('kubectl apply -f cm2.yaml').stdout).toBe('configmap/app unchanged\n');
    expect(c.run('kubectl apply -f s.yaml').stdout).toBe('secret/s created\n');
  });

  it('patch configmap|secret: each patch type; "(no change)" without a new resourceVersion; an immutable object keeps its data; a Secret its type', () => {
    const c = cluster(FILES);
    c.run('kubectl create -f cm.yaml');
    c.run('kubectl create -f s.yaml');
    expect(c.run(`kubectl patch configmap app -p '{"data":{"x":"1"}}'`)).toEqual({ stdout: 'configmap/app patched\n', stderr: '', exitCode: 0 });
    expect(c.run(`kubectl patch cm app --type merge -p '{"data":{"a":null}}'`).stdout).toBe('configmap/app patched\n');
    expect(c.run(`kubectl patch cm app --type json -p '[{"op":"replace","path":"/data/x","value":"2"}]'`).stdout).toBe('configmap/app patched\n');
    expect(c.engine.state().configMaps![0].data).toEqual({ x: '2' });
    const rv = c.engine.state().configMaps![0].metadata.resourceVersion;
    expect(c.run(`kubectl patch cm app -p '{"data":{"x":"2"}}'`).stdout).toBe('configmap/app patched (no change)\n');
    expect(c.engine.state().configMaps![0].metadata.resourceVersion).toBe(rv);
    // a Secret's stringData is written into data, as on create
    expect(c.run(`kubectl patch secret s -p '{"stringData":{"pw":"swordfish"}}'`).stdout).toBe('secret/s patched\n');
    expect(c.run('kubectl get secret s -o jsonpath={.data.pw}').stdout).toBe('c3dvcmRmaXNo');
    expect(c.run(`kubectl patch secret s -p '{"type":"kubernetes.io/tls"}'`)).toEqual({
      stdout: '', exitCode: 1, stderr: 'The Secret "s" is invalid: type: Invalid value: "kubernetes.io/tls": field is immutable\n',
    });
    // ValidateConfigMapUpdate: once immutable, neither the data nor the flag may change
    expect(c.run(`kubectl patch cm app -p '{"immutable":true}'`).stdout).toBe('configmap/app patched\n');
    expect(c.run(`kubectl patch cm app -p '{"data":{"x":"3"},"immutable":false}'`)).toEqual({
      stdout: '', exitCode: 1,
      stderr: 'The ConfigMap "app" is invalid: \n* immutable: Forbidden: field is immutable when `immutable` is set\n* data: Forbidden: field is immutable when `immutable` is set\n',
    });
    expect(c.run(`kubectl patch cm app -p '{"data":{"bad key":"v"}}'`).exitCode).toBe(1);
    expect(c.run(`kubectl patch cm nope -p '{"data":{}}'`)).toEqual({ stdout: '', stderr: 'Error from server (NotFound): configmaps "nope" not found\n', exitCode: 1 });
    // --dry-run=client patches the fetched object and sends nothing
    c.sent.length = 0;
    expect(c.run(`kubectl patch secret s -p '{"data":{"k":"dg=="}}' --dry-run=client -o jsonpath={.data.k}`).stdout).toBe('dg==');
    expect(c.sent).toEqual([]);
  });

  it('delete configmap|secret NAME..., --all, -f: "deleted from <ns> namespace", NotFound, --ignore-not-found, -o name', () => {
    const c = cluster(FILES);
    c.run('kubectl create -f both.yaml');
    c.run('kubectl create -f cm.yaml');
    c.run('kubectl create secret generic s --from-literal=a=b');
    c.sent.length = 0;
    expect(c.run('kubectl delete cm app')).toEqual({ stdout: 'configmap "app" deleted from default namespace\n', stderr: '', exitCode: 0 });
    expect(c.sent).toEqual([{ type: 'config', verb: 'delete', kind: 'ConfigMap', namespace: 'default', name: 'app' }]);
    expect(c.run('kubectl delete cm app')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): configmaps "app" not found\n', exitCode: 1 });
    expect(c.run('kubectl delete cm app --ignore-not-found')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(c.run('kubectl delete secret s -o name')).toEqual({ stdout: 'secret/s\n', stderr: '', exitCode: 0 });
    expect(c.run('kubectl delete configmap x --dry-run=client').stdout).toBe('configmap "x" deleted from default namespace (dry run)\n');
    expect(c.run('kubectl delete -f both.yaml')).toEqual({ stdout: 'configmap "c2" deleted from default namespace\npod "p" deleted from default namespace\n', stderr: '', exitCode: 0 });
    // kube-root-ca.crt: the root CA publisher makes it again at once
    expect(c.run('kubectl delete cm --all').stdout).toBe('configmap "kube-root-ca.crt" deleted from default namespace\n');
    expect(c.run('kubectl get cm -o name').stdout).toBe('configmap/kube-root-ca.crt\n');
  });
});

describe('kubectl replace -f (replace.go): the object PUT as it is', () => {
  it('the create-and-replace idiom replaces a ConfigMap whole; a Secret\'s stringData is its data; --force deletes and creates it', () => {
    const { run, sent } = cluster();
    run('kubectl create configmap app --from-literal=mode=demo --from-literal=extra=1');
    const r = run('kubectl create configmap app --from-literal=mode=prod --dry-run=client -o yaml | kubectl replace -f -');
    expect(r).toEqual({ stdout: 'configmap/app replaced\n', stderr: '', exitCode: 0 });
    expect(sent.at(-1)).toMatchObject({ type: 'config', verb: 'patch', kind: 'ConfigMap', name: 'app', patchType: 'put', fieldValidation: 'Strict' });
    expect(run("kubectl get cm app -o jsonpath='{.data}'").stdout).toBe('{"mode":"prod"}');
    run('kubectl create secret generic tok --from-literal=t=a');
    expect(run('kubectl create secret generic tok --from-literal=t=b --dry-run=client -o yaml | kubectl replace -f -').stdout).toBe('secret/tok replaced\n');
    expect(run("kubectl get secret tok -o jsonpath='{.data.t}'").stdout).toBe('Yg==');
    const uid = (name: string) => run(`kubectl get cm ${name} -o jsonpath={.metadata.uid}`).stdout;
    const before = uid('app');
    expect(run('kubectl create configmap app --from-literal=a=b --dry-run=client -o yaml | kubectl replace --force -f -')).toEqual({
      stdout: 'configmap "app" deleted from default namespace\nconfigmap/app replaced\n', stderr: '', exitCode: 0,
    });
    expect([uid('app') !== before, run("kubectl get cm app -o jsonpath='{.data}'").stdout]).toEqual([true, '{"a":"b"}']);
    expect(run('kubectl create configmap app --from-literal=a=c --dry-run=client -o yaml | kubectl replace --force --dry-run=client -f -')).toMatchObject({
      stderr: 'error: --dry-run can not be used when --force is set\n', exitCode: 1,
    });
  });
});
