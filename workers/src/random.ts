/**
 * The one seeded pseudo-random generator (mulberry32) of the project: numbers in [0, 1), the same
 * sequence for the same seed on every machine — demo data, training splits, generated map layouts,
 * the fuzzer and the benches.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
