// podlife's jq against the real one: every program in the table runs through podlife's jq and through
// /usr/bin/jq (1.6 on the build machine) on the same input and flags, and stdout, stderr and the exit
// status must agree byte for byte. Skipped, with the reason, where no jq is installed. Programs that
// jq runs but podlife refuses are asserted on podlife alone, as is the one 1.7 feature accepted.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { execute } from '../../../src/sim/commands/execute.ts';
import { jq } from '../../../src/sim/commands/jq.ts';
import { nginxTestState } from './fixtures.ts';

const JQ = '/usr/bin/jq';
/** The version installed, if any: the table is jq 1.6's behaviour (1.7 words several messages differently). */
const installed = existsSync(JQ) ? spawnSync(JQ, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
/**
 * Debian 12's jq 1.6 (1.6-2.1+deb12u2) reads a three-letter word starting with n as a number, as jq 1.7 does
 * (`nan` is NaN, `nul` an invalid numeric literal); podlife's jq follows it. An older 1.6 build says "Invalid
 * literal" for both, and the comparison is skipped there rather than failed.
 */
const nanIsNumber = installed === 'jq-1.6' && spawnSync(JQ, ['-c', '.'], { input: 'nan\n', encoding: 'utf8' }).stdout === 'null\n';
const available = installed === 'jq-1.6' && nanIsNumber;

function k8sPod(name: string, phase: string, created: string, restarts: number[], extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      creationTimestamp: created,
      labels: { app: name.split('-')[0], 'pod-template-hash': '7d9f' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-08-04T03:31:23Z' },
      managedFields: [{ manager: 'kubectl', operation: 'Update', fieldsV1: { 'f:spec': {} } }],
      ...extra,
    },
    spec: {
      containers: restarts.map((_, i) => ({
        name: i === 0 ? name.split('-')[0] : `sidecar-${i}`,
        image: i === 0 ? 'm.daocloud.io/docker.io/library/nginx:alpine' : 'busybox:1.36',
        ports: i === 0 ? [{ containerPort: 80, protocol: 'TCP' }] : undefined,
        resources: i === 0 ? { limits: { cpu: '500m', memory: '128Mi' } } : {},
      })),
      nodeName: 'worker01',
      restartPolicy: 'Always',
    },
    status: {
      phase,
      conditions: [
        { type: 'PodReadyToStartContainers', status: 'True', lastTransitionTime: created },
        { type: 'Initialized', status: 'True', lastTransitionTime: created },
        { type: 'Ready', status: phase === 'Running' ? 'True' : 'False', lastTransitionTime: created, reason: phase === 'Running' ? undefined : 'ContainersNotReady' },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: created },
      ],
      hostIP: '192.168.114.148',
      podIP: phase === 'Pending' ? undefined : '10.244.5.6',
      startTime: created,
      containerStatuses: phase === 'Pending' ? undefined : restarts.map((r, i) => ({
        name: i === 0 ? name.split('-')[0] : `sidecar-${i}`,
        ready: phase === 'Running',
        restartCount: r,
        state: phase === 'Running' ? { running: { startedAt: created } } : { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } },
        image: 'm.daocloud.io/docker.io/library/nginx:alpine',
        containerID: `containerd://${'f1cfa7813c136'.padEnd(64, String(i))}`,
      })),
    },
  };
}

const pods = [
  k8sPod('nginx-7d9f-abcde', 'Running', '2026-08-04T03:31:23Z', [0]),
  k8sPod('crash-5c8d-xyz12', 'Running', '2026-08-04T03:29:02Z', [6, 0]),
  k8sPod('web-6b7c-qwert', 'Pending', '2026-08-04T03:35:40Z', [0]),
  k8sPod('db-0', 'Failed', '2026-08-03T22:10:00Z', [2], { labels: { app: 'db', tier: 'backend' } }),
];
/** What `kubectl get pods -o json` prints: 4-space indent, a List. */
const LIST = `${JSON.stringify({ apiVersion: 'v1', items: pods, kind: 'List', metadata: { resourceVersion: '' } }, null, 4)}\n`;
const POD = `${JSON.stringify(pods[1], null, 4)}\n`;
const INPUTS: Record<string, string> = {
  list: LIST,
  pod: POD,
  nums: '[3, 1.5, -2, 10, 0, 1e17, 0.00001, 12345678901234567890]\n',
  mixed: '[null, true, false, 0, -1, "b", "a", [], [1], {}, {"a": 1}, {"a": 0, "b": 1}]\n',
  strs: '["a,b, c", "Hello World", "tab\\there", "quote\\"d", "it\'s", "<&>", "é ü", ""]\n',
  stream: '{"a": 1}\n{"a": 2, "b": [1, 2]}\n{"a": null}\n',
  scalars: '1\n"x"\nnull\nfalse\n',
  nested: '{"a": {"b": [1, {"c": 2}], "d": null}, "e": "f"}\n',
  csv: '[[1, "a b", null, true, "x\\"y"], ["tab\\tnew\\nline", 2.5, false, "back\\\\slash", ""]]\n',
  empty: '',
  table: 'NAME   READY   STATUS\nnginx  1/1     Running\n',
  garbage: '{"a": 1} nope\n',
  unfinished: '{"a": 1}\n{"a":\n',
  literals: 'true false nul\n',
  open: '[1,2',
  nonl: '{"a": "x"}',
};

