import { readFileSync } from 'node:fs';
import path from 'node:path';

import {
  EnvReader,
  SERVICE_SECRETS,
  SERVICE_CATALOG,
  SERVICE_NAMES,
  serviceBaseConfig,
  upstreamsOf,
  upstreamUrlVariable,
} from '@cms/config';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import { parse } from 'yaml';

import {
  autoscalers,
  configMaps,
  describeObject,
  disruptionBudgets,
  documentedObjects,
  httpPort,
  jobs,
  K8S_ROOT,
  type KubeObject,
  kustomizations,
  kustomizeVersion,
  NAME,
  quantity,
  render,
  resolveEnv,
  schemaViolations,
  secrets,
  selects,
  serviceDeployments,
  services,
  soleContainer,
  unknownFields,
} from '../src';

/** The HTTP services, from the catalog the manifests are generated from; `ops` is a CLI run as a Job. */
const SERVICES = SERVICE_NAMES;
/** The services an autoscaler sizes. */
const AUTOSCALED = SERVICE_CATALOG.filter((service) => service.role === 'api').map((service) => service.name);
/** Created apart from the manifests in a real installation (deploy/k8s/README.md); never committed. */
const SECRET = 'cms-secrets';
/** The shared ConfigMap every service base expects to find in its namespace. */
const SHARED_CONFIG = 'cms-config';
const SECRET_KEYS = ['DATABASE_URL', ...SERVICE_SECRETS];
const GRACE_SECONDS = 30;

/** MEMORY_LIMIT_MIB as every container gets it: its own memory limit in MiB, by the downward API. */
function memoryLimitVariable(container: string) {
  return {
    name: 'MEMORY_LIMIT_MIB',
    valueFrom: { resourceFieldRef: { containerName: container, resource: 'limits.memory', divisor: '1Mi' } },
  };
}
/** Loading the schemas and type-checking every rendered object takes seconds on a busy machine. */
const SCHEMA_TIMEOUT_MS = 60_000;

const BASES = kustomizations('base');
const OVERLAYS = kustomizations('overlays');
const TREES = [...BASES, ...OVERLAYS];
/** The trees that render service Deployments: each service's base, and each overlay. */
const SERVICE_TREES = [...SERVICES.map((service) => `base/${service}`), ...OVERLAYS];
/** The trees that render pods of the system: the service trees and the ops Job's base. */
const WORKLOAD_TREES = [...SERVICE_TREES, 'base/ops'];
/** The trees that render the gateway, and so its HPA. */
const GATEWAY_TREES = ['base/gateway', ...OVERLAYS];

const renders = new Map<string, KubeObject[]>();
/** Rendered once per tree and shared by the tests; a tree that does not render fails each test that reads it. */
function objectsOf(dir: string): KubeObject[] {
  if (!renders.has(dir)) renders.set(dir, render(dir));
  return renders.get(dir)!;
}

function deploymentsOf(dir: string) {
  const deployments = serviceDeployments(objectsOf(dir));
  if (deployments.length === 0) throw new Error(`${dir} renders no service Deployment`);
  return deployments;
}

/** The Job that runs `main.js migrate` for the service of `deployment`, as the tree renders it. */
function migrateJobOf(dir: string, deployment: IDeployment & KubeObject) {
  const name = `${deployment.metadata.name}-migrate`;
  const job = jobs(objectsOf(dir)).find((candidate) => candidate.metadata.name === name);
  if (!job) throw new Error(`${dir} renders no Job ${name} beside Deployment/${deployment.metadata.name}`);
  return job;
}

/** The `images:` overrides of an overlay's kustomization.yaml. */
function imageOverrides(dir: string): { name: string; newName?: string; newTag: string }[] {
  const kustomization = parse(readFileSync(path.join(K8S_ROOT, dir, 'kustomization.yaml'), 'utf8')) as {
    images?: { name: string; newName?: string; newTag: string }[];
  };
  return kustomization.images ?? [];
}

/** The Deployments and Jobs whose pods run the system's image. */
function workloadsOf(dir: string) {
  const workloads = [...serviceDeployments(objectsOf(dir)), ...jobs(objectsOf(dir))];
  if (workloads.length === 0) throw new Error(`${dir} renders no Deployment or Job of the system`);
  return workloads;
}

