// Shared by the excerpt tests: throwaway copies of the fixture book, and capturing a CLI run.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';

export const FIXTURE_BOOK = path.resolve('tests/fixtures/book');
export const FIXTURE_UPSTREAM = path.resolve('tests/fixtures/upstream');

/** A writable copy of the fixture book (chapters and lock); returns its root. */
export function copyBook(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'podlife-book-'));
  cpSync(FIXTURE_BOOK, root, { recursive: true });
  return root;
}

/** Replace text in a file of a copied book. */
export function edit(root: string, file: string, from: string, to: string): void {
  const full = path.join(root, file);
  const text = readFileSync(full, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
  writeFileSync(full, text.replace(from, to));
}

/** Run a function while collecting what it prints to stdout and stderr. */
export async function capture<T>(fn: () => Promise<T>): Promise<{ result: T; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const result = await fn();
    return { result, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
