const perConfig = new WeakMap<object, Map<string, { readonly limit: number }>>();

/**
 * The turns (shared's Turns, or a class made of them) a setting gives one process: the same for every
 * user made from the same settings (the routes' and the import worker's storage, every completion's media
 * reading), so one limit holds for all of them. Undefined when it is not set.
 */
export function turnsFor<T extends { readonly limit: number }>(
  config: object,
  limit: number | undefined,
  name: string,
  make: (limit: number) => T,
): T | undefined {
  if (limit === undefined) return undefined;
  let byName = perConfig.get(config);
  if (!byName) perConfig.set(config, (byName = new Map()));
  const turns = byName.get(name);
  if (turns && turns.limit === limit) return turns as T;
  const made = make(limit);
  byName.set(name, made);
  return made;
}
