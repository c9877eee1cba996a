import { Module } from '@nestjs/common';

import { AlertRequestsConsumer } from './alert-requests.consumer';
import { CheckAlertHandler } from './check-alert/check-alert.handler';
import { CreateAlertRuleHandler } from './create-alert-rule/create-alert-rule.handler';
import { DeleteAlertRuleHandler } from './delete-alert-rule/delete-alert-rule.handler';
import { AlertsController } from './read-alerts/alerts.controller';
import { UpdateAlertRuleHandler } from './update-alert-rule/update-alert-rule.handler';

/** Delivery monitoring (extensions §10): alert rules, their alerts, and the reads of both. */
@Module({
  controllers: [AlertsController, AlertRequestsConsumer],
  providers: [CreateAlertRuleHandler, UpdateAlertRuleHandler, DeleteAlertRuleHandler, CheckAlertHandler],
})
export class AlertsModule {}
