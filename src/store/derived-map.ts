/**
 * A Map a resource keeps beside its Tables whose every entry follows from their records (an index: payment
 * reference -> request id). --state-dir does not write it (a third of the rows of a create, otherwise); whoever
 * restores the records rebuilds it (`StateDir` for the requests' own).
 */
export class DerivedMap<K, V> extends Map<K, V> {}
