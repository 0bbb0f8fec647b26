// kubectl exec (src/sim/commands/kubectl/exec.ts, src/sim/kubelet/exec.ts): kubectl's checks, the API server's, the
// kubelet's and the runtime's errors, and the command's run in the container. The real kubectl checks the errors raised
// before the request against `podlife serve` (tests/unit/server/get-forms.test.ts, "kubectl exec"); these are the rest.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../src/sim/scenario.ts';
import { formatTranscript, runCommandAt, runScenario, runnable } from '../../../src/sim/run.ts';
import { managedFiles } from '../../../src/sim/kubelet/etcfiles.ts';
import type { Pod } from '../../../src/sim/types.ts';

const load = (name: string) => {
  const file = `content/scenarios/${name}.yaml`;
  return runnable(parseScenario(readFileSync(file, 'utf8'), file));
};
const inline = (yaml: string) => runnable(parseScenario(yaml, 'inline.yaml'));
const podAt = (scenario: ReturnType<typeof load>, at: number, name: string): Pod => {
  const run = runScenario(scenario);
  run.engine.advanceTo(Math.max(at, run.engine.now));
  return run.engine.stateAt(at).pods.find((p) => p.metadata.name === name)!;
};

/** A pod of the given spec (YAML lines under `spec:`) created at 0s, and commands run at the given times. */
const scenario = (spec: string, steps: [string, string][], image = 'm.daocloud.io/docker.io/library/nginx:alpine') => inline(`
title: exec
cluster:
  nodes:
    - name: worker01
      ip: 192.168.114.148
      podCIDR: 10.244.5.0/24
      capacity: {cpu: "4", memory: 8Gi, pods: 110}
      images: [${image}, registry.k8s.io/pause:3.10]
timeline:
  - at: 0s
    apply: |
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
      spec:
${spec.replace(/^/gm, '        ')}
${steps.map(([at, run]) => `  - at: ${at}\n    run: ${JSON.stringify(run)}`).join('\n')}
`);
const NGINX = 'containers:\n- name: web\n  image: m.daocloud.io/docker.io/library/nginx:alpine';
const BUSYBOX = 'm.daocloud.io/docker.io/library/busybox:1.36';
/** What a run-once busybox container `web` (the YAML lines of its spec after its image) logs. */
const logsOf = (container: string): string =>
  runScenario(scenario(`restartPolicy: Never\ncontainers:\n- name: web\n  image: ${BUSYBOX}\n${container}`, [['30s', 'kubectl logs web']], BUSYBOX)).steps[0].stdout;

