// The process model: what a container's command does over virtual time, and how PID 1 takes signals.
import { describe, expect, it } from 'vitest';
import { EventLoop } from '../../../src/sim/core/loop.ts';
import { Process, programFor, type Signal } from '../../../src/sim/runtime/process.ts';
import { SERVICES, UNKNOWN_SERVICE, containerArgv, imageDefaults } from '../../../src/sim/runtime/catalog.ts';
import { parseShell, ShellSyntaxError } from '../../../src/sim/runtime/shell.ts';
import * as redirect from '../../../src/sim/runtime/redirect.ts';
import { arith } from '../../../src/sim/runtime/arith.ts';

function runArgv(argv: string[], signals: [number, Signal][] = [], until = 100_000) {
  const loop = new EventLoop();
  const logs: string[] = [];
  let exit: { code: number; t: number } | undefined;
  const ctx = { services: SERVICES, unknownService: UNKNOWN_SERVICE, stdin: false };
  const p = new Process(
    { loop, log: (_s, text) => logs.push(text), fs: new Set(), wallclock: (t) => new Date(t), exited: (code) => (exit = { code, t: loop.now }) },
    programFor(argv, ctx),
    ctx,
  );
  p.start();
  for (const [t, sig] of signals) loop.at(t, () => p.signal(sig));
  loop.runUntil(until);
  return { exit, logs };
}

describe('commands', () => {
  it('sh -c "exit 1" exits 1 at once', () => expect(runArgv(['sh', '-c', 'exit 1']).exit).toEqual({ code: 1, t: 0 }));
  it('sleep, sequences and &&', () => {
    expect(runArgv(['sh', '-c', 'sleep 5; echo done']).exit).toEqual({ code: 0, t: 5000 });
    expect(runArgv(['sh', '-c', 'false && echo no; echo yes'])).toEqual({ exit: { code: 0, t: 0 }, logs: ['yes'] });
    expect(runArgv(['sh', '-c', 'false || exit 3']).exit!.code).toBe(3);
    expect(runArgv(['sh', '-c', 'touch /tmp/x && cat /tmp/x && echo ok']).logs).toEqual(['ok']);
  });
  it('busybox and alpine run sh by default: with no stdin it exits 0 at once', () => {
    expect(runArgv(containerArgv(imageDefaults('docker.io/library/busybox'), undefined, undefined)).exit).toEqual({ code: 0, t: 0 });
    expect(runArgv(containerArgv(imageDefaults('docker.io/library/alpine'), undefined, undefined)).exit).toEqual({ code: 0, t: 0 });
  });
  it('an unknown command: "sh: x: not found", exit 127', () => {
    expect(runArgv(['sh', '-c', '/crash/missing'])).toEqual({ exit: { code: 127, t: 0 }, logs: ['sh: /crash/missing: not found'] });
  });
  it('Kubernetes command replaces ENTRYPOINT and args replace CMD', () => {
    const nginx = imageDefaults('m.daocloud.io/docker.io/library/nginx');
    expect(containerArgv(nginx, undefined, undefined)).toEqual(['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;']);
    expect(containerArgv(nginx, ['sleep'], ['10'])).toEqual(['sleep', '10']);
    expect(containerArgv(nginx, undefined, ['nginx-debug'])).toEqual(['/docker-entrypoint.sh', 'nginx-debug']);
  });
  it('the shell parser rejects what it cannot model, with a message', () => {
    expect(() => parseShell('echo "unterminated')).toThrow(ShellSyntaxError);
    expect(() => parseShell('while [ -f x ]; do sleep 1')).toThrow('syntax error: unexpected end of file (expecting "done")');
    expect(() => parseShell('if true; then echo')).toThrow('syntax error: unexpected end of file (expecting "fi")');
    expect(() => parseShell('case $x in a) echo a;; esac')).toThrow('podlife: case is not modelled by this shell');
    expect(() => parseShell('f() { echo; }; f')).toThrow('podlife: a function is not modelled by this shell');
  });
});

