import type { Dispatcher } from 'undici';

import { MetaAdapter } from './meta/meta.adapter';
import type { AssertPublicEndpoint, ProviderAdapter, ProviderName } from './provider';
import type { ProviderBaseUrls } from './provider-base-urls';
import type { ProviderHttpOptions } from './provider-http';
import { SandboxAdapter } from './sandbox/sandbox.adapter';
import { SmtpAdapter } from './smtp/smtp.adapter';
import { TelegramAdapter } from './telegram/telegram.adapter';
import { TwilioAdapter } from './twilio/twilio.adapter';
import { WebPushAdapter } from './web-push/web-push.adapter';

export interface ProviderAdaptersOptions {
  baseUrls: ProviderBaseUrls;
  /** Applied to push endpoints and to SMTP hosts: the addresses customers and browsers choose. */
  assertPublicEndpoint: AssertPublicEndpoint;
  http?: ProviderHttpOptions;
  /**
   * What push requests go out through: a dispatcher that checks, when it connects, the address a
   * browser's push endpoint resolves to (a name can resolve elsewhere between a check and the call).
   */
  pushDispatcher?: Dispatcher;
  /** Trust for the customers' SMTP servers beyond the system's (tests: a throwaway CA). */
  smtpTls?: { ca?: string | string[] };
}

/** Every provider's adapter, by provider name. */
export class ProviderAdapters {
  private readonly adapters: Record<ProviderName, ProviderAdapter>;

  constructor(options: ProviderAdaptersOptions) {
    const http = options.http ?? {};
    this.adapters = {
      sandbox: new SandboxAdapter(),
      twilio: new TwilioAdapter(options.baseUrls.twilio, http),
      meta: new MetaAdapter(options.baseUrls.meta, http),
      telegram: new TelegramAdapter(options.baseUrls.telegram, http),
      smtp: new SmtpAdapter({
        assertPublicEndpoint: options.assertPublicEndpoint,
        ...(http.timeoutMs !== undefined ? { timeoutMs: http.timeoutMs } : {}),
        ...(options.smtpTls !== undefined ? { tls: options.smtpTls } : {}),
      }),
      web_push: new WebPushAdapter(options.assertPublicEndpoint, {
        ...http,
        ...(options.pushDispatcher !== undefined ? { dispatcher: options.pushDispatcher } : {}),
      }),
    };
  }

  of(provider: ProviderName): ProviderAdapter {
    return this.adapters[provider];
  }
}
