// A small seeded generator of numbers in [0, 1) (mulberry32, Tommy Ettinger's 32-bit generator), so
// that a benchmark's data or a test's random cases can be repeated from their seed: the browser
// tests' hostile inputs, the TensorFlow.js side of bench-webml (its worker imports this file) and
// bench-bwas's positions.
//
//   import { seededRandom } from "./seeded-random.mjs";
//   const random = seededRandom(1); random(); // 0.6270739405881613

/** A generator seeded with `seed` (its low 32 bits): each call gives the next number in [0, 1). */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
