// The command line around the tools: sh word splitting and quoting, pipes and lists, the errors
// bash prints, and the text filters (grep, head, tail, wc) behaving as GNU coreutils/grep do (jq: jq.test.ts).

import { describe, expect, it } from 'vitest';
import { execute } from '../../../src/sim/commands/execute.ts';
import { parse, shown, tokenize } from '../../../src/sim/commands/shell.ts';
import { grep, head, tail, wc } from '../../../src/sim/commands/filters.ts';
import { nginxTestState } from './fixtures.ts';

const words = (line: string) => tokenize(line).map((t) => t.value);

describe('tokenizer', () => {
  it('splits words and keeps quoted text together, as sh does', () => {
    expect(words(`kubectl run crash-test --image=busybox --command -- sh -c "exit 1"`)).toEqual([
      'kubectl', 'run', 'crash-test', '--image=busybox', '--command', '--', 'sh', '-c', 'exit 1',
    ]);
    expect(words(`kubectl get pod x -o jsonpath='{.status.phase}{"\\n"}'`)).toEqual([
      'kubectl', 'get', 'pod', 'x', '-o', 'jsonpath={.status.phase}{"\\n"}',
    ]);
    expect(words(`a "b\\"c" 'd\\e' f\\ g`)).toEqual(['a', 'b"c', 'd\\e', 'f g']);
    expect(words(`kubectl get pods # a comment`)).toEqual(['kubectl', 'get', 'pods']);
  });
  it('recognises operators only outside quotes', () => {
    expect(tokenize(`grep -E "a|b" | tail -5`).map((t) => `${t.kind}:${t.value}`)).toEqual([
      'word:grep', 'word:-E', 'word:a|b', 'op:|', 'word:tail', 'word:-5',
    ]);
  });
  it('parses pipelines and lists', () => {
    const list = parse('sudo crictl pods | grep nginx && kubectl get pods; echo done');
    expect(list.map((l) => [l.joiner, l.pipeline.map((c) => c.argv[0])])).toEqual([
      [';', ['sudo', 'grep']],
      ['&&', ['kubectl']],
      [';', ['echo']],
    ]);
  });
});

describe('bash errors', () => {
  const state = nginxTestState();
  const run = (line: string) => execute(line, { state });
  it('a <placeholder> is a redirection bash cannot parse', () => {
    expect(run('kubectl describe pod <pod-name>')).toEqual({
      stdout: '', stderr: "bash: syntax error near unexpected token `newline'\n", exitCode: 2,
    });
    expect(run('kubectl describe pod <pod-name> | tail -20').stderr).toBe("bash: syntax error near unexpected token `|'\n");
  });
  it('unknown commands and unterminated quotes', () => {
    expect(run('foo bar')).toEqual({ stdout: '', stderr: 'bash: foo: command not found\n', exitCode: 127 });
    expect(run("kubectl get pod 'x").stderr).toBe("bash: unexpected EOF while looking for matching `''\n");
    expect(run('| grep x').stderr).toBe("bash: syntax error near unexpected token `|'\n");
  });
  it('sudo runs the command; a missing one is sudo\'s error', () => {
    expect(run('sudo kubectl get pod nginx-test').exitCode).toBe(0);
    expect(run('sudo nosuch')).toEqual({ stdout: '', stderr: 'sudo: nosuch: command not found\n', exitCode: 1 });
  });
  it('the exit status of a pipeline is the last command\'s, stderr is not piped', () => {
    const r = run('kubectl get pod missing | wc -l');
    expect(r).toMatchObject({ stdout: '0\n', stderr: 'Error from server (NotFound): pods "missing" not found\n', exitCode: 0 });
    expect(run('kubectl get pod missing 2>&1 | wc -l').stdout).toBe('1\n');
    expect(run('kubectl get pod missing && echo yes').exitCode).toBe(1);
  });
  it('a terminal shows both streams in the order written: commands one after another, 2>&1, warnings first', () => {
    const both = run('kubectl get pod missing; kubectl get pods --no-headers');
    expect(both.stdout).not.toBe('');
    expect(shown(both)).toBe(both.stderr + both.stdout);
    expect(run('kubectl get pod missing 2>&1; kubectl get pods --no-headers').stdout).toBe(both.stderr + both.stdout);
    // stdout then stderr, the default, needs no record
    expect(run('kubectl get pods --no-headers; kubectl get pod missing').writes).toBeUndefined();
    const warned = run('kubectl run x --image=nginx --dry-run -o name');
    expect(shown(warned)).toMatch(/^W\d{4} [\d:.]+ +\d+ helpers\.go:719\] --dry-run is deprecated and can be replaced with --dry-run=client\.\npod\/x\n$/);
  });
});

