import { describe, expect, it } from 'vitest';
import { findChromium, SYSTEM_CHROMIUM } from '../../../src/pipeline/browser.ts';

describe('findChromium looks in the documented order', () => {
  const own = '/root/.cache/ms-playwright/chromium-1234/chrome-linux/chrome';
  const custom = '/opt/chromium/chrome';
  const find = (present: string[], env: Record<string, string> = {}) =>
    findChromium({ env, exists: (p) => present.includes(p), playwrightPath: () => own });

  it("prefers Playwright's own browser", () => {
    expect(find([own, custom, SYSTEM_CHROMIUM], { PLAYWRIGHT_CHROMIUM_EXECUTABLE: custom })).toEqual({ executablePath: own, source: 'playwright' });
  });
  it('then $PLAYWRIGHT_CHROMIUM_EXECUTABLE', () => {
    expect(find([custom, SYSTEM_CHROMIUM], { PLAYWRIGHT_CHROMIUM_EXECUTABLE: custom })).toEqual({ executablePath: custom, source: 'env' });
  });
  it('ignores $PLAYWRIGHT_CHROMIUM_EXECUTABLE when it points at nothing', () => {
    expect(find([SYSTEM_CHROMIUM], { PLAYWRIGHT_CHROMIUM_EXECUTABLE: custom })).toEqual({ executablePath: SYSTEM_CHROMIUM, source: 'system' });
  });
  it('then /usr/bin/chromium', () => {
    expect(find([SYSTEM_CHROMIUM])).toEqual({ executablePath: SYSTEM_CHROMIUM, source: 'system' });
  });
  it('and reports none when there is none', () => {
    expect(find([])).toBeNull();
  });
});
