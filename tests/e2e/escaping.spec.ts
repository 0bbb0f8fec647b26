// Strings from scenarios, manifests and the console are shown as text, never as markup: hostile values go
// through the build-time outputs and through the player, nothing executes, and the text shows literally.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import rehypeStringify from 'rehype-stringify';
import remarkDirective from 'remark-directive';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { VFile } from 'vfile';
import remarkConsoleOutputs from '../../src/pipeline/remark-console-outputs.ts';
import remarkDirectives from '../../src/pipeline/remark-directives.ts';
import { builtChapters, mountedPlayer, watchErrors } from './helpers.ts';

const IMG = '<img src=x onerror=alert(1)>';
const SCRIPT = '</script><script>alert(2)</script>';

/** Fail the test if anything pops a dialog or sets the canary. */
function trap(page: Page): () => string[] {
  const fired: string[] = [];
  page.on('dialog', async (d) => {
    fired.push(`dialog: ${d.message()}`);
    await d.dismiss();
  });
  return () => fired;
}

test('build-time outputs show scenario strings as text', async ({ page }) => {
  const root = mkdtempSync(join(tmpdir(), 'podlife-xss-'));
  mkdirSync(join(root, 'content/scenarios'), { recursive: true });
  writeFileSync(
    join(root, 'content/scenarios/hostile.yaml'),
    [
      'title: "Hostile strings <b>bold</b>"',
      'cluster:',
      '  nodes: [{name: worker01, ip: 192.168.114.148, podCIDR: 10.244.5.0/24, images: [nginx:alpine]}]',
      'timeline:',
      '  - at: 0s',
      '    apply: |',
      '      apiVersion: v1',
      '      kind: Pod',
      '      metadata:',
      '        name: hostile',
      `        annotations: {note: ${JSON.stringify(IMG + SCRIPT)}}`,
      '      spec:',
      '        containers:',
      '          - name: web',
      '            image: nginx:alpine',
      `            command: [sh, -c, ${JSON.stringify(`echo '${IMG}'; sleep 3600`)}]`,
      `            env: [{name: GREETING, value: ${JSON.stringify(SCRIPT + IMG)}}]`,
      '  - at: 5s',
      '    run: kubectl describe pod hostile',
    ].join('\n') + '\n',
  );
  const markdown = [
    '```console scenario="hostile" at="5s"',
    '$ kubectl get pod hostile -o yaml',
    '$ kubectl logs hostile',
    '```',
    '',
    ':::simulation{scenario="hostile"}',
    ':::',
  ].join('\n');
  const html = String(
    await unified()
      .use(remarkParse)
      .use(remarkDirective)
      .use(remarkConsoleOutputs, { root })
      .use(remarkDirectives, { root })
      .use(remarkRehype)
      .use(rehypeStringify)
      .process(new VFile({ path: join(root, 'content/chapters/en/x.md'), value: markdown })),
  );
  const fired = trap(page);
  await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head><body>${html}</body></html>`);
  await page.waitForTimeout(200);
  expect(fired()).toEqual([]);
  expect(await page.locator('img').count()).toBe(0);
  expect(await page.locator('script').count()).toBe(0);
  expect(await page.locator('b').count()).toBe(0);
  const text = await page.locator('body').innerText();
  expect(text).toContain(`GREETING:  ${SCRIPT}${IMG}`); // describe's Environment, literally
  expect(text).toContain(IMG + SCRIPT); // the annotation in the YAML
  expect(text).toContain(`${IMG}\n`); // the container's own output, from kubectl logs
  expect(text).toContain('Hostile strings <b>bold</b>');
});

const playerUrl = () => {
  const found = builtChapters().find((c) => c.lang === 'en' && c.slug === 'restarts') ?? builtChapters().find((c) => c.lang === 'en');
  return found!.url;
};

test('the player shows manifest, console and URL strings as text', async ({ page }) => {
  const errors = watchErrors(page);
  const fired = trap(page);
  await page.goto(`${playerUrl()}?scenario=${encodeURIComponent('<script>alert(3)</script>')}&t=${encodeURIComponent(IMG)}`);
  const player = await mountedPlayer(page.locator('[data-sim-player]').first());

  // Console: hostile names and whole hostile lines come back as text.
  const input = player.locator('.sim-console-input');
  for (const line of [`kubectl get pod '${IMG}'`, `kubectl describe pod "${SCRIPT}"`, IMG, `crictl inspect '${SCRIPT}' | jq .info`]) {
    await input.fill(line);
    await input.press('Enter');
    await expect(player.locator('.sim-console-cmd').last()).toHaveText(`$ ${line}\n`);
  }
  await expect(player.locator('.sim-console-log')).toContainText(`pods "${IMG}" not found`);

  // Manifest: hostile values in an env var, an annotation and the command; run it, read it back.
  const editor = player.locator('.sim-manifest');
  await editor.locator('summary').click();
  const text = editor.locator('textarea');
  await expect(text).toBeEnabled();
  const original = await text.inputValue();
  const name = /name: (\S+)/.exec(original.slice(original.indexOf('metadata:')))![1];
  const hostile = original
    .replace(/^metadata:\n/m, `metadata:\n  annotations:\n    note: ${JSON.stringify(IMG + SCRIPT)}\n`)
    .replace(/^(\s*)image: (.*)\n/m, `$1image: $2\n$1env:\n$1- name: GREETING\n$1  value: ${JSON.stringify(SCRIPT + IMG)}\n`);
  await text.fill(hostile);
  await editor.getByRole('button', { name: 'Run with this pod' }).click();
  await expect(editor.locator('.sim-manifest-message')).toHaveAttribute('role', 'status');
  await input.fill(`kubectl describe pod ${name}`);
  await input.press('Enter');
  await expect(player.locator('.sim-console-log')).toContainText(`GREETING:  ${SCRIPT}${IMG}`);
  await input.fill(`kubectl get pod ${name} -o yaml`);
  await input.press('Enter');
  await expect(player.locator('.sim-console-log')).toContainText(IMG + SCRIPT);

  await page.waitForTimeout(200);
  expect(fired()).toEqual([]);
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.evaluate(() => [...document.scripts].filter((s) => /alert/.test(s.textContent ?? '')).length)).toBe(0);
  expect(errors()).toEqual([]);
});
