// The simulation engine's public API. Pure TypeScript: no DOM, no Node APIs; runs in Node and in the browser.

export { createEngine, type EngineOptions } from './engine.ts';
export { parseScenario, ScenarioError, scenarioToEngineConfig, parseByteSize, type Scenario, type TimelineEntry } from './scenario.ts';
export { parseDuration, formatDuration, DurationError } from './core/duration.ts';
export { formatGoDuration } from './render/duration.ts';
export { DEFAULT_TIMINGS, ZERO_LATENCY_TIMINGS, type Timings } from './core/timings.ts';
export { DEFAULT_EPOCH, DEFAULT_NODE, type EngineConfig, type NodeConfig, type ImageBehaviour } from './config.ts';
export { parseImageRef, ImageRefError, type ImageRef } from './api/imageref.ts';
export { parseQuantity } from './api/quantity.ts';
export { STEPS, isStepKey, type StepKey } from './steps.ts';
export type * from './types.ts';
