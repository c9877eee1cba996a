import { ApiError, NetworkError } from './api';
import { fieldOf, formProblems } from './problems';

describe('the console sorting the API’s problems into a form', () => {
  const refusal = new ApiError(422, [
    {
      status: '422',
      title: 'Invalid',
      detail: 'must not be blank',
      source: { pointer: '/data/attributes/name' },
    },
    {
      status: '422',
      title: 'Invalid',
      detail: 'names no template',
      source: { pointer: '/data/attributes/steps/2/template_id' },
    },
    {
      status: '422',
      title: 'Invalid',
      detail: 'key with a slash',
      source: { pointer: '/data/attributes/data/a~1b~0c' },
    },
    { status: '422', title: 'Invalid', detail: 'the body is wrong' },
  ]);

  it('reads each pointer as the dotted path of a field, undoing JSON Pointer escapes', () => {
    expect(refusal.problems.map(fieldOf)).toEqual(['name', 'steps.2.template_id', 'data.a/b~c', undefined]);
    expect(
      fieldOf({ status: '422', title: 'x', detail: 'y', source: { pointer: '/meta/page' } }),
    ).toBeUndefined();
  });

  it('gives a field its own messages and those of everything under it', () => {
    const problems = formProblems(refusal);
    expect(problems.field('name')).toBe('must not be blank');
    expect(problems.field('steps')).toBe('names no template');
    expect(problems.field('steps.2')).toBe('names no template');
    expect(problems.field('step')).toBeUndefined();
    expect(problems.field('email')).toBeUndefined();
  });

  it('leaves the problems no shown field takes for above the buttons, with the field they name', () => {
    expect(formProblems(refusal).unclaimed(['name', 'steps'])).toEqual([
      'data.a/b~c: key with a slash',
      'the body is wrong',
    ]);
    expect(formProblems(refusal).unclaimed(['name', 'steps', 'data'])).toEqual(['the body is wrong']);
  });

  it('says a network failure plainly, and nothing when there is no error', () => {
    expect(formProblems(new NetworkError(new TypeError('fetch failed'))).unclaimed([])).toEqual([
      'The network failed before the API answered. Nothing you typed is lost: try again.',
    ]);
    expect(formProblems(null).all).toEqual([]);
  });
});
