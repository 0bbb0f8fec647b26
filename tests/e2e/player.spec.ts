// The simulation player in a real Chromium, on the built chapter that carries the crash-loop scenario
// (:::simulation{scenario="crash-loop"}). What the panels and the console print is checked against the
// runner itself (the path `podlife simulate --at` takes), not against strings copied from the player.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenario } from '../../src/sim/scenario.ts';
import { runCommandAt, runScenario, runnable } from '../../src/sim/run.ts';
import { formatClock, parseMoment } from '../../components/player/time.ts';
import { axe, builtChapters, mountedPlayer, scrubTo as scrubToAt, watchErrors } from './helpers.ts';

const SCENARIO = 'crash-loop';
const AT_8M23S = 8 * 60_000 + 23_000;

/** The first built chapter (per language) whose page matches; fails clearly when none does. */
function chapterWhere(lang: 'en' | 'zh', what: string, test: (html: string) => boolean): string {
  const found = builtChapters()
    .filter((c) => c.lang === lang)
    .find((c) => test(readFileSync(join('dist', c.lang, c.slug, 'index.html'), 'utf8')));
  if (!found) throw new Error(`no ${lang} chapter in dist/ has ${what}: build the site first`);
  return found.url;
}

const chapterWithPlayer = (lang: 'en' | 'zh') =>
  chapterWhere(lang, `:::simulation{scenario="${SCENARIO}"}`, (html) => html.includes(`data-sim-player="" data-scenario="${SCENARIO}"`));
const url = chapterWithPlayer('en');
/** A chapter where a player and the excerpt quoting SyncPod's step 4 share the page. */
const stepUrl = chapterWhere('en', 'a player and the SyncPod#4 excerpt on one page', (html) => html.includes('data-sim-player') && html.includes('data-step-key="SyncPod#4"'));
const scenarioFile = join('content', 'scenarios', `${SCENARIO}.yaml`);
const parsed = parseScenario(readFileSync(scenarioFile, 'utf8'), scenarioFile);
const scenario = runnable(parsed);

/** What `podlife simulate crash-loop --at <t> -- <command>` prints. */
function simulate(at: number, command: string): string {
  const r = runCommandAt(scenario, at, command);
  return r.stdout + r.stderr;
}

/** The moment (as the player's clock shows it) that a URL records. */
function readMomentOf(href: string): string | undefined {
  const t = new URL(href).searchParams.get('t');
  return t === null ? undefined : formatClock(parseMoment(t)!);
}

const player = (page: Page) => page.locator(`[data-sim-player][data-scenario="${SCENARIO}"]`).first();

async function openPlayer(page: Page, query = ''): Promise<void> {
  await page.goto(`${url}${query}`);
  await mountedPlayer(player(page));
}

const scrubTo = (page: Page, t: number) => scrubToAt(player(page), t);

const panel = (page: Page, name: 'pods' | 'events' | 'containers' | 'status') => player(page).locator(`.sim-panel-${name} pre`);

test('the player loads only when it scrolls into view; the static outputs are there before', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto(url);
  const section = player(page);
  await expect(section.locator('[data-sim-static]')).toBeAttached();
  const below = await section.evaluate((el) => el.getBoundingClientRect().top - innerHeight);
  expect(below, 'the crash-loop player should start below the first screen of its chapter').toBeGreaterThan(250);
  await page.waitForLoadState('networkidle');
  await expect(section.locator('.sim-live')).toHaveCount(0);
  await expect(section, 'nothing of the player has loaded').not.toHaveAttribute('data-sim-mounted');

  await section.scrollIntoViewIfNeeded();
  await expect(section.locator('.sim-live')).toBeVisible();
  await expect(section.locator('.sim-clock')).toContainText('0s');
  expect(await section.locator('.sim-trace-row').count()).toBeGreaterThan(20);
  expect(errors()).toEqual([]);
});

