// The layout engines under every printer: Go's text/tabwriter, go-yaml v2 (kubectl -o yaml), Go's
// encoding/json (kubectl -o json), and kubectl's JSONPath (cases ported from client-go's
// util/jsonpath/jsonpath_test.go TestKubernetes and TestTypesInput).

import { describe, expect, it } from 'vitest';
import { CRICTL_TABLE, KUBECTL_DESCRIBE, KUBECTL_TABLE, TabWriter, tabulate } from '../../../src/sim/render/tabwriter.ts';
import { toYaml, yamlKeyLess } from '../../../src/sim/render/yaml.ts';
import { goJson } from '../../../src/sim/render/json.ts';
import { JsonPath, relaxedJsonPathExpression } from '../../../src/sim/render/jsonpath.ts';

describe('text/tabwriter', () => {
  it('pads every column but the last to the widest cell plus padding, at least minwidth', () => {
    const out = tabulate([['NAME', 'READY', 'STATUS'], ['nginx', '0/1', 'ContainerCreating']], KUBECTL_TABLE);
    expect(out).toBe('NAME    READY   STATUS\nnginx   0/1     ContainerCreating\n');
  });
  it('crictl columns are at least 20 wide', () => {
    expect(tabulate([['POD ID', 'STATE'], ['5bf1e11f42767', 'Ready']], CRICTL_TABLE)).toBe(
      'POD ID              STATE\n5bf1e11f42767       Ready\n',
    );
  });
  it('a line without a tab ends the column block (describe aligns in sections)', () => {
    const w = new TabWriter(KUBECTL_DESCRIBE);
    w.write('Name:\tnginx\nService Account:\tdefault\nIPs:\n  IP:\t10.244.5.6\n');
    expect(w.flush()).toBe('Name:             nginx\nService Account:  default\nIPs:\n  IP:  10.244.5.6\n');
  });
  it('a trailing tab-terminated cell is padded (describe conditions keep a trailing space)', () => {
    const w = new TabWriter(KUBECTL_DESCRIBE);
    w.write('  Type\tStatus\n  Ready \tTrue \n');
    expect(w.flush()).toBe('  Type    Status\n  Ready   True \n');
  });
});

describe('kubectl -o yaml (go-yaml v2)', () => {
  it('sorts keys, does not indent lists under their key, and quotes what would not read back as a string', () => {
    expect(
      toYaml({
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }] },
        metadata: { resourceVersion: '12345', creationTimestamp: '2026-08-04T03:32:36Z', name: 'nginx' },
        apiVersion: 'v1',
        spec: { containers: [{ resources: {}, args: [], name: 'a' }], nodeName: '' },
      }),
    ).toBe(
      [
        'apiVersion: v1',
        'metadata:',
        '  creationTimestamp: "2026-08-04T03:32:36Z"',
        '  name: nginx',
        '  resourceVersion: "12345"',
        'spec:',
        '  containers:',
        '  - args: []',
        '    name: a',
        '    resources: {}',
        '  nodeName: ""',
        'status:',
        '  conditions:',
        '  - lastProbeTime: null',
        '    status: "True"',
        '    type: Ready',
        '  phase: Running',
        '',
      ].join('\n'),
    );
  });
  it('chooses the scalar style go-yaml chooses', () => {
    const y = (v: string) => toYaml({ k: v }).slice(3, -1);
    expect(y('a: b')).toBe("'a: b'");
    expect(y('a #b')).toBe("'a #b'");
    expect(y('- x')).toBe("'- x'");
    expect(y(' leading')).toBe("' leading'");
    expect(y('yes')).toBe('"yes"');
    expect(y('0123')).toBe('"0123"');
    expect(y('1e3')).toBe('"1e3"');
    expect(y('2026-08-04')).toBe('"2026-08-04"');
    expect(y('a\tb')).toBe('"a\\tb"');
    expect(y("it's")).toBe("it's");
    expect(y('{"x":1}')).toBe('\'{"x":1}\'');
    expect(y('line1\nline2')).toBe('|-\n  line1\n  line2');
    expect(y('<none>')).toBe('<none>');
  });
  it('folds long values at 80 columns, continuing two spaces deeper', () => {
    const msg = `containers with unready status: [${Array(7).fill('crash-test').join(' ')}]`;
    expect(toYaml({ status: { message: msg } })).toBe(
      "status:\n  message: 'containers with unready status: [crash-test crash-test crash-test crash-test\n    crash-test crash-test crash-test]'\n",
    );
  });
  it("orders keys as go-yaml's keyList does (digit runs numerically, non-letters first)", () => {
    expect(yamlKeyLess('a2', 'a10')).toBe(true);
    expect(yamlKeyLess('podIP', 'podIPs')).toBe(true);
    expect(yamlKeyLess('_x', 'Ax')).toBe(true);
  });
});

