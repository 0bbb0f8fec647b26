// Which section of a Pagefind result the search box links to (the end-to-end suite checks it against a real index).
import { describe, expect, it } from 'vitest';
import { bestSection, type PagefindResult, type PagefindSubResult } from '../../../components/search-sections.ts';

/** A sub-result shaped as Pagefind 1.x returns it: hits with a balanced score each, an anchor unless it is the page top. */
function section(title: string, id: string | undefined, scores: number[]): PagefindSubResult {
  return {
    title,
    url: id ? `/en/restarts/#${id}` : '/en/restarts/',
    excerpt: `… <mark>${title}</mark> …`,
    weighted_locations: scores.map((balanced_score, location) => ({ balanced_score, location })),
    ...(id ? { anchor: { id } } : {}),
  };
}

const result = (sub_results?: PagefindSubResult[]): PagefindResult => ({ url: '/en/restarts/', excerpt: 'page', meta: { title: 'Restarts' }, sub_results });

describe('bestSection', () => {
  it('picks the section whose hits score highest in total, not the one with the single best hit or the first', () => {
    const top = section('Restarts', undefined, [2]);
    const few = section('Restart policies', 'restart-policies', [3.5]);
    const many = section('The back-off timings', 'the-back-off-timings', [1.5, 1.5, 1.5]);
    expect(bestSection(result([top, few, many]))).toBe(many);
  });

  it('keeps the earlier section on a tie', () => {
    const a = section('A', 'a', [1, 1]);
    const b = section('B', 'b', [2]);
    expect(bestSection(result([a, b]))).toBe(a);
  });

  it('returns the page top when that is where the hits are', () => {
    const top = section('Restarts', undefined, [5]);
    expect(bestSection(result([top, section('Later', 'later', [1])]))).toBe(top);
  });

  it('has no section for a result without sub-results (the caller links to the page)', () => {
    expect(bestSection(result())).toBeUndefined();
    expect(bestSection(result([]))).toBeUndefined();
  });
});
