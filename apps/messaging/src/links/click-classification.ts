/** A click within this long of the message's `sent_at` is a machine's (extensions §10). */
export const BOT_CLICK_WINDOW_MS = 2000;

/**
 * User agents of link scanners and prefetchers, matched case-insensitively anywhere in the header. Each
 * opens links without a person: chat and social previews (Slack, Facebook — also what iMessage sends —,
 * X, WhatsApp, Telegram, LinkedIn, Discord, Skype, Pinterest, Reddit, Viber, Snapchat), search engines,
 * the mail scanners that open every link of a message before it is delivered (Microsoft Defender
 * SafeLinks and Office, Barracuda, Mimecast, Proofpoint, Cisco IronPort, Trend Micro), embed services,
 * and command-line and headless HTTP clients, which a person tapping a link does not use. Generic words
 * (`crawler`, `spider`) catch the rest that name themselves; a bare `bot` is not among them, since it is
 * part of device names in browsers' agents.
 */
export const BOT_USER_AGENTS: readonly string[] = [
  'slackbot',
  'slack-imgproxy',
  'facebookexternalhit',
  'facebot',
  'meta-externalagent',
  'twitterbot',
  'whatsapp',
  'telegrambot',
  'linkedinbot',
  'discordbot',
  'skypeuripreview',
  'pinterestbot',
  'redditbot',
  'viber',
  'snapchat',
  'googlebot',
  'adsbot-google',
  'google-inspectiontool',
  'apis-google',
  'bingbot',
  'bingpreview',
  'applebot',
  'yandexbot',
  'duckduckbot',
  'baiduspider',
  'ms-office',
  'microsoft office',
  'microsoft outlook',
  'safelinks',
  'barracuda',
  'mimecast',
  'proofpoint',
  'ironport',
  'trend micro',
  'embedly',
  'iframely',
  'curl/',
  'wget/',
  'python-requests',
  'python-urllib',
  'go-http-client',
  'okhttp',
  'headlesschrome',
  'phantomjs',
  'crawler',
  'spider',
];

export interface ClickToClassify {
  /** When the gateway took the click. */
  clickedAt: Date;
  /** When the message was sent; null when it never was. */
  sentAt: Date | null;
  /** The User-Agent header; empty when none was sent. */
  userAgent: string;
}

export type ClickVerdict =
  { bot: false } | { bot: true; reason: 'too_soon' | 'user_agent' | 'no_user_agent' };

/**
 * Whether a click is a machine's: within BOT_CLICK_WINDOW_MS of `sent_at` (earlier, by the clocks of
 * two processes, counts too), a known scanner's user agent, or none at all (every browser sends one).
 */
export function classifyClick(click: ClickToClassify): ClickVerdict {
  if (click.sentAt !== null && click.clickedAt.getTime() - click.sentAt.getTime() < BOT_CLICK_WINDOW_MS) {
    return { bot: true, reason: 'too_soon' };
  }
  const agent = click.userAgent.trim().toLowerCase();
  if (agent === '') return { bot: true, reason: 'no_user_agent' };
  if (BOT_USER_AGENTS.some((marker) => agent.includes(marker))) return { bot: true, reason: 'user_agent' };
  return { bot: false };
}