describe('signals to PID 1', () => {
  it('sleep as PID 1 ignores SIGTERM; only SIGKILL ends it (137)', () => {
    expect(runArgv(['sleep', '3600'], [[1000, 'SIGTERM'], [31_000, 'SIGKILL']]).exit).toEqual({ code: 137, t: 31_000 });
  });
  it('sh without a trap ignores SIGTERM too', () => {
    expect(runArgv(['sh', '-c', 'sleep 3600'], [[1000, 'SIGTERM'], [3000, 'SIGKILL']]).exit).toEqual({ code: 137, t: 3000 });
  });
  it('a trap runs when the foreground command returns', () => {
    expect(runArgv(['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'], [[1500, 'SIGTERM']]).exit).toEqual({ code: 0, t: 2000 });
    // sleep 1800 in the foreground: the trap waits for it, so SIGKILL comes first
    expect(runArgv(['sh', '-c', "trap 'exit 0' TERM; sleep 1800"], [[1000, 'SIGTERM'], [3000, 'SIGKILL']]).exit).toEqual({ code: 137, t: 3000 });
  });
  it('`wait` is interrupted by a trapped signal at once; the trap decides the exit code', () => {
    expect(runArgv(['sh', '-c', "trap 'exit 143' TERM; sleep 1800 & wait"], [[1000, 'SIGTERM']]).exit).toEqual({ code: 143, t: 1000 });
  });
  it('servers stop on their stop signal with exit 0 (nginx: SIGQUIT, graceful)', () => {
    const r = runArgv(['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;'], [[1000, 'SIGQUIT']]);
    expect(r.exit).toEqual({ code: 0, t: 1060 });
    expect(r.logs).toContain('1970/01/01 00:00:01 [notice] 1#1: signal 3 (SIGQUIT) received, shutting down');
    expect(runArgv(['/usr/local/bin/myapp'], [[1000, 'SIGTERM']]).exit).toEqual({ code: 0, t: 1100 });
  });
  it('a server started from a shell (no exec) never sees SIGTERM: sh keeps ignoring it', () => {
    expect(runArgv(['sh', '-c', "nginx -g 'daemon off;'"], [[1000, 'SIGTERM'], [30_000, 'SIGKILL']]).exit).toEqual({ code: 137, t: 30_000 });
    expect(runArgv(['sh', '-c', "exec nginx -g 'daemon off;'"], [[1000, 'SIGTERM']]).exit).toEqual({ code: 0, t: 1030 });
  });
});

