// labelSelector and fieldSelector query parameters as `podlife serve` evaluates them: the shared parser
// (src/sim/api/selectors.ts, with apimachinery's tables in tests/unit/sim/selectors.test.ts) on the objects it serves,
// and a selector it cannot read as 400 BadRequest.

import { describe, expect, it } from 'vitest';
import { fieldMatcher, labelMatcher } from '../../../src/server/selectors.ts';
import { HttpError } from '../../../src/server/status.ts';

const obj = (labels: Record<string, string>) => ({ metadata: { name: 'n', namespace: 'default', labels } });

describe('label selectors', () => {
  // the parser and its upstream tables: tests/unit/sim/selectors.test.ts; here, the server's use of it
  it.each([
    ['', {}, true],
    ['x in (y,z),!w', { x: 'z' }, true],
    ['x notin (y,z)', {}, true],
    ['x>1', { x: '0' }, false],
  ])('%j on an object labelled %j → %s', (selector, labels, matches) => {
    expect(labelMatcher(selector)(obj(labels))).toBe(matches);
  });

  it('a selector it cannot read is 400 BadRequest with the parser\'s message', () => {
    try {
      labelMatcher('x in y');
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(HttpError);
      expect((e as HttpError).status).toMatchObject({ code: 400, reason: 'BadRequest', message: "unable to parse requirement: found 'y' expected: '('" });
    }
  });
});

describe('field selectors', () => {
  const event = {
    metadata: { name: 'e1', namespace: 'default' },
    involvedObject: { kind: 'Pod', name: 'nginx-test', namespace: 'default', uid: 'u1' },
    reason: 'Started', type: 'Normal', source: { component: 'kubelet' }, reportingComponent: 'kubelet',
  };
  const pod = { metadata: { name: 'p', namespace: 'default' }, spec: { nodeName: 'worker01', restartPolicy: 'Always' }, status: { phase: 'Running' } };

  it.each([
    ['events', 'involvedObject.name=nginx-test', event, true],
    ['events', 'involvedObject.name=nginx-test,involvedObject.namespace=default,involvedObject.uid=u1', event, true],
    ['events', 'involvedObject.name=other', event, false],
    ['events', 'reason!=Started', event, false],
    ['events', 'source=kubelet,type=Normal', event, true],
    ['pods', 'spec.nodeName=worker01', pod, true],
    ['pods', 'status.phase!=Failed,status.phase!=Succeeded', pod, true],
    ['pods', 'metadata.name==p', pod, true],
    ['pods', 'spec.hostNetwork=false', pod, true],
    ['pods', 'status.podIP=', pod, true],
  ])('%s: %s → %s', (resource, selector, o, matches) => {
    expect(fieldMatcher(resource, selector)(o as never)).toBe(matches);
  });

  it('an escaped comma is part of the value', () => {
    const e = { ...event, reason: 'a,b' };
    expect(fieldMatcher('events', 'reason=a\\,b')(e as never)).toBe(true);
  });

  it('a field the resource does not register is 400 "field label not supported"', () => {
    try {
      fieldMatcher('pods', 'spec.image=nginx');
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(HttpError);
      expect((e as HttpError).status).toMatchObject({ code: 400, reason: 'BadRequest', message: 'field label not supported: spec.image' });
    }
  });
});
