import { Module } from '@nestjs/common';

import { ChannelCredentials } from './channel-credentials';
import { CreateChannelHandler } from './create-channel/create-channel.handler';
import { CreatePushSubscriptionHandler } from './create-push-subscription/create-push-subscription.handler';
import { DeleteChannelHandler } from './delete-channel/delete-channel.handler';
import { ChannelsController } from './read-channels/channels.controller';
import { UpdateChannelHandler } from './update-channel/update-channel.handler';

const HANDLERS = [
  CreateChannelHandler,
  UpdateChannelHandler,
  DeleteChannelHandler,
  CreatePushSubscriptionHandler,
];

@Module({
  controllers: [ChannelsController],
  providers: [ChannelCredentials, ...HANDLERS],
  exports: [ChannelCredentials, ...HANDLERS],
})
export class ChannelsModule {}
