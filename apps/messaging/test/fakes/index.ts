import { makeTestCertificates, type TestCertificates } from '@cms/testing';

import { FakeMeta } from './fake-meta';
import { FakePushService } from './fake-push-service';
import { FakeSmtp } from './fake-smtp';
import { FakeTelegram } from './fake-telegram';
import { FakeTwilio } from './fake-twilio';

export * from './fake-http-server';
export * from './fake-meta';
export * from './fake-push-service';
export * from './fake-smtp';
export * from './fake-telegram';
export * from './fake-twilio';
export * from './provider-callbacks';

export interface ProviderFakes {
  twilio: FakeTwilio;
  meta: FakeMeta;
  telegram: FakeTelegram;
  smtp: FakeSmtp;
  push: FakePushService;
  /** The push service's TLS: its `ca` is what a client must trust (NODE_EXTRA_CA_CERTS = `caFile`). */
  tls: TestCertificates;
  /** `twilio=…,meta=…,telegram=…`: the messaging service's PROVIDER_BASE_URLS. */
  providerBaseUrls: string;
  close(): Promise<void>;
}

/** Every provider's fake, started on 127.0.0.1 at free ports. */
export async function startProviderFakes(): Promise<ProviderFakes> {
  const tls = makeTestCertificates('push');
  const twilio = new FakeTwilio();
  const meta = new FakeMeta();
  const telegram = new FakeTelegram();
  const smtp = new FakeSmtp();
  const push = new FakePushService();
  await Promise.all([
    twilio.server.start(),
    meta.server.start(),
    telegram.server.start(),
    smtp.start(),
    push.start(tls),
  ]);
  return {
    twilio,
    meta,
    telegram,
    smtp,
    push,
    tls,
    providerBaseUrls: `twilio=${twilio.server.baseUrl},meta=${meta.server.baseUrl},telegram=${telegram.server.baseUrl}`,
    close: async () => {
      await Promise.all([
        twilio.server.close(),
        meta.server.close(),
        telegram.server.close(),
        smtp.close(),
        push.server.close(),
      ]);
      tls.remove();
    },
  };
}
