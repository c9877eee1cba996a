import { checkTemplate, renderTemplate, type RenderableTemplate, type RenderScope } from './liquid-renderer';

function template(fields: Partial<RenderableTemplate>): RenderableTemplate {
  return { body: null, subject: null, html: null, providerTemplate: null, ...fields };
}

const scope: RenderScope = {
  contact: {
    id: 7,
    name: 'Ada',
    phone: '+15550001',
    email: 'ada@example.com',
    external_id: null,
    data: { plan: 'gold' },
  },
  event: { name: 'order.paid', data: { total: 42.5, at: '2026-03-04T05:06:07.000Z' } },
  vars: { code: '1234' },
};

describe('checkTemplate', () => {
  it('accepts Liquid that parses, in every field', () => {
    expect(
      checkTemplate({
        body: 'Hi {{ contact.name | default: "there" }}',
        subject: '{{ vars.code }}',
        html: '{% if contact.data.plan %}<b>{{ contact.data.plan | upcase }}</b>{% endif %}',
        provider_template: { parameters: ['{{ vars.code }}'] },
      }),
    ).toEqual([]);
  });

  it('names the field, the line and the column of a tag that is not closed', () => {
    expect(checkTemplate({ body: 'Hello\n    {% if contact.name %}' })).toEqual([
      { pointer: '/data/attributes/body', detail: 'line 2, column 5: tag {% if contact.name %} not closed' },
    ]);
  });

  it('refuses an unknown filter, an unclosed output and the file tags, one problem per field', () => {
    const problems = checkTemplate({
      body: '{{ contact.name | shout }}',
      subject: 'x {{ vars.code',
      html: '{% include "header" %}',
      provider_template: { parameters: ['ok', '{% render "x" %}'] },
    });
    expect(problems).toEqual([
      { pointer: '/data/attributes/body', detail: 'line 1, column 1: undefined filter: shout' },
      {
        pointer: '/data/attributes/subject',
        detail: expect.stringMatching(/^line 1, column 3: output .* not closed$/),
      },
      {
        pointer: '/data/attributes/html',
        detail: 'line 1, column 1: the include tag is not available in templates',
      },
      {
        pointer: '/data/attributes/provider_template/parameters/1',
        detail: 'line 1, column 1: the render tag is not available in templates',
      },
    ]);
  });
});

describe('renderTemplate', () => {
  it('renders contact, event and vars with filters, every part', () => {
    const result = renderTemplate(
      template({
        subject: 'Order {{ vars.code }}',
        body: '{{ contact.name | upcase }} paid {{ event.data.total }} on {{ event.data.at | date: "%Y-%m-%d %H:%M" }}',
        html: '<p>{{ contact.data.plan }}</p>',
        providerTemplate: { parameters: ['{{ contact.name }}', '{{ vars.code }}'] },
      }),
      scope,
    );
    expect(result).toEqual({
      ok: true,
      subject: 'Order 1234',
      body: 'ADA paid 42.5 on 2026-03-04 05:06',
      html: '<p>gold</p>',
      parameters: ['Ada', '1234'],
    });
  });

  it('uses the default filter for a missing variable, and lets a condition test one', () => {
    const result = renderTemplate(
      template({
        body: 'Hi {{ contact.data.nickname | default: contact.name }}, {{ vars.coupon | default: "no coupon" }}{% if vars.vip %} VIP{% endif %}',
      }),
      scope,
    );
    expect(result).toEqual({
      ok: true,
      subject: null,
      body: 'Hi Ada, no coupon',
      html: null,
      parameters: [],
    });
  });

  it('fails the whole render on a missing variable without a default, naming it', () => {
    const result = renderTemplate(
      template({ subject: 'Your code', body: 'Line\n{{ vars.missing | upcase }}' }),
      scope,
    );
    expect(result).toEqual({
      ok: false,
      variable: 'vars.missing',
      detail: 'The variable vars.missing is missing (body, line 2, column 4) and has no default filter.',
    });
  });

  it('fails on a missing variable in a provider template parameter, and on a missing contact', () => {
    expect(
      renderTemplate(template({ body: 'x', providerTemplate: { parameters: ['{{ vars.nope }}'] } }), scope),
    ).toMatchObject({ ok: false, variable: 'vars.nope' });
    expect(
      renderTemplate(template({ body: '{{ contact.name }}' }), { ...scope, contact: null }),
    ).toMatchObject({
      ok: false,
      variable: 'contact',
    });
  });

  it('renders a source again with new values (parsed once, no state kept between renders)', () => {
    const body = template({ body: '{% assign n = vars.code | append: "!" %}{{ n }}' });
    expect(renderTemplate(body, scope)).toMatchObject({ ok: true, body: '1234!' });
    expect(renderTemplate(body, { ...scope, vars: { code: '99' } })).toMatchObject({ ok: true, body: '99!' });
  });

  it('does not reach properties that are not the data own', () => {
    expect(renderTemplate(template({ body: '{{ vars.constructor }}' }), scope)).toMatchObject({
      ok: false,
      variable: 'vars.constructor',
    });
  });

  it('stops a render that would run too long or build too much', () => {
    const huge = renderTemplate(template({ body: '{% for i in (1..100000000) %}x{% endfor %}' }), scope);
    expect(huge).toMatchObject({
      ok: false,
      variable: null,
      detail: expect.stringMatching(/limit exceeded/),
    });
    const slow = renderTemplate(
      template({ body: '{% for i in (1..100000) %}{% for j in (1..100000) %}{% endfor %}{% endfor %}' }),
      scope,
    );
    expect(slow).toMatchObject({
      ok: false,
      variable: null,
      detail: expect.stringMatching(/limit exceeded/),
    });
  });
});
