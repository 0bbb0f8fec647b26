// The book's table of contents, read from the chapters collection.
import { getCollection, type CollectionEntry } from 'astro:content';
import { chapterUrl, languages, type Lang } from './site.ts';

export type ChapterEntry = CollectionEntry<'chapters'>;

export interface Chapter {
  entry: ChapterEntry;
  lang: Lang;
  slug: string;
  url: string;
  /** The Markdown file, relative to the repository root (for "edit this page" and error messages). */
  file: string;
}

function toChapter(entry: ChapterEntry): Chapter {
  const [lang, slug] = entry.id.split('/') as [Lang, string];
  return { entry, lang, slug, url: chapterUrl(lang, slug), file: `content/chapters/${entry.id}.md` };
}

/** Every chapter of every language, each language in book order. Fails on duplicate `order` values. */
export async function getBook(): Promise<Record<Lang, Chapter[]>> {
  const all = (await getCollection('chapters')).map(toChapter);
  const book = Object.fromEntries(languages.map((l) => [l, [] as Chapter[]])) as Record<Lang, Chapter[]>;
  for (const chapter of all) book[chapter.lang].push(chapter);
  for (const lang of languages) {
    const chapters = book[lang].sort((a, b) => a.entry.data.order - b.entry.data.order || a.slug.localeCompare(b.slug));
    for (let i = 1; i < chapters.length; i++) {
      if (chapters[i].entry.data.order === chapters[i - 1].entry.data.order) {
        throw new Error(
          `${chapters[i].file}: frontmatter field "order" is ${chapters[i].entry.data.order}, the same as in ` +
            `${chapters[i - 1].file}. Give each chapter of a language its own order number.`,
        );
      }
    }
  }
  return book;
}