describe('redirections (busybox ash: left to right over the descriptors)', () => {
  /** A script's output as stream:text lines, with the files it wrote. */
  function sh(script: string) {
    const loop = new EventLoop();
    const lines: string[] = [];
    const data = new Map<string, string>();
    const fs = new Set<string>();
    let code: number | undefined;
    const ctx = { services: SERVICES, unknownService: UNKNOWN_SERVICE, stdin: false, redirect };
    const p = new Process(
      { loop, log: (s, text) => lines.push(`${s}: ${text}`), fs, data, wallclock: (t) => new Date(t), exited: (c) => (code = c) },
      programFor(['sh', '-c', script], ctx),
      ctx,
    );
    p.start();
    loop.runUntil(10_000);
    return { code, lines, data: Object.fromEntries(data), fs: [...fs].sort() };
  }

  it('>&2 and 1>&2 send stdout to stderr; 2>&1 sends stderr to stdout', () => {
    expect(sh('echo out; echo oops >&2; echo again 1>&2; exit 2')).toMatchObject({ code: 2, lines: ['stdout: out', 'stderr: oops', 'stderr: again'] });
    expect(sh('ls /nope 2>&1').lines).toEqual(['stdout: ls: /nope: No such file or directory']);
    expect(sh('echo x > /dev/stderr; echo y >/dev/stdout').lines).toEqual(['stderr: x', 'stdout: y']);
  });

  it('order matters: 2>&1 >/dev/null keeps the error on stdout, >/dev/null 2>&1 drops both', () => {
    expect(sh('ls /nope 2>&1 >/dev/null').lines).toEqual(['stdout: ls: /nope: No such file or directory']);
    expect(sh('ls /nope >/dev/null 2>&1; echo $?').lines).toEqual(['stdout: 1']);
    expect(sh('ls /nope 2>/dev/null || echo missing').lines).toEqual(['stdout: missing']);
  });

  it('a file takes what its descriptor writes; &> and >&FILE (bash compatibility) take both; > alone creates it', () => {
    const r = sh('ls /nope 2>err.log; echo hi >& both; ls /x &> both2; F=/tmp/a; echo $F > $F; > empty; cat err.log');
    expect(r.data).toEqual({ 'err.log': 'ls: /nope: No such file or directory\n', both: 'hi\n', '/tmp/a': '/tmp/a\n', both2: 'ls: /x: No such file or directory\n' });
    expect(r.fs).toEqual(['/tmp/a', 'both', 'both2', 'empty', 'err.log']);
    expect(r.lines).toEqual(['stdout: ls: /nope: No such file or directory']);
  });

  it('a digit is a descriptor only unquoted and just before the operator', () => {
    expect(sh('echo 2>f; cat f').lines).toEqual(['stdout: ']);
    expect(sh('echo "2">f; cat f').lines).toEqual(['stdout: 2']);
    expect(sh('echo 2 >f; cat f').lines).toEqual(['stdout: 2']);
  });

  it('cat reads its stdin from <; a missing file fails the command, as ash says, with status 1', () => {
    expect(sh('echo hi > /tmp/f; cat < /tmp/f').lines).toEqual(['stdout: hi']);
    expect(sh('cat < /nope; echo $?').lines).toEqual(["stderr: sh: can't open /nope: no such file", 'stdout: 1']);
    expect(sh('cat < /dev/null; echo $?').lines).toEqual(['stdout: 0']);
  });

  it('a descriptor that is not open cannot be duplicated; >&- closes one', () => {
    expect(sh('echo z >&9; echo $?').lines).toEqual(['stderr: sh: dup2(9,1): Bad file descriptor', 'stdout: 1']);
    expect(sh('echo gone >&-; echo kept').lines).toEqual(['stdout: kept']);
    expect(sh('echo a 3>/tmp/three >&3; cat /tmp/three').lines).toEqual(['stdout: a']);
  });

  it('exec with redirections only changes the shell\'s own descriptors for what follows', () => {
    const r = sh('echo before; exec >/tmp/log 2>&1; echo hidden; ls /nope');
    expect(r.lines).toEqual(['stdout: before']);
    expect(r.data['/tmp/log']).toBe('hidden\nls: /nope: No such file or directory\n');
  });

  it('a command substitution collects stdout only, unless 2>&1 joins stderr to it', () => {
    expect(sh('x=$(ls /nope); echo "[$x]"').lines).toEqual(['stderr: ls: /nope: No such file or directory', 'stdout: []']);
    expect(sh('echo "[$(ls /nope 2>&1)]"').lines).toEqual(['stdout: [ls: /nope: No such file or directory]']);
  });

  it('a here-document is cat\'s stdin: expanded under an unquoted delimiter, as written under a quoted one, tabs stripped by <<-', () => {
    expect(sh('NAME=web\ncat <<EOF\nhello $NAME\n  `echo two`\nEOF\necho after').lines).toEqual(['stdout: hello web', 'stdout:   two', 'stdout: after']);
    expect(sh("cat <<'EOF' > /tmp/conf\nlisten $PORT;\nEOF\ncat /tmp/conf").lines).toEqual(['stdout: listen $PORT;']);
    expect(sh('cat <<-END\n\tindented\n\tEND\necho done').lines).toEqual(['stdout: indented', 'stdout: done']);
    expect(() => parseShell('cat <<', redirect)).toThrow('syntax error: unexpected end of file');
  });

  it('assignments are not split, and before a command they are its environment, not the command', () => {
    expect(sh('x=$(ls /nope 2>&1); echo "[$x]"').lines).toEqual(['stdout: [ls: /nope: No such file or directory]']);
    expect(sh('A=1 B="two words"; echo $A $B').lines).toEqual(['stdout: 1 two words']);
    expect(sh('LANG=C ls /nope 2>&1; echo $?').lines).toEqual(['stdout: ls: /nope: No such file or directory', 'stdout: 1']);
  });

  it('a redirection without its word is the syntax error ash names', () => {
    expect(() => parseShell('echo >', redirect)).toThrow('syntax error: unexpected end of file');
    expect(() => parseShell('echo > ; echo', redirect)).toThrow('syntax error: unexpected ";"');
    expect(() => parseShell('echo >\necho', redirect)).toThrow('syntax error: unexpected newline');
    expect(() => parseShell('echo 2>&1 && | x', redirect)).toThrow('syntax error: unexpected "|"');
    expect(sh('echo a; echo >').lines).toEqual(['stderr: sh: syntax error: unexpected end of file']);
  });

  it('an engine made without the redirections (a replay that sent none) says so rather than misreading one', () => {
    expect(() => parseShell('echo hi >&2')).toThrow('podlife: this engine was made without the shell redirections (runtime/redirect.ts)');
    expect(parseShell('echo a; echo b')).toHaveLength(2);
  });
});

