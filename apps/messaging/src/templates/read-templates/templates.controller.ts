import { CHANNEL_TYPES, RenderTemplateBody } from '@cms/contracts';
import {
  choiceFilter,
  filterParam,
  JsonApiException,
  ListQuery,
  onlyFilters,
  pageMeta,
  parsePagination,
  toListBody,
  toSqlWindow,
  WorkspaceId,
  type ListBody,
  type QueryParams,
} from '@cms/http';
import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { contactScope } from '../../contacts/contact-scope';
import { ContactRepository } from '../../contacts/contact.repository';
import { parseId } from '../../reads/query-params';
import { renderTemplate } from '../render/liquid-renderer';
import type { TemplateEntity } from '../template.entity';
import { TemplateRepository } from '../template.repository';
import { templateResource, type TemplateResource } from '../template.resource';

export interface RenderedTemplateBody {
  data: { subject: string | null; body: string | null; html: string | null };
}

/** The reads the gateway proxies for /api/v1/templates, and the render that sends nothing. */
@Controller('internal/v1/templates')
export class TemplatesController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Oldest first; `filter[name]`, `filter[channel]`. */
  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<TemplateResource>> {
    const page = parsePagination(query);
    onlyFilters(query, ['name', 'channel']);
    const name = filterParam(query, 'name');
    const channel = choiceFilter(query, 'channel', CHANNEL_TYPES);
    const { rows, total } = await new TemplateRepository(this.dataSource.manager).list(
      workspaceId,
      { ...(name !== undefined ? { name } : {}), ...(channel !== undefined ? { channel } : {}) },
      toSqlWindow(page),
    );
    return toListBody(rows.map(templateResource), pageMeta(total, page));
  }

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: TemplateResource }> {
    return { data: templateResource(await this.template(workspaceId, rawId)) };
  }

  /**
   * POST /api/v1/templates/{id}/render: the template rendered for a contact of the view, the variables
   * and the event given, as a send would render it. A missing variable without a default → 422 naming it.
   */
  @Post(':id/render')
  @HttpCode(200)
  async render(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
    @Body() body: RenderTemplateBody,
  ): Promise<RenderedTemplateBody> {
    const template = await this.template(workspaceId, rawId);
    let contact = null;
    if (body.contact_id !== undefined) {
      const row = await new ContactRepository(this.dataSource.manager).findInWorkspace(
        workspaceId,
        body.contact_id,
      );
      if (!row) {
        throw JsonApiException.validation([
          {
            detail: `Contact ${body.contact_id} was not found.`,
            source: { pointer: '/data/attributes/contact_id' },
          },
        ]);
      }
      contact = contactScope(row);
    }
    const rendered = renderTemplate(template, {
      contact,
      event: body.event ?? null,
      vars: body.variables ?? {},
    });
    if (!rendered.ok) throw JsonApiException.validation([{ detail: rendered.detail }]);
    return { data: { subject: rendered.subject, body: rendered.body, html: rendered.html } };
  }

  private async template(workspaceId: number, rawId: string): Promise<TemplateEntity> {
    const id = parseId(rawId, 'Template');
    const template = await new TemplateRepository(this.dataSource.manager).findInWorkspace(workspaceId, id);
    if (!template) throw JsonApiException.notFound(`Template ${rawId} was not found.`);
    return template;
  }
}
