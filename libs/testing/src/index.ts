export * from './stack';
export * from './unique';
export * from './tls-certificates';
export * from './free-port';
export * from './service-process';
export * from './migration-stages';
export * from './fake-chat-completions';
