// Facts about the site that pages and plugins share.
export const site = {
  name: 'podlife',
  /** Where contributors edit chapters ("edit this page" links). */
  repo: 'https://github.com/podlife/podlife',
  branch: 'main',
  /** The Kubernetes release the book's excerpts and the simulation model follow. */
  kubernetesVersion: 'v1.36.2',
} as const;

export const languages = ['zh', 'en'] as const;
export type Lang = (typeof languages)[number];
export const defaultLang: Lang = 'zh';

export function isLang(value: string): value is Lang {
  return (languages as readonly string[]).includes(value);
}

/** A chapter's URL: /<lang>/<slug>/. The excerpt index and the link checker rely on this shape. */
export function chapterUrl(lang: Lang, slug: string): string {
  return `/${lang}/${slug}/`;
}
