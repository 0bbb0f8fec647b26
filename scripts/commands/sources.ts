// `podlife sources verify`: check every Go excerpt of the book against upstream Kubernetes, and keep
// content/sources.lock.json (what the build reads) in step with the chapters.
//
//   npm run sources:verify -- --upstream <dir>   verify against a local kubernetes/kubernetes checkout
//   npm run sources:verify -- --fetch            verify against a shallow sparse clone of the pinned tag
//   npm run sources:verify -- --update [...]     rewrite the lock (offline: pin new or edited excerpts as
//                                                not yet verified; with a checkout: record what it proved)
//   npm run sources:verify                       offline: say which excerpts the lock pins, and how
//
// One line per excerpt. Exit status 1 when anything is moved, changed or gone (or, offline, not pinned).
import path from 'node:path';
import { type BookScan, DEFAULT_CHAPTERS_DIR, collectBook } from '../../src/excerpts/collect.ts';
import { SourceProblem } from '../../src/excerpts/errors.ts';
import { DEFAULT_REMOTE, FetchError, fetchUpstream, headCommit, tagCommit } from '../../src/excerpts/fetch-upstream.ts';
import { DEFAULT_UPSTREAM, type Lock, type LockEntry, entryMismatch, numberedSpan, readLock, writeLock } from '../../src/excerpts/lock.ts';
import { updateLock } from '../../src/excerpts/lock-update.ts';
import { pinExcerpt } from '../../src/excerpts/pin.ts';
import { DEFAULT_LOCK_FILE } from '../../src/excerpts/source-index.ts';
import { type VerifyResult, verifyExcerpt } from '../../src/excerpts/verify.ts';
import { UsageError } from '../errors.ts';

export const summary = 'verify the quoted Kubernetes source against upstream and keep content/sources.lock.json current';

const USAGE = `Usage: podlife sources verify [--upstream <dir> | --fetch] [--update] [options]

Checks every Go excerpt in the chapters against upstream kubernetes/kubernetes and prints one line per
excerpt: exact, elided (matches, with declared elisions), moved (new line), changed (short diff), gone.

  --upstream <dir>   a kubernetes/kubernetes checkout (at the pinned tag) to verify against
  --fetch            clone the pinned tag (shallow, sparse: only the quoted files) into the cache and use it
  --update           rewrite the lock: verified entries from the checkout; offline, new or edited
                     excerpts are pinned as not yet verified (line numbers only where the reference proves them)
  --tag <tag>        upstream tag to pin (default: the lock's, else ${DEFAULT_UPSTREAM.tag})
  --remote <url>     git URL for --fetch (default ${DEFAULT_REMOTE})
  --cache <dir>      where --fetch keeps clones (default .cache/upstream)
  --root <dir>       project root (default: the working directory)
  --chapters <dir>   chapters folder under the root (default ${DEFAULT_CHAPTERS_DIR})
  --lock <file>      lock file under the root (default ${DEFAULT_LOCK_FILE})

Exit status: 0 when everything matches, 1 when something moved, changed or is gone (offline: when an
excerpt is not pinned by the lock), 2 for bad usage.`;

interface Options {
  upstream?: string;
  fetch: boolean;
  update: boolean;
  tag?: string;
  remote: string;
  cache: string;
  root: string;
  chapters: string;
  lock: string;
}

function parseArgs(args: string[]): Options {
  const options: Options = {
    fetch: false,
    update: false,
    remote: DEFAULT_REMOTE,
    cache: '.cache/upstream',
    root: process.cwd(),
    chapters: DEFAULT_CHAPTERS_DIR,
    lock: DEFAULT_LOCK_FILE,
  };
  const valued = new Set(['--upstream', '--tag', '--remote', '--cache', '--root', '--chapters', '--lock']);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag === '--fetch') options.fetch = true;
    else if (flag === '--update') options.update = true;
    else if (valued.has(flag)) {
      const value = inline ?? args[++i];
      if (!value || value.startsWith('--')) throw new UsageError(`${flag} needs a value\n\n${USAGE}`);
      const key = flag.slice(2) as 'upstream' | 'tag' | 'remote' | 'cache' | 'root' | 'chapters' | 'lock';
      options[key] = value;
    } else throw new UsageError(`unknown option "${arg}"\n\n${USAGE}`);
  }
  if (options.fetch && options.upstream) throw new UsageError(`use either --upstream <dir> or --fetch, not both\n\n${USAGE}`);
  return options;
}

function range(span: { first: number; last: number } | undefined): string {
  if (!span) return '';
  return span.last > span.first ? `L${span.first}-L${span.last}` : `L${span.first}`;
}

function formatResult(r: VerifyResult, file: string, refLine: number): string[] {
  const head = `${r.status.padEnd(8)} ${r.id}  ${r.path}`;
  switch (r.status) {
    case 'exact':
    case 'elided':
      return [`${head} ${range(r.span)}${r.ref === null ? `  (the reference at ${file}:${refLine} gives no line: add L${r.found})` : ''}`];
    case 'moved':
      return [`${head} L${r.ref} → L${r.found}  (change the reference at ${file}:${refLine} to L${r.found})`];
    case 'changed':
      return [`${head} ${range(r.span)}`, ...r.details.slice(0, 8).map((d) => `           ${d}`), ...(r.details.length > 8 ? ['           …'] : [])];
    default:
      return [`${head}  ${r.details.join('; ')}`];
  }
}

