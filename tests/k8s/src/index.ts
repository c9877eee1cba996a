export * from './kustomize';
export * from './kubernetes-schema';
export * from './workloads';