for (const [lang, width] of [['en', 1280], ['zh', 390]] as const) {
  test(`mounting a player in view moves nothing on the page (${lang}, ${width} px wide)`, async ({ page }) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height: 800 });
    // Layout shifts as Chromium scores them (CLS; scrolling is not one), counted from `since`.
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: { t: number; value: number }[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { startTime: number; value: number; hadRecentInput: boolean }[]) {
          if (!e.hadRecentInput) w.shifts.push({ t: e.startTime, value: e.value });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // Hold the recorded run back, so the page is seen (and measured) while the player is loading.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\.replay\.json$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(chapterWithPlayer(lang));
    const section = player(page);
    // What follows the player on the page: the reader's text below it.
    const below = page.locator(`[data-sim-player][data-scenario="${SCENARIO}"] + *`).first();
    await expect(below).toBeAttached();
    // Scroll so that the player's top is in the upper half of the screen, as a reader who reaches it.
    await section.evaluate((el) => scrollTo(0, el.getBoundingClientRect().top + scrollY - innerHeight / 4));
    await expect(section.locator('.sim-loading')).toBeInViewport();
    const since = await page.evaluate(() => performance.now());
    const at = () => below.evaluate((el) => el.getBoundingClientRect().top + scrollY);
    const before = await at();
    const scroll = await page.evaluate(() => scrollY);

    release();
    await expect(section.locator('.sim-live')).toBeVisible();
    await expect(section.locator('.sim-transcript')).not.toHaveAttribute('open');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await at(), 'the text below the player stays where it was').toBeCloseTo(before, 0);
    expect(await page.evaluate(() => scrollY)).toBe(scroll);
    const shifted = await page.evaluate((t) => (window as unknown as { shifts: { t: number; value: number }[] }).shifts.filter((s) => s.t >= t).reduce((n, s) => n + s.value, 0), since);
    expect(shifted, 'layout shift (CLS) caused by mounting the player').toBeLessThan(0.001);
    expect(errors()).toEqual([]);
  });
}

test('when the player cannot load, the reserved place gives way to the error and the static outputs show again', async ({ page }) => {
  await page.route(/\.replay\.json$/, (route) => route.fulfill({ status: 503, body: 'unavailable' }));
  await page.goto(url);
  const section = player(page);
  await section.scrollIntoViewIfNeeded();
  const status = section.locator('.sim-slot .sim-loading');
  await expect(status).toHaveText(/^The simulation could not be loaded: .*HTTP 503$/);
  await expect(section).not.toHaveAttribute('aria-busy');
  const slotHeight = await section.locator('.sim-slot').evaluate((el) => el.getBoundingClientRect().height);
  const statusHeight = await status.evaluate((el) => el.getBoundingClientRect().height);
  expect(slotHeight).toBeCloseTo(statusHeight, 0);
  await expect(section.locator('.sim-transcript figure.output pre')).toBeVisible();
  await expect(section.locator('[data-sim-phases] svg')).toBeVisible();
  await expect(section.locator('.sim-title')).toBeVisible();
});

test('without JavaScript the reserved place is gone and the transcript and the phase diagram show', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url);
  const section = player(page);
  await expect(section.locator('.sim-slot')).toBeHidden();
  await expect(section.locator('.sim-transcript')).toHaveAttribute('open');
  await expect(section.locator('.sim-transcript figure.output pre')).toBeVisible();
  await expect(section.locator('[data-sim-phases] svg')).toBeVisible();
  await expect(section.locator('.sim-title')).toBeVisible();
  await context.close();
});

test('the first load replays the recorded run; the runner, parser and command layer come with the console', async ({ page }) => {
  const errors = watchErrors(page);
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await openPlayer(page);
  await expect(player(page)).toHaveAttribute('data-scenario-replay', /\.json$/);
  const replay = (await player(page).getAttribute('data-scenario-replay'))!;
  expect(fetched).toContain(replay);
  const heavy = (p: string) => /\/tools\.[\w-]+\.js$/.test(p) || p.endsWith(`/${SCENARIO}.yaml`);
  expect(fetched.filter(heavy)).toEqual([]);
  // Only the page's language's interface strings come with the island.
  expect(fetched.filter((p) => /\/en\.[\w-]+\.js$/.test(p))).toHaveLength(1);
  expect(fetched.filter((p) => /\/zh\.[\w-]+\.js$/.test(p))).toEqual([]);
  await player(page).locator('.sim-console-input').focus();
  await expect.poll(() => fetched.filter(heavy).length).toBe(2);
  expect(errors()).toEqual([]);
});