// [flags and program, input]
const TABLE: [string[], string][] = [
  // Kubernetes usages
  [['.items[] | select(.status.phase=="Running") | .metadata.name'], 'list'],
  [['-r', '.items[] | select(.status.phase=="Running") | .metadata.name'], 'list'],
  [['-r', '.items[] | [.metadata.name, .status.phase] | @tsv'], 'list'],
  [['-r', '.items[] | [.metadata.name, .status.phase, .status.podIP] | @csv'], 'list'],
  [['-r', '.status.conditions[] | .type + "=" + .status'], 'pod'],
  [['.spec.containers[] | {name, image}'], 'pod'],
  [['-c', '.spec.containers[] | {name, image}'], 'pod'],
  [['.status.containerStatuses | map(.restartCount) | add'], 'pod'],
  [['[.items[].metadata.name] | length'], 'list'],
  [['-r', '.metadata.labels | to_entries[] | "\\(.key)=\\(.value)"'], 'pod'],
  [['-r', '.items | sort_by(.metadata.creationTimestamp) | .[-1].metadata.name'], 'list'],
  [['-r', '.items[] | select(.status.containerStatuses[]?.restartCount > 0) | .metadata.name'], 'list'],
  [['del(.metadata.managedFields) | .metadata'], 'pod'],
  [['.metadata | keys'], 'pod'],
  [['-r', 'paths | join(".")'], 'pod'],
  [['-r', '[paths | map(tostring) | join(".")] | .[:5][]'], 'pod'],
  [['.items | map({name: .metadata.name, restarts: ([.status.containerStatuses[]?.restartCount] | add // 0)})'], 'list'],
  [['-c', '.items | group_by(.status.phase) | map({phase: .[0].status.phase, count: length})'], 'list'],
  [['-r', '.items[] | "\\(.metadata.name)\\t\\(.status.phase)\\t\\(.status.containerStatuses // [] | length)"'], 'list'],
  [['.items[0].spec.containers[0].resources.limits'], 'list'],
  [['-r', '.items[].status.containerStatuses[]? | select(.state.waiting) | .state.waiting.reason'], 'list'],
  [['-c', '[.items[] | .metadata.labels.app] | unique'], 'list'],
  [['-c', '.items | map(select(.metadata.labels.tier == "backend")) | map(.metadata.name)'], 'list'],
  [['-r', '.items[] | .metadata.name as $n | .spec.containers[] | "\\($n)/\\(.name)"'], 'list'],
  [['-c', 'reduce .items[] as $p ({}; .[$p.status.phase] += 1)'], 'list'],
  [['.items | length'], 'list'],
  [['-r', '.items[] | select(.metadata.name | test("^crash")) | .status.containerStatuses[0].containerID | ltrimstr("containerd://") | .[:13]'], 'list'],
  [['-r', '.items[] | select(.metadata.name | startswith("web")) | .status.conditions[] | select(.type == "Ready") | .status'], 'list'],
  [['-c', '.status.conditions | map(select(.status == "True") | .type)'], 'pod'],
  [['-c', '.status.conditions | map({(.type): .status}) | add'], 'pod'],
  [['-e', '.status.podIP'], 'pod'],
  [['-c', '.items | map(.metadata.name | split("-") | .[0])'], 'list'],
  [['-c', 'with_entries(select(.key | startswith("s")))'], 'pod'],
  [['.spec.containers[0].ports[0].containerPort * 2'], 'pod'],
  [['.metadata.creationTimestamp < "2026-08-05"'], 'pod'],
  [['-S', '.spec.containers[0]'], 'pod'],
  [['--tab', '.metadata.labels'], 'pod'],
  [['--indent', '1', '.metadata.labels'], 'pod'],
  [['--indent', '0', '.metadata.labels'], 'pod'],
  [['-r', '.items[].metadata | "\\(.namespace)/\\(.name)"'], 'list'],
  [['-c', '[.items[] | {(.metadata.name): .status.phase}] | add'], 'list'],
  [['-c', '.items | map(.status.containerStatuses[]?.restartCount) | max, min'], 'list'],
  [['-c', '[.items[] | .status.containerStatuses // [] | length] | @json'], 'list'],
  [['-r', '.items[] | @base64 "\\(.metadata.name)"'], 'list'],
  [['.items[].metadata.name | ascii_upcase'], 'list'],
  [['-c', '.items | map(.metadata.name) | sort | reverse'], 'list'],
  [['-c', '[.items[] | .metadata.labels] | add | keys_unsorted'], 'list'],
  [['-c', '[.items[].status.phase] | map({(.) : 1}) | add'], 'list'],
  [['-c', 'del(.items[] | select(.status.phase != "Running")) | .items | map(.metadata.name)'], 'list'],
  [['-c', '.items[0] | [leaf_paths | join("/")] | .[:4]'], 'list'],
  [['-c', '.items[0].metadata | to_entries | map(.key)'], 'list'],
  [['.items[0].metadata.labels | has("app"), has("nope")'], 'list'],
  [['-c', '.status | .containerStatuses[] |= {name, restartCount}'], 'pod'],
  [['-c', '.metadata.labels.app = "x" | .metadata.labels'], 'pod'],
  [['-c', '.metadata.labels |= with_entries(.value |= ascii_upcase)'], 'pod'],
  [['.metadata | .name, .namespace'], 'pod'],
  [['.spec.containers[1].image'], 'pod'],
  [['-r', '.items[] | select(.status.phase == "Pending" or .status.phase == "Failed") | .metadata.name'], 'list'],
  [['-r', '.items[] | select((.status.phase == "Running") and (.metadata.name | contains("nginx"))) | .metadata.uid'], 'list'],
  [['-j', '.items[].metadata.name, "\\n"'], 'list'],
  [['-s', '-c', 'map(.a)'], 'stream'],
  [['-c', '.'], 'stream'],
  [['-n', '-c', '[1, 2] | map(. * 10)'], 'empty'],
  [['-n', '--arg', 'ns', 'kube-system', '-r', '"namespace=\\($ns)"'], 'empty'],
  [['--argjson', 'min', '1', '-r', '.items[] | select([.status.containerStatuses[]?.restartCount] | add // 0 >= $min) | .metadata.name'], 'list'],
  [['--arg', 'name', 'db-0', '.items[] | select(.metadata.name == $name) | .status.phase'], 'list'],
  [['-rc', '.items[0].metadata.labels'], 'list'],
  // paths, indexes, slices, optional
  [['.'], 'nested'],
  [['..'], 'nested'],
  [['-c', '[..]'], 'nested'],
  [['-c', '[.. | numbers]'], 'nested'],
  [['.a.b[1].c, .a["b"][0], .["e"], ."e", .a."b"[-1]'], 'nested'],
  [['.a.b[5], .x.y.z, .a.b[-5]'], 'nested'],
  [['-c', '.[1:3], .[:2], .[-2:], .[10:], .[2:1], .[1.5:2.5]'], 'nums'],
  [['-c', '.[] | .[1:]?'], 'strs'],
  [['-c', '"abcdef" | .[2:4], .[-2:]'], 'empty'],
  [['.e.x'], 'nested'],
  [['.e.x?'], 'nested'],
  [['-c', '[.[] | .a?]'], 'mixed'],
  [['-c', '[.[][]?], [.[].a?], [.[]?.a?], [(.[] | .a)?], [.[]?[0]?], [.[] | .[1:]?], [.[] | try .a catch "c"]'], 'mixed'],
  [['-c', '.e.x?, (.e | .x)?, .e?.x?, .e.x?.y, [..?]'], 'nested'],
  [['.[]'], 'nums'],
  [['.a[]'], 'nested'],
  [['.a.b[]?.c'], 'nested'],
  [['-c', '(.a.b, .e)[0]?'], 'nested'],
  [['-c', '.a | .b[0], .d'], 'nested'],
  [['-c', '.[.e]?'], 'nested'],
  [['-c', 'try .a.b.c catch "caught: \\(.)"'], 'nested'],
  [['-c', '[.[] | tostring]'], 'mixed'],
  // operators
  [['-c', '[.[] + 1]'], 'nums'],
  [['-c', '[1, null, "a"] | .[0] + null, null + .[2], .[2] + "b"'], 'empty'],
  [['-n', '-c', '[1,2] + [3], {"a":1} + {"b":2, "a":3}, "ab" * 3, "ab" * 0, 3 * "x", "a,b" / ",", [1,2,3,2] - [2]'], 'empty'],
  [['-n', '-c', '{"a":{"b":1,"c":2},"d":1} * {"a":{"b":3},"e":4}'], 'empty'],
  [['-n', '-c', '10 / 4, 10 % 3, -10 % 3, 5.5 % 2, 1 - 3, 2 * 3.5, -(1 + 2), 7 - -2'], 'empty'],
  [['-n', '-c', '[(1,2) + (10,20)], [(1,2) * (3,4)]'], 'empty'],
  [['-n', '-c', '1 == 1.0, "a" < "b", [1] < [1,0], {} > [], null < false, false < true, true < 0, 0 < "", "" < [], [] < {}'], 'empty'],
  [['-n', '-c', '{"a":1,"b":2} == {"b":2,"a":1}, 1 != 2, 2 <= 2, 3 >= 4'], 'empty'],
  [['-c', 'sort'], 'mixed'],
  [['-n', '-c', '[(true,false) and (true,false)], [(true,false) or (true,false)], (null | not), (1 | not)'], 'empty'],
  [['-n', '-c', '[null // 1], [false // empty // 3], [(null, 2, false, 4) // 5], [empty // 6], (error("x") // 7)'], 'empty'],
  [['-n', '-c', '1 // 2 // 3, (null // null // "c")'], 'empty'],
  [['-n', '-c', '[1,2,3] | .[1] = 9, (.[] |= . * 2), (.[0] += 5), (.[2] -= 1), (.[0] *= 3), (.[1] /= 2), (.[2] %= 2)'], 'empty'],
  [['-n', '-c', '{"a":null,"b":1} | .a //= 5 | .b //= 6'], 'empty'],
  [['-n', '-c', '{} | .a.b.c = 1, (.x[2] = true)'], 'empty'],
  [['-n', '-c', '[1,2,3] | map_values(. + 1), (.[1:] = ["x"])'], 'empty'],
  // literals, strings, construction
  [['-n', '-c', '"\\u00e9\\t\\n\\"\\\\\\/", 1.0, 1e3, .5e1, [], {}, [1,[2]], {"a":[{"b":null}]}'], 'empty'],
  [['-n', '-c', '"x\\(1+2)y\\("z")", "\\(1,2)-\\(3,4)", "\\([1])\\({"a":1})\\(null)"'], 'empty'],
  [['-n', '-c', '{a:1, "b c":2, ("d"+"e"):3, "f\\(1)":4, @base64 "g":5}'], 'empty'],
  [['-c', '{a, e, "x"}'], 'nested'],
  [['-n', '-c', '[{a:(1,2), b:(3,4)}], {(("k1","k2")):0}'], 'empty'],
  [['-n', '-c', '1 as $x | 2 as $y | [$x, $y, $x + $y]'], 'empty'],
  [['-n', '-c', '[1,2,3] | . as $a | [.[] | . * $a[0]]'], 'empty'],
  [['-n', '-c', '[(1,2) as $x | ($x, 10) as $y | [$x,$y]]'], 'empty'],
  [['-n', '-c', 'reduce (1,2,3) as $x (0; . + $x), reduce empty as $x (1; 2), [reduce (1,2) as $x (0,10; . + $x)]'], 'empty'],
  [['-n', '-c', 'reduce range(5) as $i ([]; . + [$i * $i])'], 'empty'],
  [['-n', '-c', '[if (true,false) then 1 else 2 end], (if null then 1 elif 0 then 2 else 3 end), (if empty then 1 else 2 end)'], 'empty'],
  [['-n', '-c', 'try error("x") catch ., try error({"a":1}) catch .a, [.[]?], (try (1, error("y"), 3) catch "c")'], 'empty'],
  [['-n', '-c', '[.[]?, 1], [(1,2) | try (if . == 1 then error("e") else . end)]'], 'empty'],
  [['-n', '-c', 'try (try error("in") catch error("out: " + .)) catch .'], 'empty'],
  [['-n', '-c', '[error("x")?], [try error("x")]'], 'empty'],
  // builtins
  [['-c', 'map(length)'], 'mixed'],
  [['-c', '.[] | length'], 'strs'],
  [['-c', '[.[] | utf8bytelength]'], 'strs'],
  [['-c', 'keys, keys_unsorted, values, ([.[]] | length)'], 'nested'],
  [['-c', '.a | has("b"), has("z"), (.b | has(0), has(5))'], 'nested'],
  [['-c', '"a", "z" | in({"a":1})'], 'empty'],
  [['-c', 'map(select(type == "number" and . > 0))'], 'nums'],
  [['-c', 'map(tostring), map(type)'], 'mixed'],
  [['-c', 'to_entries, (to_entries | from_entries), with_entries(.value |= tostring)'], 'nested'],
  [['-n', '-c', '[{"k":"a","v":1},{"name":"b","value":2},{"key":"c","value":null},{"Name":"d","v":4},{"Key":"e","Value":5}] | from_entries'], 'empty'],
  [['-n', '-c', '[[1,2],[3]] | add, ([] | add), (["a","b"] | add), ([{"a":1},{"b":2}] | add)'], 'empty'],
  [['-n', '-c', '[true,false] | any, all, ([] | any, all), ([1,2] | any(. > 1), all(. > 1)), any(1,2; . > 1), all(empty; .)'], 'empty'],
  [['-n', '-c', '[range(5)], [range(2;4)], [range(0;10;3)], [range(5;0;-2)], [range(0,1;3,4)], [range(0;3;0)]'], 'empty'],
  [['-n', '-c', '[1,2,3] | first, last, nth(1), nth(5), first(.[] | select(. > 1)), last(.[]), nth(1; .[]), [limit(2; .[])], [limit(-1; .[])]'], 'empty'],
  [['-c', 'reverse, sort, sort_by(-.), (map({v: .}) | sort_by(.v) | map(.v)), unique, min, max'], 'nums'],
  [['-n', '-c', '[[2,"b"],[1,"a"],[2,"a"],[1,"b"]] | group_by(.[0]), unique_by(.[1]), min_by(.[1]), max_by(.[0]), sort_by(.[0]; .[1])'], 'empty'],
  [['-n', '-c', '[] | min, max, reverse, sort, unique, group_by(.)'], 'empty'],
  [['-n', '-c', '[1,[2,[3,[4]]]] | flatten, flatten(1), flatten(0)'], 'empty'],
  [['-n', '-c', '"1.50", " 12 ", "-3e2", 5 | tonumber'], 'empty'],
  [['-n', '-c', '[1, "1", [1], {"a":"b"}, null, true] | map(tojson), (map(tojson) | map(fromjson))'], 'empty'],
  [['-c', 'map(ascii_downcase), map(ascii_upcase)'], 'strs'],
  [['-n', '-c', '"kube-system" | ltrimstr("kube-"), rtrimstr("system"), ltrimstr("x"), startswith("kube"), endswith("tem"), (1 | ltrimstr("a"))'], 'empty'],
  [['-n', '-c', '"abc" | contains("b"), ({"a":[1,2,"xyz"],"b":1} | contains({"a":["xy"]})), ([1,[2]] | contains([[2]])), ("b" | inside("abc"))'], 'empty'],
  [['-n', '-c', '"a,b,,c" | split(","), split(""), (. / ","), ("" | split(","))'], 'empty'],
  [['-n', '-c', '["a",1,null,true] | join("-"), join(""), ([] | join(",")), (["x"] | join(1))'], 'empty'],
  [['-n', '-c', '"test 123 abc" | test("\\\\d+"), test("ABC"; "i"), test("^x"), [match("[a-z]+"; "g") | .string], (match("(\\\\d)(\\\\d)") | .captures | map(.string))'], 'empty'],
  [['-n', '-c', '"test 123" | capture("(?<word>[a-z]+) (?<num>[0-9]+)"), [scan("[0-9]")], [scan("([a-z])([a-z])")]'], 'empty'],
  [['-n', '-c', '"aXbXc" | sub("X"; "-"), gsub("X"; "-"), gsub("(?<l>[a-c])"; "<\\(.l)>"), sub("x"; "y"; "i")'], 'empty'],
  [['-n', '-c', '"a1b22c" | [splits("[0-9]+")], split("[0-9]+"; null), split("B"; "i")'], 'empty'],
  [['-n', '-c', '"foo bar foo" | [match("foo"; "g") | .offset], (match("(?<x>o+)") | .captures)'], 'empty'],
  [['-n', '-c', '"abcabc" | indices("bc"), index("bc"), rindex("bc"), ([1,2,1,2] | indices(1), indices([1,2]), index(2))'], 'empty'],
  [['-c', '[paths], [leaf_paths], [paths(type == "number")], path(.a.b[0]), [path(..)] | length'], 'nested'],
  [['-c', 'getpath(["a","b",1,"c"]), getpath(["x","y"]), setpath(["a","d"]; 5), delpaths([["a"],["e"]])'], 'nested'],
  [['-c', 'del(.a.b[0]), del(.e), del(.a.b[]), del(.x), del(.a.b[0,1]), del(.. | nulls)'], 'nested'],
  [['-c', '[.[] | numbers], [.[] | strings], [.[] | booleans], [.[] | nulls], [.[] | arrays], [.[] | objects], [.[] | iterables | length], [.[] | scalars]'], 'mixed'],
  [['-c', '[recurse | numbers], [recurse(.a?.b?[]?) | type]'], 'nested'],
  [['-n', '-c', '2 | [recurse(if . < 20 then . * . else empty end)], [recurse(. * .; . < 100)]'], 'empty'],
  [['-n', '-c', '[1,[2]] | walk(if type == "number" then . + 1 else . end), ({"b":1,"a":[2]} | walk(if type == "array" then sort else . end))'], 'empty'],
  [['-n', '-c', '[limit(3; repeat(1))], ([1] | until(length > 3; . + .)), [1 | while(. < 20; . * 3)]'], 'empty'],
  [['-n', '-c', '[limit(5; 1 | repeat(.*2, .+1))], [1 | while(. < 100; .*3, .+50)], ([limit(100000; repeat(1))] | length)'], 'empty'],
  [['-n', '-c', 'isempty(empty), isempty(1, error("x")), ([] | first?), ([3,4] | first)'], 'empty'],
  [['-n', '-c', '"abc" | explode, (explode | implode)'], 'empty'],
  [['-n', '-c', '[3.7, -3.7] | map(floor), map(ceil), map(round), map(fabs), (16 | sqrt), (pow(2; 10)), (100 | log10)'], 'empty'],
  [['-n', '-c', '[infinite, -infinite, nan] | map(tostring), (.[0] | isinfinite), (.[2] | isnan), ([nan, 1] | sort), (nan < nan)'], 'empty'],
  [['-n', '-c', '"x" | format("json"), format("text"), ([1,"a"] | format("csv"))'], 'empty'],
  [['-c', '[paths] | length, ([paths(..)] | length)'], 'pod'],
  [['-c', 'to_entries | map(select(.value | type == "object")) | from_entries | keys'], 'pod'],
  // @formats
  [['-r', '.[] | @csv'], 'csv'],
  [['-r', '.[] | @tsv'], 'csv'],
  [['-r', '.[] | @sh'], 'csv'],
  [['-r', '.[] | @html, @uri, @base64, @json, @text'], 'strs'],
  [['-r', '.[] | @base64 | @base64d'], 'strs'],
  [['-n', '-r', '"aGVsbG8", "aGVsbG8=", "" | @base64d'], 'empty'],
  [['-n', '-r', '@sh "echo \\("it\'s" , "a b")", @uri "https://x/?q=\\("a b&c")", @html "<p>\\("<b>")</p>", @json "v=\\([1,"x"])"'], 'empty'],
  [['-c', '.[] | @sh'], 'scalars'],
  // numbers
  [['-c', '.'], 'nums'],
  [['.'], 'nums'],
  [['-n', '-c', '[1e1000, -1e1000, 0.1 + 0.2, 1/3, 100000000000000000000, 3.0, -0, 1e-7, 0.0001, 123456789012, 1.5e16, 1e16]'], 'empty'],
  [['-n', '-c', '[.[]?] | length, (3 | -.), (-1 | length), ("é" | length)'], 'empty'],
  // flags and exit status
  [['-e', '.a'], 'stream'],
  [['-e', '.b'], 'stream'],
  [['-e', 'empty'], 'stream'],
  [['-e', 'select(.a == 1)'], 'stream'],
  [['-e', '.a == 2'], 'stream'],
  [['-c', '.a + "x"'], 'stream'],
  [['.b[0]'], 'stream'],
  [['-j', '.a'], 'stream'],
  [['-r', '.'], 'scalars'],
  [['-S', '-c', '{"b":{"d":1,"c":2},"a":[{"z":1,"y":2}]}'], 'scalars'],
  [['-R', '.'], 'strs'],
  [['-R', '-s', '.'], 'stream'],
  [['-R', '-r', 'length'], 'stream'],
  [['-n', '.'], 'list'],
  [['-s', 'length'], 'scalars'],
  [['-s', '.'], 'empty'],
  [['.'], 'empty'],
  [['-c', '-M', '.'], 'stream'],
  [[], 'stream'],
  [['.', 'missing.json'], 'stream'],
  [['-x', '.'], 'stream'],
  [['-rx', '.'], 'stream'],
  [['--arg', 'x'], 'stream'],
  [['--argjson', 'x', '{"a'], 'stream'],
  [['--indent', '8', '.'], 'stream'],
  // input that is not JSON
  [['.'], 'table'], [['-c', '.'], 'garbage'], [['-c', '.a'], 'unfinished'], [['-c', '.'], 'literals'], [['-c', '.'], 'open'],
  // runtime errors: message, partial output, exit status
  [['.a.b'], 'scalars'],
  [['.[]'], 'scalars'],
  [['.[0]'], 'nested'],
  [['.a[0]'], 'nested'],
  [['.e.x'], 'nested'],
  [['.e[0]'], 'nested'],
  [['.e[]'], 'nested'],
  [['.e + 1'], 'nested'],
  [['-n', '"abc" - 1'], 'empty'],
  [['-n', '{} * "a"'], 'empty'],
  [['-n', '1 / 0'], 'empty'],
  [['-n', '.x | 1 + 1 / 0'], 'empty'],
  [['-n', '[1,2] | .[0] / 0'], 'empty'],
  [['-n', '1 % 0'], 'empty'],
  [['-n', '"a" / 1'], 'empty'],
  [['-n', '-"a"'], 'empty'],
  [['-n', '"abcdefghijklmnopqrstuvwxyz" | .[]'], 'empty'],
  [['-n', '{"a":"abcdefghijklmnopqrstuvwxyz"} | keys | .[0] + 1 | .x'], 'empty'],
  [['-n', '{"a": [1, 2, 3, 4, 5, 6, 7, 8]} + 1'], 'empty'],
  [['-n', '5 | keys'], 'empty'],
  [['-n', 'true | length'], 'empty'],
  [['-n', '"x" | error'], 'empty'],
  [['-n', 'error({"a":1})'], 'empty'],
  [['-n', '[1] | error'], 'empty'],
  [['-n', '"abc" | tonumber'], 'empty'],
  [['-n', '[1] | tonumber'], 'empty'],
  [['-n', '[1] | has("a")'], 'empty'],
  [['-n', '{} | has(0)'], 'empty'],
  [['-n', '[1,[2]] | join(",")'], 'empty'],
  [['-n', '1 | test("a")'], 'empty'],
  [['-n', '1 | split(",")'], 'empty'],
  [['-n', '1 | startswith("a")'], 'empty'],
  [['-n', '1 | endswith("a")'], 'empty'],
  [['-n', '1 | ascii_downcase'], 'empty'],
  [['-n', '[1] | from_entries'], 'empty'],
  [['-n', '[{"key":null}] | from_entries'], 'empty'],
  [['-n', '1 | to_entries'], 'empty'],
  [['-n', '1 | sort'], 'empty'],
  [['-n', '{} | sort_by(.)'], 'empty'],
  [['-n', '1 | group_by(.)'], 'empty'],
  [['-n', '1 | add'], 'empty'],
  [['-n', '[1] | flatten(-1)'], 'empty'],
  [['-n', '1 | implode'], 'empty'],
  [['-n', '1 | contains("a")'], 'empty'],
  [['-n', '1 | utf8bytelength'], 'empty'],
  [['-n', '1 | min'], 'empty'],
  [['-n', '1 | unique'], 'empty'],
  [['-n', '1 | reverse'], 'empty'],
  [['-n', '"abc" | reverse'], 'empty'],
  [['-n', '[[1]] | @csv'], 'empty'],
  [['-n', '[{}] | @tsv'], 'empty'],
  [['-n', '1 | @csv'], 'empty'],
  [['-n', '1 | @tsv'], 'empty'],
  [['-n', '"!!!" | @base64d'], 'empty'],
  [['-n', '[[1]] | @sh'], 'empty'],
  [['-n', '"x" | @foo'], 'empty'],
  [['-n', '{"a":1} | getpath(["a","b"])'], 'empty'],
  [['-n', '[1] | del(.a)'], 'empty'],
  [['-n', '{"a":1} | path(.a | . + 1)'], 'empty'],
  [['-n', '{"a":1} | .[1:]'], 'empty'],
  [['-n', '[1] | .["a":]'], 'empty'],
  [['-n', '[range("a")]'], 'empty'],
  [['-n', '"abc" | test("a"; "q")'], 'empty'],
  [['-n', '{(1):2}'], 'empty'],
  [['-n', '[{"a":1}] | .[] | {(.a): 1}'], 'empty'],
  [['-n', 'nth(-1; 1, 2)'], 'empty'],
  [['.a + "x"'], 'stream'],
  [['.a.b'], 'nonl'],
  [['-c', '(.a, .b) | tostring | .[0:1] | ascii_downcase | explode | .[0] + "x"'], 'stream'],
  // syntax errors
  [['foo('], 'empty'], [['.a['], 'empty'], [['.['], 'empty'], [['.a |'], 'empty'], [['{a:'], 'empty'], [['(.a'], 'empty'],
  [['.a)'], 'empty'], [['.a]'], 'empty'], [['1 +'], 'empty'], [['"abc'], 'empty'], [['.a b'], 'empty'], [['[1,2'], 'empty'],
  [['}'], 'empty'], [[','], 'empty'], [['.a,,'], 'empty'], [['$'], 'empty'], [['@'], 'empty'], [['.a ='], 'empty'],
  [['foo'], 'empty'], [['.a | bar(1)'], 'empty'], [['{(.a)}'], 'empty'], [['{1:2}'], 'empty'], [['.a..'], 'empty'],
  [['.[1:'], 'empty'], [['. as x | 1'], 'empty'], [['reduce . as $x (0)'], 'empty'], [['.a.[0]'], 'empty'], [['..a'], 'empty'],
  [['.["a"'], 'empty'], [['try'], 'empty'], [['if'], 'empty'], [['1 2'], 'empty'], [['. | | .'], 'empty'], [['"\\(1"'], 'empty'],
  [['"\\q"'], 'empty'], [['&'], 'empty'], [['.a;'], 'empty'], [['!'], 'empty'], [['{a b}'], 'empty'], [['(.a ]'], 'empty'],
  [['[.a }'], 'empty'], [['{a: 1 ]'], 'empty'], [['(.a]'], 'empty'], [['. then 1'], 'empty'], [['end'], 'empty'],
  [['.a and'], 'empty'], [['. == == 1'], 'empty'], [['1 + * 2'], 'empty'], [['@base64 1'], 'empty'], [['.[] as $x'], 'empty'],
  [['. as $x | $y'], 'empty'], [['$undefined'], 'empty'], [['if 1 then 2 else 3'], 'empty'], [['if 1 then 2 elif'], 'empty'],
  [['try 1 catch'], 'empty'], [['[1,2)'], 'empty'], [['{"a":1 "b"}'], 'empty'], [['.a .'], 'empty'], [['. | .a.b.'], 'empty'],
  [['.a | .["b"]x'], 'empty'], [['not(1)'], 'empty'], [['.[1:2:3]'], 'empty'], [['?'], 'empty'], [['{a: 1 + 2}'], 'empty'],
  [['{a: .b // 1}'], 'empty'], [['1 == 1 == 1'], 'empty'], [['ascii'], 'empty'], [['splits'], 'empty'], [['map(.) | foo | bar(1; 2)'], 'empty'],
  [['.a |\n  .b |'], 'empty'], [['if . then .a[1'], 'empty'], [['if . then "\\(1'], 'empty'], [['if . then {a:1'], 'empty'],
  [['if . then {a:1,'], 'empty'], [['try 1 catch {'], 'empty'], [['try (1 | 2 +'], 'empty'], [['[try 1 catch (2'], 'empty'], [['if . then 1'], 'empty'], [['.a\n| foo'], 'empty'], [['if . then (1'], 'empty'], [['.a | if . then [1'], 'empty'],
  // plain identity-ish and edge programs
  [[''], 'nested'], [['-c', '# comment\n.a'], 'nested'], [['-c', '.a?.b?'], 'nested'], [['-c', '.. | .c? // empty'], 'nested'],
  [['-c', '.e as $e | {$e}'], 'nested'], [['-c', '{"a b": 1} | ."a b", .["a b"]'], 'empty'], [['-n', '-c', '{"a":1} | .a as $v | {b: $v}'], 'empty'],
  [['-n', '-c', '[.[]?, (1 | .a?), ("s" | .[0]?)]'], 'empty'], [['-n', '-c', '{"a":{"b":1}} | .a.b |= . + 1 | .a["c"] = 2'], 'empty'],
];

