// `kubectl version`: the client's and the API server's versions, as v1.36.2's kubectl prints them against the
// article's cluster (both at v1.36.2, so no skew warning).
// upstream: k8s.io/kubectl v0.36.2 pkg/cmd/version/version.go (Validate, Run); the kustomize module in its go.mod

import { bool, type FlagSpec, type ParsedArgs, str } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import { KubectlError, out } from './common.ts';

export const VERSION_FLAGS: FlagSpec[] = [
  { name: 'client', type: 'bool' },
  { name: 'output', shorthand: 'o', type: 'string' },
];

const KUBERNETES_VERSION = 'v1.36.2';
const KUSTOMIZE_VERSION = 'v5.8.1';

export function kubectlVersion(p: ParsedArgs): CommandResult {
  if (p.args.length) throw new KubectlError(`extra arguments: [${p.args.join(' ')}]`);
  const o = str(p, 'output');
  if (o && o !== 'yaml' && o !== 'json') throw new KubectlError("--output must be 'yaml' or 'json'");
  if (o) {
    // version.Info's gitCommit and buildDate of the v1.36.2 release are not known here: refused rather than invented
    throw new KubectlError(`podlife: kubectl version -o ${o} is not supported by this simulation (the build's commit and date are not modelled); kubectl version prints the versions`);
  }
  const client = `Client Version: ${KUBERNETES_VERSION}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`;
  return out(bool(p, 'client') ? client : `${client}Server Version: ${KUBERNETES_VERSION}\n`);
}
