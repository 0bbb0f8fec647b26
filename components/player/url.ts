// The moment a reader is looking at, kept in the page's URL (`?scenario=crash-loop&t=503s`) so it can
// be shared. Several players may sit on one page: the query names the scenario it belongs to, and only
// the player showing that scenario reads it (a query without `scenario` applies to every player).
import { formatUrlTime, parseMoment } from './time.ts';

/** The moment the URL asks this scenario's player to show, if any. */
export function readMoment(search: string, scenario: string): number | undefined {
  const params = new URLSearchParams(search);
  const named = params.get('scenario');
  if (named !== null && named !== scenario) return undefined;
  const t = params.get('t');
  return t === null ? undefined : parseMoment(t);
}

/**
 * The URL that records `t` for `scenario`, keeping every other query parameter and the #fragment.
 * `href` must be absolute (location.href).
 */
export function writeMoment(href: string, scenario: string, t: number): string {
  const url = new URL(href);
  url.searchParams.set('scenario', scenario);
  url.searchParams.set('t', formatUrlTime(t));
  return url.toString();
}
