import { readFilterCriteria, type FilterNode } from '@cms/contracts';
import { In, type EntityManager } from 'typeorm';

import type { Bitset } from '../evaluation/bitset';
import type { WorkspaceIndex } from '../evaluation/workspace-index';
import type { WorkspaceViews } from '../views/workspace-views';
import { AudienceEntity } from './audience.entity';

/** What makes an audience's members (extensions §11), an unsaved one (a preview) included. */
export interface AudienceDefinition {
  /** Import audiences: the contacts imported into it stand where a filter's matches would. */
  importedInto?: number;
  criteria: FilterNode[];
  include: readonly number[];
  exclude: readonly number[];
}

/** An audience read from the table, its filter read again (it was read when written). */
export function definitionOf(audience: AudienceEntity): AudienceDefinition {
  const reading = readFilterCriteria(audience.filterCriteria);
  return {
    ...(audience.source === 'import' ? { importedInto: audience.id } : {}),
    // A stored filter was read when it was written; should the language ever narrow, it matches nobody.
    criteria: reading.ok ? reading.criteria : [{ kind: 'not', node: { kind: 'all', nodes: [] } }],
    include: audience.includeContactIds,
    exclude: audience.excludeContactIds,
  };
}

/** The audience ids a filter names, through every group. */
export function referencedAudiences(nodes: readonly FilterNode[]): number[] {
  const ids = new Set<number>();
  const visit = (node: FilterNode): void => {
    if (node.kind === 'condition') {
      if (node.condition.kind === 'audience') for (const id of node.condition.value) ids.add(id);
    } else if (node.kind === 'not') visit(node.node);
    else node.nodes.forEach(visit);
  };
  nodes.forEach(visit);
  return [...ids];
}

/** A chain of audience references that comes back to where it started. */
export class AudienceCycleError extends Error {
  constructor(readonly path: number[]) {
    super(`audience ${path.join(' → ')} refers to itself`);
  }
}

/**
 * The audiences a definition refers to, through their own references, as stored: every one that
 * exists in the workspace, and the ids that name nothing. A reference back to `self` (or any loop)
 * throws AudienceCycleError.
 */
export async function resolveReferences(
  manager: EntityManager,
  workspaceId: number,
  criteria: readonly FilterNode[],
  self?: number,
): Promise<{
  audiences: Map<number, AudienceEntity>;
  definitions: Map<number, AudienceDefinition>;
  missing: number[];
}> {
  const audiences = new Map<number, AudienceEntity>();
  // Each stored filter read once, however many audiences name it.
  const definitions = new Map<number, AudienceDefinition>();
  const graph = new Map<number, number[]>();
  const missing: number[] = [];
  let frontier = referencedAudiences(criteria);
  while (frontier.length > 0) {
    const wanted = frontier.filter((id) => !audiences.has(id) && id !== self);
    const found =
      wanted.length === 0
        ? []
        : await manager.getRepository(AudienceEntity).findBy({ id: In(wanted), workspaceId });
    for (const audience of found) {
      const definition = definitionOf(audience);
      audiences.set(audience.id, audience);
      definitions.set(audience.id, definition);
      graph.set(audience.id, referencedAudiences(definition.criteria));
    }
    for (const id of wanted) if (!audiences.has(id)) missing.push(id);
    frontier = found.flatMap((audience) => graph.get(audience.id)!);
  }
  if (self !== undefined) graph.set(self, referencedAudiences(criteria));
  const roots = self !== undefined ? [self] : referencedAudiences(criteria);
  for (const root of roots) findCycle(graph, root, []);
  return { audiences, definitions, missing };
}

function findCycle(graph: Map<number, number[]>, id: number, path: number[]): void {
  if (path.includes(id)) throw new AudienceCycleError([...path.slice(path.indexOf(id)), id]);
  for (const next of graph.get(id) ?? []) findCycle(graph, next, [...path, id]);
}

/**
 * Evaluates audiences on a workspace's index: a definition's members are its filter's matches (an
 * import audience's imported contacts), with its include list added and its exclude list taken away;
 * an `audience` condition uses the members of the audience it names, evaluated the same way once.
 */
export class AudienceEvaluator {
  constructor(private readonly views: WorkspaceViews) {}

  async members(
    manager: EntityManager,
    workspaceId: number,
    definition: AudienceDefinition,
    now: number,
    self?: number,
  ): Promise<{ index: WorkspaceIndex; set: Bitset }> {
    const { audiences, definitions } = await resolveReferences(
      manager,
      workspaceId,
      definition.criteria,
      self,
    );
    const imported = new Map<number, number[]>();
    const importAudiences = [...audiences.values()].filter((a) => a.source === 'import').map((a) => a.id);
    if (definition.importedInto !== undefined) importAudiences.push(definition.importedInto);
    for (const audienceId of importAudiences)
      imported.set(audienceId, await this.imported(manager, audienceId));
    const index = await this.views.current(workspaceId);
    const memo = new Map<number, Bitset>();
    const evaluate = (target: AudienceDefinition): Bitset => {
      const base =
        target.importedInto !== undefined
          ? index.idsToSet(imported.get(target.importedInto) ?? [])
          : index.evaluate(target.criteria, { now, audience: resolve });
      return base.or(index.idsToSet(target.include)).andNot(index.idsToSet(target.exclude));
    };
    const resolve = (id: number): Bitset => {
      let set = memo.get(id);
      if (!set) {
        const known = definitions.get(id);
        set = known ? evaluate(known) : index.idsToSet([]);
        memo.set(id, set);
      }
      return set;
    };
    return { index, set: evaluate(definition) };
  }

  private async imported(manager: EntityManager, audienceId: number): Promise<number[]> {
    const rows: Array<{ contact_id: string }> = await manager.query(
      'SELECT contact_id FROM audience_members WHERE audience_id = $1',
      [audienceId],
    );
    return rows.map((row) => Number(row.contact_id));
  }
}
