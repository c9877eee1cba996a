export * from './contact-view';
export * from './contact-view.consumer';
export * from './contact-view.entity';