test('scrubbing to 8m23s shows the article’s row, the same output as podlife simulate, and the phase', async ({ page }) => {
  const errors = watchErrors(page);
  await openPlayer(page);
  await scrubTo(page, AT_8M23S);
  await expect(player(page).locator('.sim-clock')).toContainText('8m23s');
  const pods = panel(page, 'pods');
  await expect(pods).toContainText('CrashLoopBackOff');
  await expect(pods).toContainText('6 (2m46s ago)');
  await expect(pods).toHaveText(simulate(AT_8M23S, 'kubectl get pods -o wide'));
  await expect(panel(page, 'events')).toHaveText(simulate(AT_8M23S, 'kubectl get events'));
  await expect(panel(page, 'containers')).toHaveText(simulate(AT_8M23S, 'crictl ps'));
  // The status YAML is the pod's .status as kubectl prints it, with the last event's changes marked.
  const yaml = simulate(AT_8M23S, 'kubectl get pod crash-test -o yaml');
  const status = yaml.slice(yaml.indexOf('\nstatus:') + 1);
  const shown = await panel(page, 'status').evaluate((pre) =>
    [...pre.querySelectorAll('.sim-line:not(.sim-line-removed)')].map((l) => l.textContent).join(''),
  );
  expect(shown).toBe(status);
  // Phase Running, marked in the phase state diagram.
  await expect(player(page).locator('.sim-phase-now')).toHaveText('Running');
  await expect(player(page).locator('svg .sim-phase-current')).toHaveCount(1);
  expect(await player(page).locator('svg .sim-phase-current').getAttribute('id')).toMatch(/state-Running-\d+$/);
  expect(errors()).toEqual([]);
});

test('the trace is the runner’s, and the status panel marks what an event changed', async ({ page }) => {
  const errors = watchErrors(page);
  await openPlayer(page);
  const run = runScenario(scenario);
  const rows = player(page).locator('.sim-trace-row');
  await expect(rows).toHaveCount(run.trace.length);
  await expect(rows.last().locator('.sim-trace-detail')).toHaveText(run.trace[run.trace.length - 1].detail);
  // The first event at whose time the pod is Running: the phase line changed there.
  const phaseAt = (t: number) => run.engine.stateAt(t).pods.find((p) => p.metadata.name === 'crash-test')?.status.phase;
  const i = run.trace.findIndex((e) => phaseAt(e.t) === 'Running');
  expect(i).toBeGreaterThan(0);
  await rows.nth(i).locator('button').click();
  const status = panel(page, 'status');
  await expect(status.locator('del.sim-line-removed', { hasText: /^\s*phase: Pending\s*$/ })).toHaveCount(1);
  await expect(status.locator('ins.sim-line-added', { hasText: /^\s*phase: Running\s*$/ })).toHaveCount(1);
  await expect(player(page).locator('.sim-phase-now')).toHaveText('Running');
  // One event earlier, the pod is still Pending.
  await player(page).getByRole('button', { name: 'Step back to the previous event' }).click();
  await expect(player(page).locator('.sim-phase-now')).toHaveText(phaseAt(run.trace[i - 1].t) ?? '');
  expect(errors()).toEqual([]);
});

test('the URL keeps the moment, and loading it restores that moment', async ({ page }) => {
  const errors = watchErrors(page);
  await openPlayer(page);
  // loading the player does not touch the address; moving does
  expect(new URL(page.url()).search).toBe('');
  await scrubTo(page, AT_8M23S);
  await expect(page).toHaveURL(/[?&]scenario=crash-loop&t=503s/);
  const shared = page.url();

  const fresh = await page.context().newPage();
  const freshErrors = watchErrors(fresh);
  await fresh.goto(shared);
  // The shared moment mounts its player at once and brings it into view.
  await expect(player(fresh).locator('.sim-clock')).toContainText('8m23s');
  await expect(player(fresh).locator('.sim-live')).toBeInViewport();
  await expect(panel(fresh, 'pods')).toContainText('6 (2m46s ago)');
  await expect(player(fresh).locator('.sim-scrubber')).toHaveAttribute('aria-valuetext', '8m23s');

  // A query for another scenario leaves this player at the start.
  await fresh.goto(`${url}?scenario=nginx&t=503s`);
  await player(fresh).scrollIntoViewIfNeeded();
  await expect(player(fresh).locator('.sim-clock')).toContainText(/^0s/);
  expect([...errors(), ...freshErrors()]).toEqual([]);
});

