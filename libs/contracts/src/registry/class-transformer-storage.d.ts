// class-transformer ships this module's types under types/, not next to the CommonJS file.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
