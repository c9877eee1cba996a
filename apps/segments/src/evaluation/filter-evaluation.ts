import {
  dateBetween,
  dateComparison,
  textOperand,
  withinLast,
  withinNext,
  type ConsentChannel,
  type DataScalar,
  type DateField,
  type FilterCondition,
  type FilterNode,
  type LinkChannel,
  type PhoneNormaliser,
  type TextField,
  type TimeRange,
} from '@cms/contracts';

import { Bitset, type RowBits } from './bitset';
import type { DataColumn } from './data-column';
import type { EventStore } from './event-store';
import { inNumberRange, numberBetween, numberComparison, type NumberRange } from './filter-operands';
import type { TextColumn } from './text-column';

/** What a filter is evaluated with: the evaluation time, and the members of other audiences. */
export interface EvaluationContext {
  /** Epoch ms: relative dates (`within_last`, event windows) count back or forward from here. */
  now: number;
  /** The members of audience `id` (the caller resolves references and refuses cycles). */
  audience(id: number): Bitset;
}

/** The columns of a workspace index, as a filter reads them. */
export interface IndexColumns {
  readonly size: number;
  readonly phoneE164: PhoneNormaliser;
  readonly events: EventStore;
  text(field: TextField): TextColumn;
  times(field: DateField): Float64Array;
  tag(id: number): RowBits | undefined;
  consent(channel: ConsentChannel, value: boolean): RowBits;
  link(channel: LinkChannel): TextColumn;
  /** The column of a custom-field path (built on first use). */
  dataColumn(path: readonly string[]): DataColumn;
}

/**
 * The rows matching a filter: the top-level array and `all` groups intersect, `any` groups unite,
 * `not` complements. Every condition is answered as a set of rows by a scan of one column (or one
 * event name's occurrences), and groups combine the sets word by word.
 *
 * The negative operators (`neq`, `not_in`, `not_contains`, `not_exists`, `not_within_last`,
 * `not_performed`, `count_lte`, `has_none`, audience `not_in`) are the exact complement of their
 * positive operator, so a contact without the value matches them: a missing name is not equal to
 * "Ann", a missing custom date is not within the last 30 days, as a contact that never had an event
 * has not performed it. The same rule holds for text fields and custom fields.
 */
export function evaluateFilter(
  columns: IndexColumns,
  criteria: readonly FilterNode[],
  context: EvaluationContext,
): Bitset {
  return new FilterEvaluation(columns, context).all(criteria);
}

class FilterEvaluation {
  constructor(
    private readonly columns: IndexColumns,
    private readonly context: EvaluationContext,
  ) {}

  all(nodes: readonly FilterNode[]): Bitset {
    let result: Bitset | null = null;
    for (const node of nodes) {
      const rows = this.node(node);
      result = result === null ? rows : result.and(rows);
      // Nothing can be added back by intersecting: the remaining conditions need not be read.
      if (result.isEmpty()) return result;
    }
    return result ?? Bitset.full(this.columns.size);
  }

  private any(nodes: readonly FilterNode[]): Bitset {
    let result = new Bitset(this.columns.size);
    for (const node of nodes) result = result.or(this.node(node));
    return result;
  }

  private node(node: FilterNode): Bitset {
    switch (node.kind) {
      case 'condition':
        return this.condition(node.condition);
      case 'all':
        return this.all(node.nodes);
      case 'any':
        return this.any(node.nodes);
      case 'not':
        return this.node(node.node).not();
    }
  }

