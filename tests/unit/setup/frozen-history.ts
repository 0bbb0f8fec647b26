// Every object the engine records is immutable once recorded (src/sim/core/history.ts: copy-on-write): stateAt(t)
// rebuilds the past from those very objects, and the components hold them as what they last saw. A write into one
// changes the past and hides the change from whoever compares old and new. In the tests every recorded value is
// deep-frozen, so such a write throws where it happens (ES modules are strict) instead of passing unnoticed.
import { History } from '../../../src/sim/core/history.ts';

function deepFreeze(v: unknown): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  Object.freeze(v);
  for (const x of Object.values(v)) deepFreeze(x);
}

const put = History.prototype.put;
History.prototype.put = function (this: History, t, coll, key, value) {
  deepFreeze(value);
  put.call(this, t, coll, key, value);
};