test('the address follows the moment once the reader pauses; a link followed at once still leaves the moment in its entry', async ({ page }) => {
  const errors = watchErrors(page);
  await openPlayer(page);
  const scrubber = player(page).locator('.sim-scrubber');
  const clock = player(page).locator('.sim-clock-now');
  await scrubber.focus();
  // a run of steps: the address is written once the run ends, with where it ended
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await expect(clock).toHaveText('5s');
  await expect.poll(() => readMomentOf(page.url())).toBe('5s');
  // one more step, and at once a link to another chapter: the entry left behind records the step
  await page.keyboard.press('ArrowRight');
  const here = new URL(page.url()).pathname;
  const other = await page.evaluate((path) => [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].map((a) => a.href).find((h) => {
    const u = new URL(h);
    return u.origin === location.origin && u.pathname !== path && /^\/en\/[^/]+\/$/.test(u.pathname);
  }), here);
  expect(other, 'a link to another English chapter').toBeTruthy();
  await page.locator(`a[href="${new URL(other!).pathname}"]`).first().click();
  await expect(page).toHaveURL(other!);
  await page.goBack();
  expect(readMomentOf(page.url())).toBe('6s');
  await expect(clock).toHaveText('6s');
  expect(errors()).toEqual([]);
});

/** The first player on the chapter that also quotes SyncPod, mounted. */
async function openStepPlayer(page: Page, at = stepUrl) {
  await page.goto(at);
  const section = page.locator('[data-sim-player]').first();
  await section.scrollIntoViewIfNeeded();
  await expect(section.locator('.sim-live')).toBeVisible();
  return section;
}

test('clicking a SyncPod#4 trace event moves time there and highlights that step in the excerpt', async ({ page }) => {
  const errors = watchErrors(page);
  const section = await openStepPlayer(page);
  const event = section.locator('.sim-trace-row[data-key="SyncPod#4"] button').first();
  const time = (await event.locator('.sim-trace-time').textContent()) ?? '';
  await event.click();
  await expect(section.locator('.sim-clock-now')).toHaveText(time);
  await expect(event).toHaveAttribute('aria-current', 'step');
  const step = page.locator('[data-step-key="SyncPod#4"]').first();
  await expect(step).toHaveClass(/\bsim-active-step\b/);
  await expect(step).toBeInViewport();
  // Only the current event's step is lit.
  await expect(page.locator('.sim-active-step:not([data-step-key="SyncPod#4"])')).toHaveCount(0);
  expect(errors()).toEqual([]);
});

test('from the code a trace event jumped to, Back returns to the player and the chosen event, at the moment chosen', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  const section = await openStepPlayer(page);
  const event = section.locator('.sim-trace-row[data-key="SyncPod#4"] button').first();
  await event.scrollIntoViewIfNeeded();
  const step = page.locator('[data-step-key="SyncPod#4"]').first();
  await expect(step, 'the SyncPod#4 excerpt should be out of sight while the trace is read').not.toBeInViewport();
  const time = (await event.locator('.sim-trace-time').textContent()) ?? '';
  const top = () => event.evaluate((el) => el.getBoundingClientRect().top);
  const before = await top();
  await event.click();
  await expect(step).toBeInViewport();
  await expect(page).toHaveURL(/#syncpod-4$/);
  const back = page.locator('.sim-return');
  await expect(back).toBeVisible();
  await expect(back).toBeFocused();
  await expect(back).toBeInViewport();

  await page.goBack();
  await expect(event).toBeInViewport();
  await expect(event).toBeFocused();
  await expect(back).toHaveCount(0);
  // where it was on the screen (the panels above it may have grown by a line at the chosen moment)
  await expect(event).toBeInViewport({ ratio: 1 });
  expect(Math.abs((await top()) - before), 'the event is about where it was on the screen').toBeLessThan(40);
  // the player stays at the chosen event, and the URL it returned to says so
  await expect(section.locator('.sim-clock-now')).toHaveText(time);
  await expect(event).toHaveAttribute('aria-current', 'step');
  expect(new URL(page.url()).hash).toBe('');
  expect(readMomentOf(page.url())).toBe(await section.locator('.sim-clock-now').textContent());

  // Forward: the code again, with its way back, which still returns
  await page.goForward();
  await expect(step).toBeInViewport();
  await expect(back).toBeVisible();
  await back.click();
  await expect(event).toBeInViewport();
  await expect(event).toBeFocused();
  await expect(back).toHaveCount(0);
  expect(errors()).toEqual([]);
});