/** The pod security every pod of the system has, the `restricted` Pod Security Standard and more. */
function expectHardened(workload: IDeployment | IJob): void {
  const pod = workload.spec!.template.spec!;
  expect(pod.securityContext).toMatchObject({
    runAsNonRoot: true,
    // A numeric user: the kubelet cannot verify runAsNonRoot against the image's named `node` user.
    runAsUser: expect.any(Number),
    seccompProfile: { type: 'RuntimeDefault' },
  });
  expect(pod.securityContext!.runAsUser).toBeGreaterThan(0);
  expect(soleContainer(workload).securityContext).toEqual({
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  });
  expect(pod.automountServiceAccountToken).toBe(false);
}

describe('deploy/k8s', () => {
  it('is rendered with a kubectl whose Kustomize is v5 or later', () => {
    expect(kustomizeVersion()).toMatch(/^v?[5-9]\.|^v?\d{2,}\./);
  });

  it('has a base per service, the shared base, and the local-dev and production overlays', () => {
    expect(BASES).toEqual(
      expect.arrayContaining(['base/common', 'base/ops', ...SERVICES.map((service) => `base/${service}`)]),
    );
    expect(OVERLAYS).toEqual(expect.arrayContaining(['overlays/local-dev', 'overlays/production']));
  });

  it(
    'uses no field that the API version of an object does not define, in manifests or README examples',
    () => {
      const rendered = TREES.flatMap((dir) => objectsOf(dir).map((object) => ({ source: dir, object })));
      const documented = documentedObjects().map((object) => ({ source: 'README.md', object }));
      expect(unknownFields([...rendered, ...documented])).toEqual([]);
    },
    SCHEMA_TIMEOUT_MS,
  );
});

describe.each(TREES)('%s', (dir) => {
  it(
    'renders objects that conform to the Kubernetes schema of their apiVersion and kind',
    async () => {
      const objects = objectsOf(dir);
      expect(objects.length).toBeGreaterThan(0);
      const violations = (await Promise.all(objects.map((object) => schemaViolations(object)))).filter(
        Boolean,
      );
      expect(violations).toEqual([]);
    },
    SCHEMA_TIMEOUT_MS,
  );
});

describe.each(SERVICE_TREES)('%s: each service', (dir) => {
  it('probes each service for liveness on /health and readiness on /ready at its HTTP port', () => {
    for (const deployment of deploymentsOf(dir)) {
      const container = soleContainer(deployment);
      const onHttpPort = ['http', httpPort(container)];
      const { livenessProbe, readinessProbe, startupProbe } = container;
      expect(livenessProbe?.httpGet?.path).toBe('/health');
      expect(onHttpPort).toContain(livenessProbe!.httpGet!.port);
      expect(readinessProbe?.httpGet?.path).toBe('/ready');
      expect(onHttpPort).toContain(readinessProbe!.httpGet!.port);
      // Migrations run before the port opens; the startup probe keeps liveness from killing a slow first boot.
      expect(startupProbe?.httpGet?.path).toBe('/health');
      expect(onHttpPort).toContain(startupProbe!.httpGet!.port);
    }
  });

  it('lets each service drain: a preStop pause shorter than the 30 s grace period', () => {
    for (const deployment of deploymentsOf(dir)) {
      const pod = deployment.spec!.template.spec!;
      expect(pod.terminationGracePeriodSeconds).toBe(GRACE_SECONDS);
      const command = soleContainer(deployment).lifecycle?.preStop?.exec?.command ?? [];
      expect(command).toEqual(['sleep', expect.stringMatching(/^\d+$/)]);
      expect(Number(command[1])).toBeLessThan(GRACE_SECONDS / 2);
    }
  });

  it('has Prometheus scrape each service at /metrics on its HTTP port', () => {
    for (const deployment of deploymentsOf(dir)) {
      expect(deployment.spec!.template.metadata?.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(httpPort(soleContainer(deployment))),
        'prometheus.io/path': '/metrics',
      });
    }
  });

  it('gives each service a Service on its HTTP port and one PodDisruptionBudget selecting its pods alone', () => {
    const objects = objectsOf(dir);
    const deployments = deploymentsOf(dir);
    for (const deployment of deployments) {
      const podLabels = deployment.spec!.template.metadata?.labels;
      expect(selects(deployment.spec!.selector.matchLabels, podLabels)).toBe(true);

      const fronting = services(objects).filter((service) => selects(service.spec?.selector, podLabels));
      expect(fronting.map(describeObject)).toEqual([`Service/${deployment.metadata.name}`]);
      expect(fronting[0]!.spec!.ports).toEqual([
        expect.objectContaining({ port: httpPort(soleContainer(deployment)), targetPort: 'http' }),
      ]);

      const budgets = disruptionBudgets(objects).filter((budget) =>
        selects(budget.spec?.selector?.matchLabels, podLabels),
      );
      expect(budgets.map(describeObject)).toEqual([`PodDisruptionBudget/${deployment.metadata.name}`]);
      const others = deployments.filter((other) => other !== deployment);
      for (const other of others) {
        expect(selects(budgets[0]!.spec!.selector!.matchLabels, other.spec!.template.metadata?.labels)).toBe(
          false,
        );
      }
    }
  });
});

