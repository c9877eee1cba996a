/**
 * The V8 heap of a service process inside a memory limit: its container's, which Kubernetes hands it
 * as MEMORY_LIMIT_MIB (deploy/k8s, the downward API), and which `npm start` and the benchmark give it
 * as the base deployment sets it. Three quarters of the limit go to the old generation; the rest is
 * left for the young generation (16 MiB semi-spaces), code, buffers and the runtime. Left to itself,
 * Node sizes the heap from the whole limit (or, outside a container, from the machine's memory) and
 * collects late, so a busy process would pass its limit and be killed. scripts/services.sh carries
 * its result for `npm start`; the image's entrypoint (Dockerfile) applies the same rule in shell.
 */
export function nodeMemoryArgs(limitMiB: string | undefined): string[] {
  if (limitMiB === undefined || !/^[1-9][0-9]*$/.test(limitMiB)) return [];
  const oldSpace = Math.floor((Number(limitMiB) * 3) / 4);
  return [`--max-old-space-size=${oldSpace}`, `--max-semi-space-size=${SEMI_SPACE_MIB}`];
}

/** The young generation's semi-spaces: at V8's default for a large heap, young garbage stays as cheap. */
const SEMI_SPACE_MIB = 16;

/** The memory limit of a service's container in the base deployment (deploy/k8s/base), unless its entry says more. */
export const BASE_MEMORY_LIMIT_MIB = 512;
