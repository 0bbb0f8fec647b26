// kubectl as a user meets it: flag parsing with pflag's rules and kubectl's error text (v1.36's
// `error: ...` form through CheckErr), the request each mutating command sends to the API server,
// and what it prints.

import { describe, expect, it } from 'vitest';
import { execute } from '../../../src/sim/commands/execute.ts';
import { shown } from '../../../src/sim/commands/shell.ts';
import type { ApplyResult, ClusterAction, Pod } from '../../../src/sim/types.ts';
import { nginxTestState, pod as fixturePod } from './fixtures.ts';
import { NODE, create, engineWith, pod, podManifest } from './helpers.ts';

/** A recording API endpoint: every request kubectl sends, answered as the API server would. */
function recorder(answer: (a: ClusterAction) => ApplyResult = (a) => ({ ok: true, object: fixturePod(a.type === 'create' ? String((a.obj as Pod).metadata.name) : 'nginx-test') })) {
  const sent: ClusterAction[] = [];
  const state = nginxTestState(89_000);
  return { sent, ctx: { state, apply: (a: ClusterAction) => (sent.push(a), answer(a)) } };
}

describe('flag parsing (pflag) and kubectl errors', () => {
  const { ctx } = recorder();
  const err = (line: string) => execute(line, ctx);
  it('accepts -o wide, -owide, --output=wide, --output wide and combined -Aowide', () => {
    const want = execute('kubectl get pods -o wide', ctx).stdout;
    expect(want).toContain('NOMINATED NODE');
    for (const l of ['kubectl get pods -owide', 'kubectl get pods --output=wide', 'kubectl get pods --output wide']) {
      expect(execute(l, ctx).stdout).toBe(want);
    }
    expect(execute('kubectl get pods -Aowide', ctx).stdout).toMatch(/^NAMESPACE   NAME/);
    expect(execute('kubectl -n default get pods -owide', ctx).stdout).toBe(want);
    expect(execute('kubectl get pods --namespace=default -o=wide', ctx).stdout).toBe(want);
  });
  it("prints pflag's errors with kubectl's usage hint", () => {
    expect(err('kubectl get pods --foo')).toEqual({ stdout: '', stderr: "error: unknown flag: --foo\nSee 'kubectl get --help' for usage.\n", exitCode: 1 });
    expect(err('kubectl get pods -x').stderr).toBe("error: unknown shorthand flag: 'x' in -x\nSee 'kubectl get --help' for usage.\n");
    expect(err('kubectl get pods -n').stderr).toBe("error: flag needs an argument: 'n' in -n\nSee 'kubectl get --help' for usage.\n");
    expect(err('kubectl get pods --sort-by').stderr).toBe("error: flag needs an argument: --sort-by\nSee 'kubectl get --help' for usage.\n");
    expect(err('kubectl delete pod x --wait=maybe').stderr).toBe(
      'error: invalid argument "maybe" for "--wait" flag: strconv.ParseBool: parsing "maybe": invalid syntax\nSee \'kubectl delete --help\' for usage.\n',
    );
  });
  it('reports resource, name and format problems as kubectl does', () => {
    expect(err('kubectl get foo').stderr).toBe('error: the server doesn\'t have a resource type "foo"\n');
    expect(err('kubectl get pod nope')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n', exitCode: 1 });
    expect(err('kubectl describe pod nope').stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
    expect(err('kubectl get pods -n kube-system')).toEqual({ stdout: '', stderr: 'No resources found in kube-system namespace.\n', exitCode: 0 });
  });
  it('"No resources found": with the namespace and a full stop for a namespaced list, bare for -A and nodes (get.go Run)', () => {
    // the forms the real kubectl 1.32 prints against podlife serve with no pods
    const empty = (line: string) => err(line);
    expect(empty('kubectl get pods -l app=none')).toEqual({ stdout: '', stderr: 'No resources found in default namespace.\n', exitCode: 0 });
    expect(empty('kubectl get pods -A -l app=none')).toEqual({ stdout: '', stderr: 'No resources found\n', exitCode: 0 });
    expect(empty('kubectl get pods --all-namespaces -o wide -l app=none')).toEqual({ stdout: '', stderr: 'No resources found\n', exitCode: 0 });
    expect(empty('kubectl get events -A --field-selector involvedObject.name=none')).toEqual({ stdout: '', stderr: 'No resources found\n', exitCode: 0 });
    expect(empty('kubectl get nodes -l x=y')).toEqual({ stdout: '', stderr: 'No resources found\n', exitCode: 0 });
    expect(empty('kubectl get pods -l app=none --ignore-not-found')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(empty('kubectl get pods -l app=none -o name')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(empty('kubectl describe pods -A -l app=none').stderr).toBe('No resources found\n');
    expect(err('kubectl get pods -o badfmt').stderr).toMatch(/^error: unable to match a printer suitable for the output format "badfmt", allowed formats are: custom-columns,/);
    expect(err("kubectl get pods -o jsonpath='{.x'").stderr).toBe('error: error parsing jsonpath {.x, unclosed action\n');
    expect(err('kubectl logs').stderr).toBe(
      "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n",
    );
    expect(err('kubectl describe').stderr).toBe(
      'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n',
    );
    expect(err('kubectl gett pods').stderr).toBe('error: unknown command "gett" for "kubectl"\n\nDid you mean this?\n\tget\n\tset\n');
  });
  it('-o custom-columns: the spec errors, an empty list and names not found as the real kubectl 1.32 prints them against podlife serve', () => {
    expect(err('kubectl get pods -o custom-columns=').stderr).toBe('error: custom-columns format specified but no custom columns given\n');
    expect(err('kubectl get pods -o custom-columns=NAME').stderr).toBe('error: unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>\n');
    expect(err("kubectl get pods -o custom-columns='A:{.x'").stderr).toBe(
      "error: unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'\n",
    );
    // not a human-readable printer: an empty list prints the header (printGeneric), not "No resources found"
    expect(err('kubectl get pods -l app=none -o custom-columns=N:.metadata.name')).toEqual({ stdout: 'N\n', stderr: '', exitCode: 0 });
    expect(err('kubectl get pods -l app=none --no-headers -o custom-columns=N:.metadata.name')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(err('kubectl get pod nope -o custom-columns=N:.metadata.name')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n', exitCode: 1 });
    // two names: no single item implied, so the (empty) list is printed beside the errors
    const two = err('kubectl get pod nope1 nope2 -o yaml');
    expect(two.stdout).toBe('apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: ""\n');
    expect(two.stderr).toBe('Error from server (NotFound): pods "nope1" not found\nError from server (NotFound): pods "nope2" not found\n');
    expect(err('kubectl get pod nope1 nope2 -o custom-columns=N:.metadata.name').stdout).toBe('N\n');
  });
});

describe('kubectl run', () => {
  it('builds the pod as kubectl run does: label run=<name>, container named after the pod, --command args', () => {
    const { sent, ctx } = recorder();
    const r = execute('kubectl run crash-test --image=m.daocloud.io/docker.io/busybox --restart=Always --command -- sh -c "exit 1"', ctx);
    expect(r).toEqual({ stdout: 'pod/crash-test created\n', stderr: '', exitCode: 0 });
    expect(sent).toEqual([
      {
        type: 'create',
        namespace: 'default',
        obj: {
          apiVersion: 'v1', kind: 'Pod',
          metadata: { labels: { run: 'crash-test' }, name: 'crash-test' },
          spec: {
            containers: [{ name: 'crash-test', image: 'm.daocloud.io/docker.io/busybox', resources: {}, command: ['sh', '-c', 'exit 1'] }],
            dnsPolicy: 'ClusterFirst', restartPolicy: 'Always',
          },
          status: {},
        },
      },
    ]);
  });
  it('args without --command, env, labels, port, pull policy', () => {
    const { sent, ctx } = recorder();
    execute('kubectl run web --image=nginx --env=A=1 --env=B=x=y -l app=web,tier=fe --port=80 --image-pull-policy=Never -- -g "daemon off;"', ctx);
    const obj = (sent[0] as { obj: Pod }).obj;
    expect(obj.metadata.labels).toEqual({ app: 'web', tier: 'fe' });
    expect(obj.spec.containers[0]).toEqual({
      name: 'web', image: 'nginx', resources: {}, args: ['-g', 'daemon off;'],
      env: [{ name: 'A', value: '1' }, { name: 'B', value: 'x=y' }], imagePullPolicy: 'Never', ports: [{ containerPort: 80 }],
    });
  });
  it('validates as kubectl does before sending anything', () => {
    const { sent, ctx } = recorder();
    expect(execute('kubectl run x', ctx).stderr).toBe('error: required flag(s) "image" not set\n');
    expect(execute('kubectl run --image=nginx', ctx).stderr).toBe("error: NAME is required for run\nSee 'kubectl run -h' for help and examples\n");
    expect(execute('kubectl run x --image=nginx --restart=Sometimes', ctx).stderr).toBe("error: invalid restart policy: Sometimes\nSee 'kubectl run -h' for help and examples\n");
    expect(execute('kubectl run x --image=nginx --env=BAD', ctx).stderr).toBe('error: invalid env: BAD\n');
    expect(execute('kubectl run x --image=nginx --port=abc', ctx).stderr).toBe('error: strconv.Atoi: parsing "abc": invalid syntax\n');
    expect(execute('kubectl run x --image=Bad:Image:Ref', ctx).stderr).toBe('error: Invalid image name "Bad:Image:Ref": invalid reference format\n');
    expect(sent).toEqual([]);
  });
  it('prints the API server\'s refusal', () => {
    const { ctx } = recorder(() => ({
      ok: false,
      status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'pods "nginx" already exists', reason: 'AlreadyExists', details: { name: 'nginx', kind: 'pods' }, code: 409 },
    }));
    expect(execute('kubectl run nginx --image=nginx', ctx)).toEqual({ stdout: '', stderr: 'Error from server (AlreadyExists): pods "nginx" already exists\n', exitCode: 1 });
  });
  it('--dry-run=client -o yaml prints the object and sends nothing', () => {
    const { sent, ctx } = recorder();
    // no `creationTimestamp: null` (kubectl before v1.34 printed one): a zero timestamp is omitted (kubernetes#130989)
    expect(execute('kubectl run nginx --image=nginx --dry-run=client -o yaml', ctx).stdout).toBe(
      'apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    run: nginx\n  name: nginx\nspec:\n  containers:\n  - image: nginx\n    name: nginx\n    resources: {}\n  dnsPolicy: ClusterFirst\n  restartPolicy: Always\nstatus: {}\n',
    );
    expect(sent).toEqual([]);
  });
});

describe('kubectl api-resources', () => {
  it("lists what the cluster serves (the table podlife serve's discovery answers with); -o json|yaml are refused by name", () => {
    const { ctx } = recorder();
    expect(execute('kubectl api-resources -o name', ctx).stdout).toBe('configmaps\nevents\nnamespaces\nnodes\npods\nsecrets\nservices\n');
    // the command get's own error points to
    expect(execute('kubectl get', ctx).stderr).toContain('Use "kubectl api-resources" for a complete list of supported resources.');
    expect(execute('kubectl api-resources -o json', ctx)).toEqual({
      stdout: '', exitCode: 1, stderr: 'error: podlife: kubectl api-resources -o json is not supported by this simulation (the table, -o wide and -o name are)\n',
    });
    expect(execute('kubectl api-resources -o jsonpath={.x}', ctx).stderr).toBe('error: unable to match a printer suitable for the output format "jsonpath={.x}", allowed formats are: json,yaml,name,wide\n');
  });
});

describe('kubectl api-versions', () => {
  it('prints the group versions discovery serves, one per line; arguments and flags of its own are refused as kubectl refuses them', () => {
    const { ctx, sent } = recorder();
    expect(execute('kubectl api-versions', ctx)).toEqual({ stdout: 'v1\n', stderr: '', exitCode: 0 });
    // kubectl's global flags come before or after it
    expect(execute('kubectl -n kube-system api-versions --request-timeout=5s', ctx).stdout).toBe('v1\n');
    expect(execute('kubectl api-versions v1', ctx)).toEqual({
      stdout: '', exitCode: 1, stderr: "error: unexpected arguments: [v1]\nSee 'kubectl api-versions -h' for help and examples\n",
    });
    expect(execute('kubectl api-versions -o json', ctx).stderr).toBe("error: unknown shorthand flag: 'o' in -o\nSee 'kubectl api-versions --help' for usage.\n");
    // a piped filter sees its lines
    expect(execute('kubectl api-versions | grep -c v1', ctx).stdout).toBe('1\n');
    expect(sent).toEqual([]);
  });
});

describe('what podlife does not model, refused clearly instead of dropped', () => {
  it('-o go-template-file and -o templatefile read a file, which a console without files (the page\'s) has none of: refused naming the inline form', () => {
    const { ctx } = recorder();
    const r = execute('kubectl get pods -o go-template-file=/tmp/t.tmpl', ctx);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('error: podlife: -o go-template-file reads a file, which this console has none of (give the template inline: -o go-template=...)\n');
    expect(execute('kubectl get pods -o templatefile=/tmp/t.tmpl', ctx).stderr).toContain('(give the template inline: -o template=...)');
    // with files to read, the template comes from the file, or kubectl's error names the one missing
    const files = { 't.tmpl': '{{range .items}}{{.metadata.name}}{{end}}' };
    expect(execute('kubectl get pods -o go-template-file=t.tmpl', { ...ctx, files }).stdout).toBe(execute("kubectl get pods -o go-template='{{range .items}}{{.metadata.name}}{{end}}'", ctx).stdout);
    expect(execute('kubectl get pods -o jsonpath-file=x', { ...ctx, files }).stderr).toBe('error: error reading --template x, open x: no such file or directory\n');
  });
  it('patch --dry-run=client: every patch type is applied locally, with getPatchedJSON\'s errors, and nothing is sent', () => {
    const { sent, ctx } = recorder();
    expect(execute(`kubectl patch pod nginx-test -p '{"metadata":{"labels":{"tier":"web"}}}' --dry-run=client -o jsonpath={.metadata.labels.tier}`, ctx).stdout).toBe('web');
    expect(execute(`kubectl patch pod nginx-test --type=merge -p '{"metadata":{"labels":{"run":"nginx-test"}}}' --dry-run=client`, ctx).stdout).toBe('pod/nginx-test patched (no change)\n');
    // a JSON patch, as kubectl applies it with json-patch v4: replace of a missing key adds it, -1 is the last item
    const json = (patch: string, rest = '') => execute(`kubectl patch pod nginx-test --type=json -p '${patch}' --dry-run=client${rest}`, ctx);
    expect(json('[]').stdout).toBe('pod/nginx-test patched (no change)\n');
    expect(json('[{"op":"replace","path":"/metadata/labels/tier","value":"web"}]', ' -o jsonpath={.metadata.labels}').stdout).toBe('{"run":"nginx-test","tier":"web"}');
    expect(json('[{"op":"replace","path":"/spec/containers/-1/image","value":"nginx:1.29"}]').stdout).toBe('pod/nginx-test patched\n');
    // its errors are the library's, "doc is missing key" reworded, each with kubectl's "error: " and exit code 1
    expect(json('[{"op":"replace","path":"/spec/containers/5","value":{}}]')).toEqual({ stdout: '', stderr: 'error: Object to be patched is missing field (/spec/containers/5: missing value)\n', exitCode: 1 });
    expect(json('[{"op":"remove","path":"/metadata/labels/zz"}]').stderr).toBe("error: error in remove for path: '/metadata/labels/zz': Unable to remove nonexistent key: zz: missing value\n");
    expect(json('{"a":1}').stderr).toBe('error: json: cannot unmarshal object into Go value of type jsonpatch.Patch\n');
    expect(execute(`kubectl patch pod nope --type=json -p '{"a":1}' --dry-run=client`, ctx).stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
    expect(execute(`kubectl patch pod nginx-test -p '{}' --dry-run=server`, ctx).stderr).toBe('error: podlife: --dry-run=server is not supported by this simulation\n');
    expect(sent).toEqual([]);
  });
  it('kubectl get --raw: the health endpoints answer "ok"; their list of checks and any other path are refused, naming what answers', () => {
    const { ctx } = recorder();
    expect(execute('kubectl get --raw /readyz', ctx)).toEqual({ stdout: 'ok', stderr: '', exitCode: 0 });
    expect(execute('kubectl get --raw /livez?timeout=32s', ctx).stdout).toBe('ok');
    expect(execute("kubectl get --raw '/readyz?verbose'", ctx).stderr).toBe('error: podlife: /readyz?verbose: the API server\'s list of health checks is not modelled; /readyz answers "ok"\n');
    expect(execute('kubectl get --raw /api/v1/namespaces/default/pods', ctx).stderr).toMatch(/^error: podlife: kubectl get --raw answers \/healthz, \/livez, \/readyz in this simulation; podlife serve answers every API path/);
  });

  it('kubectl run --expose would create a Service: refused before the pod is created', () => {
    const { sent, ctx } = recorder();
    expect(execute('kubectl run web --image=nginx --expose', ctx).stderr).toBe("error: --port must be set when exposing a service\nSee 'kubectl run -h' for help and examples\n");
    expect(execute('kubectl run web --image=nginx --expose --port=80', ctx).stderr).toContain('podlife: kubectl run --expose also creates a Service');
    expect(sent).toEqual([]);
  });
});

describe("--dry-run's deprecated forms (GetDryRunStrategy)", () => {
  // nginxTestState(89_000): virtual 89 s, the article's UTC+8 clock
  it('a bare --dry-run is client, with klog\'s warning first on stderr (the virtual time, kubectl\'s PID, v0.36.2\'s line)', () => {
    const { sent, ctx } = recorder();
    const r = execute('kubectl run web --image=nginx --dry-run -o name', ctx);
    expect(r.stdout).toBe('pod/web\n');
    expect(r.stderr).toMatch(/^W\d{4} \d\d:\d\d:\d\d\.\d{3}000   48213 helpers\.go:719\] --dry-run is deprecated and can be replaced with --dry-run=client\.\n$/);
    expect(sent).toEqual([]);
  });
  it('a Go boolean: true-ish is client, false-ish is none (the request is sent), each with its warning', () => {
    const { sent, ctx } = recorder();
    for (const v of ['1', 't', 'T', 'TRUE', 'true', 'True']) {
      const r = execute(`kubectl delete pod nginx-test --dry-run=${v}`, ctx);
      expect(r.stdout).toBe('pod "nginx-test" deleted from default namespace (dry run)\n');
      expect(r.stderr).toContain(`helpers.go:733] --dry-run=${v} is deprecated (boolean value) and can be replaced with --dry-run=client.\n`);
    }
    expect(sent).toEqual([]);
    const r = execute('kubectl delete pod nginx-test --dry-run=false', ctx);
    expect(r.stderr).toContain('helpers.go:736] --dry-run=false is deprecated (boolean value) and can be replaced with --dry-run=none.\n');
    expect(sent).toEqual([{ type: 'delete', kind: 'Pod', namespace: 'default', name: 'nginx-test' }]);
  });
  it('the warning comes before an error the command then reports; an unknown value is an error without one', () => {
    const { ctx } = recorder();
    const r = execute('kubectl run web --image=nginx --dry-run --restart=Sometimes', ctx);
    expect(r.stderr).toMatch(/helpers\.go:719\] --dry-run is deprecated .*\nerror: invalid restart policy: Sometimes\n/);
    expect(execute('kubectl delete pod x --dry-run=', ctx)).toEqual({ stdout: '', stderr: 'error: Invalid dry-run value (). Must be "none", "server", or "client".\n', exitCode: 1 });
    expect(execute('kubectl delete pod x --dry-run=maybe', ctx).stderr).toBe('error: Invalid dry-run value (maybe). Must be "none", "server", or "client".\n');
    expect(execute('kubectl get pods --dry-run', ctx).stderr).toBe("error: unknown flag: --dry-run\nSee 'kubectl get --help' for usage.\n");
  });
});

describe('kubectl delete', () => {
  it('deletes with the default grace period and says so in v1.36 words', () => {
    const { sent, ctx } = recorder();
    expect(execute('kubectl delete pod nginx-delete', ctx).stdout).toBe('pod "nginx-delete" deleted from default namespace\n');
    expect(sent).toEqual([{ type: 'delete', kind: 'Pod', namespace: 'default', name: 'nginx-delete' }]);
  });
  it('--grace-period=0 alone becomes 1; --force makes it 0 with the warning', () => {
    const { sent, ctx } = recorder();
    execute('kubectl delete pod a --grace-period=0', ctx);
    const forced = execute('kubectl delete pod/b --force', ctx);
    expect(sent.map((a) => (a as { gracePeriodSeconds?: number }).gracePeriodSeconds)).toEqual([1, 0]);
    expect(forced).toMatchObject({
      stdout: 'pod "b" force deleted from default namespace\n',
      stderr: 'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
      exitCode: 0,
    });
    // the warning is written first
    expect(shown(forced)).toBe(forced.stderr + forced.stdout);
    expect(execute('kubectl delete pod c --force --grace-period=5', ctx).stderr).toBe('error: --force and --grace-period greater than 0 cannot be specified together\n');
  });
  it('no arguments, no name, not found', () => {
    const { ctx } = recorder((a) => ({ ok: false, status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `pods "${(a as { name: string }).name}" not found`, reason: 'NotFound', code: 404 } }));
    expect(execute('kubectl delete', ctx).stderr).toMatch(/^error: You must provide one or more resources by argument or filename\.\n/);
    expect(execute('kubectl delete pod', ctx).stderr).toBe('error: resource(s) were provided, but no name was specified\n');
    expect(execute('kubectl delete pod ghost', ctx)).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "ghost" not found\n', exitCode: 1 });
  });
});

describe('kubectl patch', () => {
  it('sends the merge patch that removes finalizers', () => {
    const { sent, ctx } = recorder();
    const r = execute(`kubectl patch pod nginx-test -p '{"metadata":{"finalizers":[]}}' --type=merge`, ctx);
    expect(r.stdout).toBe('pod/nginx-test patched\n');
    expect(sent).toEqual([{ type: 'patch', kind: 'Pod', namespace: 'default', name: 'nginx-test', patchType: 'merge', patch: { metadata: { finalizers: [] } } }]);
  });
  it('"(no change)" when the API server changed nothing', () => {
    const { ctx } = recorder(() => ({ ok: true, object: fixturePod('nginx-test'), unchanged: true }));
    expect(execute(`kubectl patch pod nginx-test -p '{}' --type=merge`, ctx).stdout).toBe('pod/nginx-test patched (no change)\n');
  });
  it('sends --subresource resize to the resize subresource; another subresource is not found', () => {
    const { sent, ctx } = recorder();
    const patch = '{"spec":{"containers":[{"name":"app","resources":{"limits":{"cpu":"800m"}}}]}}';
    expect(execute(`kubectl patch pod nginx-test --subresource resize -p '${patch}'`, ctx).stdout).toBe('pod/nginx-test patched\n');
    expect(sent).toEqual([{ type: 'patch', kind: 'Pod', namespace: 'default', name: 'nginx-test', patchType: 'strategic', patch: JSON.parse(patch), subresource: 'resize' }]);
    const r = execute(`kubectl patch pod nginx-test --subresource=scale -p '{}'`, ctx);
    expect(r.stderr).toBe('Error from server (NotFound): the server could not find the requested resource\n');
    expect(sent).toHaveLength(1);
  });
  it('validates like kubectl', () => {
    const { ctx } = recorder();
    expect(execute('kubectl patch pod x', ctx).stderr).toBe('error: must specify --patch or --patch-file containing the contents of the patch\n');
    expect(execute("kubectl patch pod x -p '{}' --patch-file p.yaml", ctx).stderr).toBe('error: cannot specify --patch and --patch-file together\n');
    // --patch-file reads the console's files; where there are none, it says how to give the patch inline
    expect(execute('kubectl patch pod x --patch-file p.yaml', ctx).stderr).toContain('podlife: --patch-file reads a file, which this console has none of');
    expect(execute('kubectl patch pod x --patch-file p.yaml', { ...ctx, files: {} }).stderr).toBe('error: unable to read patch file: open p.yaml: no such file or directory\n');
    expect(execute('kubectl patch pod x -p {} --type=bogus', ctx).stderr).toBe('error: --type must be one of [json merge strategic], not "bogus"\n');
  });
});

describe('kubectl label, annotate, cordon, uncordon and taint: the patches kubectl computes', () => {
  // the API server's answer: the object as patched (a node for a node patch)
  const answering = () => {
    const state = nginxTestState(89_000);
    const node = state.nodes[0];
    const r = recorder((a) => (a.type === 'patch' && a.kind === 'Node' ? { ok: true, object: node } : { ok: true, object: fixturePod('nginx-test') }) as ApplyResult);
    return { ...r, node };
  };
  it('label: a JSON merge patch of the labels that change; null removes one', () => {
    const { sent, ctx } = answering();
    expect(execute('kubectl label pod nginx-test tier=web run-', ctx).stdout).toBe('pod/nginx-test modified\n');
    expect(sent).toEqual([{ type: 'patch', kind: 'Pod', namespace: 'default', name: 'nginx-test', patchType: 'merge', patch: { metadata: { labels: { tier: 'web', run: null } } } }]);
    // the value it already has: no request at all
    expect(execute('kubectl label pod nginx-test run=nginx-test', ctx).stdout).toBe('pod/nginx-test not labeled\n');
    expect(sent).toHaveLength(1);
    expect(execute('kubectl label pod nginx-test run=other', ctx)).toEqual({ stdout: '', stderr: "error: 'run' already has a value (nginx-test), and --overwrite is false\n", exitCode: 1 });
  });
  it('cordon and uncordon: spec.unschedulable by strategic merge patch, nothing sent when already so', () => {
    const { sent, ctx } = answering();
    expect(execute('kubectl cordon worker01', ctx).stdout).toBe('node/worker01 cordoned\n');
    expect(sent).toEqual([{ type: 'patch', kind: 'Node', name: 'worker01', patchType: 'strategic', patch: { spec: { unschedulable: true } } }]);
    expect(execute('kubectl uncordon worker01', ctx).stdout).toBe('node/worker01 already uncordoned\n');
    expect(sent).toHaveLength(1);
  });
  it('taint: the node\'s whole taint list, new taints first (taint/utils.go reorganizeTaints)', () => {
    const { sent, ctx } = answering();
    expect(execute('kubectl taint node worker01 dedicated=gpu:NoSchedule spot:PreferNoSchedule', ctx).stdout).toBe('node/worker01 tainted\n');
    expect(sent).toEqual([{
      type: 'patch', kind: 'Node', name: 'worker01', patchType: 'strategic',
      patch: { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, { key: 'spot', effect: 'PreferNoSchedule' }] } },
    }]);
    expect(execute('kubectl taint node worker01 a=b:NoSchedule a-', ctx).stderr).toBe('error: can not both modify and remove the following taint(s) in the same command: a=\n');
    expect(execute('kubectl taint node worker01 gone-', ctx).stderr).toBe('error: taint "gone" not found\n');
  });
});

describe('kubectl version', () => {
  const { ctx } = recorder();
  it('prints the client, kustomize and server versions of v1.36.2', () => {
    expect(execute('kubectl version', ctx).stdout).toBe('Client Version: v1.36.2\nKustomize Version: v5.8.1\nServer Version: v1.36.2\n');
    expect(execute('kubectl version --client', ctx).stdout).toBe('Client Version: v1.36.2\nKustomize Version: v5.8.1\n');
  });
  it('validates as kubectl does, and refuses the build details it does not know', () => {
    expect(execute('kubectl version x y', ctx).stderr).toBe('error: extra arguments: [x y]\n');
    expect(execute('kubectl version -o xml', ctx).stderr).toBe("error: --output must be 'yaml' or 'json'\n");
    expect(execute('kubectl version -o json', ctx)).toMatchObject({ stdout: '', exitCode: 1, stderr: expect.stringMatching(/^error: podlife: kubectl version -o json is not supported/) });
  });
});

describe('kubectl apply -f', () => {
  const manifest = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx\n';
  it('creates with the last-applied annotation, from a file or stdin', () => {
    const { sent, ctx } = recorder();
    const r = execute('kubectl apply -f web.yaml', { ...ctx, files: { 'web.yaml': manifest } });
    expect(r.stdout).toBe('pod/web created\n');
    const obj = (sent[0] as { obj: Pod }).obj;
    expect(obj.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBe(
      '{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"name":"web","namespace":"default"},"spec":{"containers":[{"image":"nginx","name":"web"}]}}\n',
    );
  });
  it('missing file and missing -f', () => {
    const { ctx } = recorder();
    expect(execute('kubectl apply -f nope.yaml', ctx).stderr).toBe('error: the path "nope.yaml" does not exist\n');
    expect(execute('kubectl apply', ctx).stderr).toBe('error: must specify one of -f and -k\n');
  });
});

describe('read-only consoles', () => {
  it('say clearly that a recorded moment cannot be changed', () => {
    const r = execute('kubectl delete pod nginx-test', { state: nginxTestState() });
    expect(r).toEqual({ stdout: '', stderr: 'error: podlife: this console shows a recorded moment and cannot change the cluster\n', exitCode: 1 });
  });
});

describe('kubectl logs and flags, as kubectl v1.36 writes them', () => {
  const multi = () => {
    const e = engineWith({ nodes: [{ ...NODE, images: ['busybox:1.36'] }] });
    create(e, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'multi' },
      spec: {
        initContainers: [{ name: 'init1', image: 'busybox:1.36', command: ['sh', '-c', 'echo init'] }],
        containers: [{ name: 'web', image: 'busybox:1.36', command: ['sh', '-c', 'echo a; echo b; sleep 3600'] }, { name: 'side', image: 'busybox:1.36', command: ['sleep', '3600'] }],
      },
    });
    e.advanceTo(30_000);
    return e;
  };
  it('the container kubectl chose is said on stderr before the logs stream (podcmd.FindOrDefaultContainerByName)', () => {
    const r = execute('kubectl logs multi --tail=2', { state: multi().state() });
    expect(shown(r)).toBe('Defaulted container "web" out of: web, side, init1 (init)\na\nb\n');
    expect(r.stdout).toBe('a\nb\n');
  });
  it('a previous container the kubelet has since removed: GetContainerLogs cannot find it', () => {
    const e = engineWith({ nodes: [{ ...NODE, images: ['busybox:1.36'] }] });
    create(e, podManifest('crash', { image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }));
    let t = 0;
    // the first moment the previous instance is gone from the runtime (garbage collection keeps one dead container)
    for (; t < 600_000; t += 1000) {
      e.advanceTo(t);
      const last = pod(e, 'crash')!.status.containerStatuses?.[0]?.lastState.terminated?.containerID;
      if (last && !e.state().runtimes[0].containers.some((c) => `containerd://${c.id}` === last)) break;
    }
    const last = pod(e, 'crash')!.status.containerStatuses![0].lastState.terminated!.containerID;
    expect(execute('kubectl logs crash --previous', { state: e.state() })).toEqual({
      stdout: '', exitCode: 1, stderr: `Error from server (BadRequest): unable to retrieve container logs for ${last}\n`,
    });
  });
  it('--labels names the pair it cannot read; Duration flags are checked as flags, before anything is sent', () => {
    const { ctx, sent } = recorder();
    expect(execute('kubectl run bb --image=busybox --labels=a=b,foo', ctx).stderr).toBe('error: unexpected label spec: foo\n');
    expect(execute('kubectl run bb --image=busybox --labels==v', ctx).stderr).toBe('error: unexpected empty label key\n');
    expect(execute('kubectl logs nginx-test --since=5x', ctx).stderr).toBe(
      'error: invalid argument "5x" for "--since" flag: time: unknown unit "x" in duration "5x"\nSee \'kubectl logs --help\' for usage.\n',
    );
    expect(execute('kubectl delete pod nginx-test --timeout=5x', ctx)).toEqual({
      stdout: '', exitCode: 1,
      stderr: 'error: invalid argument "5x" for "--timeout" flag: time: unknown unit "x" in duration "5x"\nSee \'kubectl delete --help\' for usage.\n',
    });
    expect(sent).toEqual([]);
  });
});
