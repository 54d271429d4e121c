@_spi(FeedService) import Feedline

/// `notifications policy [FIELD VALUE]`: your notification policy (Mastodon 4.3+) through the
/// session's one policy store — read from the server when shown, one field set at once on every
/// screen, back with the server's sentence when it refuses.
extension REPLDriver {
    func runNotificationPolicy(field name: String?, value: String?) {
        guard let name, let field = NotificationPolicy.Field(name: name), let value, let handling = NotificationPolicy.Handling(rawValue: value) else {
            withNotificationPolicy(fresh: true) { [weak self] policy in
                guard let self else { return }
                self.reports.append(contentsOf: self.policyLines(policy))
            }
            return
        }
        withNotificationPolicy(fresh: false) { [weak self] policy in
            guard let self else { return }
            guard policy[field] != handling || self.session.isNotificationPolicyPending(field) else {
                self.reports.append("Notifications from \(field.phrase) are \(Self.adjective(handling)) already.")
                return
            }
            do throws(FeedFailure) {
                try self.session.setNotificationPolicy(field, to: handling)
                self.reports.append("Notifications from \(field.phrase): \(handling.rawValue) (saving…)")
            } catch {
                self.reports.append(error.message)
                self.failures += 1
            }
        }
    }

    /// What the REPL says when the server answered a change of the policy.
    func notificationPolicyAnswered(field name: String, value: String, refused: String?) {
        guard let field = NotificationPolicy.Field(name: name), let handling = NotificationPolicy.Handling(rawValue: value) else { return }
        guard let refused else {
            reports.append("Done: notifications from \(field.phrase) are \(Self.adjective(handling)).")
            return
        }
        let failure = session.notificationPolicyFailure(field) ?? "Could not \(handling.rawValue) notifications from \(field.phrase): \(refused)"
        let now = session.notificationPolicy.map { " (\(Self.adjective($0[field])))" } ?? ""
        reports.append(Self.sentence(failure) + " It is back as it was\(now).")
    }

    /// The policy, one line a field, then what waits as requests.
    func policyLines(_ policy: NotificationPolicy) -> [String] {
        var lines = ["Your notification policy (accept: shown; filter: kept aside as requests; drop: never made):"]
        for field in NotificationPolicy.Field.allCases {
            var line = "\(field.phrase) (\(field.name)): \(policy[field].rawValue)"
            if session.isNotificationPolicyPending(field) { line += " (saving…)" }
            if let failure = session.notificationPolicyFailure(field) { line += " — \(failure)" }
            lines.append(line)
        }
        let requests = policy.pendingRequests
        let notifications = policy.pendingNotifications
        lines.append(
            requests == 0
                ? "No filtered notifications wait."
                : "\(requests) request\(requests == 1 ? "" : "s") wait\(requests == 1 ? "s" : ""), with \(notifications) notification\(notifications == 1 ? "" : "s")."
        )
        return lines
    }

    /// Calls `then` with the policy — read from the server now when `fresh` or never read (a
    /// failure is said, and `then` not called) — then writes the reports.
    private func withNotificationPolicy(fresh: Bool, _ then: @escaping @MainActor @Sendable (NotificationPolicy) -> Void) {
        if !fresh, let policy = session.notificationPolicy {
            then(policy)
            flushIfFollowing()
            return
        }
        let session = session
        session.activity.run { [weak self] in
            let failure = await session.loadNotificationPolicy()
            guard let self else { return }
            if let failure {
                self.reports.append("Could not read your notification policy: \(failure.message)")
                self.failures += 1
            } else if let policy = session.notificationPolicy {
                then(policy)
            }
            self.flushIfFollowing()
        }
    }

    /// "accepted", "filtered", "dropped".
    static func adjective(_ handling: NotificationPolicy.Handling) -> String {
        switch handling {
        case .accept: "accepted"
        case .filter: "filtered"
        case .drop: "dropped"
        }
    }
}
