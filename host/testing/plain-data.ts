/**
 * Where `value` stops being plain data, or null when it is plain data throughout: what JSON
 * keeps exactly (a checkpoint holds the table's state as JSON on disk). A function, a class
 * instance, a Map or Set, `undefined` in an array, a number JSON cannot write, a bigint or a
 * symbol would come back from a checkpoint changed or gone.
 */
export function notPlainData(value: unknown, path = '$'): string | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : `${path}: ${value} (JSON writes null)`;
    case 'undefined':
      return null;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const v: unknown = value[i];
          if (v === undefined) return `${path}[${i}]: undefined in an array (JSON writes null)`;
          const p = notPlainData(v, `${path}[${i}]`);
          if (p) return p;
        }
        return null;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return `${path}: an instance of ${value.constructor.name}`;
      for (const [k, v] of Object.entries(value)) {
        const p = notPlainData(v, `${path}.${k}`);
        if (p) return p;
      }
      return null;
    }
    default:
      return `${path}: a ${typeof value}`;
  }
}
