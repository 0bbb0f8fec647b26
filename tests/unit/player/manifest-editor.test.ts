// The player's manifest editor (components/player/model.ts): it edits the scenario's pod, and a scenario's apply: may
// hold a ConfigMap or a Secret before the pod.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../components/player/model.ts';
import { parseScenario } from '../../../src/sim/scenario.ts';
import { runnable } from '../../../src/sim/run.ts';

const scenario = runnable(parseScenario(`title: t
timeline:
  - at: 0s
    apply: |
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: app}
      data: {MODE: demo}
  - at: 1s
    apply: |
      apiVersion: v1
      kind: Pod
      metadata: {name: web}
      spec:
        containers:
        - {name: c, image: nginx}
`, 't.yaml'));

describe('the manifest editor, in a scenario that applies a ConfigMap before its pod', () => {
  it('starts from the pod, not from the ConfigMap', () => {
    expect(new Simulation(scenario, 1).firstManifest()).toMatch(/^apiVersion: v1\nkind: Pod\n/);
  });
  it('replaces the pod and keeps the ConfigMap', () => {
    const sim = new Simulation(scenario, 1);
    expect(sim.runManifest('apiVersion: v1\nkind: Pod\nmetadata: {name: other}\nspec:\n  containers:\n  - {name: c, image: nginx}\n')).toBeUndefined();
    const state = sim.stateAt(sim.end);
    expect(state.pods.map((p) => p.metadata.name)).toEqual(['other']);
    expect(state.configMaps?.map((c) => c.metadata.name)).toEqual(['app']);
  });
});
