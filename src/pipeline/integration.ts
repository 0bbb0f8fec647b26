// The Astro integration that holds the build together: it ends the shared diagram browser when the build
// (or the dev server) is done, and ships mermaid to the page only when some diagram had to be left for
// the reader's browser to render (no Chromium at build time).
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { closeSharedBrowser } from './browser.ts';
import { clientDiagramsWereUsed } from './rehype-diagrams.ts';

const require = createRequire(import.meta.url);

/** Where pages look for mermaid when they must render diagrams themselves. */
export const CLIENT_MERMAID_PATH = '/_podlife/mermaid.min.js';

export default function podlife(): AstroIntegration {
  return {
    name: 'podlife',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        await closeSharedBrowser();
        if (clientDiagramsWereUsed()) {
          const out = new URL('_podlife/', dir);
          mkdirSync(out, { recursive: true });
          copyFileSync(require.resolve('mermaid/dist/mermaid.min.js'), fileURLToPath(new URL('mermaid.min.js', out)));
        }
      },
      'astro:server:done': async () => {
        await closeSharedBrowser();
      },
    },
  };
}
