import { BOT_CLICK_WINDOW_MS, classifyClick } from './click-classification';

const SENT = new Date('2026-11-24T10:00:00.000Z');
const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

function at(ms: number): Date {
  return new Date(SENT.getTime() + ms);
}

describe('tracked links: telling a person from a machine', () => {
  it("counts a browser's click after the first two seconds as a person's", () => {
    expect(classifyClick({ clickedAt: at(BOT_CLICK_WINDOW_MS), sentAt: SENT, userAgent: BROWSER })).toEqual({
      bot: false,
    });
    expect(classifyClick({ clickedAt: at(3_600_000), sentAt: SENT, userAgent: BROWSER }).bot).toBe(false);
  });

  it('counts a click within two seconds of the send as a bot, whatever its agent, and one before it too', () => {
    expect(classifyClick({ clickedAt: at(1999), sentAt: SENT, userAgent: BROWSER })).toEqual({
      bot: true,
      reason: 'too_soon',
    });
    expect(classifyClick({ clickedAt: at(-50), sentAt: SENT, userAgent: BROWSER }).bot).toBe(true);
  });

  it.each([
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'facebookexternalhit/1.1 Facebot Twitterbot/1.0',
    'WhatsApp/2.23.20.0 A',
    'TelegramBot (like TwitterBot)',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Applebot/0.1',
    'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.12026; Pro)',
    'Mimecast URL Protect',
    'curl/8.4.0',
    'Wget/1.21.4',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36',
  ])('counts a click by %s as a bot', (userAgent) => {
    expect(classifyClick({ clickedAt: at(60_000), sentAt: SENT, userAgent })).toEqual({
      bot: true,
      reason: 'user_agent',
    });
  });

  it('counts a click without a user agent as a bot', () => {
    expect(classifyClick({ clickedAt: at(60_000), sentAt: SENT, userAgent: '  ' })).toEqual({
      bot: true,
      reason: 'no_user_agent',
    });
  });

  it('does not take a device name with "bot" in it for a bot', () => {
    const cubot =
      'Mozilla/5.0 (Linux; Android 10; CUBOT_X19) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36';
    expect(classifyClick({ clickedAt: at(60_000), sentAt: SENT, userAgent: cubot }).bot).toBe(false);
  });

  it('has no time rule for a message that was never sent', () => {
    expect(classifyClick({ clickedAt: at(10), sentAt: null, userAgent: BROWSER }).bot).toBe(false);
  });
});
