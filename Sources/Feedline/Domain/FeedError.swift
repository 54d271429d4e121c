import Foundation

/// Turns errors from services into the one sentence the view models show.
public enum FeedError {
    /// A user-facing message for `error`: the `LocalizedError` description when there is one,
    /// otherwise the error's description.
    public static func message(for error: any Error) -> String {
        if let localized = error as? any LocalizedError, let description = localized.errorDescription {
            return description
        }
        if error is CancellationError { return "The request was cancelled." }
        return String(describing: error)
    }
}
