import { eventually } from '@cms/testing';
import type { Browser, Locator, Page } from 'playwright-core';

import { startMessagingScenario, type MessagingScenario, type System } from '../src';
import { consoleTab, launchChromium, overflowsSideways, seriousViolations } from '../src/browser';

/**
 * The console (extensions §14) in a real browser (Debian's chromium through Playwright) against the
 * real services: served by the gateway at /app, signed in with an API key kept in session storage only,
 * doing through the public API exactly what the key may; the flows a person runs every day; axe-core on
 * every page, at 1280 and at 390 px wide; the keyboard.
 */

let scenario: MessagingScenario;
let system: System;
let key: string;
let workspaceId: number;
let browser: Browser;

beforeAll(async () => {
  scenario = await startMessagingScenario('console-e2e', ['message.sent'], {}, [
    'segments',
    'broadcasts',
    'automations',
  ]);
  ({ system, key } = scenario);
  workspaceId = (
    await system.call<{ data: { workspace: { id: number } } }>('GET', '/api/v1/api-key', { key })
  ).body.data.workspace.id;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await scenario?.stop();
});

/** A key of the same workspace with only these permissions, through the operator API. */
async function keyWith(permissions: string[]): Promise<string> {
  const answer = await system.call<{ data: { key: string } }>(
    'POST',
    `/admin/v1/workspaces/${workspaceId}/api-keys`,
    { admin: true, body: { name: `console ${permissions.join(' ')}`, permissions } },
  );
  expect(answer.status).toBe(201);
  return answer.body.data.key;
}

/** A new tab at `width` px, signed in through the sign-in form with `secret`. */
async function signedIn(secret: string, width = 1280): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await consoleTab(browser, width);
  await page.goto(`${system.url}/app/`);
  await page.getByLabel('API key').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  return { page, errors };
}

/** The error text a field shows (Mantine ties it to the input with aria-describedby), once it shows one. */
async function fieldError(field: Locator): Promise<string> {
  return eventually(
    'the field showing an error',
    async () => {
      const ids = ((await field.getAttribute('aria-describedby')) ?? '')
        .split(' ')
        .filter((id) => id.endsWith('-error'));
      if (ids.length === 0) return undefined;
      const text = await field.page().locator(`[id="${ids[0]}"]`).innerText();
      return text.trim() === '' ? undefined : text;
    },
    20_000,
    100,
  );
}

