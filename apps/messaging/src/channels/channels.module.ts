import { Module } from '@nestjs/common';

import { CreateChannelHandler } from './create-channel/create-channel.handler';
import { ChannelsController } from './read-channels/channels.controller';

@Module({
  controllers: [ChannelsController],
  providers: [CreateChannelHandler],
  exports: [CreateChannelHandler],
})
export class ChannelsModule {}
