import type { Principal } from '../auth/principal';
import type { GatewayConfig } from '../config';
import type { IdAllocatorRepository } from '../ids/id-allocator.repository';
import type { UpstreamAnswer, UpstreamProxy } from '../proxy/upstream.proxy';
import type { WriteAnswer, WritePathService, WriteRequest } from '../write-path/write-path.service';
import { ContactsApi } from './contacts-api';

const caller: Principal = { apiKeyId: 1, workspaceId: 5, plan: 'pro', permissions: new Set(['create']) };
const config = { plans: { pro: { storedContacts: 25_000 } } } as unknown as GatewayConfig;

/** The contacts service: its list answers `held`; an upsert is answered as made under the minted id. */
function contactsHolding(held: Array<{ id: number }>) {
  const reads: string[] = [];
  const writes: Array<WriteRequest<'contact.upsert.requested'>> = [];
  const proxy = {
    get: (service: string, path: string, query: string): Promise<UpstreamAnswer> => {
      reads.push(`${service} ${path}?${query}`);
      return Promise.resolve({ status: 200, body: { data: held } });
    },
  } as unknown as UpstreamProxy;
  const writePath = {
    submit: (request: WriteRequest<'contact.upsert.requested'>): Promise<WriteAnswer> => {
      writes.push(request);
      return Promise.resolve({ status: 201, resource: { id: request.data.contact_id } });
    },
  } as unknown as WritePathService;
  const ids = { next: () => Promise.resolve(77) } as unknown as IdAllocatorRepository;
  return { api: new ContactsApi(config, ids, writePath, proxy), reads, writes };
}

describe('the contact of a phone', () => {
  it('is the contact the workspace has with that phone, and nothing is recorded', async () => {
    const { api, reads, writes } = contactsHolding([{ id: 12 }]);
    expect(await api.contactWithPhone(caller, '+447700900123')).toBe(12);
    expect(reads).toEqual(['contacts contacts?filter%5Bphone%5D=%2B447700900123&per_page=1']);
    expect(writes).toEqual([]);
  });

  it('is made by the upsert POST /api/v1/contacts/upsert records, named after its phone, when there is none', async () => {
    const { api, writes } = contactsHolding([]);
    expect(await api.contactWithPhone(caller, '+447700900123')).toBe(77);
    expect(writes).toEqual([
      {
        type: 'contact.upsert.requested',
        workspaceId: 5,
        data: { name: '+447700900123', phone: '+447700900123', contact_id: 77, contact_limit: 25_000 },
      },
    ]);
  });
});
