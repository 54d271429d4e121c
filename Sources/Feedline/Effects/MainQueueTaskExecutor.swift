import Dispatch

/// A task executor that runs every job on the main dispatch queue.
///
/// Give it to a ``FeedSession`` (as its task executor preference) when everything happens on
/// the main thread anyway — a scripted front on the sandbox — and a service call's nonisolated
/// work then stays on that thread instead of hopping to the global pool and back. Each hop wakes
/// a sleeping thread, which on an idle machine cost more than the work itself (a 10,000-command
/// script spent half its wall time in those wake-ups). Semantics are unchanged: jobs still run
/// one at a time, in order, with the main actor's work interleaved as before.
package final class MainQueueTaskExecutor: TaskExecutor {
    package init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.main.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
