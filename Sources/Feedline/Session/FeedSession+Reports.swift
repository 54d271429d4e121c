/// Reports: an account (and posts of theirs) reported to your server's moderators, marked on
/// every screen at once, and the instance's rules a report can name.
extension FeedSession {
    /// Reports `report`'s account (named `@handle` in sentences, or by its id) with the posts it attaches —
    /// optimistic, converging: every row of the account and of the posts shows the report at
    /// once, a refusal takes the marks back with the server's sentence (an ``Outcome``), and a
    /// report the server could not be reached for waits and is sent again. Returns why nothing
    /// is sent (the report names rules without the category that takes them, or the account is
    /// already reported this session), or `nil`.
    package func report(_ report: AccountReport, handle: String?) -> String? {
        var report = report
        var seen = Set<PostID>()
        report.posts = report.posts.map { store.originalID(of: $0) ?? $0 }.filter { seen.insert($0).inserted }
        return reports.send(report, handle: handle, forms: reportForms)
    }

    /// Your report of `account` this session as every screen shows it (on its way, filed, or
    /// the last refusal), or `nil` when you did not report it.
    public func reportMark(of account: AccountID) -> ToggleDisplay? {
        reports.report(of: account)
    }

    /// The instance's rules, in the server's order, numbered from 1 by fronts so a report can
    /// name them, or why they could not be read. Counted in the session's activity.
    package func instanceRules() async -> Result<[InstanceRule], FeedFailure> {
        let service = service
        return await activity.perform {
            do { return .success(try await service.instanceRules()) } catch { return .failure(FeedFailure(error)) }
        }
    }
}
