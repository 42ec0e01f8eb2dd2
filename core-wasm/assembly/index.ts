// Norma report core: the heavy loops of METHODOLOGY §2, §3 and §5 over columns in linear memory.
//
// Every function takes raw pointers to arrays that the TypeScript wrapper wrote through views
// over `memory.buffer` (zero-copy: the generated glue would copy typed arrays on every call).
// Times are f64 milliseconds, category/key columns i32. Functions that need scratch space
// allocate it from the heap and may grow memory, so the caller re-creates its views afterwards.
//
// The TypeScript reference (src/reference.ts) is the oracle: sums run in the same order, so
// results agree to the last bit in practice and within 1e-9 by contract.

const CATEGORY_COUNT = 7;
const DAY_OUT_FIELDS = 10; // 7 category sums, first start, last end, counted
const SERIES_FIELDS = 14;
const CLEANING_MIN_REMAINING = 5;
const STATUS_ACCEPTED = 0;
const STATUS_DROPPED = 1;
const STATUS_ZERO = 2;
const STATUS_CUT = 3; // cut by the window: listed, never a measurement (METHODOLOGY §3)
const SORT_BY_KEY_TIME = 0;
const SORT_BY_VALUE = 1;
const INSERTION_RUN = 24;

// ---------------------------------------------------------------- memory

/** Allocates an unmanaged block (never moved or collected) for the wrapper's columns. */
export function alloc(bytes: usize): usize {
  return heap.alloc(bytes > 8 ? bytes : 8);
}

export function free(ptr: usize): void {
  heap.free(ptr);
}

@inline function getF64(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}
@inline function setF64(base: usize, i: i32, value: f64): void {
  store<f64>(base + (<usize>i << 3), value);
}
@inline function getI32(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}
@inline function setI32(base: usize, i: i32, value: i32): void {
  store<i32>(base + (<usize>i << 2), value);
}

// ---------------------------------------------------------------- sorting
// A stable bottom-up merge sort of index arrays. Ties are broken by index, so the order is a
// total order and equals what Array.prototype.sort gives the reference with the same comparator.

@inline function less(mode: i32, a: i32, b: i32, keys: usize, starts: usize, ends: usize): bool {
  if (mode == SORT_BY_VALUE) {
    const va = getF64(starts, a);
    const vb = getF64(starts, b);
    if (va != vb) return va < vb;
    return a < b;
  }
  if (keys != 0) {
    const ka = getI32(keys, a);
    const kb = getI32(keys, b);
    if (ka != kb) return ka < kb;
  }
  const sa = getF64(starts, a);
  const sb = getF64(starts, b);
  if (sa != sb) return sa < sb;
  const ea = getF64(ends, a);
  const eb = getF64(ends, b);
  if (ea != eb) return ea < eb;
  return a < b;
}

function sortIndices(mode: i32, order: usize, n: i32, keys: usize, starts: usize, ends: usize): void {
  if (n < 2) return;
  // Insertion-sort short runs, then merge runs of doubling width between two buffers.
  for (let lo = 0; lo < n; lo += INSERTION_RUN) {
    const hi = min(lo + INSERTION_RUN, n);
    for (let i = lo + 1; i < hi; i++) {
      const x = getI32(order, i);
      let j = i - 1;
      while (j >= lo && less(mode, x, getI32(order, j), keys, starts, ends)) {
        setI32(order, j + 1, getI32(order, j));
        j--;
      }
      setI32(order, j + 1, x);
    }
  }
  if (n <= INSERTION_RUN) return;
  const tmp = heap.alloc(<usize>n << 2);
  let src = order;
  let dst = tmp;
  for (let width = INSERTION_RUN; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = min(lo + width, n);
      const hi = min(lo + (width << 1), n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = getI32(src, i);
        const b = getI32(src, j);
        if (less(mode, b, a, keys, starts, ends)) {
          setI32(dst, k++, b);
          j++;
        } else {
          setI32(dst, k++, a);
          i++;
        }
      }
      while (i < mid) setI32(dst, k++, getI32(src, i++));
      while (j < hi) setI32(dst, k++, getI32(src, j++));
    }
    const swap = src;
    src = dst;
    dst = swap;
  }
  if (src != order) memory.copy(order, src, <usize>n << 2);
  heap.free(tmp);
}

/** Writes into `order` the indices 0..n-1 sorted by (key, start, end, index); keys may be 0. */
export function sortByKeyTime(starts: usize, ends: usize, keys: usize, n: i32, order: usize): void {
  for (let i = 0; i < n; i++) setI32(order, i, i);
  sortIndices(SORT_BY_KEY_TIME, order, n, keys, starts, ends);
}

