/**
 * Stores and repositories with one member replaced, every other member answering from the real one:
 * how a test shows what a failed write does and what it leaves behind.
 */

/** `target` with the member `name` replaced by `value` (methods of the rest bound to `target`). */
export function withMember<T extends object>(target: T, name: PropertyKey, value: unknown): T {
  return new Proxy(target, {
    get(object, property) {
      if (property === name) return value;
      const member: unknown = Reflect.get(object, property, object);
      return typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(object) : member;
    },
  });
}

/** `real` whose method `method` fails as a full disk would (or with `error`). */
export function failingOn<T extends object>(real: T, method: keyof T, error = new Error('ENOSPC: no space left on device')): T {
  return withMember(real, method, () => Promise.reject(error));
}
