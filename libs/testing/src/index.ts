export * from './stack';
export * from './unique';
