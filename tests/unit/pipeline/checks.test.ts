// The join check: a trace key that no excerpt quotes fails the build, naming the scenario, event and key.
import { describe, expect, it } from 'vitest';
import { buildSourceIndex } from '../../../src/excerpts/source-index.ts';
import { checkTraceKeys, stepsExercised } from '../../../src/pipeline/checks.ts';
import { chapter, makeProject } from '../../helpers/project.ts';

describe('checkTraceKeys', () => {
  it('passes for the shipped book and scenarios', async () => {
    await expect(checkTraceKeys()).resolves.toBeUndefined();
  });

  it('fails naming the scenario, the event and the key when no chapter quotes the step', async () => {
    const project = makeProject({
      'en/intro.md': chapter({ title: 'Intro', description: 'x', order: 1 }),
      'zh/intro.md': chapter({ title: '导论', description: 'x', order: 1 }),
    }, { scenarios: 'all' });
    const index = await buildSourceIndex({ root: project.dir });
    const err = await checkTraceKeys(project.dir, index).then(() => undefined, (e: Error) => e);
    expect(err?.message).toMatch(/content\/scenarios\/[a-z-]+\.yaml: trace event #\d+ \(scheduler PodPopped at \d+ ms, pod\/default\/[a-z-]+\) carries step key "ScheduleOne#1", which no excerpt in the (zh and en|en and zh) chapters quotes/);
    expect(err?.message).toContain('Fix: quote that step');
  });
});

describe('stepsExercised', () => {
  it('maps each key to the scenarios whose trace reaches it', () => {
    const used = stepsExercised();
    expect([...used.get('startContainer#4')!]).toContain('poststart-failure');
    expect([...used.get('doBackOff#1')!]).toContain('crash-loop');
    expect([...used.get('SyncPod#8')!]).toEqual(['resize']); // in-place resize: only the resize scenario
  });
});
