// Quantities added up and printed as resource.Quantity does, for kubectl describe node's requests and limits. Apart
// from quantity.ts so that the simulation island, which never sums quantities, does not carry it.
// upstream: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (Add, String, CanonicalizeBytes)

import type { Quantity } from '../types.ts';
import { milliCPU } from './quantity.ts';

/**
 * A quantity that can be added up and printed as resource.Quantity does: an exact value in thousandths (MilliValue,
 * rounded up) and the format of the text it came from (a sum keeps the format of its first term, as Quantity.Add).
 */
export interface SumQuantity {
  milli: number;
  format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
}

export const ZERO_QUANTITY: SumQuantity = { milli: 0, format: 'DecimalSI' };

/** A quantity's value and format ("16Mi": BinarySI; "1e3": DecimalExponent; "500m", "1G": DecimalSI). */
export function sumQuantity(q: Quantity | number): SumQuantity {
  const text = String(q);
  const format = /(Ki|Mi|Gi|Ti|Pi|Ei)$/.test(text) ? 'BinarySI' : /[eE][-+]?\d+$/.test(text) ? 'DecimalExponent' : 'DecimalSI';
  return { milli: milliCPU(q), format };
}

/** a + b, in a's format (Quantity.Add); a zero-valued start takes b's format (a missing entry: DeepCopy of b). */
export function addQuantity(a: SumQuantity | undefined, b: SumQuantity): SumQuantity {
  return a === undefined ? b : { milli: a.milli + b.milli, format: a.format };
}

/** Quantity.String(): the canonical form ("1500m", "2", "256Mi", "100M", "167108864"). */
export function formatQuantity(q: SumQuantity): string {
  return formatNano(BigInt(q.milli) * 1_000_000n, q.format);
}

const BINARY_EXP: Record<string, bigint> = { Ki: 10n, Mi: 20n, Gi: 30n, Ti: 40n, Pi: 50n, Ei: 60n };
const DECIMAL_EXP: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DECIMAL_SUFFIX: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const NANO = 1_000_000_000n;

/**
 * The form the API server stores a quantity in: it parses the text (a JSON number as its digits) and writes it back
 * with Quantity.String(), so "0.5" is stored as "500m", "1000m" as "1", "1.5Gi" as "1536Mi", "2000" as "2k" and
 * "0.1m" as "100u". A value finer than a nano-unit is rounded up to one, as ParseQuantity does. Undefined when the
 * text does not parse.
 */
// upstream: apimachinery/pkg/api/resource/quantity.go ParseQuantity, (*Quantity).UnmarshalJSON, CanonicalizeBytes
export function canonicalQuantity(q: string | number): string | undefined {
  const text = String(q);
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][-+]?\d+)?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const [, sign, whole, fraction = '', suffix = ''] = m;
  // the value in nano-units: digits × 10^exp10 × 2^exp2, exactly, then rounded up
  let nano = BigInt(`${whole}${fraction}` || '0');
  let exp10 = 9 - fraction.length;
  let format: SumQuantity['format'] = 'DecimalSI';
  if (suffix in BINARY_EXP) {
    nano <<= BINARY_EXP[suffix];
    format = 'BinarySI';
  } else if (/^[eE][-+]?\d+$/.test(suffix)) {
    exp10 += parseInt(suffix.slice(1), 10);
    format = 'DecimalExponent';
  } else exp10 += DECIMAL_EXP[suffix];
  if (exp10 >= 0) nano *= 10n ** BigInt(exp10);
  else {
    const d = 10n ** BigInt(-exp10);
    nano = (nano + d - 1n) / d;
  }
  return formatNano(sign === '-' ? -nano : nano, format);
}

/** A value in nano-units written as Quantity.String() writes it in this format. */
// upstream: apimachinery/pkg/api/resource/quantity.go (*Quantity).CanonicalizeBytes
function formatNano(value: bigint, format: SumQuantity['format']): string {
  if (value === 0n) return '0';
  const minus = value < 0n ? '-' : '';
  let nano = value < 0n ? -value : value;
  // BinarySI below 1024, or not a whole number: written as DecimalSI so as not to lose precision
  if (format === 'BinarySI' && nano >= 1024n * NANO && nano % NANO === 0n) {
    let n = nano / NANO;
    let i = 0;
    while (n % 1024n === 0n && i < 6) (n /= 1024n), i++;
    return `${minus}${n}${BINARY_SUFFIX[i]}`;
  }
  // base 1000: the largest exponent (a multiple of 3) that leaves a whole mantissa
  let exp = -9;
  while (nano % 1000n === 0n && exp < 18) {
    nano /= 1000n;
    exp += 3;
  }
  if (format === 'DecimalExponent') return `${minus}${nano}${exp === 0 ? '' : `e${exp}`}`;
  return `${minus}${nano}${DECIMAL_SUFFIX[exp]}`;
}
