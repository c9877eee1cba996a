import { Module } from '@nestjs/common';

import { CreateAudienceHandler } from './create-audience/create-audience.handler';
import { AudiencesController } from './read-audiences/audiences.controller';

@Module({
  controllers: [AudiencesController],
  providers: [CreateAudienceHandler],
  exports: [CreateAudienceHandler],
})
export class AudiencesModule {}