/**
 * Chronological order: writes into `order` the indices 0..n-1 sorted by (start, end, index), as
 * sortByKeyTime with no keys. Input already in that order (the usual case: rows come ordered by
 * start) is detected in one pass and not sorted. Returns 1 when no start or end is NaN — the order
 * is then a strict total order and keyOrder may derive keyed orders from it — else 0.
 */
export function timeOrder(starts: usize, ends: usize, n: i32, order: usize): i32 {
  let clean = true;
  let sorted = true;
  let ps: f64 = 0;
  let pe: f64 = 0;
  for (let i = 0; i < n; i++) {
    const s = getF64(starts, i);
    const e = getF64(ends, i);
    if (s != s || e != e) clean = false;
    if (i > 0 && (s < ps || (s == ps && e < pe))) sorted = false;
    ps = s;
    pe = e;
    setI32(order, i, i);
  }
  if (!(clean && sorted)) sortIndices(SORT_BY_KEY_TIME, order, n, 0, starts, ends);
  return clean ? 1 : 0;
}

/**
 * Stable counting sort of `chronological` (from timeOrder, NaN-free) by keys[i] in 0..keyTotal-1:
 * gives the same order as sortByKeyTime(starts, ends, keys) in O(n + keyTotal).
 */
export function keyOrder(keys: usize, keyTotal: i32, n: i32, chronological: usize, order: usize): void {
  const next = heap.alloc(<usize>max(keyTotal, 1) << 2);
  for (let k = 0; k < keyTotal; k++) setI32(next, k, 0);
  for (let i = 0; i < n; i++) {
    const k = getI32(keys, i);
    setI32(next, k, getI32(next, k) + 1);
  }
  let running = 0;
  for (let k = 0; k < keyTotal; k++) {
    const c = getI32(next, k);
    setI32(next, k, running);
    running += c;
  }
  for (let j = 0; j < n; j++) {
    const i = getI32(chronological, j);
    const k = getI32(keys, i);
    const at = getI32(next, k);
    setI32(order, at, i);
    setI32(next, k, at + 1);
  }
  heap.free(next);
}

/** Indices with end < start (input errors), in index order; returns their number. */
export function endBeforeStart(starts: usize, ends: usize, n: i32, out: usize): i32 {
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (getF64(ends, i) < getF64(starts, i)) {
      setI32(out, count, i);
      count++;
    }
  }
  return count;
}

// ---------------------------------------------------------------- day balance (§2)

/**
 * Per-category and per-operation-key sums of the segments clipped to [from, to).
 * out: 7 category sums (ms), first start, last end, number of counted segments.
 * keyMs / keyCount: per key (keys[i] in 0..keyCount-1) sums and counts.
 */
export function categorySums(
  starts: usize, ends: usize, categories: usize, keys: usize, n: i32,
  from: f64, to: f64, keyTotal: i32, out: usize, keyMs: usize, keyCount: usize,
): void {
  for (let c = 0; c < DAY_OUT_FIELDS; c++) setF64(out, c, 0);
  for (let k = 0; k < keyTotal; k++) {
    setF64(keyMs, k, 0);
    setF64(keyCount, k, 0);
  }
  let first = Infinity;
  let last = -Infinity;
  let counted = 0;
  for (let i = 0; i < n; i++) {
    const start = max(getF64(starts, i), from);
    const end = min(getF64(ends, i), to);
    if (!(end > start)) continue;
    const length = end - start;
    const c = getI32(categories, i);
    setF64(out, c, getF64(out, c) + length);
    const k = getI32(keys, i);
    setF64(keyMs, k, getF64(keyMs, k) + length);
    setF64(keyCount, k, getF64(keyCount, k) + 1);
    counted++;
    if (start < first) first = start;
    if (end > last) last = end;
  }
  setF64(out, CATEGORY_COUNT, counted > 0 ? first : 0);
  setF64(out, CATEGORY_COUNT + 1, counted > 0 ? last : 0);
  setF64(out, CATEGORY_COUNT + 2, <f64>counted);
}

/**
 * Union of the segments clipped to [from, to), walking `order` (sorted by start).
 * out[0] = covered ms. When gapsOut != 0 writes the unmarked intervals as (start, end) pairs
 * (at most n + 1) and returns their number.
 */
