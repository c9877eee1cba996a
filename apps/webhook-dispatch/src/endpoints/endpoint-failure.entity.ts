import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Failed deliveries of an endpoint since its last success (test deliveries aside); the 25th asks for
 * the switch-off. An operational counter the delivery worker keeps, not derived from the log: a rebuild
 * keeps it (in place) or carries it over (blue/green). No row means no failure since the last success.
 */
@Entity({ name: 'webhook_endpoint_failures' })
export class EndpointFailureEntity {
  @PrimaryColumn({ name: 'endpoint_id', type: 'uuid' })
  endpointId!: string;

  @Column({ name: 'consecutive_failures', type: 'integer' })
  consecutiveFailures!: number;
}
