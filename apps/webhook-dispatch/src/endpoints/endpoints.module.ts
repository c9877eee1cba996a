import { Module } from '@nestjs/common';

import { CreateEndpointHandler } from './create-endpoint/create-endpoint.handler';
import { DeleteEndpointHandler } from './delete-endpoint/delete-endpoint.handler';
import { EndpointsController } from './read-endpoints/endpoints.controller';
import { RollSecretHandler } from './roll-secret/roll-secret.handler';
import { SwitchOffEndpointHandler } from './switch-off-endpoint/switch-off-endpoint.handler';
import { UpdateEndpointHandler } from './update-endpoint/update-endpoint.handler';

@Module({
  controllers: [EndpointsController],
  providers: [
    CreateEndpointHandler,
    UpdateEndpointHandler,
    DeleteEndpointHandler,
    RollSecretHandler,
    SwitchOffEndpointHandler,
  ],
  exports: [
    CreateEndpointHandler,
    UpdateEndpointHandler,
    DeleteEndpointHandler,
    RollSecretHandler,
    SwitchOffEndpointHandler,
  ],
})
export class EndpointsModule {}
