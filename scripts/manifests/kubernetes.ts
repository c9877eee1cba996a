import { memoryLimitOf, upstreamUrlVariable, type ServiceEntry } from '../../libs/config/src/services';
import { comment, GENERATED, namePattern, possessive } from './text';

interface Resources {
  requests: { cpu: string; memory: string };
  limits: { cpu: string; memory: string };
}

/** How many pods of a role run where, and production's resources; the bases' resources are alike for all. */
const SIZING = {
  api: {
    base: { minReplicas: 2, maxReplicas: 10 },
    localDev: { minReplicas: 1, maxReplicas: 2 },
    production: { minReplicas: 3, maxReplicas: 12 },
    productionResources: {
      requests: { cpu: '500m', memory: '512Mi' },
      limits: { cpu: '2', memory: '1Gi' },
    },
  },
  consumer: {
    base: { replicas: 2 },
    localDev: { replicas: 1 },
    production: { replicas: 3 },
    productionResources: {
      requests: { cpu: '250m', memory: '384Mi' },
      limits: { cpu: '1', memory: '768Mi' },
    },
  },
};

const DEFAULT_REPLICAS_NOTE =
  "Replicas share the request topic's partitions (24 by default); more replicas than partitions idle.";

/** The container's own memory limit in MiB, as an item of its `env` (the downward API). */
function memoryLimitVariable(container: string): string {
  return `            # The container's memory limit, in MiB: the image keeps the heap within it (nodeMemoryArgs).
            - name: MEMORY_LIMIT_MIB
              valueFrom:
                resourceFieldRef:
                  containerName: ${container}
                  resource: limits.memory
                  divisor: 1Mi`;
}

/** A resource quantity as YAML: whole cores quoted, so they stay strings. */
const quantity = (value: string) => (/^\d+$/.test(value) ? `'${value}'` : value);

const byRole = (services: readonly ServiceEntry[], role: ServiceEntry['role']) =>
  services.filter((service) => service.role === role);

/** The files of `deploy/k8s/base/<service>/`, by name; `services` are the whole catalog's. */
function serviceBase(
  service: ServiceEntry,
  services: readonly ServiceEntry[],
  release: string,
): Map<string, string> {
  const files = new Map<string, string>([
    ['kustomization.yaml', kustomization(service, release)],
    ['config.env', configEnv(service, services)],
    ['deployment.yaml', deployment(service)],
    ['service.yaml', kubeService(service)],
    ['pdb.yaml', disruptionBudget(service)],
    ['job-migrate.yaml', migrateJob(service)],
  ]);
  if (service.role === 'api') files.set('hpa.yaml', autoscaler(service));
  return files;
}

function kustomization(service: ServiceEntry, release: string): string {
  const keys = ['DATABASE_URL', ...service.secrets].join(', ');
  const resources = ['deployment.yaml', 'service.yaml', 'pdb.yaml']
    .concat(service.role === 'api' ? ['hpa.yaml'] : [], ['job-migrate.yaml'])
    .map((file) => `  - ${file}`)
    .join('\n');
  return `${GENERATED}
${comment(`${service.name} on its own: needs the \`cms-config\` ConfigMap and the \`cms-secrets\` Secret (keys ${keys}) in the namespace, and the topics created by the ops Job.`)}
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization

labels:
  - pairs:
      app.kubernetes.io/part-of: cms
    includeTemplates: true

resources:
${resources}

configMapGenerator:
  - name: ${service.name}-config
    envs:
      - config.env
    options:
      # A fixed name, so an ops Job (replay) can run with the service's own settings. Pods
      # read it at start: after a change, \`kubectl rollout restart deployment/<service>\`.
      disableNameSuffixHash: true
      labels:
        app.kubernetes.io/name: ${service.name}

images:
  - name: cms/${service.name}
    newTag: ${release}
`;
}

function configEnv(service: ServiceEntry, services: readonly ServiceEntry[]): string {
  const portOf = (name: string) => services.find((candidate) => candidate.name === name)!.httpPort;
  const lines = [GENERATED, `HTTP_PORT=${service.httpPort}`, `DATABASE_SCHEMA=${service.schema}`];
  if (service.redis) lines.push('REDIS_URL=redis://redis:6379');
  if (service.upstreams?.length) {
    lines.push(
      '# Internal base URLs of the services it proxies reads to (their Services in this namespace).',
      ...service.upstreams.map(
        (upstream) => `${upstreamUrlVariable(upstream)}=http://${upstream}:${portOf(upstream)}`,
      ),
    );
  }
  for (const setting of service.settings ?? []) {
    if (setting.doc) lines.push(comment(setting.doc));
    lines.push(`${setting.name}=${setting.value}`);
  }
  return `${lines.join('\n')}\n`;
}

