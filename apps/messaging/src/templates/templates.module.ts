import { Module } from '@nestjs/common';

import { CreateTemplateHandler } from './create-template/create-template.handler';
import { DeleteTemplateHandler } from './delete-template/delete-template.handler';
import { TemplatesController } from './read-templates/templates.controller';
import { UpdateTemplateHandler } from './update-template/update-template.handler';

const HANDLERS = [CreateTemplateHandler, UpdateTemplateHandler, DeleteTemplateHandler];

@Module({
  controllers: [TemplatesController],
  providers: HANDLERS,
  exports: HANDLERS,
})
export class TemplatesModule {}
