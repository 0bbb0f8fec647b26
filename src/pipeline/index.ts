// The Markdown pipeline: every remark and rehype plugin podlife adds, in order. astro.config.mjs takes
// its plugin lists from here and nowhere else, so the site and the tests build pages the same way.
//
// Order matters: Astro runs remark plugins → remark-rehype → Shiki (which skips `mermaid`) → these
// rehype plugins. A plugin that emits a ```mermaid block (e.g. a diagram generated from a trace) must
// therefore run before rehypeDiagrams.
import type { RehypePlugins, RemarkPlugins } from '@astrojs/markdown-remark';
import rehypeDiagrams from './rehype-diagrams.ts';
import rehypeGoExcerpts from './rehype-go-excerpts.ts';
import remarkGoExcerpts from './remark-go-excerpts.ts';
import remarkStepLinks from './remark-step-links.ts';
import remarkConsoleOutputs from './remark-console-outputs.ts';
import remarkDirective from 'remark-directive';
import remarkDirectives from './remark-directives.ts';
import rehypeTraceLinks from './rehype-trace-links.ts';
import rehypeTables from './rehype-tables.ts';

export const remarkPlugins: RemarkPlugins = [remarkDirective, remarkGoExcerpts, remarkStepLinks, remarkConsoleOutputs, remarkDirectives];

export const rehypePlugins: RehypePlugins = [rehypeGoExcerpts, rehypeDiagrams, rehypeTraceLinks, rehypeTables];
