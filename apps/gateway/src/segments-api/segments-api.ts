import { Inject, Injectable } from '@nestjs/common';

import { ServiceApi } from '../proxy/service-api';
import { UpstreamProxy } from '../proxy/upstream.proxy';
import { WritePathService } from '../write-path/write-path.service';

/** The segments service, as the catalog names it among the gateway's upstreams. */
export const SEGMENTS = 'segments';

/** Audiences, their preview and imports (extensions §11): decided and read by the segments service. */
@Injectable()
export class SegmentsApi extends ServiceApi {
  constructor(
    @Inject(WritePathService) writePath: WritePathService,
    @Inject(UpstreamProxy) proxy: UpstreamProxy,
  ) {
    super(SEGMENTS, writePath, proxy);
  }
}
