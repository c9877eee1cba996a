import { getMetadataStorage } from 'class-validator';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type Lookup = MetadataStorage['getTargetValidationMetadatas'];

const MEMOIZED = Symbol('cms:memoized-validation-metadata');

/**
 * class-validator finds a class's rules, inherited ones included, by testing every decorated class in
 * the process on every `validate` call (typestack/class-validator#2686): with all the record and
 * request classes loaded that was a quarter of a rebuild's CPU. A class's rules are all registered
 * when it and its ancestors are defined, before anything can validate it, and classes defined later
 * never change them; so the answer for given arguments is kept. Installed once per process.
 */
export function memoizeValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  const lookup = storage.getTargetValidationMetadatas as Lookup & { [MEMOIZED]?: true };
  if (lookup[MEMOIZED]) return;
  const original = lookup.bind(storage);
  const byTarget = new WeakMap<object, Map<string, ReturnType<Lookup>>>();
  const memoized = ((targetConstructor, targetSchema, always, strictGroups, groups) => {
    // Schema-based validation (a string target) and unusual targets are not kept.
    if (typeof targetConstructor !== 'function') {
      return original(targetConstructor, targetSchema, always, strictGroups, groups);
    }
    const key = JSON.stringify([targetSchema, always, strictGroups, groups ?? null]);
    let answers = byTarget.get(targetConstructor);
    if (!answers) {
      answers = new Map();
      byTarget.set(targetConstructor, answers);
    }
    let answer = answers.get(key);
    if (!answer) {
      answer = original(targetConstructor, targetSchema, always, strictGroups, groups);
      answers.set(key, answer);
    }
    return answer;
  }) as Lookup & { [MEMOIZED]?: true };
  memoized[MEMOIZED] = true;
  storage.getTargetValidationMetadatas = memoized;
}