describe('kubectl -o json (encoding/json)', () => {
  it('sorts keys, indents by four spaces and escapes <, > and &', () => {
    expect(goJson({ b: [1, {}], a: '<none> & more' }, '    ')).toBe(
      '{\n    "a": "\\u003cnone\\u003e \\u0026 more",\n    "b": [\n        1,\n        {}\n    ]\n}',
    );
  });
});

describe('JSONPath (client-go jsonpath_test.go)', () => {
  const nodes = {
    kind: 'List',
    items: [
      { kind: 'None', metadata: { name: '127.0.0.1', labels: { 'kubernetes.io/hostname': '127.0.0.1' } }, status: { capacity: { cpu: '4' }, ready: true, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.1' }] } },
      { kind: 'None', metadata: { name: '127.0.0.2', labels: { 'kubernetes.io/hostname': '127.0.0.2' } }, status: { capacity: { cpu: '8' }, ready: false, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.2' }, { type: 'another', address: '127.0.0.3' }] } },
    ],
    users: [{ name: 'myself', user: {} }, { name: 'e2e', user: { username: 'admin', password: 'secret' } }],
  };
  const kubernetes: [string, string, string][] = [
    ['range item', '{range .items[*]}{.metadata.name}, {end}{.kind}', '127.0.0.1, 127.0.0.2, List'],
    ['range item with quote', '{range .items[*]}{.metadata.name}{"\\t"}{end}', '127.0.0.1\t127.0.0.2\t'],
    ['range addresss', '{.items[*].status.addresses[*].address}', '127.0.0.1 127.0.0.2 127.0.0.3'],
    ['double range', '{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}', '127.0.0.1, 127.0.0.2, 127.0.0.3, '],
    ['item name', '{.items[*].metadata.name}', '127.0.0.1 127.0.0.2'],
    ['union nodes capacity', "{.items[*]['metadata.name', 'status.capacity']}", '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}'],
    ['range nodes capacity', '{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}', '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] '],
    ['user password', '{.users[?(@.name=="e2e")].user.password}', 'secret'],
    ['hostname', '{.items[0].metadata.labels.kubernetes\\.io/hostname}', '127.0.0.1'],
    ['hostname filter', '{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}', 'None'],
    ['bool item', '{.items[?(@..ready==true)].metadata.name}', '127.0.0.1'],
  ];
  it.each(kubernetes)('TestKubernetes: %s', (_n, template, want) => {
    expect(new JsonPath(template).execute(nodes)).toBe(want);
  });

  const types = { bools: [true, false, true, false], integers: [1, 2, 3, 4], floats: [1.0, 2.2, 3.3, 4.0], maps: [{ name: 'one', value: 1 }, { name: 'two', value: 2.02 }, { name: 'three', value: 3.03 }, { name: 'four', value: 4.04 }] };
  const slices: [string, string][] = [
    ['{ .bools }', '[true,false,true,false]'], ['{ .bools[-1] }', 'false'], ['{ .bools[0:2] }', 'true false'],
    ['{ .bools[:4:2] }', 'true true'], ['{ .integers[-2] }', '3'], ['{ .floats }', '[1,2.2,3.3,4]'],
    ['{ .floats[:4:2] }', '1 3.3'], ['{ .maps[-2] }', '{"name":"three","value":3.03}'],
    ['{ .maps[1::2] }', '{"name":"two","value":2.02} {"name":"four","value":4.04}'],
  ];
  it.each(slices)('TestTypesInput: %s', (template, want) => expect(new JsonPath(template).execute(types)).toBe(want));

  it('filters, plain text and quotes (TestStructInput)', () => {
    expect(new JsonPath('hello jsonpath').execute(null)).toBe('hello jsonpath');
    expect(new JsonPath('{[?(@<5)]}').execute([2, 6, 3, 7])).toBe('2 3');
    expect(new JsonPath('{"{"}').execute(null)).toBe('{');
    expect(new JsonPath('{[1,3,4]}').execute([0, 1, 2, 3, 4])).toBe('1 3 4');
  });
  it('reports the parser errors kubectl shows', () => {
    expect(() => new JsonPath('{.x')).toThrow('unclosed action');
    expect(() => new JsonPath('{.a[}')).toThrow('unterminated array');
    expect(() => new JsonPath('{end}').execute({})).toThrow('not in range, nothing to end');
    expect(() => new JsonPath('{.a[3]}').execute({ a: [1] })).toThrow('array index out of bounds: index 3, length 1');
    expect(() => new JsonPath('{.missing}').execute({})).toThrow('missing is not found');
    expect(new JsonPath('{.missing}', { allowMissingKeys: true }).execute({})).toBe('');
  });
  it('relaxes --sort-by paths as kubectl does', () => {
    expect(relaxedJsonPathExpression('.lastTimestamp')).toBe('{.lastTimestamp}');
    expect(relaxedJsonPathExpression('metadata.name')).toBe('{.metadata.name}');
    expect(relaxedJsonPathExpression('{.metadata.name}')).toBe('{.metadata.name}');
  });
});
