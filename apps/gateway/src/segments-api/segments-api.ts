import type { RequestPayloads, RequestType } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

import type { Principal } from '../auth/principal';

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

  /**
   * A write answered with the audience as a read shows it (with its `size`, which the service counts
   * as of the read): the outcome carries the audience without it. Should the read fail, the outcome's
   * audience is the answer; the write happened either way.
   */
  async writeAudience<T extends RequestType>(
    reply: FastifyReply,
    caller: Principal,
    type: T,
    data: RequestPayloads[T],
    audienceId: number,
  ): Promise<unknown> {
    const answer = await this.writePath.submit({ type, workspaceId: caller.workspaceId, data });
    void reply.status(answer.status);
    if (answer.resource === undefined) return undefined;
    if (answer.status !== 200 && answer.status !== 201) return { data: answer.resource };
    const read = await this.proxy
      .get(SEGMENTS, `audiences/${audienceId}`, '', caller.workspaceId)
      .catch(() => undefined);
    return read?.status === 200 ? read.body : { data: answer.resource };
  }
}
