export type Met = 'yes' | 'no' | 'n/a';

/** One line of the table: a figure or a baseline, as printed and as written to the JSON. */
export interface Row {
  id: string;
  figure: string;
  value: number | null;
  unit: string;
  /** How the value reads in the table, e.g. `1,234 req/s (p99 87 ms)`, or why there is none. */
  shown: string;
  baseline: { name: string; value: number; unit: string } | null;
  ratio: number | null;
  goal: string;
  met: Met;
  /** What the CPU meter saw while it was measured: what limits the figure. */
  cpu: string;
}

export function thousands(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function ratioOf(
  value: number | null | undefined,
  baseline: number | null | undefined,
): number | null {
  if (value === null || value === undefined || !baseline) return null;
  return Math.round((value / baseline) * 1000) / 1000;
}

/** `no` when any check failed; `n/a` when none failed but one could not be made (no baseline). */
export function allMet(checks: Array<boolean | undefined>): Met {
  if (checks.some((check) => check === false)) return 'no';
  if (checks.some((check) => check === undefined)) return 'n/a';
  return 'yes';
}

/** A header, a rule and the rows, each column as wide as its widest cell: one line each. */
export function alignedTable(header: readonly string[], cells: ReadonlyArray<readonly string[]>): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]!.length)),
  );
  const line = (values: readonly string[]): string =>
    values
      .map((value, column) => value.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)];
}

/** Two decimals, or the first significant digit of a ratio under 0.01 (0.002, not 0.00). */
export function ratioText(ratio: number): string {
  return ratio === 0 || ratio >= 0.01 ? ratio.toFixed(2) : String(Number(ratio.toPrecision(1)));
}

/** The table on stdout: figure, value, baseline, ratio, goal, met?; then what the CPU did for each. */
export function renderTable(rows: Row[]): string {
  const header = ['figure', 'value', 'baseline', 'ratio', 'goal', 'met?'];
  const cells = rows.map((row) => [
    row.figure,
    row.shown,
    row.baseline ? `${row.baseline.name} ${thousands(row.baseline.value)} ${row.baseline.unit}` : '—',
    row.ratio === null ? '—' : `${ratioText(row.ratio)}×`,
    row.goal || '—',
    row.met,
  ]);
  const out = alignedTable(header, cells);
  out.push('', 'CPU while measured (% of one core; the machine has 2):');
  for (const row of rows) if (row.cpu) out.push(`  ${row.figure}: ${row.cpu}`);
  return `${out.join('\n')}\n`;
}
