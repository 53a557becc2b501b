// Named snapshots of a key's worlds (/__sandbox/snapshots): the store and its bounds (store.ts), the file format
// (format.ts), the durable write (write.ts), a world as plain data and back (world.ts), save and restore
// (snapshots.ts).
export { restoreSnapshot, SnapshotNotFoundError, saveSnapshot } from './snapshots.ts'
export { SnapshotStore } from './store.ts'
export { nodeSnapshotIo } from './write.ts'
