import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * The schemas of the gateway's OpenAPI document, compiled once each with the document's components
 * beside them (so `#/components/schemas/…` resolve), as a judge of values: what is wrong with one value,
 * one line a problem.
 */
export class DocumentSchemas {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly components: unknown) {
    addFormats(this.ajv);
  }

  /**
   * The problems of `value` under `schema` (at most `most`), each as `<name>: <where> <what>`; `key`
   * names the schema for the cache.
   */
  problems(name: string, key: string, schema: Record<string, unknown>, value: unknown, most = 8): string[] {
    const validate = this.validator(key, schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, most).map((error) => {
      const extra =
        error.keyword === 'additionalProperties'
          ? ` (${String((error.params as { additionalProperty: string }).additionalProperty)})`
          : '';
      return `${name}: ${error.instancePath || '(body)'} ${error.message ?? error.keyword}${extra}`;
    });
  }

  private validator(key: string, schema: Record<string, unknown>): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile({ ...schema, components: this.components });
      this.validators.set(key, validate);
    }
    return validate;
  }
}
