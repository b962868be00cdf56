/**
 * Seeded pseudo-random numbers for the accuracy benchmark.
 *
 * Every case gets its own generator, derived from (run seed, case index), so
 * `--case K` regenerates case K without generating the K cases before it, and
 * adding a mistake kind never reshuffles the files the other cases use.
 * sfc32 is small, fast and passes PractRand far beyond what we need.
 */

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** A copy of `items` in random order. */
  shuffle<T>(items: readonly T[]): T[];
}

/** Mixes numbers into one 32-bit seed (splitmix-style avalanche). */
export function hashSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    // Numbers above 2^32 (large seeds) still contribute their high bits.
    h ^= Math.floor(part / 0x100000000) | 0;
  }
  return h >>> 0;
}

export function createRng(seed: number): Rng {
  let a = hashSeed(seed, 1);
  let b = hashSeed(seed, 2);
  let c = hashSeed(seed, 3);
  let d = 1;
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Warm up: the first outputs of sfc32 from similar seeds are correlated.
  for (let i = 0; i < 12; i++) next();
  const rng: Rng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError("pick from an empty array");
      return items[Math.floor(next() * items.length)] as T;
    },
    shuffle: <T>(items: readonly T[]): T[] => {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const tmp = out[i] as T;
        out[i] = out[j] as T;
        out[j] = tmp;
      }
      return out;
    },
  };
  return rng;
}