  private condition(condition: FilterCondition): Bitset {
    switch (condition.kind) {
      case 'text':
        return this.text(condition);
      case 'data':
        return this.data(condition);
      case 'date': {
        const times = this.columns.times(condition.field);
        switch (condition.operator) {
          case 'before':
          case 'after':
            return this.timesIn(times, dateComparison(condition.operator, condition.value));
          case 'between':
            return this.timesIn(times, dateBetween(...condition.value));
          case 'within_last':
            return this.timesIn(times, withinLast(this.context.now, condition.value));
          case 'not_within_last':
            return this.timesIn(times, withinLast(this.context.now, condition.value)).not();
        }
        break;
      }
      case 'tags':
        switch (condition.operator) {
          case 'has':
            return this.tags([condition.value], 'any');
          case 'has_any':
            return this.tags(condition.value, 'any');
          case 'has_all':
            return this.tags(condition.value, 'all');
          case 'has_none':
            return this.tags(condition.value, 'any').not();
        }
        break;
      case 'consent': {
        const { channel, value } = condition;
        if (value !== null) return this.columns.consent(channel, value).toBitset(this.columns.size);
        const given = this.columns.consent(channel, true).toBitset(this.columns.size);
        return given.or(this.columns.consent(channel, false).toBitset(this.columns.size)).not();
      }
      case 'channel': {
        const linked = this.present(this.columns.link(condition.channel));
        return condition.operator === 'exists' ? linked : linked.not();
      }
      case 'event': {
        const window = condition.within === null ? null : withinLast(this.context.now, condition.within);
        const atLeast = (count: number): Bitset =>
          this.columns.events.atLeast(condition.name, count, window, this.columns.size);
        switch (condition.operator) {
          case 'performed':
            return atLeast(1);
          case 'not_performed':
            return atLeast(1).not();
          case 'count_gte':
            return atLeast(condition.count ?? 1);
          case 'count_lte':
            return atLeast((condition.count ?? 0) + 1).not();
        }
        break;
      }
      case 'audience': {
        let members = new Bitset(this.columns.size);
        for (const id of condition.value) members = members.or(this.context.audience(id));
        return condition.operator === 'in' ? members : members.not();
      }
    }
  }

  private text(condition: Extract<FilterCondition, { kind: 'text' }>): Bitset {
    const column = this.columns.text(condition.field);
    const operand = (comparison: 'eq' | 'in' | 'contains' | 'starts_with' | 'ends_with', value: string) =>
      textOperand(condition.field, comparison, value, this.columns.phoneE164);
    switch (condition.operator) {
      case 'exists':
        return this.present(column);
      case 'not_exists':
        return this.present(column).not();
      case 'in':
      case 'not_in': {
        const rows = this.textEquals(
          column,
          condition.value.map((value) => operand('in', value)),
        );
        return condition.operator === 'in' ? rows : rows.not();
      }
      case 'eq':
        return this.textEquals(column, [operand('eq', condition.value)]);
      case 'neq':
        return this.textEquals(column, [operand('eq', condition.value)]).not();
      case 'contains':
        return this.search(column, 'contains', operand('contains', condition.value));
      case 'not_contains':
        return this.search(column, 'contains', operand('contains', condition.value)).not();
      case 'starts_with':
      case 'ends_with':
        return this.search(column, condition.operator, operand(condition.operator, condition.value));
    }
  }

