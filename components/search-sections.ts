// Which part of a Pagefind result to link to. Pagefind splits each page at the headings that carry an id
// (Astro gives every Markdown heading one) into sub-results, each with its own URL (page#heading) and hits.
// Pure (no DOM), so it is unit-tested on its own.

/** One section of a page that matched. */
export interface PagefindSubResult {
  title: string;
  /** The page's URL plus the heading's #id (no anchor for the text before the first heading). */
  url: string;
  excerpt: string;
  weighted_locations: { balanced_score: number }[];
  anchor?: { id: string };
}

export interface PagefindResult {
  url: string;
  excerpt: string;
  meta: { title?: string };
  sub_results?: PagefindSubResult[];
}

/** The section whose hits score highest (the first such on a tie), or none when Pagefind gave no sections. */
export function bestSection(hit: PagefindResult): PagefindSubResult | undefined {
  let best: PagefindSubResult | undefined;
  let bestScore = -Infinity;
  for (const sub of hit.sub_results ?? []) {
    const score = sub.weighted_locations.reduce((n, w) => n + w.balanced_score, 0);
    if (score > bestScore) [best, bestScore] = [sub, score];
  }
  return best;
}
