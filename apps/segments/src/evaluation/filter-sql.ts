import {
  dateBetween,
  dateComparison,
  textOperand,
  withinLast,
  withinNext,
  type DataScalar,
  type FilterCondition,
  type FilterNode,
  type PhoneNormaliser,
  type TimeRange,
} from '@cms/contracts';

import {
  SQL_DAY_PATTERN,
  SQL_TIME_PATTERN,
  numberBetween,
  numberComparison,
  type NumberRange,
} from './filter-operands';

/** What compiling a filter to SQL needs beside the filter. */
export interface FilterSqlContext {
  /** Epoch ms the relative dates count from (bound as parameters, so Postgres' clock plays no part). */
  now: number;
  phoneE164: PhoneNormaliser;
  /**
   * A boolean expression over the contact row `c` saying that it is a member of audience `id`
   * (`bind` adds a parameter and answers its placeholder). The caller knows what an audience is made
   * of (its filter, its include and exclude lists, its imported members) and has refused cycles.
   */
  audience(id: number, bind: (value: unknown) => string): string;
  /** The number of the first parameter: `$1` is usually taken by the workspace id. */
  firstParameter?: number;
}

export interface FilterSql {
  where: string;
  params: unknown[];
}

/**
 * The filter as a WHERE clause over the segments service's view of contacts, aliased `c`
 * (`SELECT count(*) FROM contacts c WHERE c.workspace_id = $1 AND <where>`), with every value
 * bound. It means what the in-memory index evaluates (the same operands from filter-operands.ts, the
 * same rule that a negative operator is the complement of its positive one): it is the "Postgres
 * alone" baseline the index is measured against, and a test holds the two to the same answers.
 * Every condition is made TRUE or FALSE, never NULL, so `NOT` complements exactly.
 */
export function filterToSql(criteria: readonly FilterNode[], context: FilterSqlContext): FilterSql {
  const params: unknown[] = [];
  const first = context.firstParameter ?? 1;
  const bind = (value: unknown): string => {
    params.push(value);
    return `$${first + params.length - 1}`;
  };
  const where = new SqlCompiler(context, bind).all(criteria);
  return { where, params };
}

type Bind = (value: unknown) => string;

const SCALAR_TYPES = "('string', 'number', 'boolean')";

class SqlCompiler {
  constructor(
    private readonly context: FilterSqlContext,
    private readonly bind: Bind,
  ) {}

  all(nodes: readonly FilterNode[]): string {
    if (nodes.length === 0) return 'TRUE';
    return `(${nodes.map((node) => this.node(node)).join(' AND ')})`;
  }

  private node(node: FilterNode): string {
    switch (node.kind) {
      case 'condition':
        return this.condition(node.condition);
      case 'all':
        return this.all(node.nodes);
      case 'any':
        return `(${node.nodes.map((child) => this.node(child)).join(' OR ')})`;
      case 'not':
        return `(NOT ${this.node(node.node)})`;
    }
  }

  private condition(condition: FilterCondition): string {
    switch (condition.kind) {
      case 'text':
        return this.text(condition);
      case 'data':
        return this.data(condition);
      case 'date': {
        const column = `c.${condition.field}`;
        switch (condition.operator) {
          case 'before':
          case 'after':
            return this.timeIn(column, dateComparison(condition.operator, condition.value));
          case 'between':
            return this.timeIn(column, dateBetween(...condition.value));
          case 'within_last':
            return this.timeIn(column, withinLast(this.context.now, condition.value));
          case 'not_within_last':
            return not(this.timeIn(column, withinLast(this.context.now, condition.value)));
        }
        break;
      }
      case 'tags': {
        switch (condition.operator) {
          case 'has':
            return truth(`c.tag_ids && ${this.bind([condition.value])}::bigint[]`);
          case 'has_any':
            return truth(`c.tag_ids && ${this.bind(condition.value)}::bigint[]`);
          case 'has_all':
            return truth(`c.tag_ids @> ${this.bind(condition.value)}::bigint[]`);
          case 'has_none':
            return not(truth(`c.tag_ids && ${this.bind(condition.value)}::bigint[]`));
        }
        break;
      }
      case 'consent': {
        const value = `c.marketing_consent -> ${this.bind(condition.channel)}::text`;
        if (condition.value === null) return not(truth(`${value} IN ('true'::jsonb, 'false'::jsonb)`));
        return truth(`${value} = '${condition.value}'::jsonb`);
      }
      case 'channel': {
        const key = `${this.bind(condition.channel)}::text`;
        // As the index reads it: a string with something besides white space.
        const linked = truth(
          `jsonb_typeof(c.channels -> ${key}) = 'string' AND (c.channels ->> ${key}) ~ '\\S'`,
        );
        return condition.operator === 'exists' ? linked : not(linked);
      }
      case 'event': {
        const window = condition.within === null ? null : withinLast(this.context.now, condition.within);
        const atLeast = (count: number): string => this.eventsAtLeast(condition.name, count, window);
        switch (condition.operator) {
          case 'performed':
            return atLeast(1);
          case 'not_performed':
            return not(atLeast(1));
          case 'count_gte':
            return atLeast(condition.count ?? 1);
          case 'count_lte':
            return not(atLeast((condition.count ?? 0) + 1));
        }
        break;
      }
      case 'audience': {
        const members = condition.value.map((id) => truth(this.context.audience(id, this.bind))).join(' OR ');
        return condition.operator === 'in' ? `(${members})` : not(`(${members})`);
      }
    }
  }