const text = ['alpha', 'Beta', 'gamma', 'delta', 'epsilon', 'zeta', 'Events:', '  one', '  two', ''].join('\n');

describe('grep', () => {
  it('basic, -i, -v, -c, -n, -w, -o', () => {
    expect(grep(['grep', 'eta'], text).stdout).toBe('Beta\nzeta\n');
    expect(grep(['grep', '-i', 'beta'], text).stdout).toBe('Beta\n');
    expect(grep(['grep', '-vc', 'a'], text).stdout).toBe('4\n');
    expect(grep(['grep', '-n', 'gamma'], text).stdout).toBe('3:gamma\n');
    expect(grep(['grep', '-w', 'one'], text).stdout).toBe('  one\n');
    expect(grep(['grep', '-o', 'e.a'], text).stdout).toBe('eta\neta\n');
  });
  it('-E alternation, and BRE treats | literally unless escaped', () => {
    expect(grep(['grep', '-E', 'alpha|zeta'], text).stdout).toBe('alpha\nzeta\n');
    expect(grep(['grep', 'alpha|zeta'], text).exitCode).toBe(1);
    expect(grep(['grep', 'alpha\\|zeta'], text).stdout).toBe('alpha\nzeta\n');
  });
  it('-A/-B/-C context with -- between groups', () => {
    expect(grep(['grep', '-A1', 'alpha'], text).stdout).toBe('alpha\nBeta\n');
    expect(grep(['grep', '-A', '1', '-e', 'alpha', '-e', 'epsilon'], text).stdout).toBe('alpha\nBeta\n--\nepsilon\nzeta\n');
    expect(grep(['grep', '-B1', 'delta'], text).stdout).toBe('gamma\ndelta\n');
    expect(grep(['grep', '-A5', 'Events'], text).stdout).toBe('Events:\n  one\n  two\n');
  });
  it('exit codes and usage errors as GNU grep', () => {
    expect(grep(['grep', 'nomatch'], text)).toEqual({ stdout: '', stderr: '', exitCode: 1 });
    expect(grep(['grep'], text).exitCode).toBe(2);
    expect(grep(['grep', '-Z', 'x'], text).stderr).toMatch(/^grep: invalid option -- 'Z'\nUsage: grep/);
    expect(grep(['grep', 'x', 'file.txt'], text)).toEqual({ stdout: '', stderr: 'grep: file.txt: No such file or directory\n', exitCode: 2 });
  });
});

describe('head, tail, wc', () => {
  it('count lines from either end', () => {
    expect(head(['head', '-2'], text).stdout).toBe('alpha\nBeta\n');
    expect(head(['head', '-n', '1'], text).stdout).toBe('alpha\n');
    expect(tail(['tail', '-2'], text).stdout).toBe('  one\n  two\n');
    expect(tail(['tail', '-n', '+8'], text).stdout).toBe('  one\n  two\n');
    expect(tail(['tail', '-n', '1'], 'a\nno-newline').stdout).toBe('no-newline');
    expect(tail(['tail', '-n', 'x'], text)).toEqual({ stdout: '', stderr: 'tail: invalid number of lines: ‘x’\n', exitCode: 1 });
  });
  it('wc counts newlines like wc -l', () => {
    expect(wc(['wc', '-l'], text).stdout).toBe('9\n');
    expect(wc(['wc', '-l'], 'Running').stdout).toBe('0\n');
    expect(wc(['wc'], 'a b\n').stdout).toBe('      1       2       4\n');
  });
});
