/**
 * The next length of an array that grows with the index: doubling while small, then by half once
 * past a million entries, so a full column of a million rows carries at most a third unused.
 */
export function grownCapacity(current: number, needed: number, minimum = 1024): number {
  const step = current < 1 << 20 ? current * 2 : Math.ceil(current * 1.5);
  return Math.max(needed, step, minimum);
}
