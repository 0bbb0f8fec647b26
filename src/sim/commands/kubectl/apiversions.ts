// `kubectl api-versions`: the group versions the cluster serves, one per line, sorted. The cluster serves the core
// group alone (src/sim/api/resources.ts, the table `podlife serve` answers discovery with), so it prints its versions.
// upstream: kubectl pkg/cmd/apiresources/apiversions.go (v0.36.2: Complete, RunAPIVersions; metav1.ExtractGroupVersions)

import { CORE_VERSIONS } from '../../api/resources.ts';
import type { FlagSpec, ParsedArgs } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import { KubectlError, out } from './common.ts';

/** The command has no flags of its own (kubectl's global flags still parse). */
export const API_VERSIONS_FLAGS: FlagSpec[] = [];

export function kubectlApiVersions(p: ParsedArgs): CommandResult {
  if (p.args.length > 0) throw new KubectlError(`unexpected arguments: [${p.args.join(' ')}]\nSee 'kubectl api-versions -h' for help and examples`);
  // ExtractGroupVersions: a core version is its own name ("v1"), a named group's "group/version"; sort.Strings
  const versions = [...CORE_VERSIONS].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return out(versions.map((v) => `${v}\n`).join(''));
}