test('keyboard, on the Chinese page: Enter on a trace event, then Enter on “回到模拟” returns the focus to that event', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  const zhStepUrl = chapterWhere('zh', 'a player and the SyncPod#4 excerpt on one page', (html) => html.includes('data-sim-player') && html.includes('data-step-key="SyncPod#4"'));
  const section = await openStepPlayer(page, zhStepUrl);
  const event = section.locator('.sim-trace-row[data-key="SyncPod#4"] button').first();
  await event.scrollIntoViewIfNeeded();
  await event.focus();
  await page.keyboard.press('Enter');
  const step = page.locator('[data-step-key="SyncPod#4"]').first();
  await expect(step).toBeInViewport();
  const back = page.getByRole('link', { name: '回到模拟' });
  await expect(back).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(event).toBeInViewport();
  await expect(event).toBeFocused();
  await expect(step).not.toBeInViewport();
  // the trace's keys work again from there
  await page.keyboard.press('End');
  await expect(section.locator('.sim-trace-row button').last()).toBeFocused();
  expect(errors()).toEqual([]);
});

test('following a step anchor in an excerpt jumps the player to that step and filters the trace', async ({ page }) => {
  const errors = watchErrors(page);
  const section = await openStepPlayer(page);
  await section.getByRole('slider').focus();
  await page.keyboard.press('End');
  const rows = section.locator('.sim-trace-row');
  const all = await rows.count();
  await page.locator('[data-step-key="SyncPod#4"] a.excerpt-step-link').first().click();
  await expect(page).toHaveURL(/#syncpod-4$/);
  await expect(section.locator('.sim-trace-filter')).toBeVisible();
  await expect(section.locator('.sim-trace-filter code')).toHaveText('SyncPod#4');
  const visible = section.locator('.sim-trace-row:visible');
  expect(await visible.count()).toBeGreaterThan(0);
  expect(await visible.count()).toBeLessThan(all);
  for (const key of await visible.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.key))) expect(key).toBe('SyncPod#4');
  // Time moved back to the first SyncPod#4 event; stepping forward stays within the step's events.
  const first = await visible.first().locator('.sim-trace-time').textContent();
  await expect(section.locator('.sim-clock-now')).toHaveText(first ?? '');
  await expect(section.locator('.sim-trace-current')).toHaveAttribute('data-key', 'SyncPod#4');
  const next = section.getByRole('button', { name: 'Step to the next event' });
  if ((await visible.count()) > 1) {
    await next.click();
    await expect(section.locator('.sim-trace-current')).toHaveAttribute('data-key', 'SyncPod#4');
    await expect(section.locator('.sim-clock-now')).toHaveText((await visible.nth(1).locator('.sim-trace-time').textContent()) ?? '');
  } else {
    await expect(next).toHaveAttribute('aria-disabled', 'true');
  }
  await section.locator('.sim-trace-filter button').click();
  await expect(section.locator('.sim-trace-filter')).toBeHidden();
  await expect(section.locator('.sim-trace-row:visible')).toHaveCount(all);
  expect(errors()).toEqual([]);
});

test('keyboard: the scrubber moves by seconds and events, space plays and pauses', async ({ page }) => {
  const errors = watchErrors(page);
  await openPlayer(page);
  const scrubber = player(page).locator('.sim-scrubber');
  const clock = player(page).locator('.sim-clock-now');
  await scrubber.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(clock).toHaveText('2s');
  await page.keyboard.press('End');
  await expect(clock).toHaveText(await player(page).locator('.sim-clock-end').innerText());
  await page.keyboard.press('PageUp');
  const onEvent = await clock.innerText();
  await expect(player(page).locator('.sim-trace-current .sim-trace-time')).toHaveText(onEvent);
  await page.keyboard.press('Home');
  await expect(clock).toHaveText('0s');
  await page.keyboard.press('Space');
  await expect(player(page).locator('.sim-buttons button').nth(1)).toHaveAttribute('aria-label', 'Pause');
  await expect(clock).not.toHaveText('0s');
  await page.keyboard.press('Space');
  await expect(player(page).locator('.sim-buttons button').nth(1)).toHaveAttribute('aria-label', 'Play');
  // The step buttons are labelled and reachable.
  await player(page).getByRole('button', { name: 'Step to the next event' }).click();
  await player(page).getByRole('button', { name: 'Step back to the previous event' }).click();
  expect(errors()).toEqual([]);
});

