// Go's text/template as kubectl's -o go-template runs it (src/sim/render/gotemplate.ts). The real kubectl checks
// most of it against `podlife serve` (tests/unit/server/get-forms.test.ts, "-o go-template"); these are the cases it
// cannot check: kubectl's own tests ported from k8s.io/cli-runtime/pkg/printers/template_test.go, what Go changed
// after the local client's Go 1.23, and the command-level wiring (flags, errors, stdout and stderr).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { execute } from '../../../src/sim/commands/execute.ts';
import { GoTemplate, goFloat, printGoTemplate, sprintf, TemplateError } from '../../../src/sim/render/gotemplate.ts';
import { nginxTestState } from './fixtures.ts';

const run = (template: string, data: unknown, allowMissingKeys = true) => printGoTemplate(new GoTemplate(template), template, data, { allowMissingKeys });
const out = (template: string, data: unknown = {}) => {
  const r = run(template, data);
  if (r.error) throw new Error(r.error);
  return r.out;
};

describe('ported: k8s.io/cli-runtime/pkg/printers/template_test.go', () => {
  it('TestGoTemplatePrinter: base64decode decodes a secret value, and reports a bad one', () => {
    expect(out('{{ .data.username | base64decode }}', { data: { username: 'aHVudGVy' } })).toBe('hunter');
    const bad = run('{{ .data.username | base64decode }}', { apiVersion: 'v1', data: { username: '--THIS IS NOT BASE64--' }, kind: 'Secret' });
    expect(bad.error).toContain('base64 decode');
  });
  it("TestGoTemplatePrinter: 'eq' does not fail on numbers (JSON whole numbers are int64, like the constant 1)", () => {
    expect(out('{{ eq .count 1}}', { count: 1 })).toBe('true');
  });
  // the template from hack/update.sh: true only when container "foo" exists and is running
  const tmpl = '{{if (exists . "status" "containerStatuses")}}{{range .status.containerStatuses}}{{if (and (eq .name "foo") (exists . "state" "running"))}}true{{end}}{{end}}{{end}}';
  const running = { running: { startedAt: null } };
  it.each([
    ['nilInfo', {}, 'false'],
    ['emptyInfo', { status: { containerStatuses: [] } }, 'false'],
    ['fooExists', { status: { containerStatuses: [{ name: 'foo' }] } }, 'false'],
    ['barExists', { status: { containerStatuses: [{ name: 'bar' }] } }, 'false'],
    ['bothExist', { status: { containerStatuses: [{ name: 'foo' }, { name: 'bar' }] } }, 'false'],
    ['barValid', { status: { containerStatuses: [{ name: 'foo' }, { name: 'bar', state: running }] } }, 'false'],
    ['bothValid', { status: { containerStatuses: [{ name: 'foo', state: running }, { name: 'bar', state: running }] } }, 'true'],
  ])('TestTemplateStrings %s → %s', (_name, pod, want) => {
    expect(out(tmpl, pod) || 'false').toBe(want);
  });
  it('TestTemplatePanic: a template that fails prints debugging information and returns an error', () => {
    const r = run('{{and ((index .currentState.info "foo").state.running.startedAt) .currentState.info.net.state.running.startedAt}}', { kind: 'Pod' });
    expect(r.error).toMatch(/^error executing template "\{\{and /);
    expect(r.out).toContain('Printing more information for debugging the template:\n\ttemplate was:\n\t\t{{and ');
    expect(r.out).toContain('\traw data was:\n\t\t{"kind":"Pod"}\n\tobject given to template engine was:\n\t\tmap[kind:Pod]\n\n');
  });
  it('TestTemplateSuccess: {{.name}} prints on any object, <no value> where there is none', () => {
    expect(out('{{.name}}', { name: 'pod' })).toBe('pod');
    expect(out('{{.name}}', { apiVersion: 'v1', items: [], kind: 'List' })).toBe('<no value>');
  });
});

describe('what Go changed after the v1.32 client (Go 1.23): kubectl v1.36 is built with a later Go', () => {
  it('ranges over an integer (Go 1.24), and refuses two variables over one', () => {
    expect(out('{{range 3}}{{.}}{{end}}|{{range $i := 2}}{{$i}}{{end}}')).toBe('012|01');
    expect(run('{{range $i, $e := 3}}{{end}}', {}).error).toContain('at <3>: can\'t use 3 to iterate over more than one variable');
  });
  it('names the two types when a comparison cannot be made (Go 1.25, golang/go#71421)', () => {
    expect(run('{{eq .kind 1}}', { kind: 'Pod' }).error).toContain('error calling eq: incompatible types for comparison: string and int');
    expect(run('{{lt .n 1.5}}', { n: 3 }).error).toContain('error calling lt: incompatible types for comparison: int64 and float64');
    // a missing value is compared without complaint: it equals only another missing value
    expect(out('{{eq .nope "x"}} {{eq .nope .other}}')).toBe('false true');
  });
});

describe('values and their printing', () => {
  it('whole numbers read from the object are int64, others float64; the constants are int or float64', () => {
    const data = { a: 3, b: 2.5 };
    expect(out('{{printf "%d %v %T" .a .b 1}}', data)).toBe('3 2.5 int');
    expect(out('{{printf "%d" .b}}', data)).toBe('%!d(float64=2.5)');
    expect(out("{{'a'}} {{0x1F}} {{1e3}} {{-3}} {{1.0}}")).toBe('97 31 1000 -3 1');
  });
  it('a range over an integer gives values of its type: int64 from the object, int from the template, uint8 from a string', () => {
    expect(out('{{range .n}}{{printf "%T" .}} {{end}}|{{range 1}}{{printf "%T" .}}{{end}}|{{range (index .s 0)}}{{printf "%T" .}}{{end}}', { n: 2, s: '\u0001' })).toBe('int64 int64 |int|uint8');
  });
  it.each([
    [1e6, '1e+06'], [123456, '123456'], [1234567, '1.234567e+06'], [0.0001, '0.0001'], [0.00001, '1e-05'], [2.5, '2.5'], [-0.5, '-0.5'],
  ])("Go's %%v of the float64 %s is %s", (f, want) => {
    expect(goFloat(f)).toBe(want);
  });
  it('maps print with sorted keys, lists with spaces, and a nil inside either as <nil>', () => {
    expect(out('{{.}}', { b: [1, 'x', null], a: { z: true, y: null } })).toBe('map[a:map[y:<nil> z:true] b:[1 x <nil>]]');
  });
  it('printf: widths, flags, bad verbs, missing and extra operands', () => {
    expect(sprintf('%5s|%-5s|%05d|%+d|%x|%X|%8.3f|%q|%%', ['ab', 'ab', 42, 7, 255, 255, 3.14159, 'a"b'])).toBe('   ab|ab   |00042|+7|ff|FF|   3.142|"a\\"b"|%');
    expect(sprintf('%s %d', [3])).toBe('%!s(int64=3) %!d(MISSING)');
    expect(sprintf('%s', ['a', 'b'])).toBe('a%!(EXTRA string=b)');
  });
});

describe('templates that would break the engine end as errors, never as a crash', () => {
  it('a template that calls itself stops with Go\'s depth error, at the node it was running', () => {
    const r = run('{{define "T"}}{{template "T" .}}{{end}}{{template "T" .}}', { kind: 'Pod' });
    expect(r.error).toMatch(/: template: output:1:29: executing "output" at <\.>: exceeded maximum template depth \(100000\)$/);
  });
  it('printf with no valid rune or a precision past 100 places prints as fmt does', () => {
    expect(sprintf('%c|%.102f|%.101e', [-1, 0.5, 1.5])).toBe(`\uFFFD|0.5${'0'.repeat(101)}|1.5${'0'.repeat(100)}e+00`);
  });
  it('an escape past the last code point is a syntax error', () => {
    expect(() => new GoTemplate('{{"\\U00110000"}}')).toThrow('template: output:1: invalid syntax');
  });
  it('property: any template of actions either parses or fails with a TemplateError, and its execution ends with output or an error', () => {
    const toks = ['.', '.a', '.b.c', '.items', '.n', '$', '$x', '$x :=', '$i, $e :=', '$x =', '|', '(', ')', '"s"', '"%d %s %v %q %5.2f %x %c %T"', '1', '-2', '1.5', 'nil', 'true', 'len', 'index', 'printf', 'eq', 'lt', 'and', 'or', 'not', 'slice', 'print', 'exists', 'base64decode', 'html', 'js', 'call', '(index .b.c 3)'];
    const heads = ['', '', 'if ', 'range ', 'with ', 'else', 'else if ', 'end', 'break', 'continue', 'template "T" ', 'define "T"', 'block "B" '];
    const action = fc.tuple(fc.constantFrom(...heads), fc.array(fc.constantFrom(...toks), { maxLength: 5 })).map(([h, ts]) => `{{${h}${ts.join(' ')}}}`);
    const data = { a: 1, b: { c: [1, 'x', null, { d: true }] }, n: null, items: [{ a: 1 }, { a: 2 }] };
    fc.assert(
      fc.property(fc.array(fc.oneof(action, action, fc.constantFrom('x', '\n', '{{end}}', '{{else}}')), { maxLength: 12 }), fc.boolean(), (parts, allowMissingKeys) => {
        let t: GoTemplate;
        try {
          t = new GoTemplate(parts.join(''));
        } catch (e) {
          return e instanceof TemplateError && e.message.startsWith('template: output:');
        }
        const r = t.execute(data, { allowMissingKeys });
        return r.error === undefined || (r.error.startsWith('template: output:') && !r.error.includes('caught panic'));
      }),
      { numRuns: 2000, seed: 20261130 },
    );
  });
});

describe('parse errors, as text/template reports them', () => {
  it.each([
    ['{{foo}}', 'template: output:1: function "foo" not defined'],
    ['{{.a', 'template: output:1: unclosed action'],
    ['{{ .a }', 'template: output:1: unexpected "}" in operand'],
    ['{{end}}', 'template: output:1: unexpected {{end}}'],
    ['{{if}}{{end}}', 'template: output:1: missing value for if'],
    ['{{if .a}}x', 'template: output:1: unexpected EOF'],
    ['x\n{{$nope}}', 'template: output:2: undefined variable "$nope"'],
    ['{{break}}', 'template: output:1: {{break}} outside {{range}}'],
    ['{{"abc}}', 'template: output:1: unterminated quoted string'],
  ])('%j → %s', (template, message) => {
    expect(() => new GoTemplate(template)).toThrow(TemplateError);
    expect(() => new GoTemplate(template)).toThrow(message);
  });
});

describe('kubectl -o go-template, --template and --allow-missing-template-keys', () => {
  const ctx = { state: nginxTestState(89_000), apply: () => ({ ok: true as const, object: undefined as never }) };
  it('runs over one named object, and over a List of several', () => {
    expect(execute('kubectl get pod nginx-test -o go-template={{.status.phase}}', ctx)).toMatchObject({ stdout: 'Running', exitCode: 0 });
    const all = execute('kubectl get pods -o \'go-template={{range .items}}{{.metadata.name}}:{{len .spec.containers}}{{"\\n"}}{{end}}\'', ctx);
    expect(all.stdout).toBe('nginx-test:1\n');
  });
  it('--template alone means go-template; -o template is the same printer; -o go-template needs a template', () => {
    expect(execute('kubectl get pod nginx-test --template={{.kind}}', ctx).stdout).toBe('Pod');
    expect(execute('kubectl get pod nginx-test -o go-template --template={{.kind}}', ctx).stdout).toBe('Pod');
    expect(execute('kubectl get pod nginx-test -o template={{.kind}}', ctx).stdout).toBe('Pod');
    expect(execute('kubectl get pod nginx-test -o go-template', ctx).stderr).toBe('error: template format specified but no template given\n');
  });
  it('a parse error is "error parsing template", before anything is printed', () => {
    expect(execute('kubectl get pods -o go-template={{nope}}', ctx)).toMatchObject({
      stdout: '', stderr: 'error: error parsing template {{nope}}, template: output:1: function "nope" not defined\n', exitCode: 1,
    });
  });
  it('an execution error prints what was written and the debugging text on stdout, the error on stderr', () => {
    const r = execute('kubectl get pod nginx-test -o go-template={{.kind}}-{{.metadata.name.x}}', ctx);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^Pod-Error executing template: template: output:1:21: executing "output" at <\.metadata\.name\.x>: can't evaluate field x in type interface \{\}\. Printing more information/);
    expect(r.stderr).toBe('error: error executing template "{{.kind}}-{{.metadata.name.x}}": template: output:1:21: executing "output" at <.metadata.name.x>: can\'t evaluate field x in type interface {}\n');
  });
  it('--allow-missing-template-keys=false makes a missing key an error', () => {
    expect(execute('kubectl get pod nginx-test -o go-template={{.nope}}', ctx).stdout).toBe('<no value>');
    const r = execute('kubectl get pod nginx-test -o go-template={{.nope}} --allow-missing-template-keys=false', ctx);
    expect(r.stderr).toContain('executing "output" at <.nope>: map has no entry for key "nope"');
  });
});
