export * from './channels';
export * from './contact.bodies';
export * from './tag.bodies';
export * from './event.bodies';
export * from './contact.records';
export * from './tag.records';
export * from './event.records';
export * from './contacts.record-types';
