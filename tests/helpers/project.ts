// Throwaway copies of the podlife project, for tests that build broken input and check what happens.
// Code and configuration are copied, node_modules is linked, and the chapters are what the test says.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const COPIED = ['src', 'components', 'scripts', 'astro.config.mjs', 'tsconfig.json', 'package.json', 'content/scenarios', 'content/sources.lock.json'];

export interface Project {
  dir: string;
  write(path: string, text: string): void;
  /** Run the podlife CLI in the project (e.g. ['build']). */
  podlife(args: string[]): { code: number; stdout: string; stderr: string; output: string };
}

/** A copy of the project whose content/chapters holds exactly `chapters` (path under content/chapters → text). */
export function makeProject(chapters: Record<string, string>): Project {
  const dir = mkdtempSync(join(tmpdir(), 'podlife-project-'));
  for (const path of COPIED) {
    if (existsSync(join(ROOT, path))) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
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
    podlife(args) {
      const result = spawnSync(process.execPath, [join(dir, 'scripts/podlife.mjs'), ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, PODLIFE_ASTRO_CACHE: join(dir, '.astro-cache'), PODLIFE_DEBUG: '' },
        timeout: 240_000,
      });
      return { code: result.status ?? 1, stdout: result.stdout, stderr: result.stderr, output: result.stdout + result.stderr };
    },
  };
}

export function chapter(fields: Record<string, unknown>, body = 'Some text.\n'): string {
  const yaml = Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n');
  return `---\n${yaml}\n---\n\n${body}`;
}
