export { Decision, type Answer } from '@cms/kafka';

export const SOURCE = 'contacts';
