// 10,000 random scenarios through the engine and the printers, in two files so two workers share them.
import { describe, it } from 'vitest';
import { fuzz } from './fuzz.ts';

describe('fuzz: random scenarios keep the invariants and render (1 of 2)', () => {
  it('5,000 runs', () => fuzz(5_000, 20261129), 600_000);
});
