// A seeded pseudo-random generator (sfc32, seeded through splitmix32): every ID, UID, PID and jitter in the
// simulation comes from here, so the same seed always yields the same bytes. Never Math.random().

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#a = next();
    this.#b = next();
    this.#c = next();
    this.#d = next();
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  // IDs are kept for the whole run (history, trace, logs): they are joined into one flat string, not built with
  // `+=` (a tree of dozens of concatenation nodes per ID that every garbage collection would copy).
  /** Random bytes as two-digit hex strings, four per u32 drawn (count is a multiple of 4). */
  #hexBytes(count: number): string[] {
    const parts: string[] = [];
    for (let i = 0; i < count; i += 4) {
      const v = this.u32();
      parts.push(HEX[v >>> 24], HEX[(v >>> 16) & 255], HEX[(v >>> 8) & 255], HEX[v & 255]);
    }
    return parts;
  }

  /** n lowercase hex digits. */
  hex(n: number): string {
    const out = this.#hexBytes(Math.ceil(n / 8) * 4).join('');
    return out.length === n ? out : out.slice(0, n);
  }

  /** A random (version 4) UUID, as the API server assigns to metadata.uid: 32 hex digits with the version and variant set. */
  uuid(): string {
    const b = this.#hexBytes(16);
    const variant = ((parseInt(b[8][0], 16) & 0x3) | 0x8).toString(16);
    return [b[0], b[1], b[2], b[3], '-', b[4], b[5], '-4', b[6][1], b[7], '-', variant, b[8][1], b[9], '-', b[10], b[11], b[12], b[13], b[14], b[15]].join('');
  }

  /** n characters from the alphabet the API server uses for generateName suffixes (utilrand.String). */
  nameSuffix(n: number): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[this.u32() % alphabet.length];
    return out;
  }
}

/**
 * A stable hex digest of a string (FNV-1a based, 8 hex digits per round): image IDs and digests (8 rounds, 64 hex)
 * that do not depend on the seed; shorter hashes take fewer rounds (a prefix of the full digest).
 */
export function digestOf(text: string, rounds = 8): string {
  let out = '';
  for (let round = 0; round < rounds; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995);
    h ^= h >>> 15;
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}