/** Loads a page of the console by its path under /app, as a bookmark would, and waits for its heading. */
async function open(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${system.url}/app${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/**
 * Goes to a page of the console already loaded by its path under /app, as a link does (the router
 * follows the history; nothing is loaded again), and waits for its heading: a new one, since the last
 * page's heading is marked before it leaves (consecutive paths here are pages of different routes).
 */
async function follow(page: Page, path: string, heading: string | RegExp): Promise<void> {
  const target = JSON.stringify(`/app${path}`);
  const moved = await page.evaluate<boolean>(
    `(() => {
      if (window.location.pathname === ${target}) return false;
      document.querySelectorAll('h1').forEach((h) => h.setAttribute('data-left', ''));
      window.history.pushState(null, '', ${target});
      window.dispatchEvent(new PopStateEvent('popstate'));
      return true;
    })()`,
  );
  const headings = moved ? page.locator('h1:not([data-left])') : page.getByRole('heading', { level: 1 });
  await headings.filter({ hasText: heading }).first().waitFor();
}

describe('the key the console signs in with (GET /api/v1/api-key)', () => {
  it('answers the key, its permissions and its workspace, never the secret, for any key with API access', async () => {
    const readOnly = await keyWith(['read']);
    const onlyCreate = await keyWith(['create']);
    for (const [secret, permissions] of [
      [key, ['read', 'create', 'update', 'delete']],
      [readOnly, ['read']],
      [onlyCreate, ['create']],
    ] as const) {
      const answer = await system.call<{ data: Record<string, unknown> }>('GET', '/api/v1/api-key', {
        key: secret,
      });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({
        permissions,
        workspace: { id: workspaceId, plan: 'business' },
      });
      expect(JSON.stringify(answer.body)).not.toContain(secret);
    }
    expect((await system.call('GET', '/api/v1/api-key', { key: 'cms_live_nope' })).status).toBe(401);
    const starter = await system.tenant('starter');
    expect((await system.call('GET', '/api/v1/api-key', { key: starter.key })).status).toBe(403);
  });
});

describe('the console served by the gateway at /app', () => {
  it('serves one page for every path under /app, never cached, and its assets by hash, cached for a year', async () => {
    const page = await fetch(`${system.url}/app/contacts/42`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    const assets = [...html.matchAll(/\/app\/assets\/([\w.-]+)/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).toMatch(/-[\w-]{8,}\.(js|css)$/);
      const answer = await fetch(`${system.url}/app/assets/${asset}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      await answer.arrayBuffer();
    }
    expect((await fetch(`${system.url}/app`)).status).toBe(200);
    const missing = await fetch(`${system.url}/app/assets/index-nope.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { errors: unknown[] }).errors).toHaveLength(1);
    expect((await fetch(`${system.url}/app/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
  });
});

describe('signing in', () => {
  it('refuses a wrong key at the field, and keeps a right one in this tab’s session storage only', async () => {
    const { page, errors } = await consoleTab(browser, 1280);
    await page.goto(`${system.url}/app/tags`);
    await page.getByLabel('API key').fill('cms_live_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await fieldError(page.getByLabel('API key'))).toBe('The API key is invalid or was deleted.');

    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in, on the page the address asked for.
    await page.getByRole('heading', { level: 1, name: 'Tags' }).waitFor();
    const stored = await page.evaluate(
      '({ session: Object.values(sessionStorage), local: Object.keys(localStorage).length, cookies: document.cookie })',
    );
    expect(stored).toEqual({ session: [key], local: 0, cookies: '' });
    expect((await page.context().cookies()).length).toBe(0);

    // A reload keeps the session; a new tab (a new session storage) asks again.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Tags' }).waitFor();
    const other = await page.context().newPage();
    await other.goto(`${system.url}/app/`);
    await other.getByLabel('API key').waitFor();
    await other.close();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a read-only key no button it cannot use', async () => {
    const { page } = await signedIn(await keyWith(['read']));
    await open(page, '/tags', 'Tags');
    await page.getByRole('table', { name: 'Tags' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create tag' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.context().close();
  });
});

describe('errors, the rate limit and the network', () => {
  it('shows the API’s refusal next to the field its pointer names, and creates when corrected', async () => {
    const { page } = await signedIn(key);
    await open(page, '/tags', 'Tags');
    const form = page.getByRole('form', { name: 'New tag' });
    await form.getByLabel('Name').fill('vip');
    await form.getByRole('button', { name: 'Create tag' }).click();
    await page.getByRole('table', { name: 'Tags' }).getByRole('cell', { name: 'vip', exact: true }).waitFor();
    // The same name again: 422 at /data/attributes/name, shown at the Name field.
    await form.getByLabel('Name').fill('vip');
    await form.getByRole('button', { name: 'Create tag' }).click();
    expect(await fieldError(form.getByLabel('Name'))).toMatch(/vip|taken|already|exists|another/i);
    expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(
      await page.getByRole('table', { name: 'Tags' }).getByRole('cell', { name: 'vip', exact: true }).count(),
    ).toBe(1);
    await page.context().close();
  });

  it('keeps what the person typed when the network fails, and says so', async () => {
    const { page } = await signedIn(key);
    await open(page, '/tags', 'Tags');
    await page.route('**/api/v1/tags', (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    );
    const form = page.getByRole('form', { name: 'New tag' });
    await form.getByLabel('Name').fill('typed-before-the-failure');
    await form.getByRole('button', { name: 'Create tag' }).click();
    await page.getByRole('alert').filter({ hasText: 'The network failed' }).waitFor();
    expect(await form.getByLabel('Name').inputValue()).toBe('typed-before-the-failure');
    expect(await seriousViolations(page)).toEqual([]); // the alert is readable
    await page.unroute('**/api/v1/tags');
    await form.getByRole('button', { name: 'Create tag' }).click();
    await page
      .getByRole('table', { name: 'Tags' })
      .getByRole('cell', { name: 'typed-before-the-failure', exact: true })
      .waitFor();
    await page.context().close();
  });

  it('waits the Retry-After of a 429, says so, and then shows the page', async () => {
    const { page } = await signedIn(key);
    let refused = 0;
    await page.route('**/api/v1/tags?**', async (route) => {
      if (refused++ === 0) {
        await route.fulfill({
          status: 429,
          headers: { 'retry-after': '5', 'content-type': 'application/json' },
          body: JSON.stringify({
            errors: [{ status: '429', title: 'Too Many Requests', detail: 'Slow down.' }],
          }),
        });
      } else await route.continue();
    });
    await page.getByRole('link', { name: 'Tags' }).click();
    await page.getByRole('status').filter({ hasText: 'Rate limit reached' }).waitFor();
    // The banner is readable (its yellow is darkened to 4.5:1) while it stays, the 5 s the API asked.
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('table', { name: 'Tags' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Rate limit reached' }).waitFor({ state: 'detached' });
    expect(refused).toBe(2);
    await page.context().close();
  });
});

describe('the keyboard and a narrow screen', () => {
  it('skips to the content, and reaches every section through the menu at 390 px', async () => {
    const { page } = await signedIn(key, 390);
    // A visit starts at the top: the first Tab is the skip link, which moves focus to the page.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement?.id')).toBe('main');
    expect(await overflowsSideways(page)).toBe(false);

    // The navigation is a menu behind its button, opened and followed by keyboard alone.
    const menu = page.getByRole('button', { name: 'Open navigation' });
    await menu.focus();
    await page.keyboard.press('Enter');
    const tags = page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tags' });
    await tags.waitFor();
    await tags.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Tags' }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await page.context().close();
  });
});

/** A write through the API as a customer system makes it (set-up the flows do not drive by hand). */
async function created(path: string, body: Record<string, unknown>): Promise<number> {
  const answer = await system.call<{ data: { id: number } }>('POST', path, { key, body });
  if (answer.status !== 201 && answer.status !== 200) {
    throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer.body.data.id;
}

/** What the flows made, for the pages of one resource of each kind the axe check visits. */
const made: Record<string, string> = {};

describe('the flows of a working day, by hand in the browser', () => {
  let page: Page;
  let errors: string[];
  let tag: number;

  beforeAll(async () => {
    ({ page, errors } = await signedIn(key));
    tag = await created('/api/v1/tags', { name: 'console-spring' });
    for (const [name, phone] of [
      ['Ada', '+14155550111'],
      ['Bob', '+14155550112'],
      ['Cy', '+14155550113'],
    ] as const) {
      const contact = await created('/api/v1/contacts/upsert', {
        name,
        phone,
        marketing_consent: { sms: true },
      });
      made['contact'] ??= String(contact);
      if (name !== 'Cy') {
        const attached = await system.call('POST', '/api/v1/tags/attach', {
          key,
          body: { contact_id: contact, tag_ids: [tag] },
        });
        expect(attached.status).toBe(200);
      }
    }
  }, 60_000);

  afterAll(async () => {
    await page?.context().close();
  });

  it('creates a sandbox channel and a template', async () => {
    await open(page, '/channels', 'Channels');
    const channel = page.getByRole('form', { name: 'New channel' });
    await channel.getByRole('combobox', { name: 'Type', exact: true }).selectOption('sms');
    await channel.getByRole('textbox', { name: 'Name', exact: true }).fill('Console SMS');
    await channel.getByRole('combobox', { name: 'Provider', exact: true }).selectOption('sandbox');
    await channel.getByRole('button', { name: 'Create channel' }).click();
    await page.waitForURL(/\/app\/channels\/\d+$/);
    made['channel'] = page.url().split('/').pop()!;

    await open(page, '/templates', 'Templates');
    const template = page.getByRole('form', { name: 'New template' });
    await template.getByRole('textbox', { name: 'Name', exact: true }).fill('console-hello');
    await template.getByRole('combobox', { name: 'Channel', exact: true }).selectOption('sms');
    await template.getByRole('textbox', { name: 'Body', exact: true }).fill('Hello {{ contact.name }}');
    await template.getByRole('button', { name: 'Create template' }).click();
    await page.waitForURL(/\/app\/templates\/\d+$/);
    made['template'] = page.url().split('/').pop()!;
    expect(errors).toEqual([]);
  });

  it('sends a message and watches it reach delivered', async () => {
    await open(page, '/messages/new', /Send/);
    const form = page.getByRole('form', { name: 'Send message' });
    await form.getByRole('textbox', { name: 'Contact ID', exact: true }).fill(made['contact']!);
    await form.getByLabel('Template', { exact: true }).first().click();
    await page.getByRole('option', { name: new RegExp(`^console-hello .*#${made['template']}\\)$`) }).click();
    await form.getByRole('button', { name: 'Send message' }).click();
    await page.waitForURL(/\/app\/messages\/msg_/);
    made['message'] = page.url().split('/').pop()!;
    await page.getByText('delivered', { exact: true }).first().waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);
  });

  it('builds an audience and sees its count change as the filter changes', async () => {
    await open(page, '/audiences/new', /audience/i);
    const count = page.getByText(/\d+ contacts? match/);
    await count.first().waitFor();
    const everyone = await count.first().innerText();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Console spring list');
    await page
      .getByRole('textbox', { name: 'Filter criteria (JSON)' })
      .fill(JSON.stringify([{ field: 'tags', operator: 'has', value: tag }]));
    await page.getByRole('button', { name: 'Apply JSON' }).click();
    await page.getByText('2 contacts match').waitFor();
    expect(everyone).not.toBe('2 contacts match');
    await page.getByRole('button', { name: 'Save audience' }).click();
    await page.waitForURL(/\/app\/audiences\/\d+$/);
    made['audience'] = page.url().split('/').pop()!;
    expect(errors).toEqual([]);
  });

  it('creates a webhook endpoint, shows its secret once and never again, shows a failing delivery and redelivers it', async () => {
    let failing = true;
    scenario.receiver.statusFor = (path) => (path === '/console-hook' && failing ? 500 : 200);
    await open(page, '/webhook-endpoints', 'Webhook endpoints');
    const form = page.getByRole('form', { name: 'New endpoint' });
    await form
      .getByRole('textbox', { name: 'URL', exact: true })
      .fill(scenario.receiver.url('/console-hook'));
    await form.getByLabel('Event types', { exact: true }).first().click();
    await page.getByRole('option', { name: 'message.sent', exact: true }).click();
    await page.keyboard.press('Escape');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = page.getByLabel('Signing secret', { exact: true });
    await secret.waitFor();
    expect(await secret.innerText()).toMatch(/\S{16,}/);
    const shown = (await secret.innerText()).trim();
    const endpoints = await system.call<{ data: Array<{ id: string; url: string }> }>(
      'GET',
      '/api/v1/webhook-endpoints',
      { key },
    );
    made['endpoint'] = endpoints.body.data.find((one) => one.url.endsWith('/console-hook'))!.id;

    // Never again: not on the endpoint's page, not on the list, not after a reload.
    await open(page, `/webhook-endpoints/${made['endpoint']}`, /endpoint/i);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByLabel('Signing secret', { exact: true }).count()).toBe(0);
    expect(await page.content()).not.toContain(shown);
    await open(page, '/webhook-endpoints', 'Webhook endpoints');
    expect(await page.content()).not.toContain(shown);

    await open(page, `/webhook-endpoints/${made['endpoint']}`, /endpoint/i);
    await page.getByRole('button', { name: 'Send test' }).click();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await deliveries.getByText('500').first().waitFor({ timeout: 60_000 });
    failing = false;
    await deliveries.getByRole('button', { name: 'Redeliver' }).first().click();
    await deliveries.getByText('succeeded').first().waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);
  });

  it('sends a notification now and watches its counts', async () => {
    const notification = await created('/api/v1/notifications', {
      name: 'Console spring sale',
      template_id: Number(made['template']),
      target_group_id: Number(made['audience']),
    });
    made['notification'] = String(notification);
    await eventually(
      'the audience counting its two members',
      async () =>
        (
          await system.call<{ data: { size: number } }>('GET', `/api/v1/audiences/${made['audience']}`, {
            key,
          })
        ).body.data.size === 2 || undefined,
      30_000,
    );
    await open(page, `/notifications/${notification}`, 'Console spring sale');
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.waitForURL(/\/app\/notification-sends\/\d+$/);
    made['send'] = page.url().split('/').pop()!;
    await page.getByText('completed', { exact: true }).first().waitFor({ timeout: 60_000 });
    const send = await system.call<{ data: { counts: Record<string, number> } }>(
      'GET',
      `/api/v1/notification-sends/${made['send']}`,
      { key },
    );
    for (const [name, value] of Object.entries(send.body.data.counts)) {
      expect(await page.getByText(name, { exact: true }).count()).toBeGreaterThan(0);
      expect(await page.getByText(String(value), { exact: true }).count()).toBeGreaterThan(0);
    }
    await page.screenshot({ path: process.env['CONSOLE_SCREENSHOT'] ?? '.local/console.png' });
    expect(errors).toEqual([]);
  });
});

describe('every page, by axe-core, at 1280 and at 390 px', () => {
  beforeAll(async () => {
    // A workflow that ran once and a bot, so that their pages show something.
    const workflow = await created('/api/v1/workflows', {
      name: 'Console welcome',
      trigger: { event: 'console_signed_up' },
      steps: [
        { id: 'hello', type: 'send', route: [{ channel: 'sms', template_id: Number(made['template']) }] },
      ],
    });
    made['workflow'] = String(workflow);
    made['bot'] = String(
      await created('/api/v1/bots', {
        name: 'Console helper',
        mode: 'ai',
        trigger_type: 'keyword',
        trigger_value: 'console-help',
        ai_instructions: 'Be short.',
        enabled: false,
      }),
    );
    const event = await system.call('POST', '/api/v1/events', {
      key,
      body: { name: 'console_signed_up', contact: { phone: '+14155550111' } },
    });
    expect(event.status).toBe(202);
    made['run'] = String(
      await eventually(
        'the workflow’s run',
        async () =>
          (
            await system.call<{ data: Array<{ id: number }> }>('GET', `/api/v1/workflows/${workflow}/runs`, {
              key,
            })
          ).body.data[0]?.id,
        30_000,
        500,
      ),
    );
  }, 60_000);

  /** Every section of the navigation, and the page of one resource of each kind the flows above made. */
  const PAGES = (): Array<[string, RegExp]> => [
    ['/', /Overview/],
    ['/contacts', /Contacts/],
    [`/contacts/${made['contact']}`, /./],
    ['/tags', /Tags/],
    ['/audiences', /Audiences/],
    ['/audiences/new', /./],
    [`/audiences/${made['audience']}`, /./],
    ['/imports', /Import/],
    ['/messages', /Messages/],
    ['/messages/new', /./],
    [`/messages/${made['message']}`, /./],
    ['/channels', /Channels/],
    [`/channels/${made['channel']}`, /./],
    ['/templates', /Templates/],
    [`/templates/${made['template']}`, /./],
    ['/suppressions', /Suppressions/],
    ['/workflows', /Workflows/],
    [`/workflows/${made['workflow']}`, /./],
    [`/workflow-runs/${made['run']}`, /./],
    ['/outcomes', /Outcomes/],
    ['/bots', /Bots/],
    [`/bots/${made['bot']}`, /./],
    ['/notifications', /Notifications/],
    [`/notifications/${made['notification']}`, /./],
    [`/notification-sends/${made['send']}`, /./],
    ['/webhook-endpoints', /Webhook endpoints/],
    [`/webhook-endpoints/${made['endpoint']}`, /./],
    ['/alert-rules', /Alert rules/],
    ['/alerts', /Alerts/],
  ];

  // A key may make 120 requests a minute (the specification's limit) and a page load makes several: each
  // walk takes half the pages with a key of its own, so that it does not wait out the limit.
  it.each([
    [1280, 'first'],
    [1280, 'second'],
    [390, 'first'],
    [390, 'second'],
  ] as const)(
    'has no serious or critical violation and no sideways scrolling at %i px (the %s half of the pages)',
    async (width, half) => {
      const pages = PAGES();
      const middle = Math.ceil(pages.length / 2);
      const walk = half === 'first' ? pages.slice(0, middle) : pages.slice(middle);
      const { page, errors } = await signedIn(await keyWith(['read', 'create', 'update', 'delete']), width);
      const found: Record<string, unknown> = {};
      const overflowing: string[] = [];
      for (const [path, heading] of walk) {
        await follow(page, path, heading);
        // The page's reads answered (a page may keep polling: it never goes network-idle).
        await page
          .getByLabel('Loading')
          .first()
          .waitFor({ state: 'detached', timeout: 15_000 })
          .catch(() => undefined);
        const violations = await seriousViolations(page);
        if (violations.length > 0) found[path] = violations;
        if (await overflowsSideways(page)) overflowing.push(path);
      }
      expect(found).toEqual({});
      expect(overflowing).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    },
    300_000,
  );
});
