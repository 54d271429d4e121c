/// Callers waiting on the main actor for a condition their owner announces (``resumeAll()``),
/// each for at most a limit on a clock. A caller resumes exactly once: at the announcement, when
/// its limit passes, or when its task is cancelled — whichever is first.
@MainActor
final class DeadlineWaiters {
    private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextID = 0

    /// Whether anyone waits.
    var isEmpty: Bool { waiting.isEmpty }

    /// Returns at ``resumeAll()``, after `limit` on `clock`, or when the calling task is
    /// cancelled. The caller checks its condition first: this always suspends.
    func wait(atMost limit: Duration, on clock: any Clock<Duration>) async {
        nextID += 1
        let id = nextID
        let timer = Task { [weak self] in
            try? await clock.sleep(for: limit)
            self?.resume(id)
        }
        // Both the timer and the cancellation handler's task run on the main actor after the
        // continuation is registered: registering does not suspend.
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in waiting[id] = continuation }
        } onCancel: {
            Task { @MainActor [weak self] in self?.resume(id) }
        }
        timer.cancel()
    }

    /// Resumes every caller waiting now.
    func resumeAll() {
        let all = waiting
        waiting.removeAll()
        for continuation in all.values { continuation.resume() }
    }

    private func resume(_ id: Int) {
        waiting.removeValue(forKey: id)?.resume()
    }

    isolated deinit {
        resumeAll()
    }
}