test('keyboard: the trace is one Tab stop, and the arrow keys, Home and End move through its events', async ({ page }) => {
  const errors = watchErrors(page);
  await openPlayer(page);
  const list = player(page).locator('.sim-trace-list');
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-index') ?? null);
  // one event (and its link to another chapter, if it has one) takes Tab: not the hundreds of rows
  const stops = await list.evaluate((ol) => [...ol.querySelectorAll<HTMLElement>('button, a')].filter((el) => el.tabIndex >= 0).length);
  expect(stops).toBeGreaterThanOrEqual(1);
  expect(stops).toBeLessThanOrEqual(2);
  await list.locator('button[tabindex="0"]').focus();
  const at = Number(await focused());
  await page.keyboard.press('ArrowDown');
  expect(await focused()).toBe(String(at + 1));
  await page.keyboard.press('End');
  expect(await focused()).toBe(String((await list.locator('button[data-index]').count()) - 1));
  await page.keyboard.press('Home');
  expect(await focused()).toBe('0');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(player(page).locator('.sim-trace-current button')).toHaveAttribute('data-index', '1');
  // Tab leaves the list at once (after the event's link to another chapter, when it has one)
  const inList = () => page.evaluate(() => document.activeElement?.closest('.sim-trace-list') !== null);
  await page.keyboard.press('Tab');
  if (await inList()) {
    expect(await page.evaluate(() => document.activeElement?.classList.contains('sim-trace-goto'))).toBe(true);
    await page.keyboard.press('Tab');
  }
  expect(await inList()).toBe(false);
  expect(errors()).toEqual([]);
});

test('the console runs podlife simulate’s commands at the current time, with history and clear errors', async ({ page }) => {
  const errors = watchErrors(page);
  await openPlayer(page);
  await scrubTo(page, AT_8M23S);
  const input = player(page).locator('.sim-console-input');
  const log = player(page).locator('.sim-console-log');
  await input.fill(`kubectl get pod crash-test -o jsonpath='{.status.phase}'`);
  await input.press('Enter');
  await expect(log.locator('.sim-console-stdout').last()).toHaveText('Running\n');

  await input.fill('kubectl describe pod crash-test');
  await input.press('Enter');
  await expect(log.locator('.sim-console-stdout').last()).toHaveText(simulate(AT_8M23S, 'kubectl describe pod crash-test'));

  // the newer kubectl forms run in the page as in the terminal
  for (const line of [
    'kubectl describe node worker01',
    'kubectl get pods,events -o wide',
    "kubectl get pod crash-test -o custom-columns=NAME:.metadata.name,RESTARTS:.status.containerStatuses[0].restartCount -L run",
    // crictl's verbose views and image columns come with the console's lazily loaded chunk
    'crictl pods -v',
    'crictl ps -a -v',
    'crictl images --digests --pinned',
    // the cluster's services: `get all` prints a table per type with its kind, and describe reads a service
    'kubectl get all -A',
    'kubectl describe svc kube-dns -n kube-system',
    // kubectl wait watches the recorded run on from the moment shown
    'kubectl wait --for=condition=PodScheduled pod/crash-test',
    // Go templates run in the page too
    `kubectl get pods -o go-template='{{range .items}}{{.metadata.name}}{{range .status.containerStatuses}} {{.restartCount}}{{with .lastState.terminated}} exit {{.exitCode}}{{end}}{{end}}{{"\\n"}}{{end}}'`,
  ]) {
    await input.fill(line);
    await input.press('Enter');
    await expect(log.locator('.sim-console-stdout').last()).toHaveText(simulate(AT_8M23S, line));
  }

  // so does get -w, up to where the recorded run ends (the terminal's follows the cluster on), and says so
  await input.fill('kubectl get pod crash-test -w');
  await input.press('Enter');
  await expect(log.locator('.sim-console-stdout').last()).toHaveText(simulate(AT_8M23S, 'kubectl get pod crash-test'));
  await expect(log.locator('.sim-console-stderr').last()).toHaveText(/^podlife: the run shown ends at \d+m\d+s: the watch stops there/);

  // kubectl exec changes what it runs in, so the page runs the scenario again with it; between its runs the
  // crash-looping container is not running, and the kubelet says so
  await input.fill('kubectl exec crash-test -- ls /tmp');
  await input.press('Enter');
  await expect(log.locator('.sim-console-stderr').last()).toHaveText(simulate(AT_8M23S, 'kubectl exec crash-test -- ls /tmp'));
  await expect(log.locator('.sim-console-stderr').last()).toContainText('container not found ("crash-test")');

  await input.fill('journalctl -u kubelet | grep crash-test | tail -3');
  await input.press('Enter');
  await expect(log.locator('.sim-console-stdout').last()).toHaveText(simulate(AT_8M23S, 'journalctl -u kubelet | grep crash-test | tail -3'));

  await input.fill('ls /');
  await input.press('Enter');
  await expect(log.locator('.sim-console-stderr').last()).toHaveText(simulate(AT_8M23S, 'ls /'));
  await expect(log.locator('.sim-console-stderr').last()).toContainText('ls: command not found');

  // ↑ walks back through the history, ↓ comes forward again.
  await input.press('ArrowUp');
  await expect(input).toHaveValue('ls /');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('journalctl -u kubelet | grep crash-test | tail -3');
  await input.press('ArrowDown');
  await input.press('ArrowDown');
  await expect(input).toHaveValue('');
  expect(errors()).toEqual([]);
});

