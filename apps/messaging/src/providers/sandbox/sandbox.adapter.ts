import type {
  CallbackEvent,
  CallbackVerdict,
  ChannelConnection,
  ChannelType,
  FailureCode,
  OutboundMessage,
  ProviderAdapter,
  SendResult,
} from '../provider';

/** What the sandbox makes of a send: the first outcome, then the receipts that follow it (§9.5). */
export interface SandboxOutcome {
  initial: 'sent' | FailureCode;
  then: ('delivered' | 'read')[];
}

const PHONE_CHANNELS: readonly ChannelType[] = ['whatsapp', 'sms', 'rcs'];

/** §9.5: the recipient's last four digits (phone), email local part, or linked id's last four characters. */
const RULES: { suffix: string; localPart: string; outcome: SandboxOutcome }[] = [
  { suffix: '0001', localPart: 'invalid', outcome: { initial: 'invalid_recipient', then: [] } },
  { suffix: '0002', localPart: 'notonchannel', outcome: { initial: 'not_on_channel', then: [] } },
  { suffix: '0003', localPart: 'unreachable', outcome: { initial: 'unreachable', then: [] } },
  { suffix: '0004', localPart: 'optout', outcome: { initial: 'opted_out', then: [] } },
  { suffix: '0005', localPart: 'reader', outcome: { initial: 'sent', then: ['delivered', 'read'] } },
  { suffix: '0009', localPart: 'silent', outcome: { initial: 'sent', then: [] } },
];

const DEFAULT_OUTCOME: SandboxOutcome = { initial: 'sent', then: ['delivered'] };

export function sandboxOutcome(channelType: ChannelType, recipient: string): SandboxOutcome {
  let matches: (rule: (typeof RULES)[number]) => boolean;
  if (channelType === 'email') {
    const localPart = recipient.slice(0, recipient.lastIndexOf('@')).toLowerCase();
    matches = (rule) => rule.localPart === localPart;
  } else {
    const significant = PHONE_CHANNELS.includes(channelType) ? recipient.replace(/\D/g, '') : recipient;
    const lastFour = significant.slice(-4);
    matches = (rule) => rule.suffix === lastFour;
  }
  const outcome = RULES.find(matches)?.outcome ?? DEFAULT_OUTCOME;
  return { initial: outcome.initial, then: [...outcome.then] };
}

/** The sandbox provider's id of a message: the message's own, so receipts can be matched to it. */
export function sandboxProviderMessageId(messageId: string): string {
  return `sandbox_${messageId}`;
}

/** A channel that works like a real one and sends nothing anywhere. */
export class SandboxAdapter implements ProviderAdapter {
  readonly provider = 'sandbox' as const;

  send(channel: ChannelConnection, message: OutboundMessage): Promise<SendResult> {
    const { initial } = sandboxOutcome(channel.type, message.recipient);
    return Promise.resolve(
      initial === 'sent'
        ? { outcome: 'sent', providerMessageId: sandboxProviderMessageId(message.messageId) }
        : {
            outcome: 'failed',
            code: initial,
            providerCode: null,
            detail: `sandbox: recipient ${message.recipient} always fails with ${initial}`,
          },
    );
  }

  /** Inbound messages of a sandbox channel come through the API (`/sandbox/inbound`), never a callback. */
  verifyCallback(): CallbackVerdict {
    return { ok: false, status: 401, reason: 'sandbox channels take no provider callbacks' };
  }

  parseCallback(): CallbackEvent[] {
    return [];
  }
}
