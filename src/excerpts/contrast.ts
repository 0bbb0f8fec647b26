// WCAG contrast for highlighted code. github-light's orange parameters and github-dark's grey comments fall
// below the 4.5:1 AA ratio on the site's code backgrounds; such a colour is moved toward black (light
// theme) or white (dark theme) just far enough to read, so the palette stays GitHub's.

const AA = 4.5;

function channels(hex: string): [number, number, number] | undefined {
  const m = /^#([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return undefined;
  const n = Number.parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: string, b: string): number {
  const ca = channels(a);
  const cb = channels(b);
  if (!ca || !cb) return Number.POSITIVE_INFINITY;
  const [hi, lo] = [luminance(ca), luminance(cb)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

function hex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
}

/** `color`, or the nearest mix toward black/white that reaches AA on every background. */
export function readable(color: string, backgrounds: string[], toward: 'black' | 'white'): string {
  const c = channels(color);
  if (!c) return color;
  const worst = (candidate: string) => Math.min(...backgrounds.map((bg) => contrast(candidate, bg)));
  if (worst(color) >= AA) return color;
  const target = toward === 'black' ? 0 : 255;
  for (let t = 0.02; t <= 1; t += 0.02) {
    const mixed = hex(c.map((v) => v + (target - v) * t) as [number, number, number]);
    if (worst(mixed) >= AA) return mixed;
  }
  return toward === 'black' ? '#000000' : '#FFFFFF';
}