test('a broken manifest shows an inline error with its line; the run on screen and the page keep working', async ({ page }) => {
  const errors = watchErrors(page);
  await openPlayer(page);
  await scrubTo(page, AT_8M23S);
  const before = await panel(page, 'pods').textContent();
  const editor = player(page).locator('.sim-manifest');
  await editor.locator('summary').click();
  const text = editor.locator('textarea');
  // The editor brings the runner and the parser the first time it opens, then shows the scenario's pod.
  await expect(text).toBeEnabled();
  const original = await text.inputValue();
  expect(original).toContain('kind: Pod');
  expect(original).toContain('name: crash-test');
  const message = editor.locator('.sim-manifest-message');
  const run = editor.getByRole('button', { name: 'Run with this pod' });

  // Not YAML.
  await text.fill('apiVersion: v1\nkind: Pod\nmetadata:\n  name: crash-test\n spec: [\n');
  await run.click();
  await expect(message).toHaveAttribute('role', 'alert');
  await expect(message).toContainText(/^Line \d+: /);
  await expect(text).toHaveAttribute('aria-invalid', 'true');
  await expect(panel(page, 'pods')).toHaveText(before ?? '');

  // YAML, but a pod the API server refuses: the error names the field's line.
  await text.fill(original.replace(/image: .*/, 'image: ""'));
  await run.click();
  const imageLine = original.split('\n').findIndex((l) => /^\s*image: /.test(l)) + 1;
  await expect(message).toContainText(`Line ${imageLine}: `);
  await expect(message).toContainText('spec.containers[0].image: Required value');
  await editor.getByRole('button', { name: `Line ${imageLine}:` }).click();
  expect(await text.evaluate((t: HTMLTextAreaElement) => t.value.slice(t.selectionStart, t.selectionEnd))).toBe('    image: ""');

  // The page still works: scrubbing, the trace and the console.
  await scrubTo(page, 60_000);
  await expect(player(page).locator('.sim-clock-now')).toHaveText('1m0s');
  await expect(panel(page, 'pods')).toHaveText(simulate(60_000, 'kubectl get pods -o wide'));

  await expect(player(page).locator('.sim-badge-edited')).toBeHidden();
  // A valid edit re-simulates: a container that keeps running never restarts.
  await text.fill(original.replace('- exit 1', '- sleep 3600'));
  await run.click();
  await expect(message).toHaveAttribute('role', 'status');
  await scrubTo(page, AT_8M23S);
  await expect(panel(page, 'pods')).toContainText(/crash-test\s+1\/1\s+Running\s+0\s+8m23s/);
  await expect(player(page).locator('.sim-badge-edited')).toBeVisible();
  // Reset brings back the scenario's own pod.
  await editor.getByRole('button', { name: 'Reset to the scenario' }).click();
  await expect(text).toHaveValue(original);
  await expect(panel(page, 'pods')).toContainText('6 (2m46s ago)');
  await expect(player(page).locator('.sim-badge-edited')).toBeHidden();
  expect(errors()).toEqual([]);
});

test('a console command that changes the cluster re-simulates from that moment', async ({ page }) => {
  const errors = watchErrors(page);
  await openPlayer(page);
  await scrubTo(page, 5 * 60_000);
  const input = player(page).locator('.sim-console-input');
  await input.fill('kubectl delete pod crash-test');
  await input.press('Enter');
  await expect(player(page).locator('.sim-console-stdout').last()).toContainText('pod "crash-test" deleted');
  await expect(player(page).locator('.sim-console-note').last()).toContainText('5m0s');
  await expect(player(page).locator('.sim-badge-edited')).toBeVisible();
  await scrubTo(page, 5 * 60_000 + 40_000);
  await expect(panel(page, 'pods')).toHaveText(/No resources found/);
  expect(errors()).toEqual([]);
});

