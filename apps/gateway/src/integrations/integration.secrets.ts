import { createHash, randomBytes } from 'node:crypto';

import { generateWebhookSecret } from '@cms/contracts';

/** 32 random bytes, base64url: the last segment of `/webhook/integration/<token>`. */
export const WEBHOOK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface MintedInboundWebhook {
  /** In the URL; stored and logged only as its hash. */
  token: string;
  tokenHash: string;
  /** `whsec_` and 32 random bytes; shown once, then only sealed. */
  signingSecret: string;
}

export function mintInboundWebhook(): MintedInboundWebhook {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashWebhookToken(token), signingSecret: generateWebhookSecret() };
}

/** A plain SHA-256 is enough: the token is 256 random bits, so there is nothing to guess or stretch. */
export function hashWebhookToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** `<PUBLIC_BASE_URL>/webhook/integration/<token>` (extensions §7: every URL handed out is absolute). */
export function webhookUrl(token: string, publicBaseUrl: string): string {
  return `${publicBaseUrl}/webhook/integration/${token}`;
}
