// Shared helpers for the end-to-end suite.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

export const LANGS = ['zh', 'en'] as const;

/**
 * An axe scan of the page, run in the page itself. The site's pages have no frames, so axe's default way, which
 * gathers partial results in each frame and finishes the run in a second, blank page, only added that page's cost:
 * about half of each scan (the longest chapter: 8.7–9.1 s by default, 3.8–5.5 s in the page, with the same
 * violations, passes and incomplete results).
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true);
}

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
