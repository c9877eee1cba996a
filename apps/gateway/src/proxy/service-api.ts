import type { RequestPayloads, RequestType } from '@cms/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

import type { Principal } from '../auth/principal';
import type { WriteAnswer, WritePathService } from '../write-path/write-path.service';
import { inUseDetail, type Referrer } from './referrers';
import { queryOf, type UpstreamProxy } from './upstream.proxy';

/**
 * The public routes of a service behind the gateway: writes become requests the service decides
 * (answered with its outcome), reads go to its internal port in the caller's workspace.
 */
export class ServiceApi {
  constructor(
    private readonly upstream: string,
    protected readonly writePath: WritePathService,
    protected readonly proxy: UpstreamProxy,
  ) {}

  async write<T extends RequestType>(
    reply: FastifyReply,
    caller: Principal,
    type: T,
    data: RequestPayloads[T],
  ): Promise<unknown> {
    return this.passOn(reply, await this.writePath.submit({ type, workspaceId: caller.workspaceId, data }));
  }

  /** A write's outcome as the client is answered: its status, and its resource (if any) as `data`. */
  passOn(reply: FastifyReply, answer: WriteAnswer): unknown {
    void reply.status(answer.status);
    return answer.resource === undefined ? undefined : { data: answer.resource };
  }

  /** GET `internal/v1/<path>` of the service with the request's query. */
  async read(
    reply: FastifyReply,
    caller: Principal,
    path: string,
    request: FastifyRequest,
  ): Promise<unknown> {
    const answer = await this.proxy.get(this.upstream, path, queryOf(request), caller.workspaceId);
    void reply.status(answer.status);
    return answer.body;
  }

  /** POST `internal/v1/<path>` of the service: a read that takes a body. */
  async readWith(reply: FastifyReply, caller: Principal, path: string, body: unknown): Promise<unknown> {
    const answer = await this.proxy.post(this.upstream, path, body, caller.workspaceId);
    void reply.status(answer.status);
    return answer.body;
  }

  /**
   * Why another service's resource (`subject`) cannot be deleted: the resources of `kind` this service
   * holds that name it, as its `internal/v1/<path>` lists them; undefined when none does. Asked before
   * the delete enters the log: the service that decides the delete does not hold what names it.
   */
  async usedBy(caller: Principal, path: string, subject: string, kind: string): Promise<string | undefined> {
    const answer = await this.proxy.get(this.upstream, path, '', caller.workspaceId);
    return inUseDetail(subject, kind, (answer.body as { data: Referrer[] }).data);
  }
}