describe.each(SERVICE_TREES)("%s: each service's migration Job", (dir) => {
  it('runs `main.js migrate` with the image of the service, once per pod, retried and then removed', () => {
    for (const deployment of deploymentsOf(dir)) {
      const job = migrateJobOf(dir, deployment);
      const container = soleContainer(job);
      expect(container.image).toBe(soleContainer(deployment).image);
      expect(container.args).toEqual(['migrate']);
      expect(container.command).toBeUndefined();
      expect(job.spec!.template.spec!.restartPolicy).toBe('Never');
      expect(job.spec!.backoffLimit).toBeGreaterThan(0);
      expect(job.spec!.activeDeadlineSeconds).toBeGreaterThan(0);
      expect(job.spec!.ttlSecondsAfterFinished).toBeGreaterThan(0);
      expect(job.metadata.labels).toMatchObject({
        [NAME]: deployment.metadata.name,
        'app.kubernetes.io/component': 'migrate',
      });
    }
  });

  it("reads DATABASE_URL from cms-secrets and DATABASE_SCHEMA from the service's ConfigMap, as the service does", () => {
    const objects = objectsOf(dir);
    for (const deployment of deploymentsOf(dir)) {
      const service = deployment.metadata.name;
      const container = soleContainer(migrateJobOf(dir, deployment));
      // The database's secret and no other: migrating needs neither the operator token nor SECRETS_KEY.
      expect(container.env).toEqual([
        { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: SECRET, key: 'DATABASE_URL' } } },
        memoryLimitVariable(container.name),
      ]);
      expect(container.envFrom?.map((source) => source.configMapRef?.name)).toEqual([
        SHARED_CONFIG,
        `${service}-config`,
      ]);
      const own = configMaps(objects).find((configMap) => configMap.metadata.name === `${service}-config`);
      const schema = own?.data?.DATABASE_SCHEMA;
      expect([service, schema]).toEqual([service, expect.stringMatching(/^[a-z_][a-z0-9_]*$/)]);
      const jobEnv = resolveEnv(container, objects).env;
      const serviceEnv = resolveEnv(soleContainer(deployment), objects).env;
      expect(new EnvReader(jobEnv).identifier('DATABASE_SCHEMA', '')).toBe(schema);
      expect(jobEnv.DATABASE_SCHEMA).toBe(serviceEnv.DATABASE_SCHEMA);
      expect(jobEnv.DATABASE_URL).toBe(serviceEnv.DATABASE_URL);
    }
  });

  it('runs hardened like the service, with a writable /tmp where the service has one', () => {
    for (const deployment of deploymentsOf(dir)) {
      const job = migrateJobOf(dir, deployment);
      expectHardened(job);
      const tmpOf = (workload: IDeployment | IJob) => {
        const mount = soleContainer(workload).volumeMounts?.find(
          (candidate) => candidate.mountPath === '/tmp',
        );
        const volume = workload.spec!.template.spec!.volumes?.find(
          (candidate) => candidate.name === mount?.name,
        );
        return volume?.emptyDir !== undefined;
      };
      expect([job.metadata.name, tmpOf(job)]).toEqual([job.metadata.name, tmpOf(deployment)]);
    }
  });

  it("is never counted among the service's pods by its Deployment, Service or PodDisruptionBudget", () => {
    const objects = objectsOf(dir);
    for (const deployment of deploymentsOf(dir)) {
      const podLabels = migrateJobOf(dir, deployment).spec!.template.metadata?.labels;
      const selectors = [
        ...serviceDeployments(objects).map((other) => other.spec!.selector.matchLabels),
        ...services(objects).map((service) => service.spec?.selector),
        ...disruptionBudgets(objects).map((budget) => budget.spec?.selector?.matchLabels),
      ];
      expect(selectors.length).toBeGreaterThan(0);
      for (const selector of selectors)
        expect([selector, selects(selector, podLabels)]).toEqual([selector, false]);
    }
  });
});

