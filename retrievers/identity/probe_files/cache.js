/**
 * A least-recently-used cache (probe input).
 */
class LRUCache {
  /** @param {number} capacity how many entries are kept */
  constructor(capacity) {
    this.capacity = capacity;
    this.map = new Map();
  }

  /** The value for key, marked most recently used. */
  get(key) {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key);
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key, value) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value;
      this.map.delete(oldest);
    }
  }
}

// debounce: call fn once calls stop for ms milliseconds
function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

module.exports = { LRUCache, debounce };