/** What every pod of a service (its Deployment's and its migration Job's) is given: no API token, no Service variables. */
const POD_SETTINGS = `      automountServiceAccountToken: false
      # Settings come from the ConfigMaps only, not from variables named after the namespace's Services.
      enableServiceLinks: false`;

/** Every pod runs as the image's non-root user under the runtime's default seccomp profile. */
const POD_SECURITY = `      securityContext:
        runAsNonRoot: true
        # The image's \`node\` user; a numeric id lets the kubelet verify runAsNonRoot.
        runAsUser: 1000
        runAsGroup: 1000
        seccompProfile:
          type: RuntimeDefault`;

/** A container that can write only to its /tmp, an emptyDir of `tmpSize`, with no privileges; and that volume. */
function readOnlyContainer(tmpSize: string): string {
  return `          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities:
              drop: ['ALL']
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: ${tmpSize}`;
}

function deployment(service: ServiceEntry): string {
  const { name } = service;
  const replicas =
    service.role === 'api'
      ? `  # No \`replicas\`: the HorizontalPodAutoscaler owns the count, and applying the manifests again must
  # not reset it.`
      : `${comment(service.replicasNote ?? DEFAULT_REPLICAS_NOTE, '  ')}
  replicas: ${SIZING.consumer.base.replicas}`;
  const secrets = ['DATABASE_URL', ...service.secrets]
    .map(
      (key) => `            - name: ${key}
              valueFrom:
                secretKeyRef:
                  name: cms-secrets
                  key: ${key}`,
    )
    .join('\n');
  return `${GENERATED}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
    app.kubernetes.io/name: ${name}
    app.kubernetes.io/component: ${service.role}
spec:
${replicas}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      app.kubernetes.io/name: ${name}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${name}
        app.kubernetes.io/component: ${service.role}
      annotations:
        prometheus.io/scrape: 'true'
        prometheus.io/port: '${service.httpPort}'
        prometheus.io/path: /metrics
    spec:
${POD_SETTINGS}
      # On SIGTERM the process stops taking work and finishes what it holds; preStop uses the first 5 s.
      terminationGracePeriodSeconds: 30
${POD_SECURITY}
      # Replicas spread over nodes and zones, so losing one leaves the service running.
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              app.kubernetes.io/name: ${name}
        - maxSkew: 1
          topologyKey: topology.kubernetes.io/zone
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              app.kubernetes.io/name: ${name}
      containers:
        - name: ${name}
          image: cms/${name}
          imagePullPolicy: IfNotPresent
          ports:
            - name: http
              containerPort: ${service.httpPort}
          envFrom:
            - configMapRef:
                name: cms-config
            - configMapRef:
                name: ${name}-config
          env:
${secrets}
${memoryLimitVariable(name)}
          # Migrations run before the port opens: allow up to 5 minutes for the first start.
          startupProbe:
            httpGet:
              path: /health
              port: http
            periodSeconds: 5
            failureThreshold: 60
          livenessProbe:
            httpGet:
              path: /health
              port: http
            periodSeconds: 10
            timeoutSeconds: 3
            failureThreshold: 3
          readinessProbe:
            httpGet:
              path: /ready
              port: http
            periodSeconds: 5
            timeoutSeconds: 3
            failureThreshold: 2
          lifecycle:
            # Endpoints are removed asynchronously: keep serving until load balancers stop sending.
            preStop:
              exec:
                command: ['sleep', '5']
          resources:
            requests:
              cpu: 200m
              memory: ${memoryLimitOf(service) / 2}Mi
            limits:
              cpu: '1'
              memory: ${memoryLimitOf(service)}Mi
${readOnlyContainer('64Mi')}
`;
}

function kubeService(service: ServiceEntry): string {
  return `${GENERATED}
apiVersion: v1
kind: Service
metadata:
  name: ${service.name}
  labels:
    app.kubernetes.io/name: ${service.name}
spec:
  type: ClusterIP
  selector:
    app.kubernetes.io/name: ${service.name}
  ports:
    - name: http
      port: ${service.httpPort}
      targetPort: http
`;
}

function disruptionBudget(service: ServiceEntry): string {
  return `${GENERATED}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: ${service.name}
  labels:
    app.kubernetes.io/name: ${service.name}
spec:
  maxUnavailable: 1
  # A pod that never became ready may be evicted, so a broken rollout cannot block a node drain.
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector:
    matchLabels:
      app.kubernetes.io/name: ${service.name}
`;
}

