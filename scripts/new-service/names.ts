/** A service or entity name: lower-case words joined by hyphens, e.g. `loyalty` or `gift-card`. */
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Its schema, 17 characters of a test's unique suffix and Kubernetes' `-migrate` must still fit. */
const MAX_NAME_LENGTH = 30;

/** Words an entity cannot be named, since its camel-case name becomes a variable. */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try ' +
    'typeof var void while with yield let static implements interface package private protected public ' +
    'await arguments eval'
  ).split(' '),
);

export class UsageError extends Error {}

const words = (kebab: string): string[] => kebab.split('-');
const capital = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
const pascal = (kebab: string): string => words(kebab).map(capital).join('');
const camel = (kebab: string): string => {
  const [first, ...rest] = words(kebab);
  return first + rest.map(capital).join('');
};
const snake = (kebab: string): string => words(kebab).join('_');

/** English plural of the last word: `entry` → `entries`, `box` → `boxes`, `item` → `items`. */
function plural(kebab: string): string {
  if (/[^aeiou]y$/.test(kebab)) return `${kebab.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(kebab)) return `${kebab}es`;
  return `${kebab}s`;
}

function checkName(what: string, name: string): void {
  if (!KEBAB.test(name))
    throw new UsageError(`${what} ${JSON.stringify(name)} must be lower-case words joined by hyphens`);
  if (name.length > MAX_NAME_LENGTH)
    throw new UsageError(`${what} ${JSON.stringify(name)} is longer than ${MAX_NAME_LENGTH} characters`);
}

/**
 * Every spelling of the service's and its entity's names the templates use, by token: a template's
 * `__Name__` becomes `Names['Name']`, and so on.
 */
export type Names = ReturnType<typeof namesOf>;

export function namesOf(name: string, entity: string) {
  checkName('the service name', name);
  checkName('the entity name', entity);
  const entities = plural(entity);
  for (const variable of [camel(entity), camel(entities)]) {
    if (RESERVED.has(variable)) throw new UsageError(`the entity cannot be named ${JSON.stringify(entity)}`);
  }
  // Request and fact types are global: they carry the service's name unless the entity is named for it.
  const resource = entity === name ? name : `${name}-${entity}`;
  return {
    name,
    Name: pascal(name),
    NAME: snake(name).toUpperCase(),
    schema: snake(name),
    entity,
    Entity: pascal(entity),
    entityCamel: camel(entity),
    entitySnake: snake(entity),
    entityWords: words(entity).join(' '),
    EntityWords: capital(words(entity).join(' ')),
    entities,
    Entities: pascal(entities),
    entitiesCamel: camel(entities),
    entitiesSnake: snake(entities),
    entitiesWords: words(entities).join(' '),
    resource,
    Resource: pascal(resource),
    topicKey: camel(name),
    topic: `cms.${name}.v1`,
  };
}

/** The template's text with every `__token__` replaced; a token without a value is a mistake in it. */
export function render(text: string, tokens: Record<string, string>, where: string): string {
  return text.replace(/__([A-Za-z]+)__/g, (match, token: string) => {
    const value = tokens[token];
    if (value === undefined) throw new Error(`${where}: unknown token ${match}`);
    return value;
  });
}