export function coverageGaps(
  starts: usize, ends: usize, n: i32, from: f64, to: f64, order: usize, gapsOut: usize, out: usize,
): i32 {
  let covered: f64 = 0;
  let cursor = from;
  let gaps = 0;
  let have = false;
  let curStart: f64 = 0;
  let curEnd: f64 = 0;
  for (let k = 0; k < n; k++) {
    const i = getI32(order, k);
    const start = max(getF64(starts, i), from);
    const end = min(getF64(ends, i), to);
    if (!(end > start)) continue;
    if (have && start <= curEnd) {
      if (end > curEnd) curEnd = end;
      continue;
    }
    if (have) {
      covered += curEnd - curStart;
      if (curEnd > cursor) cursor = curEnd;
    }
    if (gapsOut != 0 && start > cursor) {
      setF64(gapsOut, gaps << 1, cursor);
      setF64(gapsOut, (gaps << 1) + 1, start);
      gaps++;
    }
    have = true;
    curStart = start;
    curEnd = end;
  }
  if (have) {
    covered += curEnd - curStart;
    if (curEnd > cursor) cursor = curEnd;
  }
  if (gapsOut != 0 && cursor < to) {
    setF64(gapsOut, gaps << 1, cursor);
    setF64(gapsOut, (gaps << 1) + 1, to);
    gaps++;
  }
  setF64(out, 0, covered);
  return gaps;
}

/** Union length (ms) per group; `order` is sorted by (group, start). Unclipped. */
export function groupedCoverage(
  starts: usize, ends: usize, groups: usize, n: i32, order: usize, groupTotal: i32, out: usize,
): void {
  for (let g = 0; g < groupTotal; g++) setF64(out, g, 0);
  let have = false;
  let group = 0;
  let curStart: f64 = 0;
  let curEnd: f64 = 0;
  for (let k = 0; k < n; k++) {
    const i = getI32(order, k);
    const start = getF64(starts, i);
    const end = getF64(ends, i);
    if (!(end > start)) continue;
    const g = getI32(groups, i);
    if (have && g == group && start <= curEnd) {
      if (end > curEnd) curEnd = end;
      continue;
    }
    if (have) setF64(out, group, getF64(out, group) + (curEnd - curStart));
    have = true;
    group = g;
    curStart = start;
    curEnd = end;
  }
  if (have) setF64(out, group, getF64(out, group) + (curEnd - curStart));
}

/**
 * Overlaps of one employee: walking `order` (sorted by employee, start, end), a segment that
 * starts before the latest end so far overlaps the segment holding it. Writes (holder, segment)
 * pairs (at most n) and returns their number. Segments of no positive length are skipped.
 */
export function findOverlaps(starts: usize, ends: usize, employees: usize, n: i32, order: usize, pairsOut: usize): i32 {
  let pairs = 0;
  let holder = -1;
  for (let k = 0; k < n; k++) {
    const i = getI32(order, k);
    const start = getF64(starts, i);
    const end = getF64(ends, i);
    if (!(end > start)) continue;
    if (holder >= 0 && getI32(employees, holder) == getI32(employees, i)) {
      if (start < getF64(ends, holder)) {
        setI32(pairsOut, pairs << 1, holder);
        setI32(pairsOut, (pairs << 1) + 1, i);
        pairs++;
      }
      if (end > getF64(ends, holder)) holder = i;
    } else {
      holder = i;
    }
  }
  return pairs;
}

// ---------------------------------------------------------------- time study (§3)

/**
 * Statistics of one series (status == wanted, or accepted and dropped when wanted < 0) in
 * chronological order; min, max and second minimum come from the sorted indices [a, b).
 */