const real = (args: string[], input: string) => {
  const r = spawnSync(JQ, args, { input, encoding: 'utf8', argv0: 'jq' });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status };
};

describe.skipIf(!available)('jq: podlife and jq 1.6 agree byte for byte', () => {
  for (const [args, input] of TABLE) {
    it(`jq ${args.map((a) => JSON.stringify(a)).join(' ')} < ${input}`, () => {
      expect(jq(['jq', ...args], INPUTS[input])).toEqual(real(args, INPUTS[input]));
    });
  }
});

/** A deterministic generator of small programs (paths, pipes, operators, construction, try, builtins). */
function randomPrograms(count: number, seed: number): string[] {
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const pick = <T,>(xs: T[]) => xs[rnd(xs.length)];
  const atoms = ['.', '.a', '.b?', '.[0]', '.[]', '.[]?', '.a.b', '.[1:]', '1', '"x"', 'null', 'true', '[]', '{}', '..', 'length', 'type', 'tostring', '(.a // 3)', 'not', 'tojson', '(keys?)', '(add?)'];
  const gen = (d: number): string => {
    if (d <= 0) return pick(atoms);
    switch (rnd(11)) {
      case 0: return `${gen(d - 1)} | ${gen(d - 1)}`;
      case 1: return `${gen(d - 1)}, ${gen(d - 1)}`;
      case 2: return `(${gen(d - 1)} ${pick(['+', '-', '*', '/', '%', '==', '<', 'and', 'or', '//'])} ${gen(d - 1)})`;
      case 3: return `[${gen(d - 1)}]`;
      case 4: return `{a: (${gen(d - 1)}), "b": (${gen(d - 1)})}`;
      case 5: return `if ${gen(d - 1)} then ${gen(d - 1)} else ${gen(d - 1)} end`;
      case 6: return `try (${gen(d - 1)}) catch .`;
      case 7: return `${pick(['map', 'select', 'sort_by', 'group_by', 'min_by', 'any', 'all', 'with_entries', 'first', 'del', 'path', 'isempty'])}(${gen(d - 1)})`;
      case 8: return `(${gen(d - 1)})?`;
      case 9: return `reduce (${gen(d - 1)}) as $x (0; . + 1)`;
      default: return `(${gen(d - 1)}) as $v | [$v, ${gen(d - 1)}]`;
    }
  };
  return Array.from({ length: count }, () => gen(rnd(3) + 1));
}

