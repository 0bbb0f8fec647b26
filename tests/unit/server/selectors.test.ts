// labelSelector and fieldSelector as the API server evaluates them.
// Label cases follow staging/src/k8s.io/apimachinery/pkg/labels/selector_test.go (TestSelectorMatches,
// TestSelectorDoesNotMatch); field labels follow the registries' selectable fields.

import { describe, expect, it } from 'vitest';
import { fieldMatcher, labelMatcher } from '../../../src/server/selectors.ts';
import { HttpError } from '../../../src/server/status.ts';

const obj = (labels: Record<string, string>) => ({ metadata: { name: 'n', namespace: 'default', labels } });

describe('label selectors', () => {
  it.each([
    ['', {}, true],
    ['x=y', { x: 'y' }, true],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true],
    ['x', { x: 'z' }, true],
    ['!x', { y: 'z' }, true],
    ['x>1', { x: '2' }, true],
    ['x<1', { x: '0' }, true],
    ['x in (y,z)', { x: 'z' }, true],
    ['x notin (y,z)', { x: 'w' }, true],
    ['x notin (y,z)', {}, true],
    ['x==y', { x: 'y' }, true],
    ['x=z', {}, false],
    ['x=y', { x: 'z' }, false],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y', { x: 'y' }, false],
    ['x', {}, false],
    ['!x', { x: 'y' }, false],
    ['x>1', { x: '0' }, false],
    ['x in (y,z)', { x: 'w' }, false],
    ['x notin (y,z)', { x: 'y' }, false],
  ])('%j on %j → %s', (selector, labels, matches) => {
    expect(labelMatcher(selector)(obj(labels))).toBe(matches);
  });

  it('a selector it cannot read is 400 BadRequest', () => {
    expect(() => labelMatcher('x in y')).toThrow(HttpError);
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