function seriesStats(
  values: usize, status: usize, lo: i32, hi: i32, wanted: i32,
  sorted: usize, a: i32, b: i32, fluctReduction: f64, out: usize,
): void {
  const n = b - a;
  for (let f = 0; f < SERIES_FIELDS; f++) setF64(out, f, 0);
  if (n == 0) return;
  const tMin = getF64(values, getI32(sorted, a));
  const tMax = getF64(values, getI32(sorted, b - 1));
  let sum: f64 = 0;
  for (let j = lo; j < hi; j++) {
    const s = getI32(status, j);
    if (wanted >= 0 ? s == wanted : s == STATUS_ACCEPTED || s == STATUS_DROPPED) sum += getF64(values, j);
  }
  const mean = sum / <f64>n;
  let fluctMax = -Infinity;
  let fluctMin = Infinity;
  let fluctAbs: f64 = 0;
  let squares: f64 = 0;
  for (let j = lo; j < hi; j++) {
    const s = getI32(status, j);
    if (!(wanted >= 0 ? s == wanted : s == STATUS_ACCEPTED || s == STATUS_DROPPED)) continue;
    const v = getF64(values, j);
    const f = ((v - mean) / mean) * 100;
    if (f > fluctMax) fluctMax = f;
    if (f < fluctMin) fluctMin = f;
    fluctAbs += Math.abs(f);
    squares += (v - mean) * (v - mean);
  }
  const tFreqFact = ((tMax - tMin) / mean) * 100;
  setF64(out, 0, <f64>n);
  setF64(out, 1, sum);
  setF64(out, 2, tMin);
  setF64(out, 3, tMax);
  setF64(out, 4, mean);
  setF64(out, 5, n >= 2 ? getF64(values, getI32(sorted, a + 1)) : tMin);
  setF64(out, 6, tMax / tMin);
  setF64(out, 7, mean);
  setF64(out, 8, tFreqFact);
  setF64(out, 9, tFreqFact * (1 - fluctReduction / 100));
  setF64(out, 10, fluctMax);
  setF64(out, 11, fluctMin);
  setF64(out, 12, fluctAbs / <f64>n);
  setF64(out, 13, n >= 2 ? (Math.sqrt(squares / <f64>(n - 1)) / mean) * 100 : 0);
}

/**
 * Cleaning and statistics of every operation's series. `values` holds measurements (seconds)
 * grouped by operation, chronological inside a group; group g is [offsets[g], offsets[g+1]).
 * Values whose status the caller set to 3 (cut by the window) are kept out of every series.
 * Writes per other value a status (0 accepted, 1 dropped by cleaning, 2 zero length) and fluct_perc
 * against the accepted t_reg; per group 14 accepted-series then 14 all-series fields.
 * bothExtremes != 0: the cleaning drops the minimum and the maximum together.
 */
export function studySeries(
  values: usize, offsets: usize, groups: i32, normatives: usize, fluctReduction: f64,
  status: usize, fluct: usize, stats: usize, bothExtremes: i32,
): void {
  const total = groups > 0 ? getI32(offsets, groups) : 0;
  const sorted = heap.alloc(<usize>max(total, 1) << 2);
  for (let g = 0; g < groups; g++) {
    const lo = getI32(offsets, g);
    const hi = getI32(offsets, g + 1);
    let m = 0;
    for (let j = lo; j < hi; j++) {
      if (getI32(status, j) == STATUS_CUT) continue;
      if (getF64(values, j) > 0) {
        setI32(sorted, lo + m, j);
        m++;
      } else {
        setI32(status, j, STATUS_ZERO);
      }
    }
    const base = sorted + (<usize>lo << 2);
    sortIndices(SORT_BY_VALUE, base, m, 0, values, 0);

    const normative = getF64(normatives, g);
    let a = 0;
    let b = m;
    while (b - a > CLEANING_MIN_REMAINING) {
      const tMin = getF64(values, getI32(base, a));
      const tMax = getF64(values, getI32(base, b - 1));
      if (!(tMax / tMin > normative)) break;
      const count = b - a;
      if (bothExtremes != 0) {
        // Min and max go together, as long as at least 5 measurements stay.
        if (count - 2 < CLEANING_MIN_REMAINING) break;
        a++;
        b--;
        continue;
      }
      const median = count % 2 == 1
        ? getF64(values, getI32(base, a + (count - 1) / 2))
        : (getF64(values, getI32(base, a + count / 2 - 1)) + getF64(values, getI32(base, a + count / 2))) / 2;
      if (tMax / median >= median / tMin) b--;
      else a++;
    }
    for (let t = 0; t < m; t++) setI32(status, getI32(base, t), t >= a && t < b ? STATUS_ACCEPTED : STATUS_DROPPED);

    const acceptedOut = stats + (<usize>g * 2 * SERIES_FIELDS << 3);
    const allOut = acceptedOut + (<usize>SERIES_FIELDS << 3);
    seriesStats(values, status, lo, hi, STATUS_ACCEPTED, base, a, b, fluctReduction, acceptedOut);
    seriesStats(values, status, lo, hi, -1, base, 0, m, fluctReduction, allOut);
    const tReg = getF64(acceptedOut, 7);
    for (let j = lo; j < hi; j++) {
      const v = getF64(values, j);
      setF64(fluct, j, v > 0 && tReg > 0 && getI32(status, j) != STATUS_CUT ? ((v - tReg) / tReg) * 100 : 0);
    }
  }
  heap.free(sorted);
}
