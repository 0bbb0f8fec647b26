// Image references by the grammar of github.com/distribution/reference (the parser the kubelet and containerd use):
//   reference := name [ ":" tag ] [ "@" digest ]
//   name      := [domain '/'] remote-name
// Normalisation as ParseNormalizedNamed: docker.io is the default domain, "library/" the default namespace,
// and the kubelet applies the default tag "latest" (applyDefaultImageTag).
// upstream: github.com/distribution/reference regexp.go, normalize.go

export interface ImageRef {
  /** "docker.io", "m.daocloud.io", "localhost:5000" */
  domain: string;
  /** "library/nginx", "docker.io/busybox" */
  path: string;
  tag?: string;
  digest?: string;
  /** The fully qualified reference with the default tag applied: "docker.io/library/nginx:latest". */
  normalized: string;
  /** The repository part of `normalized`: "docker.io/library/nginx". */
  repository: string;
}

export class ImageRefError extends Error {}

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN_NAME = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*`;
const IPV6 = '\\[(?:[a-fA-F0-9:]+)\\]';
const HOST = `(?:${DOMAIN_NAME}|${IPV6})`;
const DOMAIN = `${HOST}(?::[0-9]+)?`;
const ALNUM = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]+)';
const PATH_COMPONENT = `${ALNUM}(?:${SEPARATOR}${ALNUM})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(
  `^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`,
);
const DOMAIN_RE = new RegExp(`^${DOMAIN}$`);
const NAME_TOTAL_LENGTH_MAX = 255;

/** Parse and normalise an image reference; throws ImageRefError with the reference library's message. */
export function parseImageRef(ref: string): ImageRef {
  const cached = parsed.get(ref);
  if (cached) return cached;
  const r = parse(ref);
  if (parsed.size > 10_000) parsed.clear();
  parsed.set(ref, r);
  return r;
}
const parsed = new Map<string, ImageRef>();

function parse(ref: string): ImageRef {
  if (ref === '') throw new ImageRefError('repository name must have at least one component');
  const m = REFERENCE.exec(ref);
  if (!m) {
    if (REFERENCE.test(ref.toLowerCase())) throw new ImageRefError('repository name must be lowercase');
    throw new ImageRefError('invalid reference format');
  }
  const name = m[1];
  if (name.length > NAME_TOTAL_LENGTH_MAX) {
    throw new ImageRefError(`repository name must not be more than ${NAME_TOTAL_LENGTH_MAX} characters`);
  }
  let domain = 'docker.io';
  let path = name;
  const slash = name.indexOf('/');
  if (slash >= 0) {
    const first = name.slice(0, slash);
    if (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase()) {
      if (!DOMAIN_RE.test(first)) throw new ImageRefError('invalid reference format');
      domain = first;
      path = name.slice(slash + 1);
    }
  }
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !path.includes('/')) path = `library/${path}`;
  const tag = m[2];
  const digest = m[3];
  const repository = `${domain}/${path}`;
  let normalized = repository;
  if (tag) normalized += `:${tag}`;
  if (digest) normalized += `@${digest}`;
  if (!tag && !digest) normalized += ':latest';
  return { domain, path, tag, digest, normalized, repository };
}

/** True when imagePullPolicy defaults to Always: the tag is "latest", or there is neither tag nor digest. */
export function isLatestOrUntagged(ref: string): boolean {
  // upstream: pkg/apis/core/v1/defaults.go SetDefaults_Container (parsers.ParseImageName)
  try {
    const r = parseImageRef(ref);
    if (r.tag) return r.tag === 'latest';
    return !r.digest;
  } catch {
    // ParseImageName fails: the tag is "" and the policy becomes IfNotPresent; the kubelet reports InvalidImageName
    return false;
  }
}
