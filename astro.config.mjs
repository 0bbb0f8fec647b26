// @ts-check
import { defineConfig } from 'astro/config';
import { unified } from '@astrojs/markdown-remark';
import podlife from './src/pipeline/integration.ts';
import { remarkPlugins, rehypePlugins } from './src/pipeline/index.ts';

export default defineConfig({
  site: 'https://podlife.dev',
  // Tests build throwaway copies of the site; each keeps its own content cache.
  cacheDir: process.env.PODLIFE_ASTRO_CACHE ?? './node_modules/.astro',
  trailingSlash: 'always',
  // Stylesheets and scripts as files (not inlined): the Content-Security-Policy allows only the site's own.
  build: { format: 'directory', inlineStylesheets: 'never' },
  vite: { build: { assetsInlineLimit: 0 } },
  integrations: [podlife()],
  markdown: {
    // Astro 7's default Markdown processor runs no remark/rehype plugins; podlife's pipeline needs unified.
    processor: unified({ remarkPlugins, rehypePlugins }),
    // Mermaid blocks are left to rehype-diagrams (Shiki runs before the rehype plugins).
    syntaxHighlight: { type: 'shiki', excludeLangs: ['mermaid'] },
    shikiConfig: {
      themes: { light: 'github-light-default', dark: 'github-dark-default' },
      defaultColor: false,
      wrap: false,
    },
  },
  devToolbar: { enabled: false },
});
