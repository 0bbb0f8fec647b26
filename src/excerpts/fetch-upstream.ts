// A shallow, sparse clone of the pinned upstream tag: only the files the book quotes are checked out,
// and blobs are fetched lazily (partial clone), so verifying needs a few megabytes, not the whole repo.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

export interface FetchOptions {
  /** Git URL of the upstream repository. */
  remote: string;
  tag: string;
  /** Where clones are kept between runs. */
  cacheDir: string;
  /** Repository paths to check out. */
  paths: string[];
}

export const DEFAULT_REMOTE = 'https://github.com/kubernetes/kubernetes.git';

export class FetchError extends Error {
  readonly hint: string;
  constructor(message: string, hint: string) {
    super(message);
    this.name = 'FetchError';
    this.hint = hint;
  }
}

function git(args: string[], cwd?: string): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function gitError(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  return (e.stderr || e.message || String(err)).trim().split('\n').slice(-3).join(' ');
}

/** The checked-out commit of a directory, when it is a git work tree. */
export function headCommit(dir: string): string | undefined {
  try {
    return git(['rev-parse', 'HEAD'], dir);
  } catch {
    return undefined;
  }
}

/** The commit a tag names in a checkout, when the checkout has that tag. */
export function tagCommit(dir: string, tag: string): string | undefined {
  try {
    return git(['rev-parse', `${tag}^{commit}`], dir);
  } catch {
    return undefined;
  }
}

/** Clone (or reuse) the pinned tag into the cache and check out the quoted files; returns the directory. */
export function fetchUpstream(options: FetchOptions): string {
  const dir = path.join(options.cacheDir, `${path.basename(options.remote).replace(/\.git$/, '')}-${options.tag}`);
  const paths = [...new Set(options.paths)].sort().map((p) => `/${p}`);
  const reusable = existsSync(path.join(dir, '.git')) && tagCommit(dir, options.tag) === headCommit(dir);
  if (!reusable) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(options.cacheDir, { recursive: true });
    try {
      git(['clone', '--quiet', '--depth', '1', '--branch', options.tag, '--filter=blob:none', '--sparse', options.remote, dir]);
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw new FetchError(
        `could not clone ${options.remote} at ${options.tag}: ${gitError(err)}`,
        'check the network and the tag, or verify against a local checkout with --upstream <dir>',
      );
    }
  }
  try {
    git(['sparse-checkout', 'set', '--no-cone', ...paths], dir);
  } catch (err) {
    throw new FetchError(
      `could not check out the quoted files from ${dir}: ${gitError(err)}`,
      `remove ${dir} and run again, or verify against a local checkout with --upstream <dir>`,
    );
  }
  return dir;
}
