// createEngine: the engine with everything, patch and resize support, the API server's validation, the containers'
// environment, the shell's redirections, the kubelet's hooks and probes, the files it writes for a pod and the executables of the images the model knows included. (The player's replay uses
// engine-core.ts directly and loads api/patch.ts and resize.ts only for a run that patches a pod.)

import type { Engine } from './types.ts';
import type { EngineConfig } from './config.ts';
import { createEngineCore, type EngineOptions } from './engine-core.ts';
import * as patches from './api/patch.ts';
import * as resize from './resize.ts';
import * as validation from './api/validation.ts';
import * as env from './kubelet/envvars.ts';
import * as redirect from './runtime/redirect.ts';
import * as handlers from './kubelet/handlers.ts';
import * as files from './kubelet/etcfiles.ts';
import * as binaries from './runtime/binaries.ts';
import * as configs from './api/configs.ts';

export type { EngineOptions } from './engine-core.ts';

/** A live simulated cluster. Same config, seed and calls → byte-identical trace and states. */
export function createEngine(config: EngineConfig = {}, opts: EngineOptions = {}): Engine {
  return createEngineCore(config, opts, { patches: { ...patches, resize }, validation, env, redirect, handlers, files, binaries, configs });
}
