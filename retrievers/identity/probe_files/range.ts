/** An inclusive integer range (probe input). */
export interface Range {
  start: number;
  end: number;
}

/** Whether two ranges share at least one integer. */
export function overlaps(a: Range, b: Range): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/** Merge overlapping ranges into the fewest ranges covering the same integers. */
export function merge(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((x, y) => x.start - y.start);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + 1) {
      last.end = Math.max(last.end, r.end);
    } else {
      out.push({ ...r });
    }
  }
  return out;
}