describe.skipIf(!available)('jq: random programs agree with jq 1.6', () => {
  const docs = ['{"a": {"b": [1, "x", null]}, "b": 2}\n', '[3, "a", {"a": 1}, [2, 1], null, false]\n', '{"a": [{"b": 1}, {"b": 0}], "c": "x"}\n'];
  it('200 generated programs', () => {
    const programs = randomPrograms(200, 42);
    for (const [i, program] of programs.entries()) {
      const input = docs[i % docs.length];
      const r = spawnSync(JQ, ['-c', program], { input, encoding: 'utf8', argv0: 'jq', timeout: 5000 });
      if (r.status === null) continue; // jq 1.6 itself did not finish
      expect({ program, ...jq(['jq', '-c', program], input) }).toEqual({ program, stdout: r.stdout, stderr: r.stderr, exitCode: r.status });
    }
  });
});

/** A deterministic generator of JSON-ish input texts: valid values, broken ones, and the words and escapes jq's parser checks. */
function randomInputs(count: number, seed: number): string[] {
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const frags = [
    '{', '}', '[', ']', ',', ':', ' ', '\n', '\t', '"a"', '"b', '\\', '"\\u00e9"', '"\\ud83d\\ude00"', '"\\ud800"', '"\\x"', '"\\u12"',
    '1', '-', '2.5', 'e3', '.', '0', '00', '+', '1e400', 'nan', 'NaN', 'null', 'nul', 'true', 'tru', 'false', 'inf', '-inf', 'x', 'n', 'na',
    '"é"', 'é', '"\u0001"', '"\u001f"', '\u001e',
  ];
  return Array.from({ length: count }, () => {
    let t = '';
    for (let j = 1 + rnd(8); j > 0; j--) t += frags[rnd(frags.length)];
    return rnd(2) ? `${t}\n` : t;
  });
}

