// Quantities added up and printed as resource.Quantity does, for kubectl describe node's requests and limits. Apart
// from quantity.ts so that the simulation island, which never sums quantities, does not carry it.
// upstream: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (Add, String, CanonicalizeBytes)

import type { Quantity } from '../types.ts';
import { formatBinarySI, milliCPU } from './quantity.ts';

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
// upstream: apimachinery/pkg/api/resource/quantity.go (*Quantity).CanonicalizeBytes
export function formatQuantity(q: SumQuantity): string {
  const { milli } = q;
  if (milli === 0) return '0';
  let format = q.format;
  // BinarySI below 1024, or not a whole number: printed as DecimalSI so as not to lose precision
  if (format === 'BinarySI' && (Math.abs(milli) < 1024_000 || milli % 1000 !== 0)) format = 'DecimalSI';
  if (format === 'BinarySI') return formatBinarySI(milli / 1000);
  // base 1000: the largest exponent (a multiple of 3) that leaves a whole mantissa
  let mantissa = milli;
  let exp = -3;
  while (mantissa % 1000 === 0 && exp < 18) {
    mantissa /= 1000;
    exp += 3;
  }
  if (format === 'DecimalExponent') return exp === 0 ? `${mantissa}` : `${mantissa}e${exp}`;
  return mantissa + ({ '-3': 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' } as Record<number, string>)[exp];
}
