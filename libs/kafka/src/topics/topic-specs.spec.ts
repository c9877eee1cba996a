import { TOPICS, topicNames } from '@cms/contracts';

import { topicSpecs } from './topic-specs';

describe('topicSpecs', () => {
  it('keeps every topic of TOPICS forever but the outcomes, the facts topics with the layout of facts', () => {
    const specs = topicSpecs({ requestPartitions: 4, factPartitions: 2, outcomePartitions: 1 });
    expect(specs.map((spec) => spec.name).sort()).toEqual(Object.values(TOPICS).sort());
    const byName = new Map(specs.map((spec) => [spec.name, spec]));
    expect(byName.get(TOPICS.requests)!.partitions).toBe(4);
    expect(byName.get(TOPICS.outcomes)).toMatchObject({
      partitions: 1,
      config: { 'retention.ms': '3600000' },
    });
    expect(byName.get(TOPICS.deadLetters)!.partitions).toBe(3);
    for (const name of [TOPICS.contacts, TOPICS.webhooks, TOPICS.gateway, TOPICS.segments]) {
      expect(byName.get(name)).toMatchObject({ partitions: 2, config: { 'retention.ms': '-1' } });
    }
  });

  it('names the topics of a namespace', () => {
    const specs = topicSpecs({}, topicNames('ns'));
    expect(specs.map((spec) => spec.name).sort()).toEqual(
      Object.values(TOPICS)
        .map((name) => `ns.${name}`)
        .sort(),
    );
  });
});
