// One headless Chromium per build, shared by every diagram of every chapter.
//
// The diagrams' page (mermaid-page.ts) runs in one Chromium per build: sharedBrowser() starts it on first use
// (again only if it went away), and closeSharedBrowser() ends it when the build or the dev server is done (the Astro
// integration calls it).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright';

export interface FoundBrowser {
  executablePath: string;
  /** Where it was found: Playwright's own download, $PLAYWRIGHT_CHROMIUM_EXECUTABLE, or the system's. */
  source: 'playwright' | 'env' | 'system';
}

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export interface FindOptions {
  env?: NodeJS.ProcessEnv;
  exists?: (path: string) => boolean;
  /** Where Playwright's own downloaded Chromium would be. */
  playwrightPath?: () => string | undefined;
}

function playwrightOwnPath(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** Find a Chromium in the documented order: Playwright's own; $PLAYWRIGHT_CHROMIUM_EXECUTABLE; /usr/bin/chromium. */
export function findChromium(options: FindOptions = {}): FoundBrowser | null {
  const { env = process.env, exists = existsSync, playwrightPath = playwrightOwnPath } = options;
  const own = playwrightPath();
  if (own && exists(own)) return { executablePath: own, source: 'playwright' };
  const fromEnv = env.PLAYWRIGHT_CHROMIUM_EXECUTABLE;
  if (fromEnv && exists(fromEnv)) return { executablePath: fromEnv, source: 'env' };
  if (exists(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, source: 'system' };
  return null;
}

/** Flags that keep Chromium quiet and working as root on a machine without network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

let shared: Promise<Browser> | undefined;
let launches = 0;

/** How many times a browser was actually started in this process (tests use it to prove sharing). */
export function browserLaunchCount(): number {
  return launches;
}

/** The build's one browser, launched on first use, and again if it went away (closed, or its process died). */
export function sharedBrowser(found: FoundBrowser): Promise<Browser> {
  if (shared) return shared;
  launches += 1;
  const launching = chromium.launch({ executablePath: found.executablePath, args: CHROMIUM_ARGS });
  shared = launching;
  launching.then(
    (browser) => browser.on('disconnected', () => {
      if (shared === launching) shared = undefined;
    }),
    () => {
      if (shared === launching) shared = undefined;
    },
  );
  return launching;
}

export async function closeSharedBrowser(): Promise<void> {
  const current = shared;
  shared = undefined;
  if (!current) return;
  const browser = await current.catch(() => undefined);
  if (!browser) return;
  // Close the contexts first (waiting for any close already in flight), then the browser.
  await Promise.all(browser.contexts().map((context) => context.close().catch(() => {})));
  await browser.close().catch(() => {});
}
