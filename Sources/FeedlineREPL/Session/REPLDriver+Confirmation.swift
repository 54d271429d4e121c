import Foundation

/// The one question a live session asks before it goes on (`notifications clear`, `report`,
/// `filters delete`):
/// the prompt becomes `[y/N]> ` and the next line answers it. A script cannot answer: the
/// commands that ask say `--yes` instead.
extension REPLDriver {
    /// A question waiting for its y/N.
    enum Confirmation {
        /// `notifications clear`.
        case clearNotifications
        /// `report …`, with what it sends.
        case report(PendingReport)
        /// `filters delete N`: the filter's id and title.
        case deleteFilter(id: String, title: String)
    }

    /// The answer to the question asked (``confirming``), when one waits: `y` or `yes` goes on;
    /// anything else says nothing was done. Returns whether the line was only the answer (`y`,
    /// `yes`, `n`, `no` or an empty line): any other line runs as a command after that.
    func takeConfirmation(_ line: String) -> Bool {
        guard let question = confirming else { return false }
        confirming = nil
        let answer = line.trimmingCharacters(in: .whitespaces).lowercased()
        if answer == "y" || answer == "yes" {
            switch question {
            case .clearNotifications: clearNotifications(confirmed: true)
            case .report(let pending): sendReport(pending.report, handle: pending.handle)
            case .deleteFilter(let id, let title): deleteFilter(id: id, title: title)
            }
            return true
        }
        switch question {
        case .clearNotifications: say("Not cleared: your notifications stay.")
        case .report: say("Not reported.")
        case .deleteFilter(_, let title): say("Not deleted: the filter \(title) stays.")
        }
        return ["", "n", "no"].contains(answer)
    }
}