describe.each(WORKLOAD_TREES)('%s: each pod', (dir) => {
  it('gives every container CPU and memory requests within its limits', () => {
    const workloads = workloadsOf(dir);
    for (const workload of workloads) {
      const { requests, limits } = soleContainer(workload).resources ?? {};
      for (const resource of ['cpu', 'memory']) {
        const request = requests?.[resource];
        const limit = limits?.[resource];
        expect([describeObject(workload), resource, request, limit]).not.toContain(undefined);
        expect(quantity(request!)).toBeLessThanOrEqual(quantity(limit!));
      }
    }
  });

  it('hands every container its own memory limit in MiB, which the image keeps the heap within', () => {
    for (const workload of workloadsOf(dir)) {
      const container = soleContainer(workload);
      const variables = (container.env ?? []).filter((variable) => variable.name === 'MEMORY_LIMIT_MIB');
      expect([describeObject(workload), variables]).toEqual([
        describeObject(workload),
        [memoryLimitVariable(container.name)],
      ]);
    }
  });

  it('runs every container as a non-root user with a read-only root filesystem and no capabilities', () => {
    for (const workload of workloadsOf(dir)) expectHardened(workload);
  });

  it('takes settings from ConfigMaps and secrets from keys of the cms-secrets Secret only', () => {
    const workloads = workloadsOf(dir);
    for (const workload of workloads) {
      const container = soleContainer(workload);
      const sources = container.envFrom ?? [];
      expect(sources.map((source) => source.configMapRef?.name)).toContain(SHARED_CONFIG);
      for (const source of sources) expect(Object.keys(source)).toEqual(['configMapRef']);
      for (const variable of container.env ?? []) {
        if (variable.name === 'MEMORY_LIMIT_MIB') continue;
        // Literal values would be settings outside the ConfigMaps, or secrets in the manifests.
        expect(SECRET_KEYS).toContain(variable.name);
        expect(variable.valueFrom?.secretKeyRef?.name).toBe(SECRET);
        expect(variable.value).toBeUndefined();
      }
    }
  });
});

describe.each(GATEWAY_TREES)('%s: the gateway', (dir) => {
  it('scales the gateway with an HPA and leaves its replica count to that HPA', () => {
    const objects = objectsOf(dir);
    const gateway = deploymentsOf(dir).find((deployment) => deployment.metadata.name === 'gateway');
    const hpas = autoscalers(objects);
    expect(hpas.map((hpa) => hpa.spec?.scaleTargetRef)).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gateway' },
    ]);
    const { minReplicas, maxReplicas } = hpas[0]!.spec!;
    expect(minReplicas).toBeGreaterThanOrEqual(1);
    expect(maxReplicas).toBeGreaterThan(minReplicas!);
    // Applying the manifests again would otherwise reset the count the HPA chose.
    expect(gateway!.spec!.replicas).toBeUndefined();
  });
});

describe.each(SERVICES.map((service) => [service, `base/${service}`]))(
  '%s on its own (%s)',
  (service, dir) => {
    it('renders only its own objects', () => {
      const objects = objectsOf(dir);
      expect(
        objects.filter((object) => object.metadata.labels?.[NAME] !== service).map(describeObject),
      ).toEqual([]);
      expect(serviceDeployments(objects).map(describeObject)).toEqual([`Deployment/${service}`]);
      expect(jobs(objects).map(describeObject)).toEqual([`Job/${service}-migrate`]);
    });

    it('refers to nothing outside itself but the shared cms-config ConfigMap and cms-secrets Secret', () => {
      const objects = objectsOf(dir);
      for (const workload of [...serviceDeployments(objects), ...jobs(objects)]) {
        const { unresolved } = resolveEnv(soleContainer(workload), objects);
        expect(unresolved).toContain(`ConfigMap/${SHARED_CONFIG}`);
        for (const reference of unresolved) {
          expect(reference).toMatch(new RegExp(`^(ConfigMap/${SHARED_CONFIG}|Secret/${SECRET}#[A-Z_]+)$`));
        }
      }
    });
  },
);

