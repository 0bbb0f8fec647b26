// The console and the manifest editor survive any input: random and hostile strings typed by a seeded
// generator; every answer shows inline, nothing throws, and the player keeps working afterwards.
import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import { builtChapters, mountedPlayer, scrubTo, watchErrors } from './helpers.ts';

const HOSTILE = [
  '', ' ', '\\', "'", '"', '`', '$(reboot)', '; rm -rf /', '| | |', '&&', 'kubectl', 'kubectl get', 'kubectl get pods -o',
  'kubectl get pods -o jsonpath={', "kubectl get pods -o jsonpath='{range .items[*]}'", 'kubectl get pod -o yaml --sort-by=',
  'jq', 'grep -A', 'sudo', 'sudo sudo sudo', 'crictl inspect', 'journalctl --since "yesterday"', 'x'.repeat(5000),
  '<img src=x onerror=alert(1)>', '</script><script>alert(1)</script>', '\u0000\u0007\u001b[31m', '😀 🚢 Pod 的一生', '\uD800',
  'kubectl get pods | head -n -1', 'kubectl delete pod crash-test --grace-period=-5', 'kubectl patch pod crash-test -p {', 'kubectl run',
];

const MANIFESTS = [
  '', '---', '- a\n- b', 'kind: Pod', 'apiVersion: v1\nkind: Service', '{', ']]]', 'a: &x\n  b: *x\n', '!!binary xyz',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: "Bad_Name"}\nspec: {containers: [{name: c, image: busybox}]}',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: []}',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: busybox, resources: {requests: {cpu: lots}}}]}',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {restartPolicy: Sometimes, containers: [{name: c, image: busybox}]}',
];

const url = () => (builtChapters().find((c) => c.lang === 'en' && c.slug === 'restarts') ?? builtChapters()[0]).url;

test('the console answers every input inline and keeps working', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await page.goto(url());
  const player = await mountedPlayer(page.locator('[data-sim-player]').first());
  const input = player.locator('.sim-console-input');
  const random = fc.sample(fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...HOSTILE)), { numRuns: 60, seed: 42 });
  const last = player.locator('.sim-console-entry').last();
  for (const line of [...HOSTILE, ...random]) {
    await input.fill(line);
    // What the text field holds (a browser turns lone surrogates into U+FFFD and drops line breaks).
    const typed = await input.inputValue();
    await input.press('Enter');
    if (typed.trim() === '') continue;
    // The answer is the newest entry: the command as typed (the log keeps the latest entries only).
    await expect(last.locator('.sim-console-cmd')).toHaveText(`$ ${typed}\n`);
    await expect(last).not.toHaveText(`$ ${typed}\n`); // and something under it: output or an error
  }
  // Still works: move time (the console answers at the player's moment), then a real command answers.
  await scrubTo(player, 8 * 60_000 + 23_000);
  await input.fill('kubectl get nodes');
  await input.press('Enter');
  await expect(player.locator('.sim-console-entry').last()).toContainText(/worker01\s+Ready/);
  await expect(player.locator('.sim-clock-now')).toHaveText('8m23s');
  expect(errors()).toEqual([]);
});

test('the manifest editor reports every broken manifest inline and keeps the previous run', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await page.goto(url());
  const player = await mountedPlayer(page.locator('[data-sim-player]').first());
  const editor = player.locator('.sim-manifest');
  await editor.locator('summary').click();
  const text = editor.locator('textarea');
  await expect(text).toBeEnabled();
  const pods = player.locator('.sim-panel-pods pre');
  const before = await pods.textContent();
  const random = fc.sample(fc.string({ maxLength: 200 }), { numRuns: 25, seed: 7 });
  for (const manifest of [...MANIFESTS, ...random]) {
    await text.fill(manifest);
    await editor.getByRole('button', { name: 'Run with this pod' }).click();
    await expect(editor.locator('.sim-manifest-message')).toHaveAttribute('role', 'alert');
    await expect(editor.locator('.sim-manifest-message')).not.toBeEmpty();
    await expect(pods).toHaveText(before ?? '');
  }
  expect(errors()).toEqual([]);
});
