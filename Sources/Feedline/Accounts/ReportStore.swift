/// A change of one account's report, as every screen that shows the account or a reported post
/// of theirs must show it.
package struct ReportChange: Hashable, Sendable {
    package var account: AccountID
    /// The posts the report attaches (originals' ids).
    package var posts: [PostID]
    package var display: ToggleDisplay

    package init(account: AccountID, posts: [PostID], display: ToggleDisplay) {
        self.account = account
        self.posts = posts
        self.display = display
    }
}

/// The reports asked this session, by the account's id (the store's key): what each sends, and
/// the handle its sentences name. Read by the store's `send` and words; main actor only.
@MainActor
package final class ReportForms {
    private var reports: [String: (report: AccountReport, handle: String?)] = [:]

    package init() {}

    /// Records what reporting the account `key` sends, and the handle that names it.
    func record(_ report: AccountReport, handle: String?, as key: String) {
        reports[key] = (report, handle)
    }

    /// What reporting the account `key` sends, if it was asked.
    package func report(_ key: String) -> AccountReport? { reports[key]?.report }

    /// `@handle` of the account `key`, or its id when its handle is not known.
    func name(_ key: String) -> String {
        reports[key]?.handle.map { "@\($0)" } ?? "the account \(key)"
    }
}

/// The accounts you reported this session: one convergence machine per account (the toggle
/// machine every on/off setting of the session runs on), so a report is optimistic (every row
/// of the account and every post it attaches shows it at once), sent once, rolled back with the
/// server's sentence on refusal, and kept and sent again after a backoff on the session's retry
/// clock when the server cannot be reached. A report is never taken back: the store only ever
/// wants `true`.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
package typealias ReportStore = KeyedToggleStore<ReportChange>

extension KeyedToggleStore<ReportChange> {
    /// A store that sends the reports `forms` records to `service`, counted in `activity`,
    /// re-sends what failed for lack of a connection on `retryClock`, and marks the reported
    /// posts on every row of `posts`; what the server did with each goes to `outcomes`.
    package convenience init(
        service: any FeedService, forms: ReportForms, posts: PostStore, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil
    ) {
        self.init(
            activity: activity, retryClock: retryClock, key: { $0 }, isValid: { !$0.isEmpty },
            change: { key, display in ReportChange(account: AccountID(key), posts: forms.report(key)?.posts ?? [], display: display) },
            send: { key, value in
                guard value, let report = await forms.report(key) else { return value }
                try await service.report(report)
                return true
            },
            describe: { key, _ in "report \(forms.name(key))" },
            changed: { key, reported, pending in
                posts.setReported(forms.report(key)?.posts ?? [], reported ? ToggleDisplay(isOn: true, pending: pending) : nil)
            },
            settled: { key, reported in
                if reported { posts.setReported(forms.report(key)?.posts ?? [], ToggleDisplay(isOn: true)) }
            },
            outcomes: outcomes, subject: { key, _ in .report(account: AccountID(key)) }
        )
    }

    /// The account's report as every screen shows it, or `nil` when it was not reported this
    /// session.
    package func report(of account: AccountID) -> ToggleDisplay? { state(account.rawValue) }

    /// Sends `report` (its account named by `handle` in sentences, by its id when `nil`):
    /// optimistic, converging.
    /// Returns why nothing is sent: the report itself is wrong (``AccountReport/refusal``), or the
    /// account is already reported (or being reported) this session.
    package func send(_ report: AccountReport, handle: String?, forms: ReportForms) -> String? {
        if let refusal = report.refusal { return refusal }
        let key = report.account.rawValue
        if let shown = state(key), shown.isOn {
            let name = handle.map { "@" + $0 } ?? "the account \(key)"
            return shown.pending ? "Your report of \(name) is on its way." : "You already reported \(name) this session."
        }
        forms.record(report, handle: handle, as: key)
        set(key, true)
        return nil
    }
}
