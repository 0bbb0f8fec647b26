// In-place pod resize support: the API server's resize subresource and the kubelet's allocation, resize actions and
// status. Like api/patch.ts it is a parameter of createEngineCore (`patches.resize`), so the player's first load
// leaves it out; createEngine always has it. Without it a resize patch fails, so no pod is ever resized.

export * as api from './api/resize.ts';
export * as kubelet from './kubelet/resize.ts';
