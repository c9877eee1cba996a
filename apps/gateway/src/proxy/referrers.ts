import { JsonApiException, jsonApiErrorObject } from '@cms/http';

/** A resource that names another, as its owner lists it: `{"data": [{"id", "name"}]}`. */
export interface Referrer {
  id: number;
  name: string;
}

/** At most this many referrers are named in a refusal, so its detail stays readable. */
const NAMED = 10;

/**
 * Why `subject` cannot be deleted while `referrers` (of `kind`) name it: "Template 4 is used by
 * workflow 7 ("Welcome"); change or delete it first." Undefined when nothing names it.
 */
export function inUseDetail(
  subject: string,
  kind: string,
  referrers: readonly Referrer[],
): string | undefined {
  if (referrers.length === 0) return undefined;
  const named = referrers
    .slice(0, NAMED)
    .map((referrer) => `${referrer.id} (${JSON.stringify(referrer.name)})`)
    .join(', ');
  const others = referrers.length > NAMED ? ' and others' : '';
  return `${subject} is used by ${kind} ${named}${others}; change or delete ${referrers.length === 1 ? 'it' : 'them'} first.`;
}

/**
 * Refuses a delete with one error for each use that names it (`status`: 422 for a template, extensions
 * §9; 409 for the others, as segments refuses an audience another audience's filter names); nothing
 * when no use does.
 */
export function refuseUses(status: 409 | 422, uses: ReadonlyArray<string | undefined>): void {
  const details = uses.filter((use) => use !== undefined);
  if (details.length > 0) {
    throw new JsonApiException(
      status,
      details.map((detail) => jsonApiErrorObject(status, detail)),
    );
  }
}
