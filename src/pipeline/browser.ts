// One headless Chromium per build, shared by every diagram of every chapter.
//
// rehype-mermaid (through mermaid-isomorphic) launches a browser per render call and closes it when
// idle; here its `browserType` is given a launcher that hands out one shared browser and ignores
// close(), so a build starts Chromium at most once. `closeSharedBrowser()` ends it (the Astro
// integration calls it when the build or the dev server is done).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserType, type LaunchOptions } from 'playwright';

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

function launchShared(found: FoundBrowser, options: LaunchOptions = {}): Promise<Browser> {
  shared ??= (async () => {
    launches += 1;
    return chromium.launch({
      ...options,
      executablePath: found.executablePath,
      args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
    });
  })();
  return shared;
}

/**
 * mermaid-isomorphic closes its context without awaiting it (`context.close()` in a `finally`), so a
 * build that ends — closeSharedBrowser() — while that close is in flight would leave an unhandled
 * rejection ("Target page, context or browser has been closed"). The contexts handed out here
 * settle their close() quietly: closing something the browser already closed is not an error.
 */
async function newQuietContext(browser: Browser, ...args: Parameters<Browser['newContext']>) {
  const context = await browser.newContext(...args);
  const close = context.close.bind(context);
  context.close = (options) => close(options).catch(() => {});
  return context;
}

/**
 * A stand-in for Playwright's `chromium` BrowserType that mermaid-isomorphic can call `launch()` on:
 * it returns the shared browser behind a proxy whose close() is a no-op.
 */
export function sharedBrowserType(found: FoundBrowser): BrowserType {
  const launcher = {
    async launch(options?: LaunchOptions) {
      const browser = await launchShared(found, options);
      return new Proxy(browser, {
        get(target, prop, receiver) {
          if (prop === 'close') return async () => {};
          if (prop === 'newContext') return (...args: Parameters<Browser['newContext']>) => newQuietContext(target, ...args);
          const value = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
  };
  return launcher as unknown as BrowserType;
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