test('a node typed into the console changes the scheduling: cordon keeps a new pod Pending, uncordon lets it run', async ({ page }) => {
  const errors = watchErrors(page);
  await openPlayer(page);
  await scrubTo(page, 5 * 60_000);
  const input = player(page).locator('.sim-console-input');
  const type = async (line: string) => {
    await input.fill(line);
    await input.press('Enter');
  };
  await type('kubectl cordon worker01');
  await expect(player(page).locator('.sim-console-stdout').last()).toHaveText('node/worker01 cordoned');
  await type('kubectl run web --image=m.daocloud.io/docker.io/busybox --command -- sleep 3600');
  await expect(player(page).locator('.sim-console-stdout').last()).toHaveText('pod/web created');
  await scrubTo(page, 5 * 60_000 + 20_000);
  await expect(panel(page, 'pods')).toHaveText(/\nweb +0\/1 +Pending +0 +20s/);
  await type('kubectl get events --field-selector involvedObject.kind=Node -o custom-columns=REASON:.reason,MESSAGE:.message');
  await expect(player(page).locator('.sim-console-stdout').last()).toHaveText(/NodeNotSchedulable +Node worker01 status is now: NodeNotSchedulable/);
  await type('kubectl uncordon worker01');
  await expect(player(page).locator('.sim-console-stdout').last()).toHaveText('node/worker01 uncordoned');
  await scrubTo(page, 5 * 60_000 + 40_000);
  await expect(panel(page, 'pods')).toHaveText(/\nweb +1\/1 +Running +0 +40s/);
  expect(errors()).toEqual([]);
});

test('the mounted player has no serious accessibility violations, in light and dark themes', async ({ page }) => {
  test.setTimeout(90_000); // axe walks a trace of some two hundred buttons, twice
  const errors = watchErrors(page);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await openPlayer(page, `?scenario=${SCENARIO}&t=503s`);
    await player(page).locator('.sim-manifest summary').click();
    const scan = await axe(page).include(`[data-sim-player][data-scenario="${SCENARIO}"]`).analyze();
    const serious = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${scheme} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`)).toEqual([]);
  }
  expect(errors()).toEqual([]);
});

test('on a phone the panels stack and the player fits the screen (wide outputs scroll inside their panels)', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayer(page, `?scenario=${SCENARIO}&t=503s`);
  const live = player(page).locator('.sim-live');
  const fit = await live.evaluate((el) => ({ right: el.getBoundingClientRect().right, scroll: el.scrollWidth, client: el.clientWidth, view: innerWidth }));
  expect(fit.right).toBeLessThanOrEqual(fit.view);
  expect(fit.scroll).toBeLessThanOrEqual(fit.client);
  const boxes = await Promise.all(
    (['pods', 'events', 'status', 'containers'] as const).map((n) => player(page).locator(`.sim-panel-${n}`).boundingBox()),
  );
  for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.y).toBeGreaterThan(boxes[i - 1]!.y);
  expect(errors()).toEqual([]);
});

test('the Chinese chapter’s player speaks Chinese and runs the same simulation', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`${chapterWithPlayer('zh')}?scenario=${SCENARIO}&t=503s`);
  await player(page).scrollIntoViewIfNeeded();
  await expect(player(page).getByRole('button', { name: '前进到下一个事件' })).toBeVisible();
  await expect(panel(page, 'pods')).toHaveText(simulate(AT_8M23S, 'kubectl get pods -o wide'));
  // the scenario's Chinese title (titles.zh), not its English one
  expect(parsed.titles?.zh).toBeTruthy();
  await expect(player(page).locator('.sim-live-title')).toHaveText(parsed.titles!.zh!);
  await expect(player(page)).toHaveAttribute('aria-label', `模拟: ${parsed.titles!.zh}`);
  expect(errors()).toEqual([]);
});

test('the English chapter’s player names the scenario by its title', async ({ page }) => {
  await openPlayer(page);
  await expect(player(page).locator('.sim-live-title')).toHaveText(parsed.title);
  await expect(player(page)).toHaveAttribute('aria-label', `Simulation: ${parsed.title}`);
});
