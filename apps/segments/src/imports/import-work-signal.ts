/**
 * The commit signal (signalOnCommit) that wakes the import worker: sent by a transaction that queued a
 * job or recorded decided chunks (their jobs may send more), heard by every replica's worker.
 */
export const IMPORT_WORK_SIGNAL = 'import_work';
