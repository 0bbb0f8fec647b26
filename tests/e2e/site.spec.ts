// The reader's site in a real Chromium: every chapter in both languages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { t } from '../../src/i18n.ts';
import { axe, builtChapters, watchErrors } from './helpers.ts';

const chapters = builtChapters();

for (const { lang, slug, url } of chapters) {
  test(`${url} renders cleanly: diagrams inline, no console errors, accessible`, async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto(url);
    await expect(page.locator('article.chapter h1')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');

    // Diagrams were rendered at build time: inline <svg>, no mermaid source left for the browser.
    const diagrams = page.locator('article figure.diagram');
    expect(await diagrams.count()).toBeGreaterThan(0);
    expect(await page.locator('article figure.diagram > svg').count()).toBe(await diagrams.count());
    expect(await page.locator('pre.mermaid').count()).toBe(0);

    expect(await page.locator('iframe').count(), 'no frames: axe() scans the page alone').toBe(0);
    const scan = await axe(page).analyze();
    const serious = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`)).toEqual([]);
    expect(errors()).toEqual([]);
  });

  test(`${url} language switch lands on the same chapter`, async ({ page }) => {
    await page.goto(url);
    await page.locator('[data-lang-switch]').click();
    const other = lang === 'zh' ? 'en' : 'zh';
    await expect(page).toHaveURL(new RegExp(`/${other}/${slug}/$`));
    await expect(page.locator('article.chapter')).toHaveAttribute('data-chapter', slug);
  });
}

test('the sidebar lists the chapters in order with the current one marked, and prev/next link them', async ({ page }) => {
  const en = chapters.filter((c) => c.lang === 'en');
  await page.goto(en[0].url);
  const links = page.locator('.sidebar .chapter-nav a');
  await expect(links).toHaveCount(en.length);
  await expect(page.locator('.sidebar a[aria-current="page"]')).toHaveAttribute('href', en[0].url);
  const numbers = await page.locator('.sidebar .chapter-number').allTextContents();
  expect(numbers.map(Number)).toEqual([...numbers.map(Number)].sort((a, b) => a - b));
  if (en.length > 1) {
    await page.locator('.prev-next a[rel="next"]').click();
    await expect(page.locator('.sidebar a[aria-current="page"]')).toHaveCount(1);
    await expect(page.locator('.prev-next a[rel="prev"]')).toHaveAttribute('href', en[0].url);
  }
});

test('the table of contents links to headings on the page', async ({ page }) => {
  await page.goto(chapters[0].url);
  const toc = page.locator('.toc a');
  expect(await toc.count()).toBeGreaterThan(0);
  for (const href of await toc.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
    expect(await page.locator(href.replace(/^#/, '#')).count(), href).toBe(1);
  }
});

test('the edit link points at the chapter source file', async ({ page }) => {
  const { lang, slug, url } = chapters[0];
  await page.goto(url);
  await expect(page.locator('.edit-link')).toHaveAttribute('href', new RegExp(`/content/chapters/${lang}/${slug}\\.md$`));
});

test('theme: follows the system, toggles, and is remembered', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(chapters[0].url);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await bg()).toBe('rgb(13, 17, 23)');
  const toggle = page.locator('[data-theme-toggle]');
  await expect(toggle).toBeVisible();
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect(await bg()).toBe('rgb(255, 255, 255)');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect(await bg()).toBe('rgb(255, 255, 255)');
  // Diagrams follow the theme.
  const filter = () => page.locator('figure.diagram svg').first().evaluate((el) => getComputedStyle(el).filter);
  expect(await filter()).toBe('none');
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await filter()).toContain('invert');
});

for (const lang of ['en', 'zh'] as const) {
  test(`search (${lang}) finds a word from a chapter`, async ({ page }) => {
    const errors = watchErrors(page);
    const chapter = chapters.find((c) => c.lang === lang)!;
    await page.goto(chapter.url);
    // A word that is in this chapter's body: its <h1> title.
    const word = (await page.locator('article.chapter h1').textContent())!.trim().split(/\s+/)[0];
    await page.locator('[data-search-input]').fill(word);
    // The link goes to the chapter, or to its best-matching section (chapter URL + #heading).
    const result = page.locator(`[data-search-results] a[href^="${chapter.url}"]`);
    await expect(result.first()).toBeVisible();
    expect(errors()).toEqual([]);
  });
}

test('/ sends readers to their language', async ({ browser }) => {
  for (const [locale, lang] of [['zh-CN', 'zh'], ['en-US', 'en'], ['de-DE', 'en']] as const) {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page).toHaveURL(new RegExp(`/${lang}/$`));
    await context.close();
  }
});

test('reading needs no JavaScript: text and diagrams are in the HTML', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(chapters[0].url);
  await expect(page.locator('article.chapter h1')).toBeVisible();
  expect(await page.locator('article figure.diagram > svg').count()).toBeGreaterThan(0);
  await expect(page.locator('[data-theme-toggle]')).toBeHidden();
  await context.close();
});

test('readable on a phone: no horizontal scrolling, the chapter menu opens', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  for (const { url } of chapters) {
    await page.goto(url);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, url).toBeLessThanOrEqual(0);
  }
  await page.goto(chapters[0].url);
  await expect(page.locator('.sidebar')).toBeHidden();
  await page.locator('.mobile-nav summary').click();
  await expect(page.locator('.mobile-nav .chapter-nav a').first()).toBeVisible();
  await context.close();
});

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** Serious and critical axe findings on the page as it is now (or in the parts `include` selects), one line each. */
async function seriousAxe(page: Page, { rules, include }: { rules?: string[]; include?: string[] } = {}): Promise<string[]> {
  let builder = axe(page);
  if (rules) builder = builder.withRules(rules);
  for (const selector of include ?? []) builder = builder.include(selector);
  const scan = await builder.analyze();
  return scan.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
}

const html = (url: string) => readFileSync(join('dist', url, 'index.html'), 'utf8');

/** A chapter of the language whose contents have subsections (h3) as well as sections. */
function withSubsections(lang: 'en' | 'zh'): { url: string } {
  const found = chapters.find((c) => c.lang === lang && html(c.url).includes('toc-depth-3'));
  if (!found) throw new Error(`no ${lang} chapter with an h3 heading`);
  return found;
}

for (const lang of ['en', 'zh'] as const) {
  const label = t(lang, 'onThisPage');

  test(`on this page (${lang}): a disclosure where the side column is hidden, without JavaScript`, async ({ browser }) => {
    for (const viewport of [PHONE.viewport, { width: 1000, height: 800 }]) {
      const context = await browser.newContext({ ...PHONE, viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(withSubsections(lang).url);
      await expect(page.locator('.toc-column')).toBeHidden();
      const disclosure = page.locator('article .toc-disclosure');
      await expect(disclosure.locator('summary')).toHaveText(label);
      // Closed at first, so the chapter starts right under its title; the same links as the side column.
      await expect(disclosure.locator('a').first()).toBeHidden();
      const columnLinks = await page.locator('.toc-column .toc a').evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.textContent]));
      expect(columnLinks.length).toBeGreaterThan(1);
      expect(await disclosure.locator('a').evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.textContent]))).toEqual(columnLinks);
      // Subsections indented under their sections, as in the column.
      const indent = (depth: number) => disclosure.locator(`.toc-depth-${depth} a`).first().evaluate((a) => parseFloat(getComputedStyle(a).paddingLeft));
      expect(await indent(3)).toBeGreaterThan(await indent(2));

      await disclosure.locator('summary').click();
      await expect(page.getByRole('navigation', { name: label })).toBeVisible();
      const last = disclosure.locator('a').last();
      const href = (await last.getAttribute('href'))!;
      await last.click();
      await expect.poll(() => decodeURIComponent(new URL(page.url()).hash)).toBe(href);
      await expect(page.locator(`[id="${href.slice(1)}"]`)).toBeInViewport();
      await context.close();
    }
  });

  test(`on this page (${lang}): one visible list on a wide screen`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(chapters.find((c) => c.lang === lang)!.url);
    await expect(page.locator('.toc-disclosure')).toBeHidden();
    await expect(page.locator('.toc-column .toc')).toBeVisible();
    // Role queries leave out what is not rendered: exactly one "On this page" navigation for assistive technology.
    await expect(page.getByRole('navigation', { name: label })).toHaveCount(1);
  });
}

// Chapters with tables, from the built HTML (the e2e run serves dist/).
const withTables = chapters.filter(({ url }) => html(url).includes('<table'));

test('some chapters have tables, and on a phone at least one of them is wider than the column', async ({ browser }) => {
  expect(withTables.map((c) => c.lang).sort()).toEqual(expect.arrayContaining(['en', 'zh']));
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  let overflowing = 0;
  for (const { url } of withTables) {
    await page.goto(url);
    overflowing += await page.locator('.table-wrap').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).length);
  }
  expect(overflowing).toBeGreaterThan(0);
  await context.close();
});

for (const { lang, url } of withTables) {
  test(`${url} tables on a phone: each scrolls in a focusable, named region; axe is clean in both themes`, async ({ browser }) => {
    test.slow(); // axe on a long chapter in a phone-sized page
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(url);
    const tables = page.locator('article table');
    const wraps = page.locator('article .table-wrap');
    await expect(wraps).toHaveCount(await tables.count());
    const names = new Set<string>();
    for (const wrap of await wraps.all()) {
      await expect(wrap).toHaveAttribute('tabindex', '0');
      const name = (await wrap.getAttribute('aria-label'))!;
      expect(name).toMatch(lang === 'zh' ? /^表格/ : /^Table/);
      names.add(name);
      await expect(page.getByRole('region', { name, exact: true })).toHaveCount(1);
    }
    expect(names.size).toBe(await wraps.count()); // landmarks that can be told apart

    // A table wider than the phone scrolls with the keyboard once focused; the page itself does not scroll.
    const overflowing = await wraps.evaluateAll((els) =>
      els.flatMap((e, i) => (e.scrollWidth > e.clientWidth ? [{ i, hasFocusable: !!e.querySelector('a[href], button, input, [tabindex]') }] : [])),
    );
    for (const { i, hasFocusable } of overflowing) {
      const region = wraps.nth(i);
      // focused, the region takes the arrow keys; pressed again until it moves: once, on a loaded CI machine, the
      // region was focused and one press left it unscrolled after 5 s (a region without tabindex never moves)
      await expect
        .poll(async () => {
          await region.focus();
          await page.keyboard.press('ArrowRight');
          return region.evaluate((e) => e.scrollLeft);
        })
        .toBeGreaterThan(0);
      await region.evaluate((e) => (e.scrollLeft = 0));
      if (hasFocusable) continue; // axe accepts a region whose links can take focus
      // Without the fix axe flags this region: the clean run below is a check that can fail.
      await region.evaluate((e) => e.removeAttribute('tabindex'));
      expect((await seriousAxe(page, { rules: ['scrollable-region-focusable'] })).join('\n')).toContain('scrollable-region-focusable');
      await region.evaluate((e) => e.setAttribute('tabindex', '0'));
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    await page.locator('.toc-disclosure summary').click(); // open, so its links are checked too
    // The whole phone page in the light theme; in the dark one, the parts this layout adds (a second full run
    // on a long chapter would take most of the test's time budget).
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await seriousAxe(page), 'light').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousAxe(page, { include: ['.table-wrap', '.toc-disclosure'] }), 'dark').toEqual([]);
    await context.close();
  });
}

/**
 * A word of the chapter that only one section, after the first heading's, contains: its 6-letter prefix occurs
 * once in the whole article (so no other section holds it or a form of it that stemming would match).
 */
async function wordOfALaterSection(page: Page): Promise<{ word: string; id: string; heading: string }> {
  const found = await page.evaluate(() => {
    const article = document.querySelector('article.chapter')!;
    const sections: { id: string; heading: string; text: string }[] = [{ id: '', heading: '', text: '' }];
    // What Pagefind indexes, split where it splits: at each heading with an id, skipping data-pagefind-ignore.
    const walker = document.createTreeWalker(article, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => (n instanceof Element && n.matches('[data-pagefind-ignore], svg') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n instanceof Element) {
        if (/^H[1-6]$/.test(n.tagName) && n.id) sections.push({ id: n.id, heading: n.textContent!.trim(), text: '' });
      } else sections[sections.length - 1].text += ` ${n.textContent}`;
    }
    const all = article.textContent!.toLowerCase();
    for (const section of sections.slice(2)) {
      for (const [word] of section.text.matchAll(/(?<![\p{L}\p{N}_])[a-z]{7,}(?![\p{L}\p{N}_])/gu)) {
        if (all.split(word.slice(0, 6)).length === 2) return { word, id: section.id, heading: section.heading };
      }
    }
    return null;
  });
  if (!found) throw new Error(`${page.url()}: no word found only in one later section`);
  return found;
}

for (const lang of ['en', 'zh'] as const) {
  test(`search (${lang}) links to the section that matches, and following it lands there`, async ({ page }) => {
    const errors = watchErrors(page);
    // A long chapter: several sections to choose from.
    const { url } = chapters.filter((c) => c.lang === lang).find((c) => c.slug === 'restarts') ?? chapters.find((c) => c.lang === lang)!;
    await page.goto(url);
    const { word, id, heading } = await wordOfALaterSection(page);
    await page.locator('[data-search-input]').fill(word);
    const result = page.locator(`[data-search-results] a[href^="${url}"]`).first();
    await expect.poll(async () => decodeURI((await result.getAttribute('href')) ?? ''), `searching "${word}"`).toBe(`${url}#${id}`);
    // "Chapter › Section": the section's own title, under the chapter's.
    await expect(result.locator('.search-section')).toHaveText(heading);
    await expect(result.locator('.search-page')).toHaveText((await page.locator('article.chapter h1').textContent())!.trim());
    await expect(result.locator('xpath=following-sibling::p[1]/mark').first()).toBeVisible(); // the section's excerpt, with the hit
    await result.click();
    await expect(page.locator('[data-search-results]')).toBeHidden(); // not left over the section on the same page
    await expect.poll(() => decodeURI(new URL(page.url()).pathname + new URL(page.url()).hash)).toBe(`${url}#${id}`);
    await expect(page.locator(`[id="${id}"]`)).toBeInViewport();
    expect(errors()).toEqual([]);
  });
}
