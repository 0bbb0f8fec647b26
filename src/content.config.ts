// The chapters collection: content/chapters/<lang>/<slug>.md.
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { chapterSchema } from './chapter-schema.ts';
import { isLang, languages } from './site.ts';

const chapters = defineCollection({
  loader: glob({
    pattern: '**/*.md',
    base: './content/chapters',
    // Render errors (a broken diagram, a bad excerpt) must fail the build, not leave an empty page.
    deferRender: true,
    generateId: ({ entry }) => {
      const [lang, ...rest] = entry.split('/');
      if (rest.length !== 1 || !isLang(lang)) {
        throw new Error(
          `content/chapters/${entry}: chapters must be at content/chapters/<lang>/<slug>.md with <lang> one of ` +
            `${languages.join(', ')}. Move the file into one of those folders.`,
        );
      }
      return entry.replace(/\.md$/, '');
    },
  }),
  schema: chapterSchema,
});

export const collections = { chapters };
