import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';

import type { KubeObject } from './kustomize';

/** The label every object of the system carries; the local-dev overlay's Kafka, PostgreSQL and Redis do not. */
export const PART_OF = 'app.kubernetes.io/part-of';
export const NAME = 'app.kubernetes.io/name';

type Rendered<T> = T & KubeObject;

function ofKind<T>(objects: KubeObject[], apiVersion: string, kind: string): Rendered<T>[] {
  return objects.filter(
    (object) => object.apiVersion === apiVersion && object.kind === kind,
  ) as Rendered<T>[];
}

function partOfSystem(object: KubeObject): boolean {
  return object.metadata.labels?.[PART_OF] === 'cms';
}

/** The services' Deployments (not the local-dev overlay's dependencies). */
export function serviceDeployments(objects: KubeObject[]): Rendered<IDeployment>[] {
  return ofKind<IDeployment>(objects, 'apps/v1', 'Deployment').filter(partOfSystem);
}

export function services(objects: KubeObject[]): Rendered<IService>[] {
  return ofKind<IService>(objects, 'v1', 'Service');
}

export function disruptionBudgets(objects: KubeObject[]): Rendered<IPodDisruptionBudget>[] {
  return ofKind<IPodDisruptionBudget>(objects, 'policy/v1', 'PodDisruptionBudget');
}

export function autoscalers(objects: KubeObject[]): Rendered<IHorizontalPodAutoscaler>[] {
  return ofKind<IHorizontalPodAutoscaler>(objects, 'autoscaling/v2', 'HorizontalPodAutoscaler');
}

export function jobs(objects: KubeObject[]): Rendered<IJob>[] {
  return ofKind<IJob>(objects, 'batch/v1', 'Job').filter(partOfSystem);
}

export function configMaps(objects: KubeObject[]): Rendered<IConfigMap>[] {
  return ofKind<IConfigMap>(objects, 'v1', 'ConfigMap');
}

export function secrets(objects: KubeObject[]): Rendered<ISecret>[] {
  return ofKind<ISecret>(objects, 'v1', 'Secret');
}

/** The only container of a service's pod (each service runs one process per pod). */
export function soleContainer(deployment: IDeployment | IJob): IContainer {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  if (containers.length !== 1) throw new Error(`expected one container, found ${containers.length}`);
  return containers[0]!;
}

/** The container port named `http`. */
export function httpPort(container: IContainer): number {
  const port = container.ports?.find((candidate) => candidate.name === 'http');
  if (!port) throw new Error(`container ${container.name} has no port named http`);
  return port.containerPort;
}

/** Whether the label selector `matchLabels` (non-empty) picks a pod that carries `labels`. */
export function selects(
  matchLabels: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  const wanted = Object.entries(matchLabels ?? {});
  return wanted.length > 0 && wanted.every(([key, value]) => labels?.[key] === value);
}

const QUANTITY_FACTORS: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
};

/** A resource quantity (`250m`, `512Mi`, `2`) as a number of cores or bytes. */
export function quantity(value: number | string): number {
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi)?$/.exec(String(value));
  if (!match) throw new Error(`unsupported quantity ${JSON.stringify(value)}`);
  return Number(match[1]) * QUANTITY_FACTORS[match[2] ?? '']!;
}

export interface ResolvedEnv {
  /** Every variable the container gets, with Secret values decoded. */
  env: Record<string, string>;
  /** ConfigMaps and Secrets (and keys, as `Secret/name#KEY`) referred to but not rendered. */
  unresolved: string[];
}

/** The environment a container starts with, resolved against the rendered ConfigMaps and Secrets. */
export function resolveEnv(container: IContainer, objects: KubeObject[]): ResolvedEnv {
  const env: Record<string, string> = {};
  const unresolved: string[] = [];
  const configMap = (name: string) =>
    configMaps(objects).find((candidate) => candidate.metadata.name === name);
  const secret = (name: string) => secrets(objects).find((candidate) => candidate.metadata.name === name);
  const secretValue = (name: string, key: string): string | undefined => {
    const found = secret(name);
    if (!found) return undefined;
    const encoded = found.data?.[key];
    return encoded === undefined ? found.stringData?.[key] : Buffer.from(encoded, 'base64').toString('utf8');
  };

  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) {
      const found = configMap(source.configMapRef.name!);
      if (found) Object.assign(env, found.data);
      else unresolved.push(`ConfigMap/${source.configMapRef.name}`);
    }
    if (source.secretRef) {
      const found = secret(source.secretRef.name!);
      if (!found) unresolved.push(`Secret/${source.secretRef.name}`);
      for (const key of Object.keys(found?.data ?? {})) env[key] = secretValue(found!.metadata.name, key)!;
    }
  }
  for (const variable of container.env ?? []) {
    const secretRef = variable.valueFrom?.secretKeyRef;
    const configMapRef = variable.valueFrom?.configMapKeyRef;
    if (secretRef) {
      const value = secretValue(secretRef.name!, secretRef.key);
      if (value === undefined) unresolved.push(`Secret/${secretRef.name}#${secretRef.key}`);
      else env[variable.name] = value;
    } else if (configMapRef) {
      const value = configMap(configMapRef.name!)?.data?.[configMapRef.key];
      if (value === undefined) unresolved.push(`ConfigMap/${configMapRef.name}#${configMapRef.key}`);
      else env[variable.name] = value;
    } else if (variable.value !== undefined) {
      env[variable.name] = variable.value;
    }
  }
  return { env, unresolved };
}