describe('the files the kubelet and the runtime write for a container', () => {
  it('/etc/hosts names the pod at its IP, as kubectl get -o wide shows it; /etc/resolv.conf searches the namespace first', () => {
    const nginx = load('nginx-test');
    const ip = podAt(nginx, 120_000, 'nginx-test').status.podIP!;
    expect(ip).toMatch(/^10\.244\./);
    const hosts = runCommandAt(nginx, 120_000, 'kubectl exec nginx-test -- cat /etc/hosts');
    expect(hosts.exitCode).toBe(0);
    expect(hosts.stdout.split('\n')).toEqual([
      '# Kubernetes-managed hosts file.', '127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback', 'fe00::0\tip6-localnet',
      'fe00::0\tip6-mcastprefix', 'fe00::1\tip6-allnodes', 'fe00::2\tip6-allrouters', `${ip}\tnginx-test`, '',
    ]);
    expect(runCommandAt(nginx, 120_000, 'kubectl exec nginx-test -- cat /etc/resolv.conf /etc/hostname').stdout).toBe(
      'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\nnginx-test\n',
    );
    expect(runCommandAt(nginx, 120_000, 'kubectl exec nginx-test -- hostname').stdout).toBe('nginx-test\n');
  });

  const pod = (spec: Record<string, unknown>, namespace = 'shop'): Pod => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'db-0', namespace },
    spec: { containers: [{ name: 'db', image: 'redis' }], dnsPolicy: 'ClusterFirst', ...spec },
    status: { phase: 'Running', podIP: '10.244.1.7', podIPs: [{ ip: '10.244.1.7' }] },
  } as unknown as Pod);
  it('a hostname and subdomain give the pod its FQDN; host aliases follow under their header (kubelet_pods.go)', () => {
    const hosts = managedFiles(pod({ hostname: 'db-0', subdomain: 'db', hostAliases: [{ ip: '10.1.2.3', hostnames: ['foo.remote', 'bar.remote'] }] }))!.get('/etc/hosts')!;
    expect(hosts.split('\n').slice(7)).toEqual(['10.244.1.7\tdb-0.db.shop.svc.cluster.local\tdb-0', '', '# Entries added by HostAliases.', '10.1.2.3\tfoo.remote\tbar.remote', '']);
  });
  it('dnsConfig adds servers and searches, and an option replaces the one of its name; dnsPolicy None uses dnsConfig alone', () => {
    const merged = managedFiles(pod({ dnsConfig: { nameservers: ['1.1.1.1'], searches: ['corp.example'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] } }))!;
    expect(merged.get('/etc/resolv.conf')).toBe('search shop.svc.cluster.local svc.cluster.local cluster.local corp.example\nnameserver 10.96.0.10\nnameserver 1.1.1.1\noptions ndots:2 edns0\n');
    const none = managedFiles(pod({ dnsPolicy: 'None', dnsConfig: { nameservers: ['8.8.8.8'] } }))!;
    expect(none.get('/etc/resolv.conf')).toBe('nameserver 8.8.8.8\n');
    // Default: the node's resolv.conf; the host's network: the node's files, none of which the model has
    expect(managedFiles(pod({ dnsPolicy: 'Default' }))!.has('/etc/resolv.conf')).toBe(false);
    expect(managedFiles(pod({ hostNetwork: true }))).toBeUndefined();
  });
});

describe('the kubelet\'s $(VAR) expansion of env, command and args (expansion.Expand)', () => {
  it('the docs\' print-greeting pod: args "$(GREETING) $(NAME)" from its env; $$ is a $, an unknown $(X) stays as written', () => {
    const env = '  env:\n  - name: GREETING\n    value: "Warm greetings to"\n  - name: HONORIFIC\n    value: "The Most Honorable"\n  - name: NAME\n    value: "Kubernetes"\n  - name: FULL\n    value: "$(HONORIFIC) $(NAME)"\n  - name: POD\n    valueFrom:\n      fieldRef:\n        fieldPath: metadata.name';
    expect(logsOf(`${env}\n  command: ["echo"]\n  args: ["$(GREETING) $(FULL) in $(POD) on $(KUBERNETES_SERVICE_HOST), $$(NAME) and $(UNSET)"]`)).toBe(
      'Warm greetings to The Most Honorable Kubernetes in web on 10.96.0.1, $(NAME) and $(UNSET)\n',
    );
  });
});

describe('a container whose own command reads them', () => {
  it('the docs\' hostAliases pod: `cat /etc/hosts` as the command prints the kubelet\'s file with the aliases, and completes', () => {
    const s = scenario(
      `restartPolicy: Never\nhostAliases:\n- ip: "127.0.0.1"\n  hostnames: ["foo.local", "bar.local"]\n- ip: "10.1.2.3"\n  hostnames: ["foo.remote", "bar.remote"]\ncontainers:\n- name: cat-hosts\n  image: ${BUSYBOX}\n  command: [cat]\n  args: [/etc/hosts]`,
      [['30s', 'kubectl logs web'], ['30s', 'kubectl get pod web -o wide']],
      BUSYBOX,
    );
    const [logs, wide] = runScenario(s).steps;
    const ip = wide.stdout.split('\n')[1].split(/\s+/)[5];
    expect(ip).toMatch(/^10\.244\.5\.\d+$/);
    expect(wide.stdout).toContain('Completed');
    expect(logs.stdout.split('\n').slice(7)).toEqual([`${ip}\tweb`, '', '# Entries added by HostAliases.', '127.0.0.1\tfoo.local\tbar.local', '10.1.2.3\tfoo.remote\tbar.remote', '']);
  });
  it('the files exist for test and ls as for cat', () => {
    expect(logsOf('  command: [sh, -c, "test -f /etc/resolv.conf && ls /etc/hosts /etc/hostname"]')).toBe('/etc/hostname\n/etc/hosts\n');
  });
});

