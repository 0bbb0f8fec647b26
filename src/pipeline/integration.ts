// The Astro integration that holds the build together: it ends the shared diagram browser when the build
// (or the dev server) is done, and ships mermaid to the page only when some diagram had to be left for
// the reader's browser to render (no Chromium at build time).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { closeSharedBrowser } from './browser.ts';
import { securePage } from './csp.ts';
import { clearScenarioCache, replayJson, replayPath, replaysToPublish, SCENARIOS_DIR, scenarioNames } from './scenarios.ts';
import { checkTraceKeys } from './checks.ts';
import { checkChapters } from './frontmatter-check.ts';
import { clientDiagramsWereUsed } from './rehype-diagrams.ts';

const require = createRequire(import.meta.url);

/** Where pages look for mermaid when they must render diagrams themselves. */
export const CLIENT_MERMAID_PATH = '/_podlife/mermaid.min.js';

/** Scenario files, for the simulation players to fetch: /_podlife/scenarios/<name>.yaml. */
function publishScenarios(root: string): void {
  const out = join(root, '_podlife', 'scenarios');
  mkdirSync(out, { recursive: true });
  for (const name of scenarioNames()) copyFileSync(join(SCENARIOS_DIR, `${name}.yaml`), join(out, `${name}.yaml`));
  for (const { name, seed } of replaysToPublish()) writeFileSync(join(root, replayPath(name, seed)), replayJson(name, seed));
}

/** Give every page of the built site its Content-Security-Policy (see csp.ts). */
function secureSite(root: string): void {
  const cssDir = join(root, '_podlife', 'css');
  mkdirSync(cssDir, { recursive: true });
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.html') ? [join(dir, e.name)] : []));
  for (const file of walk(root)) {
    const page = securePage(readFileSync(file, 'utf8'), (css) => {
      const name = `${createHash('sha256').update(css).digest('hex').slice(0, 12)}.css`;
      writeFileSync(join(cssDir, name), css);
      return `/_podlife/css/${name}`;
    });
    writeFileSync(file, page.html);
  }
}

export default function podlife(): AstroIntegration {
  return {
    name: 'podlife',
    hooks: {
      // Chapter files in the right place with valid frontmatter, reported by line, before Astro reads them.
      'astro:config:setup': ({ command, logger }) => {
        if (command !== 'build') return;
        for (const warning of checkChapters()) logger.warn(warning);
      },
      'astro:build:done': async ({ dir }) => {
        await closeSharedBrowser();
        // Every step key a scenario's trace carries must be quoted in the book. (Checked after the pages,
        // so a page's own error, with its line, is the one reported first.)
        await checkTraceKeys();
        publishScenarios(fileURLToPath(dir));
        secureSite(fileURLToPath(dir));
        if (clientDiagramsWereUsed()) {
          const out = new URL('_podlife/', dir);
          mkdirSync(out, { recursive: true });
          copyFileSync(require.resolve('mermaid/dist/mermaid.min.js'), fileURLToPath(new URL('mermaid.min.js', out)));
        }
      },
      'astro:server:setup': ({ server }) => {
        // A chapter's outputs depend on scenario files the content layer does not watch: on a change,
        // forget the runs, re-render the chapters and reload the page.
        server.watcher.add(SCENARIOS_DIR);
        server.watcher.on('change', (path) => {
          if (!path.includes(`${SCENARIOS_DIR}/`) || !path.endsWith('.yaml')) return;
          clearScenarioCache();
          for (const mod of server.moduleGraph.idToModuleMap.values()) {
            if (mod.id?.includes('/content/chapters/')) server.moduleGraph.invalidateModule(mod);
          }
          server.ws.send({ type: 'full-reload' });
        });
        // In `astro dev`, players fetch scenarios straight from content/scenarios (edits show on reload).
        server.middlewares.use((req, res, next) => {
          const m = /^\/_podlife\/scenarios\/([a-z0-9-]+)(?:\.seed-(\d+)\.replay\.json|\.yaml)$/.exec(req.url ?? '');
          if (!m || !scenarioNames().includes(m[1])) return next();
          if (m[2] !== undefined) {
            res.setHeader('content-type', 'application/json');
            res.end(replayJson(m[1], Number(m[2])));
            return;
          }
          res.setHeader('content-type', 'text/yaml; charset=utf-8');
          res.end(readFileSync(join(SCENARIOS_DIR, `${m[1]}.yaml`)));
        });
      },
      'astro:server:done': async () => {
        await closeSharedBrowser();
      },
    },
  };
}
