// resource.Quantity (k8s.io/apimachinery/pkg/api/resource): "500m", "4", "8Gi", "1e3", "2.2M".
// upstream: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go ParseQuantity

/** The regular expression the API server quotes when a quantity does not parse. */
export const QUANTITY_REGEXP = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** The numeric value of a quantity in base units (cores, bytes, count), or undefined when it does not parse. */
export function parseQuantity(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) ? text : undefined;
  // the same few quantities are parsed over and over (decoding, validation, QoS, scheduling): a pure memo
  let v = parsed.get(text);
  if (v === undefined && !parsed.has(text)) {
    if (parsed.size >= 4096) parsed.clear();
    v = parse(text);
    parsed.set(text, v);
  }
  return v;
}
const parsed = new Map<string, number | undefined>();

const QUANTITY = new RegExp(QUANTITY_REGEXP);

function parse(text: string): number | undefined {
  const m = QUANTITY.exec(text.trim());
  if (!m || text.trim() !== text) return undefined;
  const [, num, suffix] = m;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(num)) return undefined;
  const value = parseFloat(num);
  if (suffix in BINARY) return value * BINARY[suffix];
  if (suffix in DECIMAL) return value * DECIMAL[suffix];
  const exp = /^[eE]([-+]?\d+)$/.exec(suffix);
  if (exp) return value * 10 ** parseInt(exp[1], 10);
  return undefined;
}

/** CPU in millicores, rounded up as Quantity.MilliValue does. */
export function milliCPU(q: string | number | undefined): number {
  if (q === undefined) return 0;
  const v = parseQuantity(q);
  return v === undefined ? 0 : Math.ceil(Math.round(v * 1e9) / 1e6);
}

/** Bytes (or any integer-valued resource), rounded up as Quantity.Value does. */
export function intValue(q: string | number | undefined): number {
  if (q === undefined) return 0;
  const v = parseQuantity(q);
  return v === undefined ? 0 : Math.ceil(v - 1e-9);
}

/** resource.NewMilliQuantity(m, DecimalSI).String(): "250m", "4". */
export function formatMilliCPU(m: number): string {
  return m % 1000 ? `${m}m` : `${m / 1000}`;
}

/** resource.NewQuantity(n, BinarySI).String(): "128Mi", but 100M is "100000000" (no whole Ki). */
export function formatBinarySI(n: number): string {
  let i = 0;
  while (n !== 0 && n % 1024 === 0 && i < 6) (n /= 1024), i++;
  return n + ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][i];
}
