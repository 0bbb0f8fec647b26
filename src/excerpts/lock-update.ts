// Rewrite the lock for the book as it is now: verified entries where a checkout confirmed the excerpt,
// the existing entry where it still describes the excerpt, a fresh unverified entry otherwise.
import type { BookScan } from './collect.ts';
import { type Lock, type LockEntry, type Upstream, entryMismatch } from './lock.ts';
import { seedEntry } from './seed.ts';
import type { VerifyResult } from './verify.ts';

export interface UpdateInput {
  scan: BookScan;
  previous: Lock | undefined;
  upstream: Upstream;
  /** Results of verifying against a checkout (absent offline). */
  results?: Map<string, VerifyResult>;
}

export interface UpdateOutcome {
  lock: Lock;
  added: string[];
  reseeded: string[];
  verified: string[];
  removed: string[];
}

export function updateLock({ scan, previous, upstream, results }: UpdateInput): UpdateOutcome {
  const siblings = new Map<string, BookScan['excerpts']>();
  for (const e of scan.excerpts) {
    const key = `${e.excerpt.ref.path}#${e.excerpt.decl.name}`;
    siblings.set(key, [...(siblings.get(key) ?? []), e]);
  }
  const sameTag = previous?.upstream.tag === upstream.tag;
  const outcome: UpdateOutcome = { lock: { upstream, excerpts: {} }, added: [], reseeded: [], verified: [], removed: [] };

  for (const source of scan.excerpts) {
    const { id, excerpt } = source;
    const old = previous?.excerpts[id];
    const result = results?.get(id);
    let entry: LockEntry;
    if (result?.entry) {
      entry = result.entry;
      outcome.verified.push(id);
    } else if (old && sameTag && !result && !entryMismatch(excerpt, old)) {
      entry = old;
    } else {
      const others = (siblings.get(`${excerpt.ref.path}#${excerpt.decl.name}`) ?? []).filter((s) => s.id !== id).map((s) => s.excerpt);
      entry = seedEntry({ excerpt, previous: old, siblings: others });
      (old ? outcome.reseeded : outcome.added).push(id);
    }
    outcome.lock.excerpts[id] = entry;
  }
  for (const id of Object.keys(previous?.excerpts ?? {})) {
    if (!(id in outcome.lock.excerpts)) outcome.removed.push(id);
  }
  return outcome;
}
