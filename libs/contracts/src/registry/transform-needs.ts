import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';

/** Keys a class's answers are kept for at most: a record's keys are whatever its producer wrote. */
const MAX_KEYS_KEPT = 256;

interface ClassNeeds {
  /** The class exposes or excludes properties: every instance is made by class-transformer. */
  always: boolean;
  /** Whether a key of the plain data has a @Type or @Transform on the class (or an ancestor). */
  byKey: Map<string, boolean>;
}

/**
 * Whether class-transformer would do more than copy a plain object's keys onto a new instance of a
 * class: a nested class to make (@Type), a value to transform (@Transform), keys to expose or exclude.
 * Where it would not, `Object.assign(new Class(), data)` makes the same instance (data parsed from
 * JSON holds no dates, maps or class instances), without the deep copy of every nested value that
 * took a fifth of the segments view's time decoding a million contact facts.
 */
export class TransformNeeds {
  private readonly classes = new WeakMap<object, ClassNeeds>();

  needed(schema: new (...args: never[]) => unknown, data: Record<string, unknown>): boolean {
    const needs = this.of(schema);
    // Object.assign would set the instance's prototype from a "__proto__" key: left to class-transformer.
    if (needs.always || Object.hasOwn(data, '__proto__')) return true;
    for (const key of Object.keys(data)) {
      let answer = needs.byKey.get(key);
      if (answer === undefined) {
        answer =
          defaultMetadataStorage.findTypeMetadata(schema, key) !== undefined ||
          defaultMetadataStorage.findTransformMetadatas(schema, key, TransformationType.PLAIN_TO_CLASS)
            .length > 0;
        if (needs.byKey.size < MAX_KEYS_KEPT) needs.byKey.set(key, answer);
      }
      if (answer) return true;
    }
    return false;
  }

  private of(schema: new (...args: never[]) => unknown): ClassNeeds {
    let needs = this.classes.get(schema);
    if (!needs) {
      needs = {
        always:
          defaultMetadataStorage.getStrategy(schema) !== 'none' ||
          defaultMetadataStorage.getExposedMetadatas(schema).length > 0 ||
          defaultMetadataStorage.getExcludedMetadatas(schema).length > 0,
        byKey: new Map(),
      };
      this.classes.set(schema, needs);
    }
    return needs;
  }
}