describe.skipIf(!available)('jq: the JSON input parser agrees with jq 1.6', () => {
  it('600 generated inputs: the values before the first error, then the error with its line and byte column', () => {
    for (const input of randomInputs(600, 7)) {
      expect({ input, ...jq(['jq', '-c', '.'], input) }).toEqual({ input, ...real(['-c', '.'], input) });
    }
  });
});

describe('jq: the JSON input parser, as jq 1.6 (Debian 12) reads it', () => {
  const c = (input: string) => jq(['jq', '-c', '.'], input);
  it('numbers as strtod reads them: nan and NaN are NaN (printed null), infinities are ±DBL_MAX, +1 and .5 are numbers', () => {
    expect(c('nan NaN -nan inf -Infinity +1 .5 1. 1e400 -0\n').stdout).toBe('null\nnull\nnull\n1.7976931348623157e+308\n-1.7976931348623157e+308\n1\n0.5\n1\n1.7976931348623157e+308\n-0\n');
    expect(c('[nan]').stdout).toBe('[null]\n');
  });
  it('a word is checked when the next character ends it: the values before it are printed, then the error', () => {
    expect(c('true nul\n')).toEqual({ stdout: 'true\n', stderr: 'parse error: Invalid numeric literal at line 2, column 0\n', exitCode: 4 });
    expect(c('nulll')).toEqual({ stdout: '', stderr: 'parse error: Invalid literal at EOF at line 1, column 5\n', exitCode: 4 });
    expect(c('[1 2]').stderr).toBe('parse error: Expected separator between values at line 1, column 5\n');
    // a value completed by a character that is itself an error is lost with it
    expect(c('1]')).toEqual({ stdout: '', stderr: "parse error: Unmatched ']' at line 1, column 2\n", exitCode: 4 });
  });
  it('columns count UTF-8 bytes, and a byte order mark at the start is skipped', () => {
    expect(c('["é" 1]').stderr).toBe('parse error: Expected separator between values at line 1, column 8\n');
    expect(c('\ufeff[1]').stdout).toBe('[1]\n');
  });
});

