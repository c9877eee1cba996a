import { Liquid, type Template } from 'liquidjs';

/** The Liquid sources of a template, as a create or update request carries them. */
export interface TemplateSources {
  body?: string | null;
  subject?: string | null;
  html?: string | null;
  provider_template?: { parameters?: string[] | null } | null;
}

/** What a template holds that renders: the entity's fields, or anything shaped like them. */
export interface RenderableTemplate {
  body: string | null;
  subject: string | null;
  html: string | null;
  providerTemplate: { parameters?: string[] | null } | null;
}

/** What a template may read: `{{ contact.name }}`, `{{ event.data.total }}`, `{{ vars.code }}`. */
export interface RenderScope {
  contact: Record<string, unknown> | null;
  event: Record<string, unknown> | null;
  /** The event a workflow's `until_event` wait received (extensions §12); absent elsewhere. */
  waited_event?: Record<string, unknown> | null;
  vars: Record<string, unknown>;
}

/** A Liquid source that does not parse, at the JSON pointer of the field that holds it. */
export interface TemplateProblem {
  pointer: string;
  detail: string;
}

export interface RenderedTemplate {
  ok: true;
  subject: string | null;
  body: string | null;
  html: string | null;
  /** The provider template's parameters, rendered each like the body (empty without one). */
  parameters: string[];
}

/** Nothing renders when one part fails: the message is never sent half rendered. */
export interface RenderFailure {
  ok: false;
  /** The variable that is missing (null when the failure is of another kind, e.g. a limit). */
  variable: string | null;
  detail: string;
}

export type RenderResult = RenderedTemplate | RenderFailure;

/** Longest a template source may be (characters): the contracts already cap each field at 256 KiB. */
const PARSE_LIMIT = 1024 * 1024;
/** Wall-clock time one render may take (ms): a loop over a huge range stops here. */
const RENDER_LIMIT_MS = 500;
/** Allocations one render may make (array items, string lengths): a loop that builds a huge output stops here. */
const MEMORY_LIMIT = 10_000_000;

/** Tags that read other templates from a file system: templates stand alone. */
const FILE_TAGS = ['include', 'render', 'layout'] as const;

/**
 * Strict about missing variables (`strictVariables`), except where Liquid itself offers a fallback:
 * `lenientIf` lets a missing variable be the operand of `if`/`unless`/`elsif` or be given a `default`
 * filter as its first filter (`{{ contact.data.plan | default: 'free' }}`), as the specification asks.
 * `strictFilters` refuses unknown filters when parsing; `ownPropertyOnly` keeps `constructor` and the
 * like out of reach; no file system (`templates: {}`) and the file tags refused at parse.
 */
function makeEngine(): Liquid {
  const engine = new Liquid({
    strictVariables: true,
    lenientIf: true,
    strictFilters: true,
    ownPropertyOnly: true,
    templates: {},
    timezoneOffset: 0,
    parseLimit: PARSE_LIMIT,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: MEMORY_LIMIT,
  });
  for (const name of FILE_TAGS) {
    engine.registerTag(name, {
      parse() {
        throw new Error(`the ${name} tag is not available in templates`);
      },
      render() {
        return '';
      },
    });
  }
  return engine;
}

const engine = makeEngine();

/** The fields a template's Liquid lives in, with the JSON pointer of each in a request body. */
function sourcesOf(fields: TemplateSources): { pointer: string; source: string }[] {
  const sources: { pointer: string; source: string }[] = [];
  for (const key of ['body', 'subject', 'html'] as const) {
    const source = fields[key];
    if (typeof source === 'string') sources.push({ pointer: `/data/attributes/${key}`, source });
  }
  (fields.provider_template?.parameters ?? []).forEach((source, index) => {
    sources.push({ pointer: `/data/attributes/provider_template/parameters/${index}`, source });
  });
  return sources;
}

/** Liquid's message without the position it appends (`…, line:2, col:5`), and the position apart. */
function describe(error: unknown): { message: string; line: number | null; column: number | null } {
  const raw = error instanceof Error ? error.message : String(error);
  const match = /, line:(\d+), col:(\d+)$/.exec(raw);
  if (!match) return { message: raw, line: null, column: null };
  return { message: raw.slice(0, match.index), line: Number(match[1]), column: Number(match[2]) };
}

/** `line 2, column 5: tag {% if x %} not closed`. */
function located(error: unknown): string {
  const { message, line, column } = describe(error);
  return line === null ? message : `line ${line}, column ${column}: ${message}`;
}

/** Every field whose Liquid does not parse, each with the line and column of the fault. */
export function checkTemplate(fields: TemplateSources): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  for (const { pointer, source } of sourcesOf(fields)) {
    try {
      engine.parse(source);
    } catch (error) {
      problems.push({ pointer, detail: located(error) });
    }
  }
  return problems;
}

const UNDEFINED_VARIABLE = /^undefined variable: (.+)$/;

/** A part the scope lacks (no contact, no event) is missing, not empty: `{{ contact.name }}` fails. */
function presentParts(scope: RenderScope): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(scope).filter(([, value]) => value !== null && value !== undefined),
  );
}

class RenderAborted extends Error {
  constructor(readonly failure: RenderFailure) {
    super(failure.detail);
  }
}

/** Parsed sources a send is likely to render again (a template per campaign), newest kept. */
const PARSED_KEPT = 500;
const parsed = new Map<string, Template[]>();

/** The parsed source, from the cache when it was parsed lately; parsed templates hold no render state. */
function parseCached(source: string): Template[] {
  const cached = parsed.get(source);
  if (cached) {
    parsed.delete(source);
    parsed.set(source, cached);
    return cached;
  }
  const template = engine.parse(source);
  parsed.set(source, template);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  return template;
}

function renderOne(source: string, scope: RenderScope, field: string): string {
  let template: Template[];
  try {
    template = parseCached(source);
  } catch (error) {
    throw new RenderAborted({ ok: false, variable: null, detail: `${field}: ${located(error)}` });
  }
  try {
    return engine.renderSync(template, presentParts(scope)) as string;
  } catch (error) {
    const { message, line, column } = describe(error);
    const variable = UNDEFINED_VARIABLE.exec(message)?.[1] ?? null;
    const detail = variable
      ? `The variable ${variable} is missing (${field}, line ${line}, column ${column}) and has no default filter.`
      : `${field}: ${located(error)}`;
    throw new RenderAborted({ ok: false, variable, detail });
  }
}

/**
 * Renders every part of a template, or none: the first missing variable (without a `default` filter)
 * or exceeded limit fails the whole render, naming the variable.
 */
export function renderTemplate(template: RenderableTemplate, scope: RenderScope): RenderResult {
  const render = (source: string | null, field: string): string | null =>
    source === null ? null : renderOne(source, scope, field);
  try {
    const subject = render(template.subject, 'subject');
    const body = render(template.body, 'body');
    const html = render(template.html, 'html');
    const parameters = (template.providerTemplate?.parameters ?? []).map((source, index) =>
      renderOne(source, scope, `provider_template.parameters[${index}]`),
    );
    return { ok: true, subject, body, html, parameters };
  } catch (error) {
    if (error instanceof RenderAborted) return error.failure;
    throw error;
  }
}
