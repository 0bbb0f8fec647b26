// Throwaway copies of the podlife project, for tests that build broken input and for benchmarks.
// Code and configuration are copied, node_modules is linked, and the chapters are what the test says.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
export { ROOT };
const COPIED = ['src', 'components', 'scripts', 'astro.config.mjs', 'tsconfig.json', 'package.json', 'content/sources.lock.json'];

export interface Project {
  dir: string;
  write(path: string, text: string): void;
  /** Run the podlife CLI in the project (e.g. ['build']). */
  podlife(args: string[], env?: Record<string, string>): { code: number; stdout: string; stderr: string; output: string };
}

export interface ProjectOptions {
  /** Copy the book's own chapters too (the given ones are written over them). */
  book?: boolean;
  /** Scenarios to copy from content/scenarios ('all', or names). Default none: the build then checks no trace keys. */
  scenarios?: 'all' | string[];
}

/** A copy of the project whose content/chapters holds `chapters` (path under content/chapters → text). */
export function makeProject(chapters: Record<string, string>, options: ProjectOptions = {}): Project {
  const dir = mkdtempSync(join(tmpdir(), 'podlife-project-'));
  const copied = [...COPIED, ...(options.book ? ['content/chapters'] : [])];
  for (const path of copied) {
    if (existsSync(join(ROOT, path))) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  }
  const scenarios = options.scenarios === 'all' ? readdirSync(join(ROOT, 'content/scenarios')).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)) : (options.scenarios ?? []);
  for (const name of scenarios) {
    cpSync(join(ROOT, 'content/scenarios', `${name}.yaml`), join(dir, 'content/scenarios', `${name}.yaml`));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  for (const [path, text] of Object.entries(chapters)) write(join('content/chapters', path), text);
  return {
    dir,
    write,
    podlife(args, env = {}) {
      const result = spawnSync(process.execPath, [join(dir, 'scripts/podlife.mjs'), ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, PODLIFE_ASTRO_CACHE: join(dir, '.astro-cache'), PODLIFE_DEBUG: '', ...env },
        timeout: 900_000,
      });
      return { code: result.status ?? 1, stdout: result.stdout, stderr: result.stderr, output: result.stdout + result.stderr };
    },
  };
}

export function chapter(fields: Record<string, unknown>, body = 'Some text.\n'): string {
  const yaml = Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n');
  return `---\n${yaml}\n---\n\n${body}`;
}
