// The frontmatter of a chapter. Shared by the content collection (src/content.config.ts) and the
// build's pre-check, which reports a bad field with its line (pipeline/frontmatter-check.ts).
import { z } from 'astro/zod';

export const chapterSchema = z
  .object({
    title: z.string().min(1),
    description: z.string().min(1),
    /** Position in the book (1, 2, ...); unique within a language. */
    order: z.number().int().positive(),
  })
  .strict();

export const FIELD_HINTS: Record<string, string> = {
  title: 'title: a non-empty string, e.g. title: "Starting containers"',
  description: 'description: one sentence, e.g. description: "startContainer\'s four steps."',
  order: 'order: a positive whole number, the chapter\'s position in the book, e.g. order: 5',
};
