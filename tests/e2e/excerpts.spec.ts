// Go excerpts in a real Chromium: true upstream line numbers, permalinks, step anchors that scroll to and
// highlight their lines (with CSS only), call links across chapters, annotations set apart, and the copy
// button copying upstream code without the author's notes.
import { type Locator, type Page, expect, test } from '@playwright/test';
import { axe, watchErrors } from './helpers.ts';

const SYNC = '/en/kubelet-sync/';
const PERMALINK = 'https://github.com/kubernetes/kubernetes/blob/v1.36.2/pkg/kubelet/kuberuntime/kuberuntime_manager.go#L';

/** The gutter shows what CSS puts in a line's ::before. */
function gutter(line: Locator): Promise<string> {
  return line.evaluate((el) => getComputedStyle(el, '::before').content.replace(/^"|"$/g, ''));
}

function background(line: Locator): Promise<string> {
  return line.evaluate((el) => getComputedStyle(el).backgroundColor);
}

const TRANSPARENT = 'rgba(0, 0, 0, 0)';

async function inViewport(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  const height = page.viewportSize()!.height;
  return box !== null && box.y >= 0 && box.y < height;
}

for (const lang of ['en', 'zh'] as const) {
  test(`${lang}: SyncPod's gutter starts at the real upstream line 1450 and the permalink spans the numbered lines`, async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto(`/${lang}/kubelet-sync/`);
    const figure = page.locator('figure.excerpt#excerpt-syncpod');
    await expect(figure).toBeVisible();
    const first = figure.locator('pre .line').first();
    await expect(first).toHaveAttribute('data-line', '1450');
    expect(await gutter(first)).toBe('1450');
    await expect(first).toContainText('func (m *kubeGenericRuntimeManager) SyncPod(');

    const numbers = (await figure.locator('pre .line[data-line]').evaluateAll((ls) => ls.map((l) => Number(l.getAttribute('data-line')))));
    expect(numbers.slice(0, 4)).toEqual([1450, 1451, 1452, 1453]);
    const last = Math.max(...numbers);
    await expect(figure.locator('a.excerpt-permalink')).toHaveAttribute('href', `${PERMALINK}1450-L${last}`);
    await expect(figure.locator('.excerpt-version')).toHaveText('Kubernetes v1.36.2');
    // The lock starts unverified (v1.36.2 is not reachable from the build machines): the page says so.
    await expect(figure.locator('.excerpt-status')).toHaveText(lang === 'en' ? 'not yet verified against v1.36.2' : '尚未与 v1.36.2 核对');
    expect(errors()).toEqual([]);
  });
}

test('elisions show a gap marker, annotations are set apart and carry no line number', async ({ page }) => {
  await page.goto('/zh/deletion/');
  const figure = page.locator('figure#excerpt-killcontainer');
  const gap = figure.locator('.line.excerpt-gap').first();
  await expect(gap).toHaveText(/\/\/ \.\.\./);
  expect(await gutter(gap)).toBe('⋮');

  const note = figure.locator('.line.excerpt-note').first();
  await expect(note).toContainText('1. 获取 grace period');
  await expect(note).not.toHaveAttribute('data-line', /.*/);
  expect(await gutter(note)).toBe('✎');
  const noteColor = await note.locator('.excerpt-note-text').evaluate((el) => getComputedStyle(el).color);
  const codeColor = await figure.locator('.line[data-line] span').first().evaluate((el) => getComputedStyle(el).color);
  expect(noteColor).not.toBe(codeColor);
  expect(await background(note)).not.toBe(TRANSPARENT);
});

test('#syncpod-4 scrolls to step 4 and highlights exactly its lines', async ({ page }) => {
  await page.goto(`${SYNC}#syncpod-4`);
  const step = page.locator('#syncpod-4');
  await expect(step).toHaveAttribute('data-step-key', 'SyncPod#4');
  await expect(step.locator('.line').first()).toContainText('// Step 4: Create a sandbox for the pod if necessary.');
  await expect.poll(() => inViewport(page, step)).toBe(true);

  const highlighted = await background(step.locator('.line').first());
  expect(highlighted).not.toBe(TRANSPARENT);
  for (const line of await step.locator(':scope > .line').all()) expect(await background(line)).toBe(highlighted);
  // Step 5 (nested in step 4's block) and step 3 keep their normal background.
  expect(await background(page.locator('#syncpod-5 .line').first())).toBe(TRANSPARENT);
  expect(await background(page.locator('#syncpod-3 .line').first())).toBe(TRANSPARENT);
});

