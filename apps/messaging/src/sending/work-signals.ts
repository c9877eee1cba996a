/**
 * The commit signals (signalOnCommit) that wake the sending workers: sent by the transaction that adds
 * their work, heard by every replica's worker (a PolledWorker's `wakeOn`).
 */
export const SEND_JOBS_SIGNAL = 'send_jobs';
export const TIMERS_SIGNAL = 'timers';
