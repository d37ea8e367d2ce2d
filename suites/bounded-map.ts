/**
 * Set `key` in `map` as its newest entry and forget the oldest past `limit`: the memory of every
 * watcher of endless traffic (the exchange state, the proxy's remembered answers) is bounded so.
 */
export function rememberAtMost<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value as K);
}
