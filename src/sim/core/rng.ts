// A seeded pseudo-random generator (sfc32, seeded through splitmix32): every ID, UID, PID and jitter in the
// simulation comes from here, so the same seed always yields the same bytes. Never Math.random().

const HEX_CODES = Array.from('0123456789abcdef', (ch) => ch.charCodeAt(0));
const DASH = 45;
// one reusable array of character codes per ID length (String.fromCharCode takes them all)
const SCRATCH: number[][] = [];
function scratch(n: number): number[] {
  return (SCRATCH[n] ??= new Array<number>(n).fill(0));
}

// the seeding generator's state (module-level: one function for every Rng, not a closure per Rng)
let splitmix = 0;
function next(): number {
  let z = (splitmix = (splitmix + 0x9e3779b9) >>> 0);
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export class Rng {
  // numbers from the start (a field declared without a value starts undefined, and a field that held undefined
  // keeps every later number in a new heap box: an allocation per draw)
  #a = 0;
  #b = 0;
  #c = 0;
  #d = 0;

  constructor(seed: number) {
    splitmix = seed >>> 0;
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

  // IDs are kept for the whole run (history, trace, logs): each is made in one piece from its character codes
  // (a flat string), not built with `+=` (a tree of dozens of concatenation nodes per ID that every garbage
  // collection would copy) nor joined from a string per byte.
  /** n lowercase hex digits: ceil(n / 8) u32s drawn, each gives 8 digits, most significant first. */
  hex(n: number): string {
    const codes = scratch(n);
    for (let i = 0; i < n; ) {
      const v = this.u32();
      for (let shift = 28; shift >= 0 && i < n; shift -= 4) codes[i++] = HEX_CODES[(v >>> shift) & 15];
    }
    return String.fromCharCode.apply(null, codes);
  }

  /** A random (version 4) UUID, as the API server assigns to metadata.uid: 32 hex digits with the version and variant set. */
  uuid(): string {
    // 4 u32s give the 32 digits; dashes go after the 8th, 12th, 16th and 20th digit; the 13th digit (at 14) is
    // replaced by the version (4), the 17th (at 19) keeps its low 2 bits under the variant bits (10)
    const codes = scratch(36);
    let at = 0;
    for (let w = 0; w < 4; w++) {
      const v = this.u32();
      for (let shift = 28; shift >= 0; shift -= 4) {
        if (at === 8 || at === 13 || at === 18 || at === 23) codes[at++] = DASH;
        const d = (v >>> shift) & 15;
        codes[at] = at === 14 ? HEX_CODES[4] : at === 19 ? HEX_CODES[(d & 0x3) | 0x8] : HEX_CODES[d];
        at++;
      }
    }
    return String.fromCharCode.apply(null, codes);
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
