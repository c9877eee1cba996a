import { percentile } from './percentiles';
import { allMet, ratioOf, ratioText, renderTable, thousands, type Row } from './report';

describe('bench report', () => {
  it('takes nearest-rank percentiles', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });

  it('reads a figure against its baseline, and says n/a when a check was not measured', () => {
    expect(ratioOf(59, 16244)).toBe(0.004);
    expect(ratioOf(12000, 37870)).toBe(0.317);
    expect(ratioOf(null, 100)).toBeNull();
    expect(ratioOf(10, 0)).toBeNull();
    expect(allMet([true, true])).toBe('yes');
    expect(allMet([true, false])).toBe('no');
    expect(allMet([true, undefined])).toBe('n/a');
    expect(allMet([false, undefined])).toBe('no');
    expect(thousands(16244.4)).toBe('16,244');
  });

  it('shows a ratio with two decimals, or its first significant digit under 0.01', () => {
    expect(ratioText(0.317)).toBe('0.32');
    expect(ratioText(1.5)).toBe('1.50');
    expect(ratioText(0.002)).toBe('0.002');
    expect(ratioText(0.0049)).toBe('0.005');
    expect(ratioText(0)).toBe('0.00');
  });

  it('prints aligned columns, the baseline and ratio, and what the CPU did', () => {
    const rows: Row[] = [
      {
        id: 'replay',
        figure: 'rebuilding contacts',
        value: 195,
        unit: 'records/s',
        shown: '195 records/s',
        baseline: { name: 'COPY', value: 37870, unit: 'rows/s' },
        ratio: 0.005,
        goal: '≥ 20,000 records/s',
        met: 'no',
        cpu: 'contacts 66 %',
      },
      {
        id: 'copy',
        figure: 'COPY',
        value: 37870,
        unit: 'rows/s',
        shown: '37,870 rows/s',
        baseline: null,
        ratio: null,
        goal: '',
        met: 'n/a',
        cpu: '',
      },
    ];
    const lines = renderTable(rows).split('\n');
    expect(lines[0]).toMatch(/^figure\s+value\s+baseline\s+ratio\s+goal\s+met\?$/);
    expect(lines[2]).toContain('COPY 37,870 rows/s');
    expect(lines[2]).toContain('0.005×');
    expect(lines[3]).toMatch(/^COPY\s+37,870 rows\/s\s+—\s+—\s+—\s+n\/a$/);
    // Every row's value starts in the same column as the header's.
    const column = lines[0]!.indexOf('value');
    expect(lines[2]!.indexOf('195')).toBe(column);
    expect(lines[3]!.indexOf('37,870')).toBe(column);
    expect(lines).toContain('  rebuilding contacts: contacts 66 %');
    expect(lines.some((line) => line.startsWith('  COPY:'))).toBe(false);
  });
});
