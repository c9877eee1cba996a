import { GatewayException } from './gateway.exception';

describe('GatewayException', () => {
  it.each([
    ['Workspace 7 was not found.', GatewayException.workspaceNotFound(7), 404, 'Not Found'],
    ['API key 8 was not found.', GatewayException.apiKeyNotFound(8), 404, 'Not Found'],
    ['Workspace 9 already exists.', GatewayException.alreadyExists('Workspace', 9), 409, 'Conflict'],
    ['Integration 10 already exists.', GatewayException.alreadyExists('Integration', 10), 409, 'Conflict'],
  ])('answers "%s" with its status, as one JSON:API error', (detail, refusal, status, title) => {
    expect(refusal.status).toBe(status);
    expect(refusal.toErrors()).toEqual([{ status: String(status), title, detail }]);
  });
});