test('hovering or focusing a step highlights it; each step line has its link', async ({ page }) => {
  await page.goto(SYNC);
  const step2 = page.locator('#syncpod-2');
  const line = step2.locator('.line').first();
  expect(await background(line)).toBe(TRANSPARENT);
  await line.hover();
  expect(await background(line)).not.toBe(TRANSPARENT);

  await page.mouse.move(0, 0);
  const link = page.locator('#syncpod-7 a.excerpt-step-link');
  await expect(link).toHaveAttribute('href', '#syncpod-7');
  await link.focus();
  expect(await background(page.locator('#syncpod-7 .line').first())).not.toBe(TRANSPARENT);
  await link.press('Enter');
  await expect(page).toHaveURL(/#syncpod-7$/);
});

test('a call to a function quoted elsewhere links to its excerpt', async ({ page }) => {
  await page.goto(SYNC);
  const call = page.locator('#excerpt-syncpod a.excerpt-call', { hasText: 'createPodSandbox' });
  await expect(call).toHaveAttribute('href', '/en/sandbox/#excerpt-createpodsandbox');
  await call.click();
  await expect(page).toHaveURL(/\/en\/sandbox\/#excerpt-createpodsandbox$/);
  const target = page.locator('figure.excerpt#excerpt-createpodsandbox');
  await expect(target).toHaveAttribute('data-excerpt', 'createPodSandbox');
  // the browser scrolls to the fragment once the new page has laid out, which can follow the URL's change: wait for it
  await expect.poll(() => inViewport(page, target)).toBe(true);
  await expect(target.locator('pre .line').first()).toHaveAttribute('data-line', '38');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the step anchor still highlights its lines (CSS only)', async ({ page }) => {
    await page.goto(`${SYNC}#syncpod-9`);
    expect(await background(page.locator('#syncpod-9 .line').first())).not.toBe(TRANSPARENT);
    await expect(page.locator('button[data-excerpt-copy]').first()).toBeHidden();
  });
});

test('the copy button copies the upstream code with its elision marks but without the annotations', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/zh/deletion/');
  const figure = page.locator('figure#excerpt-killpodwithsyncresult');
  const button = figure.locator('button[data-excerpt-copy]');
  await expect(button).toBeVisible(); // shown by components/excerpt-copy.ts, which the layout loads
  await button.click();
  await expect(button).toHaveText('已复制');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const lines = copied.split('\n');
  expect(lines[0]).toBe(
    'func (m *kubeGenericRuntimeManager) killPodWithSyncResult(ctx context.Context, pod *v1.Pod, runningPod kubecontainer.Pod, gracePeriodOverride *int64) (result kubecontainer.PodSyncResult) {',
  );
  expect(copied).toContain('\tkillContainerResults := m.killContainersWithSyncResult(ctx, pod, runningPod, gracePeriodOverride)');
  expect(copied).toContain('\t// stop sandbox, the sandbox will be removed in GarbageCollect');
  expect(copied).not.toMatch(/[\u4e00-\u9fff]/); // the Chinese annotations stay on the page
  expect(lines.at(-1)).toBe('}');
  expect(lines.length).toBe(await figure.locator('pre .line:not(.excerpt-note)').count());

  // Elided excerpts keep their `// ...` marks in the copy.
  const kill = page.locator('figure#excerpt-killcontainer');
  await kill.locator('button[data-excerpt-copy]').click();
  const elided = await page.evaluate(() => navigator.clipboard.readText());
  expect(elided).toContain('\t// ...\n');
  expect(elided).not.toContain('获取 grace period');
});

test('excerpts have no serious accessibility violations, light and dark, with a step highlighted', async ({ page }) => {
  for (const [url, scheme] of [[`${SYNC}#syncpod-4`, 'light'], ['/zh/deletion/', 'light'], [`${SYNC}#syncpod-1`, 'dark']] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(url);
    const scan = await axe(page).include('figure.excerpt').analyze();
    const serious = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${url} (${scheme}) ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`)).toEqual([]);
  }
});