function autoscaler(service: ServiceEntry): string {
  const { minReplicas, maxReplicas } = SIZING.api.base;
  return `${GENERATED}
# An api service keeps no state of its own (each replica reads outcomes under its own consumer group),
# so it scales on CPU.
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: ${service.name}
  labels:
    app.kubernetes.io/name: ${service.name}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: ${service.name}
  minReplicas: ${minReplicas}
  maxReplicas: ${maxReplicas}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: 70
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
      policies:
        - type: Pods
          value: 1
          periodSeconds: 60
`;
}

function migrateJob(service: ServiceEntry): string {
  const { name } = service;
  return `${GENERATED}
${comment(`Migrates ${possessive(name)} PostgreSQL schema with the release's image (\`main.js migrate\`) before its pods change: wait for it to complete, then roll out. A failed migration fails the Job and the running release stays as it is. Pods still migrate at boot, under the same lock, and then find nothing to do.`)}
apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}-migrate
  labels:
    app.kubernetes.io/name: ${name}
    app.kubernetes.io/component: migrate
spec:
  # Retries cover a database that is still starting or failing over; each try is a new pod, so its
  # log is kept. Migrations run one transaction each, so a failed try leaves no half-applied one.
  backoffLimit: 4
  activeDeadlineSeconds: 900
  # A finished Job (and a failed one's log) is kept for a day. Its template cannot change: a release
  # deletes the previous one before applying its own (deploy/k8s/README.md).
  ttlSecondsAfterFinished: 86400
  template:
    metadata:
      labels:
        # Not the service's own name: its Service, PodDisruptionBudget and Deployment select pods by
        # that label, and must never count this pod among the service's.
        app.kubernetes.io/name: ${name}-migrate
        app.kubernetes.io/component: migrate
    spec:
      restartPolicy: Never
${POD_SETTINGS}
${POD_SECURITY}
      containers:
        - name: ${name}
          image: cms/${name}
          imagePullPolicy: IfNotPresent
          args: ['migrate']
          # The settings the service reads; the command uses DATABASE_SCHEMA from ${name}-config.
          envFrom:
            - configMapRef:
                name: cms-config
            - configMapRef:
                name: ${name}-config
          # Only the database's secret: migrating needs none of the service's other keys.
          env:
            - name: DATABASE_URL
              valueFrom:
                secretKeyRef:
                  name: cms-secrets
                  key: DATABASE_URL
${memoryLimitVariable(name)}
          resources:
            requests:
              cpu: 50m
              memory: 128Mi
            limits:
              cpu: 500m
              memory: 256Mi
${readOnlyContainer('16Mi')}
`;
}

/** `deploy/k8s/overlays/local-dev/kustomization.yaml`. */
function localDevOverlay(services: readonly ServiceEntry[]): string {
  const api = byRole(services, 'api');
  const consumers = byRole(services, 'consumer');
  return `${GENERATED}
# A whole installation on a local cluster (kind, minikube, k3d): the services, the topics Job, and
# throwaway Kafka, PostgreSQL and Redis that keep nothing across restarts. For development only.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization

namespace: cms-dev

resources:
  - namespace.yaml
  - dependencies/kafka.yaml
  - dependencies/postgres.yaml
  - dependencies/redis.yaml
  - ../../base/common
  - ../../base/ops
${services.map((service) => `  - ../../base/${service.name}`).join('\n')}

# EXAMPLE VALUES, committed on purpose for local clusters only: never use this file for a real
# installation (the production overlay expects a Secret created apart from the manifests).
secretGenerator:
  - name: cms-secrets
    envs:
      - secrets.env.example
    options:
      disableNameSuffixHash: true
      labels:
        app.kubernetes.io/part-of: cms

# Images built locally (\`docker build --build-arg APP=<app> -t cms/<app>:dev .\`) and loaded into the cluster.
images:
${[...services.map((service) => service.name), 'ops'].map((app) => `  - name: cms/${app}\n    newTag: dev`).join('\n')}
${replicas(consumers, SIZING.consumer.localDev.replicas)}
patches:
${autoscalerPatch(api, SIZING.api.localDev)}  # Small requests so the whole installation fits on a laptop's single-node cluster.
  - target:
      kind: Deployment
      labelSelector: app.kubernetes.io/part-of=cms
    patch: |-
      - op: replace
        path: /spec/template/spec/containers/0/resources/requests
        value:
          cpu: 50m
          memory: 128Mi