  private data(condition: Extract<FilterCondition, { kind: 'data' }>): Bitset {
    const column = this.columns.dataColumn(condition.path);
    const now = this.context.now;
    switch (condition.operator) {
      case 'exists':
        return column.present.toBitset(this.columns.size);
      case 'not_exists':
        return column.present.toBitset(this.columns.size).not();
      case 'eq':
        return this.dataEquals(column, [condition.value]);
      case 'neq':
        return this.dataEquals(column, [condition.value]).not();
      case 'in':
        return this.dataEquals(column, condition.value);
      case 'not_in':
        return this.dataEquals(column, condition.value).not();
      case 'contains':
      case 'starts_with':
      case 'ends_with':
        return this.dataSearch(column, condition.operator, condition.value);
      case 'not_contains':
        return this.dataSearch(column, 'contains', condition.value).not();
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte': {
        const { operator, value } = condition;
        return typeof value === 'number'
          ? this.numbersIn(column.numbers, numberComparison(operator, value))
          : this.timesIn(column.times, dateComparison(operator, value));
      }
      case 'between': {
        const [low, high] = condition.value;
        return typeof low === 'number' && typeof high === 'number'
          ? this.numbersIn(column.numbers, numberBetween(low, high))
          : this.timesIn(column.times, dateBetween(String(low), String(high)));
      }
      case 'before':
      case 'after':
        return this.timesIn(column.times, dateComparison(condition.operator, condition.value));
      case 'within_last':
        return this.timesIn(column.times, withinLast(now, condition.value));
      case 'not_within_last':
        return this.timesIn(column.times, withinLast(now, condition.value)).not();
      case 'within_next':
        return this.timesIn(column.times, withinNext(now, condition.value));
    }
  }

  /** Values of the same type only: strings (ignoring case), numbers, booleans. */
  private dataEquals(column: DataColumn, values: readonly DataScalar[]): Bitset {
    const size = this.columns.size;
    const strings = values.filter((value): value is string => typeof value === 'string');
    const numbers = values.filter((value): value is number => typeof value === 'number');
    let rows = new Bitset(size);
    if (strings.length > 0 && column.text !== null) {
      rows = this.textEquals(
        column.text,
        strings.map((value) => textOperand(null, 'in', value, this.columns.phoneE164)),
      );
    }
    if (numbers.length > 0 && column.numbers !== null) {
      const wanted = new Set(numbers);
      const array = column.numbers;
      const end = Math.min(size, array.length);
      for (let row = 0; row < end; row += 1) if (wanted.has(array[row]!)) rows.add(row);
    }
    if (values.includes(true)) rows = rows.or(column.trueRows.toBitset(size));
    if (values.includes(false)) rows = rows.or(column.falseRows.toBitset(size));
    return rows;
  }

  private dataSearch(
    column: DataColumn,
    operator: 'contains' | 'starts_with' | 'ends_with',
    value: string,
  ): Bitset {
    if (column.text === null) return new Bitset(this.columns.size);
    return this.search(column.text, operator, textOperand(null, operator, value, this.columns.phoneE164));
  }

  private textEquals(column: TextColumn, values: string[]): Bitset {
    const rows = new Bitset(this.columns.size);
    column.equalsAny(values, rows);
    return rows;
  }

  private search(
    column: TextColumn,
    operator: 'contains' | 'starts_with' | 'ends_with',
    value: string,
  ): Bitset {
    const rows = new Bitset(this.columns.size);
    if (operator === 'contains') column.contains(value, rows);
    else if (operator === 'starts_with') column.startsWith(value, rows);
    else column.endsWith(value, rows);
    return rows;
  }

  private present(column: TextColumn): Bitset {
    const rows = new Bitset(this.columns.size);
    column.present(rows);
    return rows;
  }

  private tags(ids: readonly number[], mode: 'any' | 'all'): Bitset {
    const size = this.columns.size;
    let rows = mode === 'all' ? Bitset.full(size) : new Bitset(size);
    for (const id of ids) {
      const tagged = this.columns.tag(id)?.toBitset(size) ?? new Bitset(size);
      rows = mode === 'all' ? rows.and(tagged) : rows.or(tagged);
    }
    return rows;
  }

  private timesIn(times: Float64Array | null, range: TimeRange): Bitset {
    const rows = new Bitset(this.columns.size);
    if (times === null) return rows;
    const { from, until } = range;
    const end = Math.min(rows.size, times.length);
    for (let row = 0; row < end; row += 1) {
      const time = times[row]!;
      if (time >= from && time < until) rows.add(row);
    }
    return rows;
  }

  private numbersIn(numbers: Float64Array | null, range: NumberRange): Bitset {
    const rows = new Bitset(this.columns.size);
    if (numbers === null) return rows;
    const end = Math.min(rows.size, numbers.length);
    for (let row = 0; row < end; row += 1) {
      const value = numbers[row]!;
      if (value === value && inNumberRange(value, range)) rows.add(row);
    }
    return rows;
  }
}
