import { seededRandom as mulberry32 } from '@norma/workers/random';

/** The project's seeded generator with helpers: the demo data is the same on every machine. */
export function seededRandom(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    /** Uniform in [min, max). */
    between: (min: number, max: number) => min + (max - min) * next(),
    chance: (p: number) => next() < p,
  };
}

export type Random = ReturnType<typeof seededRandom>;
