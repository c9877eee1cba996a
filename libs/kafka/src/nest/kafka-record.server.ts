import type { DecodedRecord } from '@cms/contracts';
import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';

import {
  ConsumerRuntime,
  type ConsumerRuntimeOptions,
  type RecordContext,
} from '../consumer/consumer-runtime';

/** Nest types a handler's context as unknown; this narrows it back to what the server passes. */
export function recordContext(context: unknown): RecordContext {
  if (typeof context !== 'object' || context === null || !('manager' in context) || !('emit' in context)) {
    throw new Error('not a RecordContext: the handler is not running under KafkaRecordServer');
  }
  return context as RecordContext;
}

export type KafkaRecordServerOptions = Omit<ConsumerRuntimeOptions, 'handle' | 'accepts'>;

/**
 * A Nest transport over ConsumerRuntime: `@EventPattern('<record type>')` methods become the
 * handlers, called with the decoded record and its RecordContext (the open transaction).
 * Records of types no handler claims only move the checkpoint on.
 */
export class KafkaRecordServer extends Server implements CustomTransportStrategy {
  private runtime: ConsumerRuntime | undefined;

  constructor(private readonly runtimeOptions: KafkaRecordServerOptions) {
    super();
  }

  listen(callback: (error?: unknown) => void): void {
    this.runtime = new ConsumerRuntime({
      ...this.runtimeOptions,
      accepts: (type) => this.messageHandlers.has(type),
      handle: (record, context) => this.dispatch(record, context),
    });
    this.runtime.start().then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  async close(): Promise<void> {
    await this.runtime?.stop();
  }

  on(): never {
    throw new Error('KafkaRecordServer emits no events; watch the runtime stats instead');
  }

  unwrap<T>(): T {
    if (!this.runtime) throw new Error('KafkaRecordServer is not listening yet');
    return this.runtime as T;
  }

  private async dispatch(record: DecodedRecord, context: RecordContext): Promise<void> {
    const handler = this.getHandlerByPattern(record.type);
    if (!handler) return;
    await lastValueFrom(this.transformToObservable(await handler(record, context)), {
      defaultValue: undefined,
    });
  }
}
