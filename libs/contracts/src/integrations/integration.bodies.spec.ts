import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import {
  CreateIntegrationBody,
  MAX_CREDENTIALS_BYTES,
  MAX_DOT_PATH_LENGTH,
  MAX_FIELD_MAPPINGS,
  MAX_INTEGRATION_NAME_LENGTH,
  MAX_INTEGRATION_TYPE_LENGTH,
  MAX_SYNC_FREQUENCY_LENGTH,
} from './integration.bodies';

function failures(body: object): string[] {
  const errors = validateSync(plainToInstance(CreateIntegrationBody, body), {
    whitelist: true,
    forbidNonWhitelisted: true,
  });
  return errors.map((error) => error.property).sort();
}

describe('CreateIntegrationBody', () => {
  it('takes a type, a name, credentials and a config', () => {
    expect(
      failures({
        type: 'typeform',
        name: 'Signups',
        credentials: { token: 't' },
        config: { sync_frequency: null, field_mappings: [{ source: 'answers.0.email', target: 'email' }] },
      }),
    ).toEqual([]);
  });

  it('refuses a name made only of white space', () => {
    expect(failures({ type: 'typeform', name: ' \n ' })).toEqual(['name']);
  });

  it('bounds every text field and the credentials', () => {
    expect(
      failures({
        type: 't'.repeat(MAX_INTEGRATION_TYPE_LENGTH + 1),
        name: 'n'.repeat(MAX_INTEGRATION_NAME_LENGTH + 1),
        credentials: { token: 'x'.repeat(MAX_CREDENTIALS_BYTES) },
        config: {
          sync_frequency: 's'.repeat(MAX_SYNC_FREQUENCY_LENGTH + 1),
          field_mappings: [{ source: 'a'.repeat(MAX_DOT_PATH_LENGTH + 1), target: 'email' }],
        },
      }),
    ).toEqual(['config', 'credentials', 'name', 'type']);
    const mappings = Array.from({ length: MAX_FIELD_MAPPINGS + 1 }, () => ({ source: 'a', target: 'name' }));
    expect(failures({ type: 't', name: 'n', config: { field_mappings: mappings } })).toEqual(['config']);
  });
});