describe('base/ops', () => {
  it('creates the topics with a Job that runs `ops topics create`, each retry in a new pod', () => {
    const [job, ...others] = jobs(objectsOf('base/ops'));
    expect(others).toEqual([]);
    expect(job!.metadata.name).toBe('ops-topics-create');
    expect(soleContainer(job!).args).toEqual(['topics', 'create']);
    expect(soleContainer(job!).image).toMatch(/(^|\/)cms\/ops:/);
    expect(job!.spec!.template.spec!.restartPolicy).toBe('Never');
    expect(job!.spec!.backoffLimit).toBeGreaterThan(0);
  });
});

describe('base/common', () => {
  it('renders the shared cms-config ConfigMap under its fixed name, and no secret', () => {
    const objects = objectsOf('base/common');
    expect(objects.map(describeObject)).toEqual([`ConfigMap/${SHARED_CONFIG}`]);
    expect(new EnvReader(configMaps(objects)[0]!.data).list('KAFKA_BROKERS').length).toBeGreaterThan(0);
  });
});

describe.each(OVERLAYS)('%s', (dir) => {
  it("renders the whole system: each service, the gateway HPA, the topics Job and each service's migration Job", () => {
    const objects = objectsOf(dir);
    expect(
      serviceDeployments(objects)
        .map((deployment) => deployment.metadata.name)
        .sort(),
    ).toEqual([...SERVICES].sort());
    expect(autoscalers(objects).map(describeObject)).toEqual(
      AUTOSCALED.map((service) => `HorizontalPodAutoscaler/${service}`),
    );
    expect(
      Object.fromEntries(jobs(objects).map((job) => [job.metadata.name, soleContainer(job).args])),
    ).toEqual({
      'ops-topics-create': ['topics', 'create'],
      ...Object.fromEntries(SERVICES.map((service) => [`${service}-migrate`, ['migrate']])),
    });
  });

  it("sets the overlay's image of each service on its Deployment and its migration Job alike", () => {
    const overrides = imageOverrides(dir);
    for (const deployment of deploymentsOf(dir)) {
      const service = deployment.metadata.name;
      const override = overrides.find((candidate) => candidate.name === `cms/${service}`);
      expect([service, override]).toEqual([service, expect.objectContaining({ newTag: expect.any(String) })]);
      const image = `${override!.newName ?? override!.name}:${override!.newTag}`;
      expect(soleContainer(deployment).image).toBe(image);
      expect(soleContainer(migrateJobOf(dir, deployment)).image).toBe(image);
    }
  });

  it('puts every namespaced object into one namespace', () => {
    const namespaced = objectsOf(dir).filter((object) => object.kind !== 'Namespace');
    const namespaces = new Set(namespaced.map((object) => object.metadata.namespace));
    expect(namespaces.size).toBe(1);
    expect([...namespaces][0]).toEqual(expect.any(String));
  });

  it('pins every service image to one release tag', () => {
    const objects = objectsOf(dir);
    const images = [...serviceDeployments(objects), ...jobs(objects)].map(
      (workload) => soleContainer(workload).image!,
    );
    const tags = new Set(images.map((image) => /:([^:/]+)$/.exec(image)?.[1]));
    expect(tags.size).toBe(1);
    expect([...tags][0]).toMatch(/^(?!latest$)[\w.-]+$/);
  });

  it('refers only to rendered ConfigMaps, and to Secret keys of cms-secrets', () => {
    const objects = objectsOf(dir);
    const secretRendered = secrets(objects).some((secret) => secret.metadata.name === SECRET);
    for (const workload of [...serviceDeployments(objects), ...jobs(objects)]) {
      const { unresolved } = resolveEnv(soleContainer(workload), objects);
      // Where the Secret is created apart from the manifests, only its keys stay unresolved here.
      const expected = secretRendered
        ? []
        : unresolved.filter((reference) => reference.startsWith(`Secret/${SECRET}#`));
      expect(unresolved).toEqual(expected);
    }
  });

  it('gives each service its own HTTP port and database schema, and Kafka brokers, as its config loader reads them', () => {
    const objects = objectsOf(dir);
    const schemas = new Set<string>();
    for (const deployment of serviceDeployments(objects)) {
      const container = soleContainer(deployment);
      const reader = new EnvReader(resolveEnv(container, objects).env);
      expect(reader.integer('HTTP_PORT', Number.NaN, 0)).toBe(httpPort(container));
      const schema = reader.identifier('DATABASE_SCHEMA', '');
      expect(schemas.has(schema)).toBe(false);
      schemas.add(schema);
      expect(reader.list('KAFKA_BROKERS').length).toBeGreaterThan(0);
      expect(() => reader.topics()).not.toThrow();
    }
  });

  it('runs each service on the HTTP port and database schema of its entry in the catalog', () => {
    const objects = objectsOf(dir);
    const deployed = serviceDeployments(objects).map((deployment) => {
      const env = resolveEnv(soleContainer(deployment), objects).env;
      return [deployment.metadata.name, { httpPort: Number(env.HTTP_PORT), schema: env.DATABASE_SCHEMA }];
    });
    expect(Object.fromEntries(deployed)).toEqual(
      Object.fromEntries(SERVICE_CATALOG.map(({ name, httpPort, schema }) => [name, { httpPort, schema }])),
    );
  });

  it('points the gateway at the Service of each service it proxies reads to', () => {
    const objects = objectsOf(dir);
    const gateway = serviceDeployments(objects).find((deployment) => deployment.metadata.name === 'gateway')!;
    const reader = new EnvReader(resolveEnv(soleContainer(gateway), objects).env);
    const upstreams = upstreamsOf('gateway').map((upstream) => upstream.name);
    expect(upstreams.length).toBeGreaterThan(0);
    for (const upstream of upstreams) {
      const url = new URL(reader.httpUrl(upstreamUrlVariable(upstream), 'http://unset'));
      const service = services(objects).find((candidate) => candidate.metadata.name === url.hostname);
      expect(service?.metadata.name).toBe(upstream);
      expect(service!.spec!.ports!.map((port) => port.port)).toContain(Number(url.port));
    }
  });
});

