import Foundation

/// An error a service can classify, so the view models know whether trying again can help.
@_spi(FeedService) public protocol FeedServiceError: LocalizedError {
    /// Whether the failure is for lack of a connection — no network, a timeout, a server that is
    /// down or busy (5xx, 429) — so the same request may well succeed later. `false` for refusals
    /// (401, 403, 404, 422, an answer that is not what was asked), where repeating cannot help.
    var isTransient: Bool { get }
    /// How long the server asked to wait before the same request is worth trying again (a
    /// 429's rate-limit reset, a 503's `Retry-After`), when it said; `nil` otherwise.
    var retryAfter: Duration? { get }
}

@_spi(FeedService) extension FeedServiceError {
    /// No wait was asked for.
    public var retryAfter: Duration? { nil }
}

/// Why a request failed, as the view models show it: one sentence, and whether it was for lack
/// of a connection (trying again later may help) or a refusal (it will not).
public struct FeedFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// One sentence for the user.
    public var message: String
    /// Whether trying again later may help (see `FeedServiceError.isTransient`).
    public var isTransient: Bool
    /// How long the server asked to wait before trying again, when it said (a rate limit's
    /// reset): a queued favourite is not sent again before then.
    public var retryAfter: Duration?

    public init(message: String, isTransient: Bool, retryAfter: Duration? = nil) {
        self.message = message
        self.isTransient = isTransient
        self.retryAfter = retryAfter
    }

    /// The failure `error` stands for: a `FeedServiceError` says whether it is transient; other
    /// errors count as transient (an unknown failure is worth a retry). The message is the
    /// `LocalizedError` description when there is one, else the error's description.
    public init(_ error: any Error) {
        if let failure = error as? FeedFailure {
            self = failure
            return
        }
        if error is CancellationError {
            self.init(message: "The request was cancelled.", isTransient: true)
            return
        }
        let message: String
        if let localized = error as? any LocalizedError, let description = localized.errorDescription {
            message = description
        } else {
            message = String(describing: error)
        }
        let classified = error as? any FeedServiceError
        self.init(message: message, isTransient: classified?.isTransient ?? true, retryAfter: classified?.retryAfter)
    }

    public var description: String { message }
}
