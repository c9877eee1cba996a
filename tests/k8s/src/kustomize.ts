import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { parseAllDocuments } from 'yaml';

/** Where the Kustomize bases and overlays live. */
export const K8S_ROOT = path.resolve(__dirname, '../../../deploy/k8s');

const KUBECTL = process.env.KUBECTL ?? 'kubectl';
/** `labels` with `includeTemplates` and `replicas` need Kustomize 5; older kubectl builds embed v2–v4. */
const MIN_KUSTOMIZE_MAJOR = 5;

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** One rendered Kubernetes object; the rest of its fields are read by the checks that need them. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** `Kind/name`, how a failure names the object it is about. */
export function describeObject(object: KubeObject): string {
  return `${object.kind}/${object.metadata.name}`;
}

/** The kustomization directories under `group` (`base` or `overlays`), relative to K8S_ROOT. */
export function kustomizations(group: 'base' | 'overlays'): string[] {
  return readdirSync(path.join(K8S_ROOT, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${group}/${entry.name}`)
    .filter((dir) => existsSync(path.join(K8S_ROOT, dir, 'kustomization.yaml')))
    .sort();
}

/**
 * The Kustomize version of the kubectl that renders the manifests. Throws, naming what is missing,
 * when there is no kubectl or its Kustomize is too old: the manifests are then untested, which is a
 * failure and never a skip.
 */
export function kustomizeVersion(): string {
  let output: string;
  try {
    output = execFileSync(KUBECTL, ['version', '--client', '-o', 'json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    throw new Error(
      `kubectl is needed to render deploy/k8s and was not found or failed (tried "${KUBECTL}"; ` +
        `set KUBECTL to its path): ${(error as Error).message}`,
    );
  }
  const version = (JSON.parse(output) as { kustomizeVersion?: string }).kustomizeVersion;
  const major = Number(/^v?(\d+)\./.exec(version ?? '')?.[1]);
  if (!(major >= MIN_KUSTOMIZE_MAJOR)) {
    throw new Error(
      `${KUBECTL} embeds Kustomize ${version ?? '(unknown)'}; deploy/k8s needs v${MIN_KUSTOMIZE_MAJOR} or later`,
    );
  }
  return version!;
}

/** `kubectl kustomize <dir>` parsed into objects; throws with Kustomize's own message on a bad tree. */
export function render(dir: string): KubeObject[] {
  const yaml = execFileSync(KUBECTL, ['kustomize', path.join(K8S_ROOT, dir)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 32 * 1024 * 1024,
  });
  return parseAllDocuments(yaml).map((document, index) => {
    if (document.errors.length > 0) {
      throw new Error(`${dir}: document ${index} is not YAML: ${document.errors[0]!.message}`);
    }
    return document.toJS() as KubeObject;
  });
}

/** The Kubernetes objects shown in the ```yaml examples of deploy/k8s/README.md (Kustomizations left out). */
export function documentedObjects(): KubeObject[] {
  const readme = readFileSync(path.join(K8S_ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  return blocks
    .flatMap((block) => parseAllDocuments(block).map((document) => document.toJS() as KubeObject))
    .filter((object) => !object.apiVersion.startsWith('kustomize.config.k8s.io/'));
}