`;
}

/** `deploy/k8s/overlays/production/kustomization.yaml`; `envFiles` are the services with a `<name>.env` there. */
function productionOverlay(
  services: readonly ServiceEntry[],
  release: string,
  envFiles: Set<string>,
): string {
  const api = byRole(services, 'api');
  const consumers = byRole(services, 'consumer');
  const merges = [
    ['cms-config', 'cms.env'],
    ...services
      .filter((service) => envFiles.has(service.name))
      .map((service) => [`${service.name}-config`, `${service.name}.env`]),
    ['ops-config', 'ops.env'],
  ];
  return `${GENERATED}
# A production installation. Kafka, PostgreSQL and Redis are run apart from these manifests; set their
# addresses in the *.env files here. The \`cms-secrets\` Secret is created apart from the manifests too
# (see deploy/k8s/README.md), so no secret value lives in the repository.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization

namespace: cms

resources:
  - ../../base/common
  - ../../base/ops
${services.map((service) => `  - ../../base/${service.name}`).join('\n')}

configMapGenerator:
${merges.map(([name, file]) => `  - name: ${name}\n    behavior: merge\n    envs:\n      - ${file}`).join('\n')}

images:
${[...services.map((service) => service.name), 'ops']
  .map((app) => `  - name: cms/${app}\n    newName: registry.example.com/cms/${app}\n    newTag: ${release}`)
  .join('\n')}
${replicas(consumers, SIZING.consumer.production.replicas)}
patches:
${autoscalerPatch(api, SIZING.api.production)}${roleResourcesPatches(api, SIZING.api.productionResources)}${roleResourcesPatches(consumers, SIZING.consumer.productionResources)}`;
}

/** The overlay's `replicas:` for the consumers, with the blank line after it; nothing without consumers. */
function replicas(consumers: readonly ServiceEntry[], count: number): string {
  if (consumers.length === 0) return '';
  return `
replicas:
${consumers.map((service) => `  - name: ${service.name}\n    count: ${count}`).join('\n')}
`;
}

function autoscalerPatch(api: readonly ServiceEntry[], range: { minReplicas: number; maxReplicas: number }) {
  if (api.length === 0) return '';
  return `  - target:
      kind: HorizontalPodAutoscaler
      name: ${namePattern(api)}
    patch: |-
      - op: replace
        path: /spec/minReplicas
        value: ${range.minReplicas}
      - op: replace
        path: /spec/maxReplicas
        value: ${range.maxReplicas}
`;
}

/** MiB of a memory quantity written in Mi or Gi. */
function mebibytes(value: string): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(value);
  if (!match) throw new Error(`memory quantity ${value} is not in Mi or Gi`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
}

/**
 * A role's resources for its services; a service whose base deployment has a larger memory limit
 * keeps that limit (and half of it as its request), in a patch of its own.
 */
function roleResourcesPatches(services: readonly ServiceEntry[], resources: Resources): string {
  const roleLimit = mebibytes(resources.limits.memory);
  const larger = services.filter((service) => memoryLimitOf(service) > roleLimit);
  return [
    resourcesPatch(
      services.filter((service) => !larger.includes(service)),
      resources,
    ),
    ...larger.map((service) =>
      resourcesPatch([service], {
        requests: { ...resources.requests, memory: `${memoryLimitOf(service) / 2}Mi` },
        limits: { ...resources.limits, memory: `${memoryLimitOf(service)}Mi` },
      }),
    ),
  ].join('');
}

function resourcesPatch(services: readonly ServiceEntry[], resources: Resources): string {
  if (services.length === 0) return '';
  return `  - target:
      kind: Deployment
      name: ${namePattern(services)}
    patch: |-
      - op: replace
        path: /spec/template/spec/containers/0/resources
        value:
          requests:
            cpu: ${quantity(resources.requests.cpu)}
            memory: ${resources.requests.memory}
          limits:
            cpu: ${quantity(resources.limits.cpu)}
            memory: ${resources.limits.memory}
`;
}

/** Every file the catalog generates under deploy/k8s, by path relative to it. */
export function kubernetesFiles(
  services: readonly ServiceEntry[],
  release: string,
  productionEnvFiles: Set<string>,
): Map<string, string> {
  const files = new Map<string, string>();
  for (const service of services)
    for (const [file, text] of serviceBase(service, services, release))
      files.set(`base/${service.name}/${file}`, text);
  files.set('overlays/local-dev/kustomization.yaml', localDevOverlay(services));
  files.set(
    'overlays/production/kustomization.yaml',
    productionOverlay(services, release, productionEnvFiles),
  );
  return files;
}
