// Shared helpers for the end-to-end suite.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

export const LANGS = ['zh', 'en'] as const;

/** Every chapter the build produced: dist/<lang>/<slug>/index.html. */
export function builtChapters(): { lang: (typeof LANGS)[number]; slug: string; url: string }[] {
  const out: { lang: (typeof LANGS)[number]; slug: string; url: string }[] = [];
  for (const lang of LANGS) {
    const dir = join('dist', lang);
    if (!existsSync(dir)) continue;
    for (const slug of readdirSync(dir).sort()) {
      if (existsSync(join(dir, slug, 'index.html'))) out.push({ lang, slug, url: `/${lang}/${slug}/` });
    }
  }
  if (out.length === 0) throw new Error('No chapters in dist/: run `npm run build` before the end-to-end tests.');
  return out;
}

/** Collect console errors, page errors and CSP violations; call the returned function to read them. */
export function watchErrors(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return () => errors;
}

/** Scroll a simulation player into view and wait until it is live (mounted, run loaded). */
export async function mountedPlayer(player: Locator): Promise<Locator> {
  await player.scrollIntoViewIfNeeded();
  await expect(player.locator('.sim-live')).toBeVisible();
  return player;
}

/** Drag a player's scrubber to t (ms) and let go: input events while dragging, change at the end. */
export async function scrubTo(player: Locator, t: number): Promise<void> {
  await player.locator('.sim-scrubber').evaluate((el: HTMLInputElement, value) => {
    el.value = String(value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, t);
}