  private text(condition: Extract<FilterCondition, { kind: 'text' }>): string {
    const column = `c.${condition.field}`;
    const operand = (comparison: 'eq' | 'in' | 'contains' | 'starts_with' | 'ends_with', value: string) =>
      textOperand(condition.field, comparison, value, this.context.phoneE164);
    switch (condition.operator) {
      case 'exists':
        return `(${column} IS NOT NULL)`;
      case 'not_exists':
        return `(${column} IS NULL)`;
      case 'eq':
        return this.textEquals(column, [operand('eq', condition.value)]);
      case 'neq':
        return not(this.textEquals(column, [operand('eq', condition.value)]));
      case 'in':
        return this.textEquals(
          column,
          condition.value.map((value) => operand('in', value)),
        );
      case 'not_in':
        return not(
          this.textEquals(
            column,
            condition.value.map((value) => operand('in', value)),
          ),
        );
      case 'contains':
        return this.textSearch(column, 'contains', operand('contains', condition.value));
      case 'not_contains':
        return not(this.textSearch(column, 'contains', operand('contains', condition.value)));
      case 'starts_with':
      case 'ends_with':
        return this.textSearch(column, condition.operator, operand(condition.operator, condition.value));
    }
  }

  private data(condition: Extract<FilterCondition, { kind: 'data' }>): string {
    const value = `(c.data #> ${this.bind(condition.path)}::text[])`;
    const now = this.context.now;
    switch (condition.operator) {
      case 'exists':
        return truth(`jsonb_typeof(${value}) IN ${SCALAR_TYPES}`);
      case 'not_exists':
        return not(truth(`jsonb_typeof(${value}) IN ${SCALAR_TYPES}`));
      case 'eq':
        return this.dataEquals(value, [condition.value]);
      case 'neq':
        return not(this.dataEquals(value, [condition.value]));
      case 'in':
        return this.dataEquals(value, condition.value);
      case 'not_in':
        return not(this.dataEquals(value, condition.value));
      case 'contains':
      case 'starts_with':
      case 'ends_with':
        return this.dataSearch(value, condition.operator, condition.value);
      case 'not_contains':
        return not(this.dataSearch(value, 'contains', condition.value));
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte': {
        const { operator, value: bound } = condition;
        return typeof bound === 'number'
          ? this.numberIn(value, numberComparison(operator, bound))
          : this.timeIn(dataTime(value), dateComparison(operator, bound));
      }
      case 'between': {
        const [low, high] = condition.value;
        return typeof low === 'number' && typeof high === 'number'
          ? this.numberIn(value, numberBetween(low, high))
          : this.timeIn(dataTime(value), dateBetween(String(low), String(high)));
      }
      case 'before':
      case 'after':
        return this.timeIn(dataTime(value), dateComparison(condition.operator, condition.value));
      case 'within_last':
        return this.timeIn(dataTime(value), withinLast(now, condition.value));
      case 'not_within_last':
        return not(this.timeIn(dataTime(value), withinLast(now, condition.value)));
      case 'within_next':
        return this.timeIn(dataTime(value), withinNext(now, condition.value));
    }
  }

  private textEquals(column: string, values: string[]): string {
    return truth(`lower(${column}) = ANY(${this.bind(values)}::text[])`);
  }

  private textSearch(
    column: string,
    operator: 'contains' | 'starts_with' | 'ends_with',
    operand: string,
  ): string {
    const value = `${this.bind(operand)}::text`;
    const text = `lower(${column})`;
    switch (operator) {
      case 'contains':
        return truth(`strpos(${text}, ${value}) > 0`);
      case 'starts_with':
        return truth(`starts_with(${text}, ${value})`);
      case 'ends_with':
        return truth(`right(${text}, char_length(${value})) = ${value}`);
    }
  }

  /** Values of the same JSON type only, strings ignoring case. */
  private dataEquals(value: string, scalars: readonly DataScalar[]): string {
    const strings = scalars.filter((scalar): scalar is string => typeof scalar === 'string');
    const numbers = scalars.filter((scalar): scalar is number => typeof scalar === 'number');
    const booleans = scalars.filter((scalar): scalar is boolean => typeof scalar === 'boolean');
    const parts: string[] = [];
    if (strings.length > 0) {
      const lowered = strings.map((text) => textOperand(null, 'in', text, this.context.phoneE164));
      parts.push(
        `(jsonb_typeof(${value}) = 'string' AND lower(${value} #>> '{}') = ANY(${this.bind(lowered)}::text[]))`,
      );
    }
    if (numbers.length > 0) {
      // The cast only once the value is known to be a number (AND does not promise an order; CASE does).
      parts.push(
        `CASE WHEN jsonb_typeof(${value}) = 'number' THEN (${value} #>> '{}')::numeric = ANY(${this.bind(numbers.map(String))}::numeric[]) ELSE FALSE END`,
      );
    }
    if (booleans.length > 0) {
      parts.push(`${value} = ANY(${this.bind(booleans.map(String))}::jsonb[])`);
    }
    return parts.length === 0 ? 'FALSE' : truth(parts.join(' OR '));
  }

  private dataSearch(value: string, operator: 'contains' | 'starts_with' | 'ends_with', text: string) {
    const operand = textOperand(null, operator, text, this.context.phoneE164);
    const string = `CASE WHEN jsonb_typeof(${value}) = 'string' THEN ${value} #>> '{}' END`;
    return this.textSearch(`(${string})`, operator, operand);
  }

  private numberIn(value: string, range: NumberRange): string {
    const number = `(${value} #>> '{}')::numeric`;
    const tests: string[] = [];
    if (range.low !== Number.NEGATIVE_INFINITY) {
      tests.push(`${number} ${range.lowIncluded ? '>=' : '>'} ${this.bind(String(range.low))}::numeric`);
    }
    if (range.high !== Number.POSITIVE_INFINITY) {
      tests.push(`${number} ${range.highIncluded ? '<=' : '<'} ${this.bind(String(range.high))}::numeric`);
    }
    const test = tests.length === 0 ? 'TRUE' : tests.join(' AND ');
    return `(CASE WHEN jsonb_typeof(${value}) = 'number' THEN ${test} ELSE FALSE END)`;
  }

  /** `from ≤ t < until` as a half-open range (an infinite end is an unbounded one). */
  private timeIn(time: string, range: TimeRange): string {
    const bound = (ms: number): string =>
      `${this.bind(Number.isFinite(ms) ? new Date(ms).toISOString() : null)}::timestamptz`;
    return truth(`tstzrange(${bound(range.from)}, ${bound(range.until)}, '[)') @> ${time}`);
  }

  private eventsAtLeast(name: string, count: number, window: TimeRange | null): string {
    if (count <= 0) return 'TRUE';
    const filters = [
      'e.workspace_id = c.workspace_id',
      'e.contact_id = c.id',
      `e.name = ${this.bind(name)}::text`,
    ];
    if (window !== null) filters.push(this.timeIn('e.occurred_at', window));
    const events = `FROM contact_events e WHERE ${filters.join(' AND ')}`;
    return count === 1
      ? `EXISTS (SELECT 1 ${events})`
      : `((SELECT count(*) ${events}) >= ${this.bind(count)}::bigint)`;
  }
}

/** The instant of a custom field's date string, as dataTime() reads it in the index; NULL otherwise. */
function dataTime(value: string): string {
  const text = `(${value} #>> '{}')`;
  // make_date fails on year 0: the real-day check runs only after the shape is known to be safe.
  const realDay = `to_char(make_date(substr(${text}, 1, 4)::int, substr(${text}, 6, 2)::int, 1) + (substr(${text}, 9, 2)::int - 1), 'YYYY-MM-DD') = substr(${text}, 1, 10)`;
  return `(CASE WHEN jsonb_typeof(${value}) = 'string' AND (${text} ~ '${SQL_DAY_PATTERN}' OR ${text} ~ '${SQL_TIME_PATTERN}') AND substr(${text}, 1, 4) <> '0000' THEN CASE WHEN ${realDay} THEN CASE WHEN char_length(${text}) = 10 THEN (${text}::date)::timestamp AT TIME ZONE 'UTC' ELSE ${text}::timestamptz END END END)`;
}

/** TRUE or FALSE, never NULL. */
function truth(sql: string): string {
  return `COALESCE(${sql}, FALSE)`;
}

function not(sql: string): string {
  return `(NOT ${sql})`;
}
