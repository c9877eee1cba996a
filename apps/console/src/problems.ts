import { ApiError, NetworkError, type Problem } from './api';

const ATTRIBUTES = '/data/attributes/';

/**
 * The field a problem's pointer names, as a dotted path: `/data/attributes/steps/0/type` →
 * `steps.0.type`. JSON Pointer escapes (`~1` for `/`, `~0` for `~`) are undone. A pointer outside the
 * attributes (or none) names no field.
 */
export function fieldOf(problem: Problem): string | undefined {
  const pointer = problem.source?.pointer;
  if (!pointer?.startsWith(ATTRIBUTES)) return undefined;
  return pointer
    .slice(ATTRIBUTES.length)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** What a failed request says, sorted for a form: each field's messages, and the rest. */
export interface FormProblems {
  /** The message for a field the form shows (its dotted path), or for anything under it. */
  field(path: string): string | undefined;
  /** Messages no shown field took: shown above the form's buttons. */
  unclaimed(shown: readonly string[]): string[];
  /** Every message, with the field it names. */
  all: Array<{ field?: string; message: string }>;
}

function messageOf(problem: Problem): string {
  return problem.detail || problem.title;
}

/** Sorts the error of a request (ApiError, NetworkError or anything thrown) into a form's fields. */
export function formProblems(error: unknown): FormProblems {
  let all: Array<{ field?: string; message: string }>;
  if (error instanceof ApiError) {
    all = error.problems.map((problem) => ({ field: fieldOf(problem), message: messageOf(problem) }));
  } else if (error instanceof NetworkError) {
    all = [{ message: error.message }];
  } else if (error) {
    all = [{ message: error instanceof Error ? error.message : String(error) }];
  } else {
    all = [];
  }
  const under = (field: string | undefined, path: string): boolean =>
    field !== undefined && (field === path || field.startsWith(`${path}.`));
  return {
    all,
    field(path) {
      const messages = all.filter((entry) => under(entry.field, path)).map((entry) => entry.message);
      return messages.length > 0 ? messages.join(' ') : undefined;
    },
    unclaimed(shown) {
      return all
        .filter((entry) => !shown.some((path) => under(entry.field, path)))
        .map((entry) => (entry.field ? `${entry.field}: ${entry.message}` : entry.message));
    },
  };
}