function pinnedState(entry: LockEntry): string {
  return `${entry.verified ? 'verified' : 'unverified'} ${range(numberedSpan(entry)) || '(no line proven)'}`;
}

function printProblems(problems: SourceProblem[]): void {
  for (const p of problems) console.error(`podlife: ${p.describe()}`);
}

function readLockIfAny(file: string, required: boolean): Lock | undefined {
  try {
    return readLock(file);
  } catch (err) {
    if (err instanceof SourceProblem && !required && err.message.includes('missing')) return undefined;
    throw err;
  }
}

async function verifyAll(scan: BookScan, dir: string): Promise<Map<string, VerifyResult>> {
  const results = new Map<string, VerifyResult>();
  for (const source of scan.excerpts) results.set(source.id, await verifyExcerpt(source, dir));
  return results;
}

async function verify(options: Options): Promise<number> {
  const root = path.resolve(options.root);
  const lockPath = path.join(root, options.lock);
  const scan = await collectBook({ root, chaptersDir: options.chapters });
  if (scan.problems.length) {
    printProblems(scan.problems);
    return 1;
  }
  const previous = readLockIfAny(lockPath, !options.update);
  const tag = options.tag ?? previous?.upstream.tag ?? DEFAULT_UPSTREAM.tag;
  const repo = previous?.upstream.repo ?? DEFAULT_UPSTREAM.repo;

  let dir = options.upstream ? path.resolve(options.upstream) : undefined;
  if (options.fetch) {
    try {
      dir = fetchUpstream({ remote: options.remote, tag, cacheDir: path.resolve(root, options.cache), paths: scan.excerpts.map((e) => e.excerpt.ref.path) });
    } catch (err) {
      if (err instanceof FetchError) {
        console.error(`podlife: ${err.message}\n  fix: ${err.hint}`);
        return 1;
      }
      throw err;
    }
    console.log(`upstream: ${options.remote} ${tag} (sparse clone in ${path.relative(root, dir) || dir})`);
  } else if (dir) {
    console.log(`upstream: ${dir}`);
  }

  let failed = 0;
  let results: Map<string, VerifyResult> | undefined;
  if (dir) {
    results = await verifyAll(scan, dir);
    for (const source of scan.excerpts) {
      const r = results.get(source.id)!;
      const refLine = source.firstCodeLine - (source.excerpt.ref.form === 'meta' ? 1 : 0);
      for (const line of formatResult(r, source.chapter.file, refLine)) console.log(line);
      if (r.status === 'moved' || r.status === 'changed' || r.status === 'gone') failed++;
    }
  } else if (!options.update) {
    for (const source of scan.excerpts) {
      const pinned = pinExcerpt({ id: source.id, excerpt: source.excerpt, file: source.chapter.file, firstCodeLine: source.firstCodeLine }, previous!, options.lock);
      if (pinned instanceof SourceProblem) {
        failed++;
        console.log(`${'unpinned'.padEnd(8)} ${source.id}  ${source.excerpt.ref.path}`);
        console.log(`           ${pinned.describe().replace(/\n/g, '\n           ')}`);
      } else {
        console.log(`${'pinned'.padEnd(8)} ${source.id}  ${source.excerpt.ref.path} ${pinnedState(pinned)}`);
      }
    }
    console.log(`(offline: pass --upstream <kubernetes checkout> or --fetch to verify against Kubernetes ${tag})`);
  }

  if (options.update) {
    let commit = previous?.upstream.tag === tag ? (previous?.upstream.commit ?? null) : null;
    if (dir) {
      const head = headCommit(dir);
      if (head && tagCommit(dir, tag) === head) commit = head;
      else console.log(`note: ${dir} is not a git checkout of ${tag}; the lock keeps commit ${commit ?? 'null'}`);
    }
    const outcome = updateLock({ scan, previous, upstream: { repo, tag, commit }, results });
    writeLock(lockPath, outcome.lock);
    const unverified = Object.entries(outcome.lock.excerpts).filter(([id, e]) => !e.verified && !entryMismatch(scan.excerpts.find((s) => s.id === id)!.excerpt, e));
    console.log(
      `updated ${options.lock}: ${outcome.verified.length} verified, ${outcome.added.length} added, ` +
        `${outcome.reseeded.length} re-pinned, ${outcome.removed.length} removed; ${unverified.length} not yet verified against ${tag}`,
    );
  }
  if (failed) console.log(`${failed} excerpt(s) need attention`);
  return failed ? 1 : 0;
}

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
    console.log(USAGE);
    return sub ? 0 : 2;
  }
  if (sub !== 'verify') throw new UsageError(`unknown subcommand "sources ${sub}"\n\n${USAGE}`);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  try {
    return await verify(parseArgs(rest));
  } catch (err) {
    if (err instanceof SourceProblem) {
      printProblems([err]);
      return 1;
    }
    throw err;
  }
}
