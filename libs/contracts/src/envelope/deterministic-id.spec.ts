import { v5 as uuidv5 } from 'uuid';

import { deterministicId } from './deterministic-id';

const NAMESPACE = '6f1d3c2e-8a4b-4f7e-9c1d-2b5a7e9f0c13';

describe('deterministicId', () => {
  it('is the UUID v5 of its parts joined by U+001F, in the system namespace, whatever their script', () => {
    const cases: Array<Array<string | number>> = [
      ['0b3c0f3e-2f7d-4d2e-9c51-0d9a4a1d8f10', 'contact.created', 0],
      ['0b3c0f3e-2f7d-4d2e-9c51-0d9a4a1d8f10', 'consent-change', 42, 'sms', 3],
      ['Ünïcödé', '中文', '🙂', 7],
      [''],
    ];
    for (const parts of cases) {
      expect(deterministicId(...parts)).toBe(uuidv5(parts.join('\u001f'), NAMESPACE));
    }
  });

  it('refuses a name with a lone surrogate, as uuid does', () => {
    expect(() => deterministicId('a\uD800b')).toThrow(URIError);
  });
});