it.runIf(!available)(`skips the comparison with the real jq: /usr/bin/jq is ${installed ? `${installed}, not jq-1.6${installed === 'jq-1.6' ? ' as Debian 12 builds it (1.6-2.1+deb12u2: `nan` is a number)' : ''}` : 'not installed'}`, () => {
  expect(available).toBe(false);
});

const run = (args: string[], input = '') => jq(['jq', ...args], input);
const refusal = (what: string) =>
  `jq: error: podlife's jq does not support "${what}" (it runs paths, pipes, filters such as select/map/sort_by, object and array construction, arithmetic, if/then/else, try, reduce and @formats)\n`;

describe('jq: features podlife refuses by name', () => {
  it.each([
    ['def f: 1; f', 'def'],
    ['label $out | 1', 'label'],
    ['foreach .[] as $x (0; . + $x)', 'foreach'],
    ['now', 'now'],
    ['input', 'input'],
    ['[inputs]', 'inputs'],
    ['env.HOME', 'env'],
    ['$ENV.HOME', '$ENV'],
    ['$__loc__', '$__loc__'],
    ['. as [$a, $b] | $a', 'destructuring (as [$a] / as {$a})'],
    ['. as {a: $a} | $a', 'destructuring (as [$a] / as {$a})'],
    ['.created | fromdate', 'fromdate'],
    ['todate', 'todate'],
    ['strftime("%Y")', 'strftime'],
    ['tostream', 'tostream'],
    ['transpose', 'transpose'],
    ['INDEX(.name)', 'INDEX'],
    ['IN(1, 2)', 'IN'],
    ['@base32', '@base32'],
    ['@base32d', '@base32d'],
    ['input_filename', 'input_filename'],
    ['debug', 'debug'],
    ['halt_error', 'halt_error'],
    ['[.[] | sin]', 'sin'],
    ['import "a" as a; .', 'import'],
    ['first(label $f | 1, break $f)', 'label'],
  ])('%s', (program, what) => {
    expect(run([program], '{}\n')).toEqual({ stdout: '', stderr: refusal(what), exitCode: 3 });
  });
  it('refuses options jq 1.6 has but podlife does not model', () => {
    expect(run(['--stream', '.'], '{}\n')).toEqual({ stdout: '', stderr: "jq: podlife's jq does not support the option --stream\n", exitCode: 2 });
    expect(run(['--slurpfile', 'a', 'f', '.'], '{}\n').exitCode).toBe(2);
  });
});