describe('the command runs in the container, at the moment kubectl runs', () => {
  it('prints what the command prints; a non-zero exit is "command terminated with exit code N" and kubectl exits N', () => {
    const nginx = load('nginx-test');
    expect(runCommandAt(nginx, 120_000, `kubectl exec nginx-test -- sh -c 'echo hi; exit 3'`)).toEqual({
      stdout: 'hi\n', stderr: 'command terminated with exit code 3\n', exitCode: 3,
    });
    expect(runCommandAt(nginx, 120_000, 'kubectl exec nginx-test -- cat /tmp/nope')).toEqual({
      stdout: '', stderr: "cat: can't open '/tmp/nope': No such file or directory\ncommand terminated with exit code 1\n", exitCode: 1,
    });
    expect(runCommandAt(nginx, 120_000, 'kubectl exec nginx-test -- date').stdout).toMatch(/^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d UTC \d{4}\n$/);
  });

  it('what a command writes stays in the container for the next exec, and ls lists it as busybox does', () => {
    const s = scenario(NGINX, [['10s', 'kubectl exec web -- sh -c "mkdir -p /data/a && touch /tmp/x"'], ['11s', 'kubectl exec web -- ls /tmp /data /tmp/x']]);
    const t = runScenario(s).steps;
    expect(t[0]).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(t[1]).toMatchObject({ stdout: '/tmp/x\n\n/data:\na\n\n/tmp:\nx\n', exitCode: 0 });
  });

  it('a redirection writes into the file: > empties it first, >> appends, cat prints it, rm takes it away; the next exec and a container\'s own script see it', () => {
    const s = scenario(NGINX, [
      ['10s', `kubectl exec web -- sh -c 'echo hi > /tmp/f; echo there >> /tmp/f'`], ['11s', 'kubectl exec web -- cat /tmp/f'],
      ['12s', `kubectl exec web -- sh -c 'echo new > /tmp/f; cat /tmp/f; rm /tmp/f; cat /tmp/f'`],
    ]);
    const t = runScenario(s).steps;
    expect(t[1]).toMatchObject({ stdout: 'hi\nthere\n', exitCode: 0 });
    expect(t[2]).toMatchObject({ stdout: 'new\n', stderr: "cat: can't open '/tmp/f': No such file or directory\ncommand terminated with exit code 1\n", exitCode: 1 });
    expect(logsOf('  command: [sh, -c, "echo ready > /tmp/state; cat /tmp/state"]')).toBe('ready\n');
  });

  it('the shell expands variables from the container\'s environment, $? and ${VAR:-default}, and substitutes $(...)', () => {
    const s = scenario(`${NGINX}\n  env:\n  - name: MODE\n    value: prod`, [
      ['10s', `kubectl exec web -- sh -c 'echo $HOSTNAME $HOME $MODE \${NOPE:-none} $KUBERNETES_SERVICE_HOST; false; echo $?'`],
      ['10s', `kubectl exec web -- sh -c 'echo "[$(hostname)]" $(echo a; echo b); echo '"'"'$MODE'"'"''`],
    ]);
    const [vars, subst] = runScenario(s).steps;
    expect(vars).toMatchObject({ stdout: 'web /root prod none 10.96.0.1\n1\n', exitCode: 0 });
    // quoted, a substitution stays one word; unquoted, its lines become fields; single quotes keep the $ as written
    expect(subst).toMatchObject({ stdout: '[web] a b\n$MODE\n', exitCode: 0 });
  });
  it('NAME=value sets a shell variable; a command inside $(...) the model does not run is refused before anything runs', () => {
    const s = scenario(NGINX, [
      ['10s', `kubectl exec web -- sh -c 'P=/tmp/x; Y="a b"; touch $P; ls $P; echo "$Y"'`],
      ['11s', `kubectl exec web -- sh -c 'touch /tmp/y; echo $(ps)'`],
      ['12s', 'kubectl exec web -- ls /tmp/y'],
    ]);
    const [assigned, refused, after] = runScenario(s).steps;
    expect(assigned).toMatchObject({ stdout: '/tmp/x\na b\n', exitCode: 0 });
    expect(refused.stderr).toMatch(/^podlife: `ps` is not modelled in the container/);
    expect(after.stderr).toBe('ls: /tmp/y: No such file or directory\ncommand terminated with exit code 1\n');
  });

  it('kill 1 stops an nginx container, which the kubelet restarts; PID 1 of a namespace cannot be sent SIGKILL from inside it', () => {
    const restarts = (cmd: string) => {
      const s = scenario(NGINX, [['10s', cmd]]);
      return podAt(s, 60_000, 'web').status.containerStatuses![0].restartCount;
    };
    expect(restarts('kubectl exec web -- kill 1')).toBe(1);
    expect(restarts('kubectl exec web -- nginx -s quit')).toBe(1);
    expect(restarts('kubectl exec web -- kill -9 1')).toBe(0);
    expect(restarts('kubectl exec web -- hostname')).toBe(0);
  });

  it('-it with no terminal says so and runs the shell on an empty stdin; -q keeps it quiet', () => {
    const nginx = load('nginx-test');
    expect(runCommandAt(nginx, 120_000, 'kubectl exec -it nginx-test -- sh')).toEqual({
      stdout: '', stderr: 'Unable to use a TTY - input is not a terminal or the right kind of file\n', exitCode: 0,
    });
    expect(runCommandAt(nginx, 120_000, 'kubectl exec -itq nginx-test -- sh')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('a binary the pause image lacks fails in runc, wrapped by the runtime and the API server (the same exec ID for the same seed)', () => {
    const s = scenario('containers:\n- name: web\n  image: registry.k8s.io/pause:3.10', [['10s', 'kubectl exec web -- sh']], 'registry.k8s.io/pause:3.10');
    const r = runScenario(s).steps[0];
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: Internal error occurred: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "sh": executable file not found in \$PATH: unknown\n$/);
    expect(runScenario(s).steps[0].stderr).toBe(r.stderr);
  });

  it('a transcript with exec is the same bytes run after run', () => {
    const s = scenario(NGINX, [['10s', 'kubectl exec web -- cat /etc/hosts'], ['12s', 'kubectl exec web -- kill 1'], ['40s', 'kubectl get pod web']]);
    expect(formatTranscript(runScenario(s))).toBe(formatTranscript(runScenario(s)));
  });
});

describe('the errors on the way, each where the real cluster raises it', () => {
  it('the pod is not running a container yet, or no longer: the kubelet finds none ("container not found")', () => {
    expect(runCommandAt(load('crash-loop'), 300_000, 'kubectl exec crash-test -- ls /tmp')).toEqual({
      stdout: '', stderr: 'error: Internal error occurred: unable to upgrade connection: container not found ("crash-test")\n', exitCode: 1,
    });
    // init containers still running: the app container does not exist; the init container does, and says which it defaulted from
    const init = load('init-containers');
    expect(runCommandAt(init, 5000, 'kubectl exec with-init -- hostname').stderr).toBe(
      'Defaulted container "web" out of: web, wait-db (init), migrate (init)\nerror: Internal error occurred: unable to upgrade connection: container not found ("web")\n',
    );
    expect(runCommandAt(init, 5000, 'kubectl exec with-init -c wait-db -- hostname')).toEqual({ stdout: 'with-init\n', stderr: '', exitCode: 0 });
  });
  it('a pod not yet scheduled has no node to send the request to (the API server\'s BadRequest)', () => {
    expect(runCommandAt(load('unschedulable'), 30_000, 'kubectl exec big -- ls /tmp')).toEqual({
      stdout: '', stderr: 'Error from server (BadRequest): pod big does not have a host assigned\n', exitCode: 1,
    });
  });
  it('kubectl v1.36 checks -c against the pod before sending anything', () => {
    expect(runCommandAt(load('init-containers'), 30_000, 'kubectl exec with-init -c nope -- ls')).toEqual({
      stdout: '', stderr: 'error: container nope is not valid for pod with-init out of: web, wait-db (init), migrate (init)\n', exitCode: 1,
    });
  });
});

describe('what the model does not know is refused by name, and changes nothing', () => {
  it.each([
    ['ps aux', /^podlife: `ps` is not modelled in the container; kubectl exec runs sh -c scripts and true, false, exit, echo/],
    ['sh -c "touch /tmp/a; env"', /^podlife: the image's environment is not modelled \(`env`\)/],
    ['sleep 5', /^podlife: `sleep 5` would take virtual time/],
    ['ls /etc', /^podlife: the image's own files are not modelled \(`ls \/etc`\)/],
    ['ls', /^podlife: the image's own files are not modelled \(`ls`\)/],
    ['cat /etc/nginx/nginx.conf', /^podlife: the image's own files are not modelled/],
    // a long listing or the hidden entries would print what the model does not have (ls -1 is the plain listing)
    ['sh -c "touch /tmp/a; ls -la /tmp"', /^podlife: `ls -la \/tmp`: ls here lists names only/],
    ['ls -l /var/run/secrets/kubernetes.io/serviceaccount', /^podlife: `ls -l \/var\/run\/secrets\/kubernetes.io\/serviceaccount`: ls here lists names only; the model has no file modes/],
  ])('kubectl exec web -- %s', (command, message) => {
    const s = scenario(NGINX, [['10s', `kubectl exec web -- ${command}`], ['11s', 'kubectl exec web -- ls /tmp/a']]);
    const [refusal, after] = runScenario(s).steps;
    expect(refusal.exitCode).toBe(1);
    expect(refusal.stderr).toMatch(message);
    // a script refused before it ran left no file behind
    expect(after.stderr).toContain("ls: /tmp/a: No such file or directory");
  });
  it('a pod on the host network reads the node\'s /etc/hosts, which the model does not have', () => {
    const s = scenario(`hostNetwork: true\n${NGINX}`, [['10s', 'kubectl exec web -- cat /etc/hosts']]);
    expect(runScenario(s).steps[0].stderr).toBe("podlife: this container's /etc/hosts is the node's (the pod is on the host's network), which the model does not have\n");
  });
});

describe('files a command changes: rm as busybox has it, and the read-only volumes', () => {
  it('rm: a missing file fails unless -f, a directory needs -r, and -r takes what is in it', () => {
    const s = scenario(NGINX, [['10s', `kubectl exec web -- sh -c "rm /tmp/nope; echo $?; rm -f /tmp/nope; echo $?; mkdir /tmp/d; touch /tmp/d/a; rm /tmp/d; echo $?; rm -r /tmp/d; ls /tmp/d"`]]);
    expect(runScenario(s).steps[0]).toMatchObject({
      stdout: '1\n0\n1\n',
      stderr: "rm: can't remove '/tmp/nope': No such file or directory\nrm: can't remove '/tmp/d': Is a directory\nls: /tmp/d: No such file or directory\ncommand terminated with exit code 1\n",
      exitCode: 1,
    });
  });
  it.each([
    ['touch /etc/app/new', 'touch: /etc/app/new: Read-only file system'],
    ['mkdir /etc/app/d', "mkdir: can't create directory '/etc/app/d': Read-only file system"],
    ['rm /etc/app/APP_MODE', "rm: can't remove '/etc/app/APP_MODE': Read-only file system"],
    ['sh -c "echo prod > /etc/app/APP_MODE"', "sh: can't create /etc/app/APP_MODE: Read-only file system"],
    ['rm /etc/app-mode', "rm: can't remove '/etc/app-mode': Read-only file system"],
    ['rm /var/run/secrets/kubernetes.io/serviceaccount/namespace', "rm: can't remove '/var/run/secrets/kubernetes.io/serviceaccount/namespace': Read-only file system"],
  ])('a ConfigMap volume, its subPath file and the service account volume are read-only: %s', (command, error) => {
    const s = load('configmap-update');
    expect(runCommandAt(s, 30_000, `kubectl exec web -- ${command}`)).toEqual({ stdout: '', stderr: `${error}\ncommand terminated with exit code 1\n`, exitCode: 1 });
    expect(runCommandAt(s, 30_000, 'kubectl exec web -- cat /etc/app/APP_MODE').stdout).toBe('demo\n');
  });
});

describe('the service account token the kubelet mounts (token_manager.go, TokenRequest, serviceaccount/claims.go)', () => {
  const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.trim().split('.')[1], 'base64url').toString('utf8'));
  it('a JWT bound to the pod and its node, extended to a year with the requested 3607 s as warnafter, renewed after 80% of them', () => {
    const s = load('nginx-test');
    const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
    expect(runCommandAt(s, 60_000, `kubectl exec nginx-test -- ls ${dir}`).stdout).toBe('ca.crt\nnamespace\ntoken\n');
    const run = runScenario(s);
    const pod = run.engine.state().pods.find((p) => p.metadata.name === 'nginx-test')!;
    const node = run.engine.state().nodes[0];
    const token = runCommandAt(s, 60_000, `kubectl exec nginx-test -- cat ${dir}/token`).stdout;
    const [header, , signature] = token.trim().split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'RS256' });
    expect(Buffer.from(signature, 'base64url').length).toBe(256);
    const c = claimsOf(token);
    const started = Date.parse(pod.status.startTime!) / 1000;
    expect(c).toEqual({
      aud: ['https://kubernetes.default.svc.cluster.local'], iss: 'https://kubernetes.default.svc.cluster.local',
      iat: started, nbf: started, exp: started + 365 * 24 * 3600, jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      'kubernetes.io': {
        namespace: 'default', node: { name: 'worker01', uid: node.metadata.uid }, pod: { name: 'nginx-test', uid: pod.metadata.uid },
        serviceaccount: { name: 'default', uid: expect.stringMatching(/^[0-9a-f-]{36}$/) }, warnafter: started + 3607,
      },
      sub: 'system:serviceaccount:default:default',
    });
    // the same token until 80% of 3607 s have passed, then a new one issued then
    expect(runCommandAt(s, 2_800_000, `kubectl exec nginx-test -- cat ${dir}/token`).stdout).toBe(token);
    const renewed = claimsOf(runCommandAt(s, 2_900_000, `kubectl exec nginx-test -- cat ${dir}/token`).stdout);
    expect([renewed.iat - started, renewed.jti === c.jti]).toEqual([Math.floor(0.8 * 3607), false]);
  });
});

describe('the environment a command sees: printenv, env, export', () => {
  // the Kubernetes docs' dapi-envars-fieldref example (inject-data-application/environment-variable-expose-pod-information)
  const FIELDREFS = `restartPolicy: Always\ncontainers:\n- name: web\n  image: ${BUSYBOX}\n  command: [sh, -c]\n  args: ["while true; do echo -en '\\\\n'; printenv MY_NODE_NAME MY_POD_NAME MY_POD_NAMESPACE; printenv MY_POD_IP MY_POD_SERVICE_ACCOUNT; sleep 10; done;"]\n  env:\n${
    [['MY_NODE_NAME', 'spec.nodeName'], ['MY_POD_NAME', 'metadata.name'], ['MY_POD_NAMESPACE', 'metadata.namespace'], ['MY_POD_IP', 'status.podIP'], ['MY_POD_SERVICE_ACCOUNT', 'spec.serviceAccountName']]
      .map(([n, f]) => `  - name: ${n}\n    valueFrom: {fieldRef: {fieldPath: ${f}}}`).join('\n')}`;

  it('the docs example prints each field every 10 s, the pod IP from the first run (the kubelet has the sandbox\'s)', () => {
    const run = runScenario(scenario(FIELDREFS, [['25s', 'kubectl logs web'], ['25s', 'kubectl get pod web -o jsonpath={.status.podIP}']], BUSYBOX));
    const ip = run.steps[1].stdout;
    expect(ip).toMatch(/^10\.244\.5\.\d+$/);
    const block = ['', 'worker01', 'web', 'default', ip, 'default'];
    expect(run.steps[0].stdout).toBe(`${[...block, ...block, ...block].join('\n')}\n`);
  });

  it('printenv with no name and env print it all, PATH and HOSTNAME first and HOME last; a name it lacks is status 1', () => {
    const s = scenario(FIELDREFS, [['15s', 'kubectl exec web -- printenv'], ['15s', 'kubectl exec web -- env'], ['15s', 'kubectl exec web -- printenv MY_POD_NAME NOPE']], BUSYBOX);
    const [all, env, some] = runScenario(s).steps;
    const lines = all.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
    expect(lines[1]).toBe('HOSTNAME=web');
    expect(lines).toContain('KUBERNETES_SERVICE_HOST=10.96.0.1');
    expect(lines).toContain('MY_NODE_NAME=worker01');
    expect(lines.at(-1)).toBe('HOME=/root');
    expect(env.stdout).toBe(all.stdout);
    expect(some).toMatchObject({ stdout: 'web\n', exitCode: 1 });
  });

  it('export and an assignment before the command reach printenv; a plain assignment does not', () => {
    expect(logsOf(`  command: [sh, -c, "export A=1; B=2 printenv A B; C=3; printenv C || echo unset; echo -e 'x\\\\ty'"]`)).toBe('1\n2\nunset\nx\ty\n');
  });

  it('an image whose environment the model does not have whole: kubectl exec refuses env, and printenv of a name it lacks', () => {
    const s = scenario(NGINX, [['10s', 'kubectl exec web -- env'], ['10s', 'kubectl exec web -- printenv NGINX_VERSION'], ['10s', 'kubectl exec web -- printenv HOSTNAME']]);
    const [env, version, hostname] = runScenario(s).steps;
    expect(env.stderr).toMatch(/^podlife: the image's environment is not modelled \(`env`\)/);
    expect(version.stderr).toMatch(/^podlife: the image's environment is not modelled \(`printenv NGINX_VERSION`\)/);
    expect(hostname).toMatchObject({ stdout: 'web\n', exitCode: 0 });
    // env running a command is refused in any image, before anything runs
    const busybox = runScenario(scenario(`containers:\n- name: web\n  image: ${BUSYBOX}\n  command: [sleep, '3600']`, [['10s', 'kubectl exec web -- env A=1 touch /tmp/x'], ['10s', 'kubectl exec web -- ls /tmp/x']], BUSYBOX)).steps;
    expect(busybox[0].stderr).toBe('podlife: `env A=1 touch /tmp/x`: env with a command to run is not modelled; kubectl exec runs the command itself, or sh -c "NAME=value command"\n');
    expect(busybox[1].stderr).toContain('ls: /tmp/x: No such file or directory');
  });
});
