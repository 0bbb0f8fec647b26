// The reader's site in a real Chromium: every chapter in both languages.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { builtChapters, watchErrors } from './helpers.ts';

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

    const axe = await new AxeBuilder({ page }).analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
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
    const result = page.locator(`[data-search-results] a[href="${chapter.url}"]`);
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