describe('jq: podlife-only behaviour', () => {
  // moved from commands-shell.test.ts; the runtime error text is now jq 1.6's (was 1.7's `Cannot index array with "n"`)
  const doc = JSON.stringify({ info: { runtimeSpec: { linux: { namespaces: [{ type: 'pid' }, { path: '/proc/1/ns/ipc', type: 'ipc' }] } } }, items: [{ n: 'a' }, { n: 'b' }] }) + '\n';
  it('pretty prints paths like jq', () => {
    expect(run(['.info.runtimeSpec.linux.namespaces'], doc).stdout).toBe(
      '[\n  {\n    "type": "pid"\n  },\n  {\n    "path": "/proc/1/ns/ipc",\n    "type": "ipc"\n  }\n]\n',
    );
    expect(run(['.items[0]'], doc).stdout).toBe('{\n  "n": "a"\n}\n');
    expect(run(['-r', '.items[].n'], doc).stdout).toBe('a\nb\n');
    expect(run(['-c', '.items'], doc).stdout).toBe('[{"n":"a"},{"n":"b"}]\n');
    expect(run(['.items | length'], doc).stdout).toBe('2\n');
    expect(run(['.nope.deeper'], doc).stdout).toBe('null\n');
  });
  it('fails as jq does', () => {
    expect(run(['.items.n'], doc)).toEqual({ stdout: '', stderr: 'jq: error (at <stdin>:1): Cannot index array with string "n"\n', exitCode: 5 });
    expect(run(['.'], 'NAME READY\n')).toEqual({ stdout: '', stderr: 'parse error: Invalid numeric literal at line 1, column 5\n', exitCode: 4 });
    expect(run(['foo('], doc).exitCode).toBe(3);
  });
  it('runs inside a pipeline of the console', () => {
    const r = execute("kubectl get pod nginx-test -o json | jq -r '.status.conditions[] | .type + \"=\" + .status'", { state: nginxTestState() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^PodReadyToStartContainers=True\nInitialized=True\nReady=True\nContainersReady=True\nPodScheduled=True\n$/);
  });
  it("accepts jq 1.7's optional else", () => {
    expect(run(['-c', '[.[] | if . > 1 then "big" end]'], '[1, 2]\n').stdout).toBe('[1,"big"]\n');
  });
  it('stops a program that does not end instead of hanging the page', () => {
    const r = run(['-n', '[repeat(1)] | length']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/^jq: error \(at <unknown>\): podlife stopped this jq program/);
    expect(run(['-n', 'last(range(1e9))']).exitCode).toBe(5);
  });
  it('is deterministic: keys keep input order, output is independent of earlier runs', () => {
    const input = '{"z": 1, "a": {"y": 2, "b": 3}}\n';
    expect(run(['-c', '.'], input)).toEqual(run(['-c', '.'], input));
    expect(run(['-c', 'keys_unsorted, (.a | keys_unsorted)'], input).stdout).toBe('["z","a"]\n["y","b"]\n');
  });
});
