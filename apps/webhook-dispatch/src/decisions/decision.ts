export { Decision, workspaceIdOf, type Answer } from '@cms/kafka';

export const SOURCE = 'webhook-dispatch';