describe('overlays/local-dev', () => {
  it('boots each service with settings its config loader accepts, secrets from the committed example', () => {
    const objects = objectsOf('overlays/local-dev');
    for (const deployment of serviceDeployments(objects)) {
      const container = soleContainer(deployment);
      const { env, unresolved } = resolveEnv(container, objects);
      expect(unresolved).toEqual([]);
      const reader = new EnvReader(env);
      expect(() => serviceBaseConfig(reader, { httpPort: 0, schema: 'unset' })).not.toThrow();
      if ('SECRETS_KEY' in env) expect(() => reader.key32('SECRETS_KEY')).not.toThrow();
      // The gateway refuses a shorter operator token.
      if ('ADMIN_TOKEN' in env) expect(reader.required('ADMIN_TOKEN').length).toBeGreaterThanOrEqual(16);
    }
  });
});

describe('overlays/production', () => {
  it('commits no secret value: the Secret is created apart from the manifests', () => {
    expect(secrets(objectsOf('overlays/production'))).toEqual([]);
  });
});

describe('deploy/k8s/README.md', () => {
  const documentedJobs = () => documentedObjects() as (KubeObject & IJob)[];

  it('shows a Job for `ops lag` and one for `ops replay`', () => {
    const jobsShown = documentedJobs();
    expect(jobsShown.map((job) => job.kind)).toEqual(['Job', 'Job']);
    expect(jobsShown.map((job) => soleContainer(job).args?.[0])).toEqual(['lag', 'replay']);
  });

  it(
    'shows Jobs that conform to the Kubernetes schema',
    async () => {
      const jobsShown = documentedJobs();
      const violations = (await Promise.all(jobsShown.map((job) => schemaViolations(job)))).filter(Boolean);
      expect(violations).toEqual([]);
    },
    SCHEMA_TIMEOUT_MS,
  );

  it('shows Jobs that run the production ops image, hardened, with settings and secrets production provides', () => {
    const production = objectsOf('overlays/production');
    const topicsJob = jobs(production).find((job) => job.metadata.name === 'ops-topics-create');
    const opsImage = soleContainer(topicsJob!).image;
    expect(opsImage).toMatch(/(^|\/)cms\/ops:/);
    for (const job of documentedJobs()) {
      const container = soleContainer(job);
      expect(container.image).toBe(opsImage);
      expectHardened(job);
      expect(container.resources?.requests).toBeDefined();
      expect(container.resources?.limits).toBeDefined();
      const { unresolved } = resolveEnv(container, production);
      expect(unresolved.filter((reference) => !reference.startsWith(`Secret/${SECRET}#`))).toEqual([]);
      for (const reference of unresolved) expect(SECRET_KEYS).toContain(reference.split('#')[1]);
    }
  });
});
