import createClient, { type Client, type ClientOptions } from 'openapi-fetch';

import type { paths } from './schema';

export interface CmsClientOptions {
  /** Where the gateway answers (its PUBLIC_BASE_URL), e.g. `https://api.example.com`. */
  baseUrl: string;
  /** An API key of the workspace (`cms_live_…`); for `/admin/v1`, the operator token. */
  apiKey: string;
  /** Headers sent with every request besides `Authorization`. */
  headers?: Record<string, string>;
  /** The fetch to call through (a proxy, retries, tests); the global `fetch` by default. */
  fetch?: ClientOptions['fetch'];
}

/** A client whose paths, parameters, bodies and answers are those of the API document. */
export type CmsClient = Client<paths>;

/**
 * A typed client of the public API ([openapi-fetch](https://openapi-ts.dev/openapi-fetch/) over the
 * document's `paths`), sending `Authorization: Bearer <apiKey>` with every request.
 *
 * ```ts
 * const cms = createCmsClient({ baseUrl: 'https://api.example.com', apiKey: process.env.CMS_KEY! });
 * const { data, error, response } = await cms.GET('/api/v1/contacts/{contact_id}', {
 *   params: { path: { contact_id: 42 } },
 * });
 * ```
 */
export function createCmsClient(options: CmsClientOptions): CmsClient {
  const { baseUrl, apiKey, headers = {}, fetch } = options;
  if (typeof baseUrl !== 'string' || !/^https?:\/\//.test(baseUrl)) {
    throw new TypeError('createCmsClient: baseUrl must be an http(s) URL');
  }
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new TypeError('createCmsClient: apiKey must be an API key of the workspace');
  }
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });
}