describe('compound commands, arithmetic and test (busybox ash)', () => {
  const ctx = { services: SERVICES, unknownService: UNKNOWN_SERVICE, stdin: false, redirect, arith };
  function sh(script: string, until = 60_000) {
    const loop = new EventLoop();
    const lines: string[] = [];
    let exit: { code: number; t: number } | undefined;
    const p = new Process(
      { loop, log: (s, text) => lines.push(s === 'stderr' ? `! ${text}` : text), fs: new Set(), data: new Map(), wallclock: (t) => new Date(t), exited: (code) => (exit = { code, t: loop.now }) },
      programFor(['sh', '-c', script], ctx),
      ctx,
    );
    p.start();
    loop.runUntil(until);
    return { exit, lines };
  }

  it('if, elif, else; the status of an if that took no branch is 0', () => {
    expect(sh('if [ 1 -lt 2 ]; then echo yes; else echo no; fi').lines).toEqual(['yes']);
    expect(sh('x=b; if [ "$x" = a ]; then echo A; elif [ "$x" = b ]; then echo B; else echo C; fi').lines).toEqual(['B']);
    expect(sh('if false; then echo no; fi; echo $?').lines).toEqual(['0']);
  });

  it('for over words and expansions; while and until with a condition; break and continue, with a count', () => {
    expect(sh('for x in a "b c" $HOME; do echo "[$x]"; done').lines).toEqual(['[a]', '[b c]']);
    expect(sh('i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo $i; done').lines).toEqual(['1', '2', '3']);
    expect(sh('i=3; until [ $i -eq 0 ]; do i=$((i-1)); done; echo $i').lines).toEqual(['0']);
    expect(sh('for i in 1 2 3 4; do if [ $i -eq 2 ]; then continue; fi; if [ $i -eq 4 ]; then break; fi; echo $i; done').lines).toEqual(['1', '3']);
    expect(sh('for a in 1 2; do for b in x y; do if [ $b = y ]; then continue 2; fi; echo $a$b; done; done').lines).toEqual(['1x', '2x']);
    expect(sh('break; echo still').lines).toEqual(['still']);
  });

  it('a loop whose iterations take time runs on the clock; one that never does spins until a signal', () => {
    expect(sh('i=0; while [ $i -lt 3 ]; do sleep 10; i=$((i+1)); done; echo done').exit).toEqual({ code: 0, t: 30_000 });
    expect(sh('while [ 1 -eq 1 ]; do :; done').exit).toBeUndefined();
  });

  it('$((...)): C\'s operators and precedence, variables by name or $name (unset: 0), assignments, integer division', () => {
    expect(sh('i=5; echo $((i*2+1)) $(( (i+1)*2 )) $((i/2)) $((-7/2)) $((-7%3)) $((2**10)) $((1<<4)) $((i>3 && i<10)) $((i==5?10:20))').lines).toEqual(['11 12 2 -3 -1 1024 16 1 10']);
    expect(sh('echo $((unset+1)) $(($i+1)); n=0; : $((n+=5)); : $((n++)); echo $n $((010)) $((0x1f))').lines).toEqual(['1 1', '6 8 31']);
    expect(sh('a=b; b=7; echo $((a*2))').lines).toEqual(['14']);
    expect(sh('echo "[$@][$*][$#]"').lines).toEqual(['[][][0]']);
  });

  it('an arithmetic error ends the shell with status 2, in ash\'s words', () => {
    expect(sh('echo $((1/0)); echo after')).toEqual({ exit: { code: 2, t: 0 }, lines: ['! sh: divide by zero'] });
    expect(sh('echo $((1+))').lines).toEqual(['! sh: arithmetic syntax error']);
    expect(sh('a=b; b=a; echo $((a))').lines).toEqual(['! sh: expression recursion loop detected']);
  });

  it('test and [: integers, strings, -z and -n, a leading !; a bad number and a missing ] are errors (status 2)', () => {
    expect(sh('[ 3 -gt 2 ] && [ 2 -ge 2 ] && [ 1 -ne 2 ] && [ -z "" ] && [ -n x ] && [ a != b ] && ! [ 1 -eq 2 ] && [ ! 1 -eq 2 ] && echo ok').lines).toEqual(['ok']);
    expect(sh('[ a -lt 1 ]; echo $?').lines).toEqual(['! sh: a: bad number', '2']);
    expect(sh('[ 1 -lt 2; echo $?').lines).toEqual(['! sh: missing ]', '2']);
  });
});
