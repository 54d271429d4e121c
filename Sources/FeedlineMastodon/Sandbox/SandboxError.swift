@_spi(FeedService) import Feedline
import Foundation

/// What the sandbox throws. Every case reads as one sentence through `LocalizedError`.
public enum SandboxError: Error, LocalizedError, Hashable, Sendable {
    /// No status has this id: "Record not found", as Mastodon says.
    case notFound(PostID)
    /// The cursor names no post of the timeline.
    case unknownCursor(String)
    /// Page sizes are 1…40, as on Mastodon.
    case invalidPageSize(Int)
    /// The scenario cannot be used; the text names the field (see ``SandboxScenario/problem``).
    case invalidScenario(String)
    /// Two statuses given to the sandbox share an id.
    case duplicateStatus(String)
    /// The scenario made this request fail.
    case fault(SandboxScenario.Failure, request: SandboxScenario.Request)
    /// No account has this handle.
    case unknownAccount(String)
    /// The user has no list with this id (Mastodon's 404).
    case unknownList(String)
    /// The server refused the request as Mastodon would (HTTP 422), with its sentence.
    case refused(String)
    /// A fixture file read on first use (the notifications, see ``DeferredNotifications``)
    /// could not be read; the sentence is the ``FixtureError``'s, naming the file.
    case brokenFixture(String)

    /// One sentence a user can read; see each case.
    public var errorDescription: String? {
        switch self {
        case .notFound: "Record not found"
        case .unknownCursor(let cursor): "No page of this feed starts after \(cursor)."
        case .invalidPageSize(let size): "The page size must be between 1 and \(SandboxService.maximumPageSize), not \(size)."
        case .invalidScenario(let problem): "The sandbox scenario is invalid: \(problem)."
        case .duplicateStatus(let id): "Status \(id) was given to the sandbox more than once."
        case .fault(let failure, _): failure.message
        case .unknownAccount(let handle): "No account @\(Self.shown(handle)) is known here."
        case .unknownList(let id): "There is no list \(Self.shown(id)) here."
        case .refused(let sentence): sentence
        case .brokenFixture(let sentence): sentence
        }
    }

    /// User input as shown in a message: one line, at most 60 characters, no leading `@`.
    private static func shown(_ text: String) -> String {
        var line = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        while line.hasPrefix("@") { line.removeFirst() }
        return line.count > 60 ? String(line.prefix(60)) + "…" : line
    }
}

@_spi(FeedService) extension SandboxError: FeedServiceError {
    /// Scheduled faults that stand for an outage (unavailable, timeout, rate limited, server
    /// error) are transient; everything else is a refusal.
    public var isTransient: Bool {
        guard case .fault(let failure, _) = self else { return false }
        switch failure {
        case .unavailable, .timeout, .rateLimited, .serverError, .lostAnswer: return true
        case .notFound, .forbidden, .validationFailed: return false
        }
    }

    /// A scheduled rate limit resets after ``SandboxScenario/Failure/rateLimitReset`` (Mastodon's
    /// windows are five minutes long).
    public var retryAfter: Duration? {
        guard case .fault(.rateLimited, _) = self else { return nil }
        return SandboxScenario.Failure.rateLimitReset
    }
}
