import { Module } from '@nestjs/common';

import { RecordClickHandler } from './record-click/record-click.handler';
import { ResolveLinkController } from './resolve-link/resolve-link.controller';

/** Tracked links (extensions §10): resolved for the gateway's redirects, their clicks decided from the log. */
@Module({
  controllers: [ResolveLinkController],
  providers: [RecordClickHandler],
  exports: [RecordClickHandler],
})
export class LinksModule {}
